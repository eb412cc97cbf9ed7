"""Known answers for every rule of docs/rules/panda.md, from stacked decks."""

from __future__ import annotations

import pytest
from panda_helpers import NAMES, everyone_passes, start_hand

from bot.engine import IllegalAction
from bot.games.panda import new_game, replay
from bot.games.panda.cards import ALL_CARDS
from bot.games.panda.scoring import score_hand

T_STRAIGHT = "stork 2t 3t 4t 5t 6t 7t 8t 9t 10t Bt Gt Et Mt"
G_13 = "2g 3g 4g 5g 6g 7g 8g 9g 10g Bg Gg Eg Mg"
R_13 = "2r 3r 4r 5r 6r 7r 8r 9r 10r Br Gr Er Mr"

# Seat 0 goes out in two leads; seat 1 with its Panda and a 13-card straight; seat 2 third.
THREE_OUT = [
    f"{T_STRAIGHT} catfish",
    f"{G_13} panda 3a",
    f"{R_13} Ea Ma",
    "1t 1g 1r 1a cat 2a 4a 5a 6a 7a 8a 9a 10a Ba Ga",
]
# Seats 0 and 2 (partners) go out first and second.
DOUBLE = [
    f"{T_STRAIGHT} catfish",
    "1t 1r 1a 2r 2a 3r 3a 4r 4a 5r 5a 6r 6a 7r 7a",
    f"1g {G_13} panda",
    "8r 8a 9r 9a 10r 10a Br Ba Gr Ga Er Ea Mr Ma cat",
]


def play(state, *moves):
    events = []
    for seat, code in moves:
        events += state.apply(seat, code)
    return events


def unchanged_after_illegal(state, seat, code, match=None):
    before = state.snapshot()
    with pytest.raises(IllegalAction, match=match):
        state.apply(seat, code)
    assert state.snapshot() == before


# ----- deal and passing (rules 2, 4) --------------------------------------------------------


def test_deal_fifteen_each_and_all_four_pass_at_once() -> None:
    state = new_game(3, NAMES)
    assert [len(h) for h in state.hands] == [15] * 4
    assert sorted(c for h in state.hands for c in h) == sorted(ALL_CARDS)
    assert state.phase == "passing"
    assert state.to_act == [0, 1, 2, 3]
    legal = state.legal_actions(0)
    assert "call" in legal
    assert len([c for c in legal if c.startswith("give ")]) == 45


def test_stacked_deck_deals_fifteen_in_blocks() -> None:
    deck = list(ALL_CARDS)
    state = new_game(1, NAMES, deck=deck)
    assert state.hands[0] == sorted(ALL_CARDS[:15], key=lambda c: state.hands[0].index(c))
    assert set(state.hands[1]) == set(ALL_CARDS[15:30])
    assert set(state.hands[3]) == set(ALL_CARDS[45:60])


def test_passing_is_secret_until_all_four_have_chosen() -> None:
    state = new_game(3, NAMES)
    card = state.hands[0][0]
    events = state.apply(0, f"give left {card}")
    assert all(e.private_to == 0 for e in events)
    assert state.visible_events(1) == []
    assert card in state.hands[0], "nothing moves before everyone has chosen"
    assert state.view(1)["given"] == {}
    assert state.view(None)["given"] is None
    assert state.view(0)["given"] == {"left": card}
    assert card not in str(state.view(1)["passing_done"])
    # Any order, one code per recipient.
    second = state.hands[0][1]
    state.apply(0, f"give right {second}")
    assert state.to_act == [0, 1, 2, 3]
    third = state.hands[0][2]
    state.apply(0, f"give partner {third}")
    assert state.to_act == [1, 2, 3]
    assert 0 in state.may_act, "seat 0 may still call Panda"
    assert state.legal_actions(0) == ["call"]
    for seat in (1, 2, 3):
        state.apply(seat, state.default_action(seat))
    assert state.phase == "play"
    assert card in state.hands[1] and third in state.hands[2] and second in state.hands[3]
    assert state.view(1)["received"]["0"] == card
    assert state.view(3)["received"]["0"] == second


def test_passing_errors_change_nothing() -> None:
    state = new_game(3, NAMES)
    a, b = state.hands[0][:2]
    state.apply(0, f"give left {a}")
    unchanged_after_illegal(state, 0, f"give right {a}")
    unchanged_after_illegal(state, 0, f"give left {b}")
    unchanged_after_illegal(
        state, 0, "give left Mt" if "Mt" not in state.hands[0] else "give left 2g"
    )
    unchanged_after_illegal(state, 0, f"pass_cards {b} {state.hands[0][2]} {state.hands[0][3]}")
    unchanged_after_illegal(state, 0, f"give partner {a}", match="already pass")
    unchanged_after_illegal(state, 0, f"give middle {b}", match="recipient")
    unchanged_after_illegal(state, 0, f"give partner {b} right {b}", match="different")
    unchanged_after_illegal(
        state, 1, f"pass_cards {state.hands[1][0]} {state.hands[1][0]} {state.hands[1][1]}"
    )
    unchanged_after_illegal(state, 1, "play 5t")


def test_pass_cards_shorthand_gives_all_three() -> None:
    state = new_game(3, NAMES)
    h = state.hands[2]
    assert state.normalize(2, f"pass_cards {h[0]} {h[1]} {h[2]}") == (
        f"give left {h[0]} partner {h[1]} right {h[2]}"
    )
    state.apply(2, f"pass_cards {h[0]} {h[1]} {h[2]}")
    assert state.given[2] == {"left": h[0], "partner": h[1], "right": h[2]}
    assert 2 not in state.to_act
    assert state.log[-1] == (2, f"give left {h[0]} partner {h[1]} right {h[2]}")


def test_several_gives_in_one_code_in_any_order() -> None:
    state = new_game(3, NAMES)
    h = state.hands[1]
    state.apply(1, f"give partner {h[0]}")
    assert state.normalize(1, f"give right {h[1]} left {h[2]}") == f"give left {h[2]} right {h[1]}"
    state.apply(1, f"give right {h[1]} left {h[2]}")
    assert state.given[1] == {"partner": h[0], "right": h[1], "left": h[2]}
    unchanged_after_illegal(state, 1, f"give left {h[3]}", match="already chosen")


def test_timeout_in_passing_gives_every_open_card_at_once() -> None:
    state = new_game(5, NAMES)
    state.apply(0, f"give partner {state.hands[0][-1]}")
    code = state.default_action(0)
    assert code.startswith("give left ") and " right " in code and "partner" not in code
    state.apply(0, code)
    assert 0 not in state.to_act
    assert not {"panda", "stork", "catfish", "cat"} & set(state.given[0].values()) - {
        state.hands[0][-1]
    }


# ----- calling Panda (rule 3) ------------------------------------------------------------------


def test_call_before_passing_and_only_once() -> None:
    state = new_game(3, NAMES)
    events = state.apply(1, "call")
    assert state.called[1] and events[0].kind == "call"
    assert "call" not in state.legal_actions(1)
    unchanged_after_illegal(state, 1, "call")
    state.apply(3, "call")  # several players, partners too
    assert state.called == [False, True, False, True]


def test_call_out_of_turn_before_first_card_then_never() -> None:
    state = start_hand(THREE_OUT)
    assert state.turn == 0
    assert set(state.may_act) == {1, 2, 3}
    state.apply(2, "call")
    assert state.called[2]
    play(state, (0, f"play {T_STRAIGHT}"), (0, "wish none"))
    assert "call" not in state.legal_actions(0), "seat 0 has played a card"
    unchanged_after_illegal(state, 0, "call")
    assert "call" in state.legal_actions(1)


# ----- the first lead (rule 5) ------------------------------------------------------------------


def test_stork_holder_leads_and_first_lead_needs_a_one() -> None:
    state = start_hand(THREE_OUT)
    assert state.turn == 0 and state.to_act == [0]
    unchanged_after_illegal(state, 0, "play 2t", match="first lead")
    unchanged_after_illegal(state, 0, "play 2t 3t 4t 5t 6t", match="first lead")
    unchanged_after_illegal(state, 0, "pass", match="cannot pass")
    legal = state.legal_actions(0)
    for code in (
        "play stork",
        "play stork catfish",
        "play stork 2t 3t 4t 5t",
        f"play {T_STRAIGHT}",
    ):
        assert code in legal
    assert all("stork" in c for c in legal if c.startswith("play"))


def test_first_lead_with_a_natural_one() -> None:
    state = start_hand(["stork 1t 2t 2g", "", "", ""])
    legal = state.legal_actions(0)
    assert "play 1t" in legal and "play stork 1t" in legal
    assert "play stork 1t 2t 2g" in legal
    assert "play 2t 2g" not in legal


def test_free_first_lead_option() -> None:
    state = start_hand(THREE_OUT, {"free_first_lead": True})
    assert "play 2t" in state.legal_actions(0)
    state.apply(0, "play 2t")
    assert state.top_seat == 0


def test_first_lead_full_house_with_ones_but_not_without() -> None:
    state = start_hand(["stork 1t 1g 9t 9g 9r", "9a", "", ""])
    legal = state.legal_actions(0)
    assert "play 1t 1g 9t 9g 9r" in legal, "the pair is 1s"
    assert "play stork 1t 9t 9g 9r" in legal, "the Stork as a 1 in the pair"
    assert "play 9t 9g 9r" not in legal
    unchanged_after_illegal(state, 0, "play 9t 9g 9r", match="first lead")


def test_ambush_may_lead_but_not_the_first_lead_without_a_one() -> None:
    hands = ["stork 6t 6g 6r 6a", "", "", ""]
    unchanged_after_illegal(start_hand(hands), 0, "play 6t 6g 6r 6a", match="first lead")
    state = start_hand(hands, {"free_first_lead": True})
    state.apply(0, "play 6t 6g 6r 6a")
    assert state.top.kind == "ambush" and state.turn == 1


# ----- wish (rule 9) ------------------------------------------------------------------------------

WISH = [
    "stork 7t 7r 8t 8g",
    "7g 9g Mg",
    "catfish 2r",
    "4t 4g 4r 4a 8r 8a 7a",
]


def test_wish_is_named_after_the_stork_and_forces_the_rank() -> None:
    state = start_hand(WISH)
    state.apply(0, "play stork")
    assert state.to_act == [0] and state.pending == "wish"
    assert "wish 7" in state.legal_actions(0) and "wish none" in state.legal_actions(0)
    unchanged_after_illegal(state, 1, "play 9g")
    state.apply(0, "wish 7")
    assert state.wish == "7" and state.to_act == [1]
    assert [c for c in state.legal_actions(1) if c != "call"] == ["play 7g"]
    unchanged_after_illegal(state, 1, "pass", match="wish")
    unchanged_after_illegal(state, 1, "play 9g", match="wish")
    events = state.apply(1, "play 7g")
    assert state.wish is None and "fulfilling the wish" in events[0].text


def test_wish_not_forced_without_the_rank_catfish_does_not_count() -> None:
    state = start_hand(WISH)
    play(state, (0, "play stork"), (0, "wish 8"))
    assert "pass" in state.legal_actions(1)  # seat 1 has no 8
    play(state, (1, "pass"))
    assert "pass" in state.legal_actions(2)  # the Catfish is no 8
    play(state, (2, "play catfish"))
    assert state.wish == "8", "a Catfish never fulfils the wish"
    # Seat 3 holds 8s: only they may be played, not the Ambush of 4s.
    plays = [c for c in state.legal_actions(3) if c.startswith("play")]
    assert plays == ["play 8r", "play 8a"]
    unchanged_after_illegal(state, 3, "play 4t 4g 4r 4a", match="wish")


def test_out_of_turn_ambush_need_not_fulfil_the_wish() -> None:
    state = start_hand(WISH)
    play(state, (0, "play stork"), (0, "wish 7"))
    assert "play 4t 4g 4r 4a" in state.legal_actions(3)
    state.apply(3, "play 4t 4g 4r 4a")
    assert state.wish == "7" and state.turn == 0


def test_wish_can_be_forced_through_an_ambush() -> None:
    state = start_hand(["stork", "Mg", "7t 7g 7r 7a", ""])
    play(state, (0, "play stork"), (0, "wish 7"), (1, "play Mg"))
    plays = [c for c in state.legal_actions(2) if c != "call"]
    assert plays == ["play 7t 7g 7r 7a"]


def test_wish_option_off() -> None:
    state = start_hand(WISH, {"wish": False})
    state.apply(0, "play stork")
    assert state.pending is None and state.to_act == [1]


def test_no_wish_during_pending_wish_nobody_else_plays() -> None:
    state = start_hand(WISH)
    state.apply(0, "play stork")
    assert all(not c.startswith("play") for s in (1, 2, 3) for c in state.legal_actions(s))


def test_wish_stands_across_tricks_and_binds_the_leader() -> None:
    # Seat 2 cannot beat the Mon with a 7, wins with the Panda, and must then lead a 7.
    state = start_hand(["stork 7r 7a", "Mg 9g", "panda 7t 7g 2r", ""])
    play(state, (0, "play stork"), (0, "wish 7"), (1, "play Mg"))
    assert "pass" in state.legal_actions(2), "no 7 can beat a Mon: not forced"
    play(state, (2, "play panda"), (3, "pass"), (0, "pass"), (1, "pass"), (2, "gift 1"))
    assert state.wish == "7" and state.to_act == [2] and state.top is None
    plays = [c for c in state.legal_actions(2) if c.startswith("play")]
    assert "play 7t" in plays and "play 7t 7g" in plays
    assert all({"7t", "7g"} & set(c.split()) for c in plays)
    assert "pass" not in state.legal_actions(2)
    unchanged_after_illegal(state, 2, "play 2r", match="wish: you can play a 7")
    state.apply(2, "play 7t")
    assert state.wish is None


# ----- tricks (rules 7, 8) ---------------------------------------------------------------------------


def test_passed_player_may_play_again_and_trick_ends_when_all_others_pass() -> None:
    state = start_hand(["stork", "3g 9g", "2r", "Mt"])
    play(
        state,
        (0, "play stork"),
        (0, "wish none"),
        (1, "pass"),
        (2, "play 2r"),
        (3, "pass"),
        (0, "pass"),
    )
    assert state.turn == 1
    assert "play 3g" in state.legal_actions(1)
    play(state, (1, "play 3g"))
    play(state, (2, "pass"), (3, "pass"), (0, "pass"))
    assert state.trick_won and state.turn == 1 and state.top_seat == 1
    assert state.tricks_won == [0, 0, 0, 0], "taken when the winner leads"
    play(state, (1, "play 9g"))
    assert state.tricks_won[1] == 1 and set(state.piles[1]) == {"stork", "2r", "3g"}


def test_answer_must_be_same_kind_and_length() -> None:
    state = start_hand(["stork 1t", "5g 5r 9g", "", ""])
    play(state, (0, "play stork 1t"), (0, "wish none"))
    assert state.top.kind == "pair"
    unchanged_after_illegal(state, 1, "play 9g", match="same kind")
    state.apply(1, "play 5g 5r")


def test_winner_out_next_holder_leads() -> None:
    state = start_hand(THREE_OUT)
    play(state, (0, f"play {T_STRAIGHT}"), (0, "wish none"))
    everyone_passes(state)
    play(state, (0, "play catfish"))
    assert state.out == [0] and state.hands[0] == []
    play(state, (1, "pass"), (2, "pass"), (3, "pass"))
    assert state.trick_won and state.top_seat == 0 and state.turn == 1
    state.apply(1, "play 3a")
    assert "catfish" in state.piles[0]


def test_illegal_answers_are_sentences_for_players() -> None:
    state = start_hand(["stork 4t Mt", "5g Eg", "", ""])
    play(state, (0, "play stork"), (0, "wish none"), (1, "play Eg"), (2, "pass"), (3, "pass"))
    unchanged_after_illegal(state, 0, "play 4t", match="^A single 4 does not beat a single Emperor")
    state.apply(0, "play Mt")
    unchanged_after_illegal(state, 1, "play 5g", match="^A single 5 does not beat a single Mon")
    unchanged_after_illegal(state, 1, "give left 5g", match="already been passed")
    unchanged_after_illegal(state, 1, "", match="Say what you want")


# ----- the Cat (rule 10) ------------------------------------------------------------------------------

CAT = ["stork 1t", "3g", "2r cat 9r", "Mt"]


def test_cat_gives_the_lead_to_the_partner() -> None:
    state = start_hand(CAT)
    play(state, (0, "play stork"), (0, "wish none"), (1, "pass"))
    unchanged_after_illegal(state, 2, "play cat", match="Cat")
    play(state, (2, "play 2r"), (3, "pass"), (0, "pass"), (1, "pass"))
    play(state, (2, "play cat"))
    assert state.turn == 0 and state.top is None
    assert "cat" in state.piles[2] and state.tricks_won[2] == 2
    # Nothing can be laid on the Cat: the table is empty.
    assert all(not c.startswith("play") for s in (1, 3) for c in state.legal_actions(s))


def test_cat_with_partner_out_goes_to_the_partners_left() -> None:
    state = start_hand([f"{T_STRAIGHT} catfish", "3g", "2r cat", ""])
    play(state, (0, f"play {T_STRAIGHT}"), (0, "wish none"))
    everyone_passes(state)
    play(state, (0, "play catfish"), (1, "pass"), (2, "play 2r"), (3, "pass"), (1, "pass"))
    play(state, (2, "play cat"))
    assert state.turn == 1


def test_the_cat_cannot_be_ambushed() -> None:
    state = start_hand(["stork", "", "2r cat", "6t 6g 6r 6a"])
    play(state, (0, "play stork"), (0, "wish none"), (1, "pass"), (2, "play 2r"))
    play(state, (3, "pass"), (0, "pass"), (1, "pass"))
    assert "play 6t 6g 6r 6a" in state.legal_actions(3), "the won trick may still be ambushed"
    state.apply(2, "play cat")
    assert state.turn == 0 and state.top is None
    assert "play 6t 6g 6r 6a" not in state.legal_actions(3)
    unchanged_after_illegal(state, 3, "play 6t 6g 6r 6a", match="only on a combination")


def test_cat_is_not_a_first_lead() -> None:
    state = start_hand(["stork cat", "", "", ""])
    unchanged_after_illegal(state, 0, "play cat", match="first lead")


# ----- the Catfish (rule 13) -------------------------------------------------------------------------------


def test_catfish_single_in_play() -> None:
    state = start_hand(["stork Mt", "Eg Mr", "catfish", "Ma panda"])
    play(state, (0, "play stork"), (0, "wish none"), (1, "play Eg"), (2, "play catfish"))
    assert state.view(None)["trick"][-1]["value"] == 13.5
    unchanged_after_illegal(state, 3, "play Ea" if "Ea" in state.hands[3] else "play 2a")
    play(state, (3, "play Ma"))
    assert state.turn == 0
    unchanged_after_illegal(state, 0, "play Mt", match="does not beat")


def test_catfish_cannot_go_on_a_mon() -> None:
    state = start_hand(["stork", "Mg", "catfish", ""])
    play(state, (0, "play stork"), (0, "wish none"), (1, "play Mg"))
    unchanged_after_illegal(state, 2, "play catfish", match="Mon")
    assert "play catfish" not in state.legal_actions(2)


def test_catfish_reading_in_a_play_code() -> None:
    state = start_hand(["stork 5t 5g 6t 6g catfish", "", "", ""], {"free_first_lead": True})
    legal = state.legal_actions(0)
    assert "play 5t 5g 6t 6g catfish=6" in legal and "play 5t 5g 6t 6g catfish=5" in legal
    assert state.normalize(0, "play catfish 6g 6t 5g 5t") == "play 5t 5g 6t 6g catfish=6"
    assert state.normalize(0, "play 5t 5g 6t 6g catfish=low") == "play 5t 5g 6t 6g catfish=5"
    assert state.normalize(0, "play 5T catfish") == "play 5t catfish"
    state.apply(0, "play 5t 5g 6t 6g catfish=5")
    assert state.top.value == 5 and state.top.catfish == 5
    unchanged_after_illegal(state, 1, "play 7t 8t catfish=9")


# ----- the Panda (rule 14) -----------------------------------------------------------------------------

PANDA = ["stork 1t", "panda 3g", "6t 6g 6r 6a", "9t"]


def test_panda_wins_and_gifts_the_trick_to_a_chosen_opponent() -> None:
    state = start_hand(PANDA)
    play(state, (0, "play stork"), (0, "wish none"), (1, "play panda"))
    play(state, (2, "pass"), (3, "pass"), (0, "pass"))
    assert state.pending == "gift" and state.to_act == [1]
    assert state.legal_actions(1) == ["gift 2", "gift 0"]
    unchanged_after_illegal(state, 1, "gift 3")
    assert 2 in state.may_act, "an Ambush may still be laid before the trick is taken"
    state.apply(1, "gift 2")
    assert set(state.piles[2]) == {"stork", "panda"} and state.tricks_won[2] == 1
    assert state.turn == 1, "the Panda player still leads"


def test_ambushed_panda_gives_nothing_away() -> None:
    state = start_hand(PANDA)
    play(state, (0, "play stork"), (0, "wish none"), (1, "play panda"), (2, "play 6t 6g 6r 6a"))
    play(state, (3, "pass"), (0, "pass"), (1, "pass"))
    assert state.pending is None and state.trick_won and state.turn == 2
    state.apply(2, state.legal_actions(2)[0])
    assert "panda" in state.piles[2]


def test_ambush_while_the_gift_is_pending() -> None:
    state = start_hand(PANDA)
    play(state, (0, "play stork"), (0, "wish none"), (1, "play panda"))
    play(state, (2, "pass"), (3, "pass"), (0, "pass"))
    state.apply(2, "play 6t 6g 6r 6a")
    assert state.pending is None and state.turn == 3 and not state.trick_won


def test_gift_to_an_opponent_already_out() -> None:
    state = start_hand(THREE_OUT)
    play(state, (0, f"play {T_STRAIGHT}"), (0, "wish none"))
    everyone_passes(state)
    play(state, (0, "play catfish"), (1, "play panda"), (2, "pass"), (3, "pass"))
    assert state.legal_actions(1) == ["gift 2", "gift 0"]
    state.apply(1, "gift 0")
    assert set(state.piles[0]) >= {"catfish", "panda"}
    assert state.turn == 1


# ----- Ambushes (rule 11) -------------------------------------------------------------------------------


def test_out_of_turn_ambush_continues_left_of_the_ambusher() -> None:
    state = start_hand(["stork", "", "6t 6g 6r 6a", ""])
    play(state, (0, "play stork"), (0, "wish none"))
    assert state.to_act == [1] and 2 in state.may_act
    assert [c for c in state.legal_actions(2) if c != "call"] == ["play 6t 6g 6r 6a"]
    unchanged_after_illegal(state, 2, "play 6t", match="not your turn")
    events = state.apply(2, "play 6t 6g 6r 6a")
    assert "out of turn" in events[0].text
    assert state.turn == 3 and state.top_seat == 2


def test_no_out_of_turn_ambush_on_an_empty_table() -> None:
    state = start_hand(["stork", "", "6t 6g 6r 6a", ""])
    assert "play 6t 6g 6r 6a" not in state.legal_actions(2)
    unchanged_after_illegal(state, 2, "play 6t 6g 6r 6a")


def test_ambush_after_all_passed_before_the_trick_is_taken() -> None:
    state = start_hand(["stork", "", "6t 6g 6r 6a", ""])
    play(state, (0, "play stork"), (0, "wish none"))
    everyone_passes(state)
    assert state.trick_won and state.to_act == [0]
    assert "play 6t 6g 6r 6a" in state.legal_actions(2)
    state.apply(2, "play 6t 6g 6r 6a")
    assert not state.trick_won and state.turn == 3
    everyone_passes(state)
    assert state.top_seat == 2 and state.turn == 2
    state.apply(2, state.legal_actions(2)[0])
    assert "stork" in state.piles[2]


def test_higher_ambush_beats_lower_and_lower_cannot_follow() -> None:
    state = start_hand(["stork", "", "6t 6g 6r 6a", "8t 8g 8r 8a"])
    play(state, (0, "play stork"), (0, "wish none"), (3, "play 8t 8g 8r 8a"))
    assert "play 6t 6g 6r 6a" not in state.legal_actions(2)
    unchanged_after_illegal(state, 2, "play 6t 6g 6r 6a", match="does not beat")


@pytest.mark.parametrize(
    "hands, top_seat, applied",
    [
        # Seat 2 acts first (it follows seat 0, who played last); seat 3's lower Ambush drops.
        (["stork", "", "8t 8g 8r 8a", "6t 6g 6r 6a"], 2, [2]),
        # Seat 2 first with 6s, then seat 3's 8s still beat them.
        (["stork", "", "6t 6g 6r 6a", "8t 8g 8r 8a"], 3, [2, 3]),
    ],
)
def test_simultaneous_ambushes_follow_turn_order_after_last_player(
    hands, top_seat, applied
) -> None:
    state = start_hand(hands)
    play(state, (0, "play stork"), (0, "wish none"))
    assert state.priority() == [1, 2, 3, 0]
    amb = {s: next(c for c in state.legal_actions(s) if c.startswith("play")) for s in (2, 3)}
    state.apply_simultaneous([(3, amb[3]), (2, amb[2])])
    assert state.top_seat == top_seat
    assert [s for s, _ in state.trick[1:]] == applied


# ----- the Kingdom (rule 12) ------------------------------------------------------------------------------

KINGDOMS = ["stork", "5t 5g 5r 5a", "Br Gr Er Mr 3r", "Ba Ga Ea Ma"]


def test_kingdom_beats_an_ambush_and_wins_the_trick_at_once() -> None:
    state = start_hand(KINGDOMS)
    play(state, (0, "play stork"), (0, "wish none"), (1, "play 5t 5g 5r 5a"))
    state.apply(2, "play Br Gr Er Mr")
    assert state.first_kingdom == 2
    assert state.trick == [] and state.turn == 2 and state.tricks_won[2] == 1
    assert {"stork", "5t", "Mr"} <= set(state.piles[2])
    # Only the first Kingdom of the hand scores.
    play(state, (2, "play 3r"))
    events = state.apply(3, "play Ba Ga Ea Ma")  # out of turn (seat 3 is next anyway)
    assert state.first_kingdom == 2 and not any(e.kind == "kingdom" for e in events)
    assert state.tricks_won[3] == 1 and state.turn == 3


def test_kingdom_out_of_turn_on_an_ambush() -> None:
    state = start_hand(KINGDOMS)
    play(state, (0, "play stork"), (0, "wish none"), (1, "play 5t 5g 5r 5a"))
    assert "play Ba Ga Ea Ma" in state.legal_actions(3)
    state.apply(3, "play Ba Ga Ea Ma")
    assert state.first_kingdom == 3 and state.turn == 3


def test_kingdom_illegal_once_a_player_is_out() -> None:
    state = start_hand(THREE_OUT)
    play(state, (0, f"play {T_STRAIGHT}"), (0, "wish none"))
    assert "play Bg Gg Eg Mg" in state.legal_actions(1)
    assert "play Br Gr Er Mr" in state.legal_actions(2), "out of turn while all hold cards"
    everyone_passes(state)
    state.apply(0, "play catfish")
    assert state.out == [0]
    assert "play Bg Gg Eg Mg" not in state.legal_actions(1)
    unchanged_after_illegal(state, 1, "play Bg Gg Eg Mg", match="all four")
    unchanged_after_illegal(state, 2, "play Br Gr Er Mr")


def test_kingdom_ends_the_hand_option() -> None:
    state = start_hand(KINGDOMS, {"kingdom_ends_hand": True})
    play(state, (0, "play stork"), (0, "wish none"), (1, "play 5t 5g 5r 5a"))
    events = state.apply(2, "play Br Gr Er Mr")
    assert any(e.kind == "deal_end" for e in events) and state.deal_no == 2
    entry = state.history[-1]
    cards = [x for x in entry["lines"] if x["name"] == "Card points"]
    assert sum(x["points"] for x in cards) == 100
    assert {"name": "Kingdom", "team": 0, "points": 100, "detail": "laid by Cid"} in entry["lines"]


def test_kingdom_from_the_last_four_cards_goes_out_first() -> None:
    state = start_hand(["stork 2t 3t 4t 5t 6t 7t 8t 9t 10t catfish Br Gr Er Mr", "", "", ""])
    play(state, (0, "play stork 2t 3t 4t 5t 6t 7t 8t 9t 10t catfish"), (0, "wish none"))
    everyone_passes(state)
    assert state.hands[0] == ["Br", "Gr", "Er", "Mr"]
    assert "play Br Gr Er Mr" in state.legal_actions(0), "all four still hold cards"
    events = state.apply(0, "play Br Gr Er Mr")
    assert state.out == [0] and state.first_kingdom == 0
    assert [e.kind for e in events] == ["play", "out", "kingdom", "trick", "turn"]
    assert state.trick == [] and state.turn == 1, "the trick is taken; the next holder leads"
    assert {"Br", "Mr", "stork", "catfish"} <= set(state.piles[0])


# ----- end of a hand and scoring (rules 15-18) ---------------------------------------------------------------


def _three_out_until_seat_two_leads(state) -> None:
    play(state, (0, f"play {T_STRAIGHT}"), (0, "wish none"))
    everyone_passes(state)
    play(state, (0, "play catfish"), (1, "play panda"), (2, "pass"), (3, "pass"), (1, "gift 0"))
    play(state, (1, f"play {G_13}"))
    everyone_passes(state)
    play(state, (1, "play 3a"))
    assert state.out == [0, 1]


def test_third_player_out_wins_the_trick_at_once_and_scores() -> None:
    state = start_hand(THREE_OUT)
    _three_out_until_seat_two_leads(state)
    play(state, (2, "play Ma"), (3, "pass"), (2, f"play {R_13}"))
    assert "play 1t 1g 1r 1a" in state.legal_actions(3), "an Ambush is possible until then"
    play(state, (3, "pass"))
    events = state.apply(2, "play Ea")
    kinds = [e.kind for e in events]
    assert kinds[-2:] == ["deal_end", "deal"], "nothing, not even an Ambush, follows"
    entry = state.history[-1]
    assert entry["out"] == [0, 1, 2] and not entry["double_victory"]
    assert entry["hand_scores"] == [75, 25]
    assert entry["left_over"]["3"][0] == "cat"
    assert state.team_scores == [75, 25]
    assert state.scores == [75, 25, 75, 25]
    assert state.phase == "passing" and state.deal_no == 2


def test_nothing_is_laid_on_the_third_players_final_panda() -> None:
    # Seat 2 goes out third with the Panda; seat 3, the last holder, holds four 1s.
    state = start_hand(
        [f"{T_STRAIGHT} catfish", f"{G_13} 3a Ea", f"{R_13} panda Ma", "1t 1g 1r 1a cat 10a"]
    )
    play(state, (0, f"play {T_STRAIGHT}"), (0, "wish none"))
    everyone_passes(state)
    play(state, (0, "play catfish"), (1, "play Ea"), (2, "pass"), (3, "pass"))
    play(state, (1, f"play {G_13}"))
    everyone_passes(state)
    play(state, (1, "play 3a"), (2, "play Ma"), (3, "pass"), (2, f"play {R_13}"), (3, "pass"))
    assert "play 1t 1g 1r 1a" in state.legal_actions(3), "Ambushes are fine before"
    state.apply(2, "play panda")
    assert state.out == [0, 1, 2] and state.pending == "gift" and state.to_act == [2]
    assert not any(c.startswith("play") for c in state.legal_actions(3))
    unchanged_after_illegal(state, 3, "play 1t 1g 1r 1a", match="nothing can be laid")
    assert state.legal_actions(2) == ["gift 3", "gift 1"]
    events = state.apply(2, "gift 3")
    assert [e.kind for e in events][:2] == ["gift", "deal_end"]
    entry = state.history[-1]
    # Team A: Ann's 50 + Cid's 35 + Dee's pile (the Panda, 25, to the first out) + Dee's
    # hand (cat, 5a, 10a: -10) to the opponents = 100; team B: Bob's -25 + 25 = 0.
    assert entry["out"] == [0, 1, 2] and entry["hand_scores"] == [100, 0]


def test_last_player_hand_to_opponents_and_tricks_to_first_out() -> None:
    state = start_hand(THREE_OUT)
    _three_out_until_seat_two_leads(state)
    play(state, (2, "play Ma"), (3, "play 1t 1g 1r 1a"), (2, "pass"))
    play(state, (3, "play 5a"), (2, "play Ea"), (3, "pass"))
    assert sorted(state.piles[3]) == sorted(["3a", "Ma", "1t", "1g", "1r", "1a"])
    assert state.tricks_won[3] == 1
    assert state.turn == 2 and state.trick_won
    # Seat 3 won the 10 points of 3a, Ma, four 1s - they will go to seat 0 (first out).
    play(state, (2, f"play {R_13}"))
    assert state.history[-1]["hand_scores"] == [75, 25]
    lines = state.history[-1]["lines"]
    assert lines[0]["detail"] == "won tricks + -15 from the hand left over"


def test_double_victory_scores_200_and_calls_still_count() -> None:
    state = start_hand(DOUBLE)
    play(state, (2, "call"), (1, "call"))
    play(state, (0, f"play {T_STRAIGHT}"), (0, "wish none"))
    everyone_passes(state)
    play(state, (0, "play catfish"), (1, "pass"), (2, "play panda"), (3, "pass"), (1, "pass"))
    play(state, (2, "gift 3"))
    events = state.apply(2, f"play 1g {G_13}")
    assert any(e.kind == "deal_end" for e in events)
    entry = state.history[-1]
    assert entry["double_victory"] and entry["out"] == [0, 2]
    # 200 for the double victory; Cid called but Ann went out first: -100. Bob's call: -100.
    assert entry["hand_scores"] == [100, -100]
    assert entry["calls"] == [1, 2]


def test_successful_call_is_plus_100_on_top_of_double_victory() -> None:
    state = start_hand(DOUBLE)
    play(state, (0, "call"))
    play(state, (0, f"play {T_STRAIGHT}"), (0, "wish none"))
    everyone_passes(state)
    play(state, (0, "play catfish"), (1, "pass"), (2, "play panda"), (3, "pass"), (1, "pass"))
    play(state, (2, "gift 3"), (2, f"play 1g {G_13}"))
    assert state.history[-1]["hand_scores"] == [300, 0]


def test_score_units_total_100_outside_double_victory() -> None:
    piles = [["Mt", "10t", "stork"], ["5t", "cat"], ["panda"], []]
    hands = [[], [], [], [c for c in ALL_CARDS if c not in sum(piles, [])]]
    lines, totals = score_hand([2, 1, 0], piles, hands, [False] * 4, None, NAMES)
    assert sum(totals) == 100
    # Seat 3's hand (the other 50 points) goes to team 0, the opponents.
    assert totals == [45 + 25 + 50, -20]
    # Its tricks go to the first player out (seat 1 here: its own team).
    piles[3] = ["10a"]
    hands[3].remove("10a")
    lines, totals = score_hand([1, 2, 0], piles, hands, [False] * 4, None, NAMES)
    assert totals == [45 + 25 + 40, -20 + 10]


def test_kingdom_bonus_in_score_unit() -> None:
    piles = [[], [], [], []]
    hands = [[], [], [], list(ALL_CARDS)]
    lines, totals = score_hand([0, 1, 2], piles, hands, [True, False, False, False], 1, NAMES)
    names = [x.name for x in lines]
    assert names.count("Kingdom") == 1 and "Panda call" in names
    assert totals == [100 + 100, 100]


def test_kingdom_bonus_on_top_of_a_double_victory() -> None:
    piles = [[], [], [], []]
    hands = [[], list(ALL_CARDS[:30]), [], list(ALL_CARDS[30:])]
    lines, totals = score_hand([0, 2], piles, hands, [False] * 4, 1, NAMES)
    assert totals == [200, 100], "the first Kingdom scores also for the losing side"
    lines, totals = score_hand([2, 0], piles, hands, [True, False, False, False], 0, NAMES)
    assert totals == [200 - 100 + 100, 0], "Ann called but Cid went out first"


# ----- match (rule 19) --------------------------------------------------------------------------------------


def test_match_ends_at_target_with_team_result() -> None:
    state = start_hand(DOUBLE, {"target": 200})
    play(state, (0, f"play {T_STRAIGHT}"), (0, "wish none"))
    everyone_passes(state)
    play(state, (0, "play catfish"), (1, "pass"), (2, "play panda"), (3, "pass"), (1, "pass"))
    events = play(state, (2, "gift 3"), (2, f"play 1g {G_13}"))
    assert state.is_over and events[-1].kind == "match_end"
    result = state.result()
    assert result.placements == (1, 2, 1, 2) and result.teams == ((0, 2), (1, 3))
    assert state.legal_actions(0) == [] and state.to_act == [] and state.may_act == []
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0, "pass")


@pytest.mark.parametrize(
    "scores, winner",
    [
        ([990, 500], None),
        ([1000, 500], 0),
        ([1100, 1200], 1),
        ([1050, 1050], None),
        ([900, 1000], 1),
    ],
)
def test_match_winner_rule(scores, winner) -> None:
    state = new_game(1, NAMES)
    state.team_scores = list(scores)
    assert state._match_winner() == winner


# ----- defaults, views, replay ------------------------------------------------------------------------------------


def test_default_actions_are_safe() -> None:
    state = start_hand(PANDA)
    assert state.default_action(0).startswith("play stork")
    play(state, (0, "play stork"))
    assert state.default_action(0) == "wish none"
    play(state, (0, "wish none"))
    assert state.default_action(1) == "pass"
    play(state, (1, "play panda"), (2, "pass"), (3, "pass"), (0, "pass"))
    assert state.default_action(1) in ("gift 0", "gift 2")
    fresh = new_game(5, NAMES)
    code = fresh.default_action(2)
    assert code.startswith("give left ") and len(code.split()) == 7
    assert not {"panda", "stork", "catfish", "cat"} & set(code.split())


def test_views_hide_other_hands() -> None:
    state = start_hand(THREE_OUT)
    for seat in range(4):
        v = state.view(seat)
        assert v["hand"] == state.hands[seat]
        # A seat knows the cards it passed itself ("given"), nothing else of other hands.
        assert v["given"] == state.given[seat]
        public = ("history", "played_cards", "trick", "given", "game")
        text = str({k: x for k, x in v.items() if k not in public})
        for other in range(4):
            if other != seat:
                for card in state.hands[other]:
                    assert f"'{card}'" not in text
    spectator = state.view(None)
    assert spectator["hand"] is None and spectator["received"] is None


def test_replay_reproduces_the_state() -> None:
    state = start_hand(THREE_OUT)
    _three_out_until_seat_two_leads(state)
    from bot.games.panda.stacking import fill, stack

    deck, _ = stack(fill(THREE_OUT))
    again = replay(7, NAMES, None, state.log, deck=deck)
    assert again.snapshot() == state.snapshot()


def test_options_are_parsed_and_validated() -> None:
    from bot.games.panda import OPTIONS

    assert OPTIONS().target == 1000 and OPTIONS().wish and not OPTIONS().free_first_lead
    with pytest.raises(ValueError, match="Unknown"):
        new_game(1, NAMES, {"grand_call": True})
    with pytest.raises(ValueError, match="between"):
        new_game(1, NAMES, {"target": 50})
    with pytest.raises(ValueError, match="true or false"):
        new_game(1, NAMES, {"wish": "yes"})
    state = new_game(1, NAMES, {"target": 500})
    assert state.view(None)["target"] == 500 and state.options["target"] == 500


def test_module_exports() -> None:
    import bot.games.panda as panda

    assert (panda.NAME, panda.TITLE, panda.SEATS) == ("panda", "Panda", 4)
    assert panda.PandaState.teams == ((0, 2), (1, 3))
    from importlib import resources

    assert "Ambush" in resources.files("bot.games.panda").joinpath("summary.md").read_text()
