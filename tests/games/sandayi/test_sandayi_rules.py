"""Known answers for every San Da Yi rule, from stacked decks (docs/rules/sandayi.md)."""

from __future__ import annotations

import pytest
from sandayi_helpers import PLAYERS, new, play_out, stack

from bot.engine import IllegalAction
from bot.games import sandayi
from bot.games.sandayi.cards import (
    DECK,
    cards_points,
    group,
    is_trump,
    trick_strength,
    trick_winner_index,
)
from bot.games.sandayi.rules import KITTY_SIZE

# ----- rules 1-2: cards and deal --------------------------------------------------------


def test_deck_has_54_cards_and_100_points() -> None:
    assert len(DECK) == len(set(DECK)) == 54
    assert "BJ" in DECK and "SJ" in DECK
    assert cards_points(DECK) == 100  # rule 14


def test_deal_is_round_robin_with_a_six_card_kitty() -> None:
    deck = list(DECK)
    state = new(deck)
    for seat in range(4):
        assert state.hands[seat] == deck[seat:48:4]
        assert len(state.hands[seat]) == 12
    assert state.kitty == deck[48:]
    assert state.view(None)["hand_counts"] == [12, 12, 12, 12]


def test_bad_stacked_deck_and_options_are_rejected() -> None:
    with pytest.raises(ValueError):
        new(list(DECK)[:-1])
    with pytest.raises(ValueError, match="hands"):
        new(hands=0)
    with pytest.raises(ValueError, match="hands"):
        new(hands=41)
    with pytest.raises(ValueError, match="Unknown"):
        new(stake=3)
    with pytest.raises(ValueError):
        sandayi.new_game(1, PLAYERS[:3])
    assert new().view(None)["deals"] == 8  # rule 18: default 8 hands


# ----- rule 3: who bids first -----------------------------------------------------------


def test_holder_of_three_of_diamonds_bids_first() -> None:
    state = new(stack({2: ["3D"]}))
    assert state.first_bidder == 2
    assert state.to_act == [2]


def test_lowest_diamond_bids_first_when_three_of_diamonds_is_in_the_kitty() -> None:
    deck = stack({1: ["5D"], 3: ["4D"]}, kitty=["3D"])
    assert new(deck).first_bidder == 3
    # 3♦ and 4♦ in the kitty: the 5♦ holder.
    deck = stack({1: ["5D"], 0: ["6D"]}, kitty=["3D", "4D"])
    assert new(deck).first_bidder == 1


def test_previous_declarer_bids_first_in_the_next_hand() -> None:
    # Hand 2 deals the 3♦ to seat 3 and is redealt once (all pass): the 3♦ rule is for
    # the first hand only, and a redeal keeps the first bidder (rules 3 and 6).
    decks = [stack({0: ["3D"]}), stack({3: ["3D"]}), stack({2: ["3D"]})]
    state = new(decks, hands=2)
    state.apply(0, "pass")
    state.apply(1, "bid 60")
    state.apply(2, "pass")
    state.apply(3, "pass")
    assert state.declarer == 1
    play_out(state)
    assert state.hand_no == 2 and state.hands[3] == decks[1][3:48:4]
    assert state.first_bidder == 1 and state.to_act == [1]
    for seat in (1, 2, 3, 0):
        state.apply(seat, "pass")
    assert state.hand_no == 2 and state.redeals == 1
    assert state.hands[2] == decks[2][2:48:4]
    assert state.first_bidder == 1 and state.to_act == [1]


# ----- rules 4-6: bidding ---------------------------------------------------------------


def bids(state) -> list[int]:
    return [int(c.split()[1]) for c in state.legal_actions(state.to_act[0]) if c != "pass"]


def test_minimum_bids_by_position_when_everyone_before_passed() -> None:
    state = new(stack({0: ["3D"]}))
    assert bids(state) == [60, 65, 70, 75, 80]  # 1st bidder
    state.apply(0, "pass")
    assert bids(state) == [60, 65, 70, 75, 80]  # 2nd bidder
    state.apply(1, "pass")
    assert bids(state) == [65, 70, 75, 80]  # 3rd after two passes
    state.apply(2, "pass")
    assert bids(state) == [70, 75, 80]  # 4th after three passes
    assert "pass" in state.legal_actions(3)


def test_bids_must_beat_the_highest_bid() -> None:
    state = new(stack({0: ["3D"]}))
    state.apply(0, "bid 65")
    assert bids(state) == [70, 75, 80]
    with pytest.raises(IllegalAction, match="70 or more"):
        state.apply(1, "bid 65")
    state.apply(1, "pass")
    assert bids(state) == [70, 75, 80]


def test_fourth_bidder_facing_sixty_may_bid_sixty_five_by_default() -> None:
    state = new(stack({0: ["3D"]}))
    state.apply(0, "bid 60")
    state.apply(1, "pass")
    assert bids(state) == [65, 70, 75, 80]  # 3rd facing 60
    state.apply(2, "pass")
    assert bids(state) == [65, 70, 75, 80]  # "if they pass" reading: 65 is legal


def test_fixed_minimums_option() -> None:
    state = new(stack({0: ["3D"]}), fixed_minimums=True)
    state.apply(0, "bid 60")
    state.apply(1, "pass")
    assert bids(state) == [65, 70, 75, 80]
    state.apply(2, "pass")
    assert bids(state) == [70, 75, 80]  # fixed: the 4th always bids from 70


def test_highest_bidder_declares_after_one_round() -> None:
    state = new(stack({0: ["3D"]}))
    for seat, code in [(0, "bid 60"), (1, "pass"), (2, "bid 70"), (3, "pass")]:
        assert state.to_act == [seat]
        state.apply(seat, code)
    assert state.declarer == 2 and state.bid == 70
    assert state.phase == "bury" and state.to_act == [2]
    assert len(state.hands[2]) == 18  # rule 7: the kitty joins the hand


def test_bid_of_80_ends_the_bidding() -> None:
    state = new(stack({1: ["3D"]}))
    state.apply(1, "bid 80")
    assert state.declarer == 1 and state.bid == 80 and state.phase == "bury"


def test_each_player_speaks_only_once() -> None:
    state = new(stack({0: ["3D"]}))
    state.apply(0, "bid 60")
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(0, "bid 65")


def test_unknown_bid_is_explained() -> None:
    state = new(stack({0: ["3D"]}))
    with pytest.raises(IllegalAction, match="60, 65, 70, 75 or 80"):
        state.apply(0, "bid 62")


@pytest.mark.parametrize(
    ("fixed", "script", "message"),
    [
        (False, ["pass", "pass"], "After 2 passes you must bid at least 65: bid 65 or more"),
        (False, ["pass"] * 3, "After 3 passes you must bid at least 70: bid 70 or more"),
        (False, ["bid 60", "pass", "pass"], "The highest bid is 60: bid 65 or more"),
        (True, ["bid 60", "pass", "pass"], "The 4th bidder bids at least 70: bid 70 or more"),
    ],
)
def test_a_too_low_bid_is_explained(fixed: bool, script: list[str], message: str) -> None:
    state = new(stack({0: ["3D"]}), fixed_minimums=fixed)
    for code in script:
        state.apply(state.to_act[0], code)
    with pytest.raises(IllegalAction, match=message):
        state.apply(state.to_act[0], "bid 60")


def test_redeal_when_all_pass_with_the_same_first_bidder() -> None:
    first = stack({2: ["3D"]})
    second = stack({0: ["3D"]})  # 3♦ elsewhere: the first bidder must not change
    state = new([first, second])
    for seat in (2, 3, 0, 1):
        state.apply(seat, "pass")
    assert state.hand_no == 1 and state.redeals == 1 and state.deals_done == 2
    assert state.history == []
    assert state.hands[0] == second[0:48:4]  # new cards
    assert state.first_bidder == 2 and state.to_act == [2]
    assert state.phase == "bidding" and state.bids == []
    assert any(e.kind == "redeal" for e in state.events)
    assert state.scores == [0, 0, 0, 0]


def test_redeals_are_shuffled_from_the_seeded_rng() -> None:
    a, b = new(seed=5), new(seed=5)
    for state in (a, b):
        for _ in range(4):
            state.apply(state.to_act[0], "pass")
    assert a.hands == b.hands and a.deals_done == 2


# ----- rule 7: the kitty ----------------------------------------------------------------


@pytest.mark.parametrize("bid", [60, 65])
def test_low_bids_show_the_kitty_to_everyone(bid: int) -> None:
    deck = stack({0: ["3D"]})
    state = new(deck)
    state.apply(0, f"bid {bid}")
    for seat in (1, 2, 3):
        state.apply(seat, "pass")
    kitty = set(deck[48:])
    for seat in (None, 0, 1, 2, 3):
        view = state.view(seat)
        assert view["kitty_public"] is True
        assert set(view["kitty"]) == kitty
    declare = next(e for e in state.events if e.kind == "declare")
    assert declare.private_to is None and set(declare.data["kitty"]) == kitty


@pytest.mark.parametrize("bid", [70, 75, 80])
def test_high_bids_hide_the_kitty_from_everyone_but_the_declarer(bid: int) -> None:
    deck = stack({0: ["3D"]})
    state = new(deck)
    state.apply(0, f"bid {bid}")
    while state.phase == "bidding":
        state.apply(state.to_act[0], "pass")
    kitty = set(deck[48:])
    assert set(state.view(0)["kitty"]) == kitty
    for seat in (None, 1, 2, 3):
        view = state.view(seat)
        assert view["kitty"] is None and view["kitty_public"] is False
    private = [e for e in state.events if e.data.get("kitty")]
    assert private and all(e.private_to == 0 for e in private)
    assert state.visible_events(1) and not any(e.data.get("kitty") for e in state.visible_events(1))


def declare(state, seat: int = 0, bid: int = 60) -> None:
    """Seat ``seat`` (the first bidder) bids ``bid``; everyone else passes."""
    assert state.to_act == [seat]
    state.apply(seat, f"bid {bid}")
    while state.phase == "bidding":
        state.apply(state.to_act[0], "pass")


def test_bury_six_cards_in_any_order() -> None:
    deck = stack({0: ["3D", "KS", "10H", "5C", "4D", "6D", "7D"]})
    state = new(deck)
    declare(state, 0, 70)
    state.apply(0, "bury 7D 6D 5C 10H KS 4D")
    assert state.log[-1] == (0, "bury KS 10H 4D 6D 7D 5C")  # canonical order
    assert sorted(state.buried) == sorted(["KS", "10H", "5C", "4D", "6D", "7D"])
    assert len(state.hands[0]) == 12 and not set(state.buried) & set(state.hands[0])
    assert state.phase == "trump"
    assert sorted(state.view(0)["buried"]) == sorted(state.buried)
    for seat in (None, 1, 2, 3):  # rule 7: never shown to the defenders
        assert state.view(seat)["buried"] is None


def test_bury_validation_changes_nothing() -> None:
    state = new(stack({0: ["3D"], 1: ["AS"]}))
    declare(state)
    hand = list(state.hands[0])
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="6 more cards to bury, not 7"):
        state.apply(0, "bury " + " ".join(hand[:7]))
    with pytest.raises(IllegalAction, match="named twice"):
        state.apply(0, "bury " + " ".join(hand[:5] + hand[:1]))
    with pytest.raises(IllegalAction, match="named twice"):
        state.apply(0, f"bury {hand[0]} {hand[0]}")
    with pytest.raises(IllegalAction, match="You don't hold A♠"):
        state.apply(0, "bury AS " + " ".join(hand[:5]))
    with pytest.raises(IllegalAction, match="`ZZ` is not a card"):
        state.apply(0, "bury ZZ " + " ".join(hand[:5]))
    with pytest.raises(IllegalAction, match="Name the cards to bury"):
        state.apply(0, "bury")
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, "bury " + " ".join(hand[:6]))
    assert state.snapshot() == before
    # After 4 cards are buried, only 2 more may be.
    state.apply(0, "bury " + " ".join(hand[:4]))
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="2 more cards to bury, not 3"):
        state.apply(0, "bury " + " ".join(hand[4:7]))
    with pytest.raises(IllegalAction, match="You don't hold"):
        state.apply(0, f"bury {hand[0]}")  # already buried
    assert state.snapshot() == before


def test_bury_legal_actions_are_one_short_code_per_card() -> None:
    state = new(stack({0: ["3D"]}))
    declare(state)
    legal = state.legal_actions(0)
    assert len(legal) == 18  # not the C(18, 6) = 18564 six-card sets
    assert sorted(legal) == sorted(f"bury {c}" for c in state.hands[0])
    assert state.legal_actions(1) == []


def test_bury_one_card_at_a_time() -> None:
    state = new(stack({0: ["3D", "KS", "10H", "5C", "4D", "6D", "7D"]}))
    declare(state, 0, 70)
    order = ["KS", "10H", "5C", "4D", "6D"]
    for i, card in enumerate(order):
        events = state.apply(0, f"bury {card}")
        assert state.phase == "bury" and state.to_act == [0]
        assert state.view(0)["to_bury"] == KITTY_SIZE - 1 - i
        assert f"bury {card}" not in state.legal_actions(0)
        assert len(state.legal_actions(0)) == 17 - i
        assert events[0].text.endswith(f"({KITTY_SIZE - 1 - i} more to bury).")
        assert card not in events[0].text  # the public event never names the card
    assert sorted(state.view(0)["buried"]) == sorted(order)
    assert state.view(1)["buried"] is None
    with pytest.raises(IllegalAction, match="1 more card to bury, not 2"):
        state.apply(0, "bury 7D 3D")
    state.apply(0, "bury 7D")
    assert state.phase == "trump" and state.to_act == [0]
    assert sorted(state.buried) == sorted([*order, "7D"]) and len(state.hands[0]) == 12


def test_bury_ends_after_six_cards_in_parts() -> None:
    state = new(stack({0: ["3D", "KS", "10H", "5C", "4D", "6D", "7D"]}))
    declare(state, 0, 70)
    state.apply(0, "bury KS")
    state.apply(0, "bury 7D 10H")  # several at once, any order
    assert state.log[-1] == (0, "bury 10H 7D")
    state.apply(0, "bury 4D 5C 6D")
    assert state.phase == "trump" and state.to_bury == 0 and state.view(0)["to_bury"] == 0
    assert sorted(state.buried) == sorted(["KS", "10H", "5C", "4D", "6D", "7D"])
    assert len(state.hands[0]) == 12
    assert state.legal_actions(0) == ["trump S", "trump H", "trump D", "trump C"]


def test_replay_of_a_log_with_a_six_card_bury_code() -> None:
    state = new(stack({0: ["3D"]}), hands=1)
    declare(state)
    six = " ".join(state.hands[0][:6])
    state.apply(0, f"bury {six}")
    state.apply(0, "trump S")
    for _ in range(5):
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert any(code.startswith("bury ") and len(code.split()) == 7 for _, code in state.log)
    again = sandayi.replay(state.seed, PLAYERS, state.options, state.log, deck=state.stacked)
    assert again.snapshot() == state.snapshot()


def test_default_action_buries_every_card_still_to_bury() -> None:
    state = new(stack({0: ["3D"]}))
    declare(state)
    state.apply(0, "bury " + state.hands[0][0])
    state.apply(0, "bury " + state.hands[0][0])
    code = state.default_action(0)
    assert code.startswith("bury ") and len(code.split()) == 1 + 4
    state.apply(0, code)
    assert state.phase == "trump" and len(state.buried) == KITTY_SIZE


# ----- rules 8-9: trump -----------------------------------------------------------------


def test_declarer_names_trump_and_leads_the_first_trick() -> None:
    state = new(stack({0: ["3D"]}))
    declare(state)
    state.apply(0, state.default_action(0))
    assert state.phase == "trump"
    assert state.legal_actions(0) == ["trump S", "trump H", "trump D", "trump C"]
    state.apply(0, "trump H")
    assert state.trump == "H" and state.phase == "play"
    assert state.to_act == [0] and state.leader == 0
    assert state.view(None)["trump"] == "H"


def test_trumps_are_jokers_twos_and_the_trump_suit() -> None:
    for card in ("BJ", "SJ", "2S", "2H", "2D", "2C", "AH", "3H"):
        assert is_trump(card, "H")
        assert group(card, "H") == "T"
    for card in ("AS", "3D", "KC"):
        assert not is_trump(card, "H")
        assert group(card, "H") == card[-1]


# ----- rules 10, 13: the order of the cards -----------------------------------------------


def test_card_order_high_to_low() -> None:
    order = ["BJ", "SJ", "2H", "2S", "AH", "KH", "3H", "AD", "KD", "3D"]
    strengths = [trick_strength(c, "H", "D") for c in order]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == len(strengths)
    # The non-trump 2s are equal; another plain suit never wins.
    assert trick_strength("2S", "H", "D") == trick_strength("2C", "H", "D")
    assert trick_strength("AS", "H", "D") == 0 < trick_strength("3D", "H", "D")


@pytest.mark.parametrize(
    ("cards", "trump", "winner"),
    [
        (["3D", "AD", "KD", "QD"], "H", 1),  # highest of the led suit
        (["AD", "AS", "AC", "KD"], "H", 0),  # other plain suits never win
        (["AD", "3H", "KD", "4H"], "H", 3),  # the highest trump wins
        (["AD", "2S", "2C", "KD"], "H", 1),  # equal 2s: the first played wins
        (["AD", "2S", "2H", "2C"], "H", 2),  # the trump-suit 2 beats the other 2s
        (["2S", "AH", "SJ", "2H"], "H", 2),  # small joker beats every 2
        (["SJ", "BJ", "2H", "AH"], "H", 1),  # big joker beats everything
        (["5S", "3H", "KS", "AS"], "S", 3),  # trump suit led: plain order inside it
        (["2D", "AS", "AC", "3S"], "H", 0),  # a non-trump 2 led is a trump lead
    ],
)
def test_trick_winner(cards: list[str], trump: str, winner: int) -> None:
    assert trick_winner_index(cards, trump) == winner


# ----- rules 11-12: play and following ---------------------------------------------------


def to_play(deck: list[str], trump: str, bid: int = 60) -> sandayi.SanDaYiState:
    """Seat 0 (holding 3♦) declares, buries the kitty back and names ``trump`` (a match of
    one hand, so the finished hand stays on the table)."""
    state = new(deck, hands=1)
    declare(state, 0, bid)
    state.apply(0, "bury " + " ".join(deck[48:]))
    state.apply(0, f"trump {trump}")
    return state


def playable(state, seat: int) -> set[str]:
    return {c.split()[1] for c in state.legal_actions(seat)}


def test_must_follow_a_plain_suit_and_a_two_is_not_that_suit() -> None:
    deck = stack(
        {0: ["3D", "AC"], 1: ["2C", "5C", "KH", "SJ"]},
        kitty=["4D", "5D", "6D", "7D", "8D", "9D"],
    )
    state = to_play(deck, "H")
    state.apply(0, "play AC")
    # Seat 1 must follow clubs with 5♣ only: its 2♣ belongs to the trump group.
    clubs = {c for c in state.hands[1] if group(c, "H") == "C"}
    assert "2C" not in clubs and "5C" in clubs
    assert playable(state, 1) == clubs
    with pytest.raises(IllegalAction, match="follow suit"):
        state.apply(1, "play 2C")
    with pytest.raises(IllegalAction, match="You don't hold A♣"):
        state.apply(1, "play AC")
    with pytest.raises(IllegalAction, match="`qs` is not a card"):
        state.apply(1, "play qs")


def test_void_in_the_led_suit_may_play_anything() -> None:
    clubs = [r + "C" for r in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    deck = stack(
        {0: ["3D", "2C"], 1: ["2S", "BJ", "AH", "KS"], 2: clubs},
        kitty=["4D", "5D", "6D", "7D", "8D", "9D"],
    )
    state = to_play(deck, "S")
    state.apply(0, "play 3D")
    assert not any(group(c, "S") == "D" for c in state.hands[1])
    assert playable(state, 1) == set(state.hands[1])


def test_trump_lead_must_be_followed_by_jokers_twos_and_trump_suit() -> None:
    deck = stack(
        {0: ["3D", "4S"], 1: ["2D", "SJ", "AC", "KH", "QD"], 2: ["AS"]},
        kitty=["4D", "5D", "6D", "7D", "8D", "9D"],
    )
    state = to_play(deck, "S")
    state.apply(0, "play 4S")
    trumps1 = {c for c in state.hands[1] if is_trump(c, "S")}
    assert {"2D", "SJ"} <= trumps1
    assert playable(state, 1) == trumps1


def test_leading_a_non_trump_two_or_a_joker_is_a_trump_lead() -> None:
    deck = stack(
        {0: ["3D", "2C", "BJ"], 1: ["KS", "QH", "10H"], 3: ["AD"]},
        kitty=["4D", "5D", "6D", "7D", "8D", "9D"],
    )
    state = to_play(deck, "H")
    state.apply(0, "play 2C")
    trumps1 = {c for c in state.hands[1] if is_trump(c, "H")}
    assert "QH" in trumps1 and "KS" not in trumps1
    assert playable(state, 1) == trumps1


def test_winner_leads_the_next_trick_and_points_go_to_defenders_only() -> None:
    deck = stack(
        {
            0: ["3D", "AC", "KC"],
            1: ["5C", "10C"],
            2: ["3C"],
            3: ["4C", "6C"],
        },
        kitty=["4D", "5D", "6D", "7D", "8D", "9D"],
    )
    state = to_play(deck, "H")
    # Trick 1: the declarer's A♣ wins 5♣: no defender points.
    state.apply(0, "play AC")
    state.apply(1, "play 5C")
    state.apply(2, "play 3C")
    state.apply(3, "play 4C")
    assert state.tricks[0]["winner"] == 0 and state.tricks[0]["points"] == 5
    assert state.defender_points == 0
    assert state.to_act == [0] and state.leader == 0
    # Trick 2: 10♣ (seat 1) or seat 2's ruff beats K♣: 20 points to the defenders.
    state.apply(0, "play KC")
    state.apply(1, "play 10C")
    assert state.legal_actions(2)  # seat 2 has no clubs left: anything
    state.apply(2, "play " + min(state.hands[2], key=lambda c: cards_points([c])))
    state.apply(3, "play 6C")
    assert state.tricks[1]["winner"] in (1, 2)
    assert state.defender_points == cards_points(c["card"] for c in state.tricks[1]["cards"])
    assert state.leader == state.tricks[1]["winner"] and state.to_act == [state.leader]


def test_play_out_of_turn_or_wrong_phase_is_illegal() -> None:
    state = new(stack({0: ["3D"]}))
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, "pass")
    with pytest.raises(IllegalAction, match="bid"):
        state.apply(0, "play 3D")
    declare(state)
    with pytest.raises(IllegalAction, match="Bury"):
        state.apply(0, "trump S")


# ----- whole hands from stacked decks: rules 14-17 ------------------------------------------

TOP_TRUMPS = ["BJ", "SJ", "2S", "2H", "2D", "2C", "AS", "KS", "QS", "JS", "10S", "9S"]


@pytest.mark.parametrize(("bid", "declarer_gets"), [(60, 9), (80, 45)])
def test_declarer_takes_every_trick_case_2c(bid: int, declarer_gets: int) -> None:
    # Seat 0 buries its 3♦ and keeps the 12 best trumps (spades): D = 0 whatever the
    # defenders play, though they hold points.
    hand = ["3D"] + TOP_TRUMPS[:11]
    deck = stack({0: hand, 1: ["5S", "10D", "KD"]}, kitty=["9S", "4D", "5D", "6D", "7D", "8D"])
    state = new(deck, hands=1)
    declare(state, 0, bid)
    state.apply(0, "bury 3D 4D 5D 6D 7D 8D")
    state.apply(0, "trump S")
    play_out(state)
    entry = state.history[-1]
    assert len(state.tricks) == 12 and all(t["winner"] == 0 for t in state.tricks)
    assert entry["defender_points"] == 0 and entry["kou_di"] is False
    assert entry["case"] == "2C"
    assert entry["settlement"] == [declarer_gets] + [-declarer_gets // 3] * 3
    end = next(e for e in state.events if e.kind == "deal_end")
    assert "2C" in end.text and end.data["case"] == "2C"


def test_defenders_take_every_trick_with_kou_di_case_3c() -> None:
    # Seat 0 holds only low hearts and clubs; every defender card of those suits is higher,
    # and the defenders hold all 18 trumps. Buried: three 5s (15 points never count).
    declarer = ["3H", "4H", "6H", "7H", "8H", "9H", "3C", "4C", "6C", "7C", "8C", "9C"]
    seat1 = ["10H", "JH", "QH", "KH", "AH", "BJ", "SJ", "2S", "2H", "2D", "2C", "3S"]
    deck = stack({0: declarer, 1: seat1, 2: ["7D"]}, kitty=["5H", "5C", "5D", "3D", "4D", "6D"])
    state = new(deck, hands=1)
    # 3♦ is in the kitty: the lowest diamond (7♦, seat 2) bids first; seat 0 is 3rd and
    # must bid at least 65 after two passes.
    assert state.first_bidder == 2
    state.apply(2, "pass")
    state.apply(3, "pass")
    assert bids(state)[0] == 65
    state.apply(0, "bid 65")
    state.apply(1, "pass")
    state.apply(0, "bury 5H 5C 5D 3D 4D 6D")
    state.apply(0, "trump S")
    play_out(state)
    entry = state.history[-1]
    assert len(state.tricks) == 12 and all(t["winner"] != 0 for t in state.tricks)
    assert entry["defender_points"] == 85 and entry["kou_di"] is True
    # Bid 65: N = 40, 2N = 80 ≤ 85 → 3C: declarer −12s, defenders +4s (s = 2).
    assert entry["case"] == "3C" and entry["stake"] == 2
    assert entry["settlement"] == [-24, 8, 8, 8]
    assert state.scores == [-24, 8, 8, 8]
    # Rule 7: the declarer still sees its buried cards after the hand; nobody else ever.
    assert sorted(state.view(0)["buried"]) == ["3D", "4D", "5C", "5D", "5H", "6D"]
    for seat in (None, 1, 2, 3):
        assert state.view(seat)["buried"] is None
        assert not any("cards" in e.data for e in state.visible_events(seat))
    # Rule 18: the highest total wins; here three defenders share it.
    end = state.events[-1]
    assert end.kind == "match_end" and "Bob, Cai and Dee share the win with +8" in end.text


# Seat 0 holds the 3♦ (it bids first), the 5♦ and the 11 best trumps (spades); it buries
# the 3♦ and five low spades from the kitty (the 5♠'s points never count). The defenders
# hold only the 3♠ 4♠ as trumps; seat 3 holds only clubs.
CLUBS = [r + "C" for r in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
ONE_TRICK_DECK = stack(
    {
        0: ["3D", "5D", "BJ", "SJ", "2S", "2H", "2D", "2C", "AS", "KS", "QS", "JS"],
        1: ["KD", "4D", "6D", "7D", "8D", "3S", "4S"],
        2: ["10D", "9D", "JD", "QD", "AD"],
        3: CLUBS,
    },
    kitty=["10S", "9S", "8S", "7S", "6S", "5S"],
)


@pytest.mark.parametrize(
    ("bid", "case", "settlement"),
    [
        (60, "2D", [3, -1, -1, -1]),  # N = 45: 0 < D < N
        (65, "2D", [6, -2, -2, -2]),
        (70, "2A", [-9, 3, 3, 3]),  # the spec's 1st vector: s = 3, D = 35 = N
        (75, "2A", [-12, 4, 4, 4]),
        (80, "2A", [-15, 5, 5, 5]),  # N = 25 ≤ D < 2N = 50
    ],
)
def test_defenders_take_one_35_point_trick_cases_2d_2a(
    bid: int, case: str, settlement: list[int]
) -> None:
    state = new(ONE_TRICK_DECK, hands=1)
    declare(state, 0, bid)
    state.apply(0, "bury 3D 5S 6S 7S 8S 9S")
    state.apply(0, "trump S")
    for seat, card in [(0, "5D"), (1, "KD"), (2, "10D"), (3, "10C")]:
        state.apply(seat, f"play {card}")
    # Rule 14: every point in a trick the defenders win counts, the declarer's 5♦ too.
    assert state.tricks[0]["winner"] == 1 and state.defender_points == 35
    assert state.to_act == [1]  # rule 11: the winner leads
    play_out(state)  # the declarer holds only trumps above the 3♠ 4♠: it wins the rest
    assert [t["winner"] for t in state.tricks[1:]] == [0] * 11
    entry = state.history[-1]
    assert entry["defender_points"] == 35 and entry["kou_di"] is False
    assert entry["stake"] == (bid - 55) // 5 and entry["target"] == 105 - bid
    assert entry["case"] == case and entry["settlement"] == settlement
    assert state.scores == settlement


LOW_SPADES = ["9S", "8S", "7S", "6S", "5S", "4S"]  # the defenders keep only 3♠ as trump
POINTS_35 = ["KH", "10H", "5H", "5D", "5S", "4S"]  # 35 points the declarer buries again


@pytest.mark.parametrize(
    ("bid", "kitty", "last", "d", "case", "settlement"),
    [
        (60, LOW_SPADES, {1: "AH", 2: "5C", 3: "10D"}, 15, "3A", [-6, 2, 2, 2]),  # D < N = 45
        # Rule 14: buried points never count, not even after 抠底 (15 + 35 would be 3B).
        (60, POINTS_35, {1: "AH", 2: "5C", 3: "10D"}, 15, "3A", [-6, 2, 2, 2]),
        # The spec's 5th vector: bid 75 (s = 4, N = 30), D = 30 with 抠底: −36 / +12
        # (30 + the 35 buried would be 3C).
        (75, POINTS_35, {1: "KC", 2: "10C", 3: "KD"}, 30, "3B", [-36, 12, 12, 12]),
    ],
)
def test_kou_di_on_the_last_trick_cases_3a_3b(
    bid: int, kitty: list[str], last: dict[int, str], d: int, case: str, settlement: list[int]
) -> None:
    # Seat 0 wins tricks 1-11 with its 11 top trumps (the defenders' spades are all lower)
    # and loses the 12th (its 3♦) to seat 3's diamond, a plain card (rule 16: any card);
    # the defenders' only points are in that last trick.
    hand = ["3D"] + TOP_TRUMPS[:11]
    deck = stack({0: hand, 1: ["3S", last[1]], 2: [last[2]], 3: [last[3]]}, kitty=kitty)
    state = to_play(deck, "S", bid)
    assert sorted(state.buried) == sorted(kitty)

    def policy(state, seat, legal):
        if seat == 0:  # the declarer keeps 3♦ for the end
            return max(legal, key=lambda c: trick_strength(c.split()[1], "S", "T"))
        keep = f"play {last[seat]}"
        return next((c for c in legal if c != keep), keep)

    play_out(state, policy)
    assert [t["winner"] for t in state.tricks[:11]] == [0] * 11
    assert state.tricks[-1]["winner"] == 3
    entry = state.history[-1]
    assert entry["defender_points"] == d and entry["kou_di"] is True
    assert entry["case"] == case and entry["settlement"] == settlement
    assert state.scores == settlement


# ----- rule 18: the match -----------------------------------------------------------------


def test_match_of_a_set_number_of_hands_with_running_totals() -> None:
    state = new(hands=3, seed=11)
    play_out_match(state)
    assert state.is_over and state.phase == "over" and state.to_act == []
    assert len(state.history) == 3
    totals = [0, 0, 0, 0]
    for entry in state.history:
        assert sum(entry["settlement"]) == 0
        totals = [t + d for t, d in zip(totals, entry["settlement"], strict=True)]
        assert entry["totals"] == totals
    assert state.scores == totals
    result = state.result()
    assert result.scores == tuple(totals)
    best = max(totals)
    assert all((p == 1) == (t == best) for p, t in zip(result.placements, totals, strict=True))
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0, "pass")
    view = state.view(None)
    assert view["deal"] == 3 and view["deals"] == 3 and view["is_over"]


def play_out_match(state) -> None:
    first_bid = True
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if state.phase == "bidding" and first_bid:
            code = legal[1]  # the first bidder bids the minimum: no endless redeals
            first_bid = False
        elif state.phase == "bidding":
            code = "pass"
        else:
            code = state.default_action(seat)
        before = state.hand_no
        state.apply(seat, code)
        if state.hand_no != before:
            first_bid = True


def test_default_actions_are_legal() -> None:
    state = new(stack({0: ["3D"]}), hands=1)
    assert state.default_action(0) == "pass"
    declare(state)
    for _ in range(60):
        if state.is_over:
            break
        seat = state.to_act[0]
        code = state.default_action(seat)
        state.apply(seat, code)  # raises if illegal
    assert state.is_over
    with pytest.raises(IllegalAction):
        state.default_action(0)


def test_describe_labels() -> None:
    assert sandayi.describe("pass") == "Pass"
    assert sandayi.describe("bid 65") == "Bid 65"
    assert sandayi.describe("trump H") == "Trump ♥ Hearts"
    assert sandayi.describe("play 10D") == "Play 10♦"
    assert sandayi.describe("play BJ") == "Play Big joker"
    # A timeout's action is posted in the thread: it must not show the buried cards.
    assert sandayi.describe("bury 3S 4S 5S 6S 7S 8S") == "Bury 6 cards"
    assert sandayi.describe("bury 10H") == "Bury 1 card"


def test_result_rates_every_hand_as_one_declarer_against_three() -> None:
    import random as _random

    from bot.games.sandayi import new_game as _new_game

    state = _new_game("rating", ["A", "B", "C", "D"], {"hands": 3})
    rng = _random.Random(4)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    result = state.result()
    assert len(result.rating_games) == 3
    for hand, (teams, places) in zip(state.history, result.rating_games, strict=True):
        declarer = hand["declarer"]
        assert teams == ((declarer,), tuple(s for s in range(4) if s != declarer))
        assert places == ((1, 2) if hand["settlement"][declarer] > 0 else (2, 1))
