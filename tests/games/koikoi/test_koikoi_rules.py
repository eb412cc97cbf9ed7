"""Koi-Koi rules from stacked decks: every special rule of docs/rules/koikoi.md."""

from __future__ import annotations

import pickle

import pytest

from bot.engine import IllegalAction
from bot.games import koikoi
from bot.games.hanafuda.cards import ALL_CARDS, parse_cards
from bot.games.koikoi import KoiKoiOptions, new_game, replay
from bot.games.koikoi.rules import KoiKoiState
from tests.games.koikoi.conftest import FIRST_FIVE_TURNS

PLAYERS = ["Alice", "Bob"]
# A deal with no void board, no instant win and boards of distinct months.
DEALER = "1b 2a 3b 4a 5a 6a 7a 8b"
SECOND = "1r 2r 4r 6r 7r 9r 10r 11a"
BOARD = "9a 10a 11b 12b 1p1 2p1 3p1 4p1"


def deck_from(stacked, dealer=DEALER, second=SECOND, board=BOARD, stack_top="") -> list[str]:
    return stacked(dealer, second, board, stack_top)


def play(state: KoiKoiState, *codes: str) -> None:
    for code in codes:
        state.apply(state.to_act[0], code)


def teshi_deck(stacked, holder: str) -> list[str]:
    """A deck where the ``holder`` ("dealer"/"second") holds all four Pine cards."""
    four = "1b 1r 1p1 1p2 2a 3b 4a 5a"
    other = "2r 3r 4r 5r 6a 7a 8b 9a"
    board = "6r 7r 8a 9r 10a 11b 12b 2p1"
    return stacked(four, other, board) if holder == "dealer" else stacked(other, four, board)


# ----- a deal -----------------------------------------------------------------------------


def test_stacked_deck_deals_as_documented(stacked) -> None:
    state = new_game(1, PLAYERS, deck=deck_from(stacked, stack_top="5p1 6p1"))
    v0, v1 = state.view(0), state.view(1)
    assert v0["dealer"] == 0 and state.to_act == [0]
    assert v0["hand"] == parse_cards(DEALER)
    assert v1["hand"] == parse_cards(SECOND)
    assert v0["board"] == parse_cards(BOARD)
    assert v0["stack_count"] == 24 and v0["hand_counts"] == [8, 8]
    assert (v0["round"], v0["rounds"], v0["deal"], v0["void_deals"]) == (1, 6, 1, 0)
    assert state.stack[-1] == "5p1"  # the top of the stack is flipped first
    play(state, "play 5a")  # no match: the Bridge stays on the board, where the flip takes it
    assert state.view(None)["last_flip"] == {"seat": 0, "card": "5p1", "took": ["5a"]}


def test_deck_may_be_a_string_and_must_be_complete(stacked) -> None:
    deck = deck_from(stacked)
    assert (
        new_game(1, PLAYERS, deck=" ".join(deck)).snapshot()
        == new_game(1, PLAYERS, deck=deck).snapshot()
    )
    with pytest.raises(ValueError, match="48 cards"):
        new_game(1, PLAYERS, deck=deck[:-1])
    with pytest.raises(ValueError, match="48 cards"):
        new_game(1, PLAYERS, deck=deck[:-1] + deck[:1])


def test_first_dealer_is_drawn_from_the_seed() -> None:
    dealers = {new_game(seed, PLAYERS).view(None)["dealer"] for seed in range(20)}
    assert dealers == {0, 1}
    assert new_game("abc", PLAYERS).snapshot() == new_game("abc", PLAYERS).snapshot()


def test_view_has_exactly_the_documented_keys(stacked) -> None:
    state = new_game(1, PLAYERS, deck=deck_from(stacked))
    assert set(state._view(0)) == {
        "round", "rounds", "deal", "dealer", "board", "stack_count", "hand", "hand_counts",
        "captures", "yaku", "yaku_points", "koikoi", "phase", "pending", "last_play",
        "last_flip", "history", "void_deals", "plays",
    }  # fmt: skip
    base = {"game", "seat", "players", "version", "to_act", "scores", "is_over"}
    assert base <= set(state.view(0))


# ----- matching ------------------------------------------------------------------------------


def test_single_match_takes_the_pair_and_no_match_stays(stacked) -> None:
    state = new_game(1, PLAYERS, deck=deck_from(stacked, stack_top="5p1 6p1"))
    events = play(state, "play 1b") or state.events
    v = state.view(None)
    assert v["captures"][0] == ["1b", "1p1"]
    assert "5p1" in v["board"] and "1p1" not in v["board"]
    assert v["last_play"] == {"seat": 0, "card": "1b", "took": ["1p1"]}
    texts = [e.text for e in events]
    # Cards by their names (as on the buttons), never their codes.
    assert "Alice plays Crane (Jan) and takes Pine plain" in texts
    assert "Alice flips Iris plain — no match" in texts
    assert state.to_act == [1] and v["phase"] == "play"
    play(state, "play 6r")  # no match: stays on the board; the flip 6p1 takes it
    v = state.view(None)
    assert v["captures"][1] == ["6r", "6p1"]
    assert v["last_play"] == {"seat": 1, "card": "6r", "took": []}
    assert v["last_flip"] == {"seat": 1, "card": "6p1", "took": ["6r"]}


def test_two_matches_for_a_hand_card_need_a_target(stacked) -> None:
    board = "9a 10a 11b 12b 3r 3p1 1p1 2p1"
    state = new_game(1, PLAYERS, deck=deck_from(stacked, board=board, stack_top="5p1"))
    legal = state.legal_actions(0)
    assert "play 3b 3r" in legal and "play 3b 3p1" in legal and "play 3b" not in legal
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="choose which one it takes"):
        state.apply(0, "play 3b")
    with pytest.raises(IllegalAction, match="can only take"):
        state.apply(0, "play 3b 1p1")
    assert state.snapshot() == before
    play(state, "play 3b 3r")
    v = state.view(None)
    assert v["captures"][0] == ["3b", "3r"] and "3p1" in v["board"]
    assert koikoi.describe("play 3b 3p1") == "Curtain (Mar) → takes Cherry plain"


def test_collect_three_takes_all_four(stacked) -> None:
    board = "9a 10a 11b 12b 3r 3p1 3p2 1p1"
    state = new_game(1, PLAYERS, deck=deck_from(stacked, board=board, stack_top="5p1"))
    assert [c for c in state.legal_actions(0) if c.startswith("play 3b")] == ["play 3b"]
    play(state, "play 3b")
    v = state.view(None)
    assert v["captures"][0] == ["3b", "3r", "3p1", "3p2"]
    assert not any(c.startswith("3") for c in v["board"])


def test_flip_collects_three_too(stacked) -> None:
    board = "9a 10a 11b 12p1 12p2 12p3 1p1 2p1"
    state = new_game(1, PLAYERS, deck=deck_from(stacked, board=board, stack_top="12b"))
    play(state, "play 1b")  # the flipped Phoenix takes the three Paulownia plains at once
    v = state.view(None)
    assert v["captures"][0] == ["1b", "1p1", "12b", "12p1", "12p2", "12p3"]
    assert v["last_flip"] == {"seat": 0, "card": "12b", "took": ["12p1", "12p2", "12p3"]}
    assert not any(c.startswith("12") for c in v["board"]) and state.to_act == [1]


def test_flip_with_two_matches_is_a_pending_choice(stacked) -> None:
    board = "9a 10a 11b 12b 5r 5p2 1p1 2p1"
    state = new_game(1, PLAYERS, deck=deck_from(stacked, board=board, stack_top="5p1"))
    play(state, "play 1b")
    v = state.view(0)
    assert v["phase"] == "choose_flip" and state.to_act == [0]
    assert v["pending"] == {"card": "5p1", "options": ["5r", "5p2"]}
    assert state.legal_actions(0) == ["take 5r", "take 5p2"]
    assert state.legal_actions(1) == []
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, "play 1r")
    with pytest.raises(IllegalAction, match="can only take"):
        state.apply(0, "take 1p1")
    with pytest.raises(IllegalAction, match="first choose what it takes"):
        state.apply(0, "play 2a")
    assert state.snapshot() == before
    play(state, "take 5r")
    v = state.view(None)
    assert v["captures"][0] == ["1b", "1p1", "5r", "5p1"]
    assert v["last_flip"] == {"seat": 0, "card": "5p1", "took": ["5r"]}
    assert v["phase"] == "play" and state.to_act == [1]


def test_the_view_records_the_rounds_plays_and_flips(stacked, akatan_decks) -> None:
    """``plays``: every play from a hand and every flip of this round, in order, with what
    each took; the same for every seat and spectators (all saw them); a flip waiting for
    its target enters when it is taken; a new round starts an empty record."""
    state = new_game(1, PLAYERS, deck=deck_from(stacked, stack_top="5p1 6p1"))
    assert state.view(None)["plays"] == []
    play(state, "play 1b", "play 6r")
    record = [
        {"seat": 0, "card": "1b", "took": ["1p1"]},
        {"seat": 0, "card": "5p1", "took": []},
        {"seat": 1, "card": "6r", "took": []},
        {"seat": 1, "card": "6p1", "took": ["6r"]},
    ]
    assert state.view(None)["plays"] == state.view(0)["plays"] == state.view(1)["plays"] == record
    state.view(0)["plays"][0]["took"].append("x")  # a view's copy, not the state's
    assert state.view(None)["plays"] == record

    board = "9a 10a 11b 12b 5r 5p2 1p1 2p1"
    state = new_game(1, PLAYERS, deck=deck_from(stacked, board=board, stack_top="5p1"))
    play(state, "play 1b")
    assert state.view(1)["plays"] == [{"seat": 0, "card": "1b", "took": ["1p1"]}]
    play(state, "take 5r")
    assert state.view(1)["plays"][1:] == [{"seat": 0, "card": "5p1", "took": ["5r"]}]

    state = new_game(1, PLAYERS, deck=akatan_decks)
    play(state, *FIRST_FIVE_TURNS)
    plays = state.view(None)["plays"]
    assert [p["card"] for p in plays[::2]] == [c.split()[1] for c in FIRST_FIVE_TURNS]
    assert [p["seat"] for p in plays] == [0, 0, 1, 1, 0, 0, 1, 1, 0, 0]
    play(state, "stop")
    assert state.view(None)["round"] == 2 and state.view(None)["plays"] == []


def test_a_state_pickled_without_the_record_loads(stacked) -> None:
    """A state pickled by the code before ``plays`` (no such attribute) loads: its record
    starts with the last turn (what that code kept), and the match plays on."""
    board = "9a 10a 11b 12b 5r 5p2 1p1 2p1"
    state = new_game(1, PLAYERS, deck=deck_from(stacked, board=board, stack_top="5p1 6p1"))
    play(state, "play 1b", "take 5r")
    for phase_moves, expected in (
        ((), [{"seat": 0, "card": "1b", "took": ["1p1"]}, {"seat": 0, "card": "5p1", "took": ["5r"]}]),
        (("play 6r",), [{"seat": 1, "card": "6r", "took": []}, {"seat": 1, "card": "6p1", "took": ["6r"]}]),
    ):  # fmt: skip
        now = state.clone()
        play(now, *phase_moves)
        old = now.clone()
        del old.__dict__["plays"]
        loaded = pickle.loads(pickle.dumps(old))
        assert loaded.view(0)["plays"] == expected
        assert {**loaded.view(0), "plays": []} == {**now.view(0), "plays": []}
        play(loaded, loaded.legal_actions(loaded.to_act[0])[0])
        assert len(loaded.view(None)["plays"]) == len(expected) + 2
    # Pickled while a flip waits for its target: the record holds that turn's play only.
    state = new_game(1, PLAYERS, deck=deck_from(stacked, board=board, stack_top="5p1"))
    play(state, "play 1b")
    old = state.clone()
    del old.__dict__["plays"]
    loaded = pickle.loads(pickle.dumps(old))
    assert loaded.view(None)["plays"] == [{"seat": 0, "card": "1b", "took": ["1p1"]}]
    play(loaded, "take 5r")
    assert loaded.view(None)["plays"] == state.view(None)["plays"] + [
        {"seat": 0, "card": "5p1", "took": ["5r"]}
    ]


# ----- void deals and instant wins --------------------------------------------------------


def test_four_of_a_month_on_the_board_voids_the_deal(stacked) -> None:
    void = stacked(DEALER, SECOND, "12b 12p1 12p2 12p3 9a 10a 11b 1p1")
    good = deck_from(stacked)
    state = new_game(1, PLAYERS, deck=[void, good])
    v = state.view(1)
    assert (v["deal"], v["void_deals"], v["round"], v["history"]) == (2, 1, 1, [])
    assert v["dealer"] == 1 and state.to_act == [1]  # the Second becomes Dealer
    assert v["hand"] == parse_cards(DEALER)  # the new dealer gets cards 0-7
    assert any(
        e.text.startswith("Deal void: four Paulownia cards on the board") for e in state.events
    )


def test_four_pairs_on_the_board_voids_the_deal(stacked) -> None:
    void = stacked(DEALER, "1r 2r 3r 4r 5r 6r 7r 11b", "9a 9r 10a 10r 12b 12p1 8a 8p1")
    state = new_game(1, PLAYERS, deck=[void, deck_from(stacked)])
    assert state.void_deals == 1 and state.view(None)["dealer"] == 1
    assert any("four pairs on the board" in e.text for e in state.events)


@pytest.mark.parametrize(("holder", "winner"), [("dealer", 0), ("second", 1)])
def test_teshi_wins_six_points_at_once(stacked, holder: str, winner: int) -> None:
    state = new_game(1, PLAYERS, deck=[teshi_deck(stacked, holder), deck_from(stacked)])
    v = state.view(None)
    assert v["history"] == [
        {
            "round": 1,
            "dealer": 0,
            "winner": winner,
            "points": 6,
            "reason": "teshi",
            "yaku": [{"name": "Teshi", "points": 6}],
        }
    ]
    assert v["scores"] == [6 if s == winner else 0 for s in (0, 1)]
    assert (v["round"], v["deal"], v["dealer"]) == (2, 2, winner)  # the winner deals next
    assert f"{PLAYERS[winner]} holds teshi (four Pine cards) and wins 6 points." in [
        e.text for e in state.events
    ]


def test_kuttsuki_wins_six_points(stacked) -> None:
    pairs = "1b 1r 2a 2r 3b 3r 4a 4r"
    deck = stacked("5a 6a 7a 8b 9a 10a 11b 12b", pairs, "5r 6r 7r 8a 9r 10r 11a 12p1")
    state = new_game(1, PLAYERS, deck=[deck, deck_from(stacked)])
    assert state.history[0]["reason"] == "kuttsuki" and state.scores == [0, 6]


def test_both_players_with_an_instant_win_void_the_deal(stacked) -> None:
    both = stacked(
        "1b 1r 1p1 1p2 2a 3b 4a 5a", "2r 2p1 3r 3p1 4r 4p1 5r 5p1", "6r 7r 8a 9r 10a 11b 12b 6a"
    )
    state = new_game(1, PLAYERS, deck=[both, deck_from(stacked)])
    assert state.history == [] and state.scores == [0, 0]
    assert state.void_deals == 1 and state.view(None)["dealer"] == 1


def test_the_board_is_checked_before_the_hands(stacked) -> None:
    # The dealer holds teshi, but the board has four pairs: the deal is void, nobody scores.
    deck = stacked(
        "1b 1r 1p1 1p2 2a 3b 4a 5a", "2r 3r 4r 5r 6r 7r 11b 11a", "9a 9r 10a 10r 12b 12p1 8a 8p1"
    )
    state = new_game(1, PLAYERS, deck=[deck, deck_from(stacked)])
    assert state.history == [] and state.void_deals == 1 and state.scores == [0, 0]


# ----- yaku, koi-koi and stopping ----------------------------------------------------------


def test_a_new_yaku_asks_koikoi_or_stop_and_stop_scores(akatan_decks, first_five_turns) -> None:
    state = new_game(1, PLAYERS, deck=akatan_decks)
    play(state, *first_five_turns)
    v = state.view(0)
    assert v["phase"] == "decide" and v["pending"] == {"points": 6}
    assert v["yaku"][0] == [{"name": "Akatan", "points": 6}] and v["yaku_points"] == [6, 0]
    assert state.legal_actions(0) == ["koikoi", "stop"]
    assert state.default_action(0) == "stop"
    events = state.apply(0, "stop")
    assert "Alice stops with Akatan 6 = 6 points." in [e.text for e in events]
    assert any(e.kind == "deal_end" for e in events)
    assert state.scores == [6, 0]
    assert state.history[0] | {"yaku": None} == {
        "round": 1, "dealer": 0, "winner": 0, "points": 6, "reason": "stop", "yaku": None,
    }  # fmt: skip
    assert state.history[0]["yaku"] == [{"name": "Akatan", "points": 6}]
    v = state.view(0)
    assert (v["round"], v["dealer"], v["phase"]) == (2, 0, "play")  # the winner deals again
    assert v["captures"] == [[], []] and v["koikoi"] == [False, False]


def test_koikoi_then_the_opponent_stops_and_the_caller_scores_nothing(
    akatan_decks, first_five_turns
) -> None:
    state = new_game(1, PLAYERS, deck=akatan_decks)
    play(state, *first_five_turns)
    events = state.apply(0, "koikoi")
    assert [e.text for e in events] == ["Alice calls Koi-Koi!"]
    assert state.view(None)["koikoi"] == [True, False] and state.to_act == [1]
    play(state, "play 6a")  # takes the Butterflies; the flip 8p2 takes 8p1
    v = state.view(1)
    assert v["phase"] == "decide" and v["yaku_points"] == [6, 5]
    play(state, "stop")
    assert state.scores == [0, 5]
    assert state.history[0]["winner"] == 1 and state.history[0]["points"] == 5
    assert state.view(None)["dealer"] == 1 and state.to_act == [1]  # the winner deals


# Alice takes the three poetry ribbons (Akatan), then two more ribbons (Tanzaku 1), then a
# sixth (Tanzaku 2); Bob's plays and the flips take nothing that makes him a yaku.
UPGRADE_DEAL = dict(
    dealer="1r 2r 3r 4r 5r 6r 8a 12b",
    second="7a 7r 11a 11r 8b 9a 10a 12p3",
    board="1p1 2p1 3p1 4p1 5p1 6p1 9p1 10p1",
    stack_top="11b 7p1 11p1 12p2 8p1 7p2 8p2 12p1 4a 5a 2a",
)


def test_a_new_yaku_or_an_upgrade_after_koikoi_asks_again(stacked) -> None:
    state = new_game(1, PLAYERS, deck=[stacked(**UPGRADE_DEAL), deck_from(stacked)])
    play(state, "play 1r", "play 7a", "play 2r", "play 11a", "play 3r")
    assert state.phase == "decide" and state.yaku_points == [6, 0]
    play(state, "koikoi", "play 8b", "play 4r", "play 9a")
    assert state.phase == "play"  # four ribbons: no new yaku, no decision
    play(state, "play 5r")  # a new yaku on top of the old: Tanzaku 1 + Akatan 6
    assert state.phase == "decide" and state.to_act == [0]
    assert state.view(0)["pending"] == {"points": 7}
    play(state, "koikoi", "play 10a", "play 6r")  # an upgrade of a yaku already made
    assert state.phase == "decide" and state.view(0)["pending"] == {"points": 8}
    assert state.view(0)["yaku"][0] == [
        {"name": "Tanzaku", "points": 2},
        {"name": "Akatan", "points": 6},
    ]
    events = state.apply(0, "stop")
    assert "Alice stops with Tanzaku 2 + Akatan 6 = 8 points." in [e.text for e in events]
    # Two koi-koi calls double nothing: she scores her yaku total, once.
    assert state.scores == [8, 0] and state.history[0]["points"] == 8


def test_no_new_yaku_means_no_decision(akatan_decks, first_five_turns) -> None:
    state = new_game(1, PLAYERS, deck=akatan_decks)
    play(state, *first_five_turns, "koikoi", "play 4r")  # Bob takes nothing new of worth
    assert state.view(None)["phase"] == "play" and state.to_act == [0]
    play(state, "play 4a")  # Alice's yaku total is unchanged: no decision
    assert state.view(None)["phase"] == "play" and state.to_act == [1]


# Found by search: with "first legal action" play, the first yaku of this deal comes on the
# dealer's last card (an automatic stop), ...
LAST_CARD_DEALER = (
    "1r 9r 10a 1b 6a 6p2 4p1 4a 2p2 8b 12b 12p3 12p2 2r 11r 3p2 6r 7p2 4p2 3p1 12p1 1p2 3r 2a "
    "10p2 8a 10p1 5r 9p2 11a 11b 2p1 9p1 5p1 3b 11p1 4r 10r 6p1 8p1 5p2 7r 8p2 9a 5a 1p1 7p1 7a"
)
# ... the Second's last card (an automatic stop) ...
LAST_CARD_SECOND = (
    "10p2 12p1 3r 6p1 1p2 4a 2p1 3b 5p2 7p2 10a 2r 5a 5r 10r 9p1 12p3 6r 4p1 6a 8b 1r 8p2 2p2 "
    "7a 7r 2a 1p1 11p1 11r 8a 6p2 9p2 1b 4p2 9r 10p1 3p2 9a 11a 4r 8p1 5p1 11b 12p2 12b 7p1 3p1"
)
# ... never (a draw) ...
NO_YAKU = (
    "7p1 9p1 9p2 11b 11a 1b 7a 9r 11p1 10p1 1p1 10r 6r 12p2 2a 4a 7r 8a 5p2 3p1 8p2 6p2 5a 8p1 "
    "9a 12b 2p1 4r 3r 12p3 5p1 12p1 10a 7p2 11r 6a 1p2 5r 4p1 2r 6p1 2p2 3p2 8b 10p2 1r 4p2 3b"
)
# ... or early for the dealer, who calls koi-koi and never improves again (a draw).
KOIKOI_DRAW = (
    "7r 12p3 3p2 5r 1p2 6p1 5p2 12b 3p1 2p1 11p1 7p1 7a 12p1 4r 6r 3r 1r 5p1 2r 1p1 10p2 8p2 9p2 "
    "8b 8a 2p2 11r 7p2 6a 9r 9a 10a 4a 4p1 5a 11a 1b 2a 12p2 11b 8p1 10p1 6p2 3b 9p1 10r 4p2"
)


def play_first_legal(state: KoiKoiState) -> None:
    """Play the first legal action (koi-koi on every decision) until round 1 ends."""
    while not state.history:
        seat = state.to_act[0]
        state.apply(seat, "koikoi" if state.phase == "decide" else state.legal_actions(seat)[0])


@pytest.mark.parametrize(("deck", "winner"), [(LAST_CARD_DEALER, 0), (LAST_CARD_SECOND, 1)])
def test_a_yaku_on_the_last_card_stops_automatically(stacked, deck: str, winner: int) -> None:
    state = new_game(1, PLAYERS, deck=[deck, deck_from(stacked)])
    play_first_legal(state)
    assert not any(e.kind == "koikoi" for e in state.events)  # no decision was ever asked
    h = state.history[0]
    assert h["winner"] == winner and h["reason"] == "stop" and h["points"] > 0
    assert state.scores[winner] == h["points"] and state.scores[1 - winner] == 0
    assert any(e.kind == "stop" and "stops on the last card" in e.text for e in state.events)
    assert state.view(None)["dealer"] == winner


def test_second_plays_last_card_without_yaku_is_a_draw_and_roles_swap(stacked) -> None:
    state = new_game(1, PLAYERS, deck=[NO_YAKU, deck_from(stacked)])
    play_first_legal(state)
    assert state.log[-1][0] == 1  # the Second played the last card
    assert state.history[0] == {
        "round": 1, "dealer": 0, "winner": None, "points": 0, "reason": "draw", "yaku": [],
    }  # fmt: skip
    assert state.scores == [0, 0]
    assert "Round 1 is a draw; Bob deals next." in [e.text for e in state.events]
    v = state.view(1)
    assert (v["round"], v["dealer"]) == (2, 1) and state.to_act == [1]


def test_koikoi_points_are_lost_in_a_draw(stacked) -> None:
    state = new_game(1, PLAYERS, deck=[KOIKOI_DRAW, deck_from(stacked)])
    play_first_legal(state)
    assert [e.seat for e in state.events if e.kind == "koikoi"] == [0]
    assert state.history[0]["reason"] == "draw" and state.scores == [0, 0]
    assert state.view(None)["dealer"] == 1


# ----- the match -----------------------------------------------------------------------------


def test_six_rounds_end_the_match_void_deals_do_not_count(stacked) -> None:
    void = stacked(DEALER, SECOND, "12b 12p1 12p2 12p3 9a 10a 11b 1p1")
    dealer_teshi, second_teshi = teshi_deck(stacked, "dealer"), teshi_deck(stacked, "second")
    # Alice deals and wins twice; a void makes Bob dealer; his Second (Alice) wins; Alice
    # deals and her Second (Bob) wins; Bob deals and wins twice.
    decks = [
        dealer_teshi,
        dealer_teshi,
        void,
        second_teshi,
        second_teshi,
        dealer_teshi,
        dealer_teshi,
    ]
    state = new_game(1, PLAYERS, deck=decks)
    assert state.is_over and state.log == []
    assert [h["winner"] for h in state.history] == [0, 0, 0, 1, 1, 1]
    assert [h["dealer"] for h in state.history] == [0, 0, 1, 0, 1, 1]
    v = state.view(None)
    assert (v["round"], v["deal"], v["void_deals"], v["phase"]) == (6, 7, 1, "over")
    assert v["to_act"] == [] and v["scores"] == [18, 18]
    result = state.result()
    assert result.scores == (18, 18) and result.placements == (1, 1)  # a tie
    assert "The match ends in a tie, 18–18." in [e.text for e in state.events]
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0, "play 1b")


def test_match_winner_has_the_highest_total(stacked) -> None:
    state = new_game(1, PLAYERS, deck=[teshi_deck(stacked, "second")] * 6)
    # Bob wins round 1 and deals from then on, so the Second's teshi is Alice's.
    assert [h["winner"] for h in state.history] == [1, 0, 1, 0, 1, 0]
    state = new_game(1, PLAYERS, deck=[teshi_deck(stacked, "dealer")] * 6)
    assert state.scores == [36, 0] and state.result().placements == (1, 2)
    assert "The match is over: Alice wins 36–0." in [e.text for e in state.events]


def test_twelve_rounds_option(stacked) -> None:
    state = new_game(1, PLAYERS, {"rounds": 12}, deck=[teshi_deck(stacked, "dealer")] * 12)
    assert state.is_over and len(state.history) == 12 and state.scores == [72, 0]
    assert state.view(None)["rounds"] == 12
    state = new_game(1, PLAYERS, KoiKoiOptions(rounds=12), deck=[teshi_deck(stacked, "dealer")] * 6)
    assert not state.is_over and state.view(None)["round"] == 7


@pytest.mark.parametrize("options", [{"rounds": 7}, {"rounds": "6"}, {"round": 6}])
def test_bad_options_are_refused(options: dict) -> None:
    with pytest.raises(ValueError):
        new_game(1, PLAYERS, options)
    with pytest.raises(ValueError, match="6 or 12"):
        KoiKoiOptions(rounds=8)


def test_two_players_only() -> None:
    with pytest.raises(ValueError, match="2 players"):
        new_game(1, ["Alice", "Bob", "Carol"])


# ----- illegal actions -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "code", "message"),
    [
        (1, "play 1r", "not your turn"),
        (0, "play 1r", "not in your hand"),
        (0, "play 13x", "not a hanafuda card"),
        (0, "play", "which card"),
        (0, "koikoi", "Play a card"),
        (0, "take 1p1", "Play a card"),
        (0, "play 1b 1p1", "by itself"),
        (0, "play 5a 5p1", "matches nothing"),
        (2, "play 1b", "not seated"),
    ],
)
def test_illegal_actions_raise_and_change_nothing(stacked, seat, code, message) -> None:
    state = new_game(1, PLAYERS, deck=deck_from(stacked))
    before = state.snapshot()
    with pytest.raises(IllegalAction, match=message):
        state.apply(seat, code)
    assert state.snapshot() == before


def test_decide_phase_refuses_plays(akatan_decks, first_five_turns) -> None:
    state = new_game(1, PLAYERS, deck=akatan_decks)
    play(state, *first_five_turns)
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="koikoi"):
        state.apply(0, "play 4a")
    assert state.snapshot() == before
    play(state, "Koi-Koi")  # spelled as players say it
    assert state.koikoi == [True, False]


def test_default_actions(stacked) -> None:
    board = "9a 10a 11b 12b 3r 3p1 1p1 2p1"
    state = new_game(1, PLAYERS, deck=deck_from(stacked, board=board))
    # The dealer's cheapest card: an animal (no plains or ribbons in hand), first in order.
    assert state.default_action(0) == "play 2a"
    state = new_game(
        1, PLAYERS, deck=deck_from(stacked, dealer="3b 3p2 1b 2a 4a 5a 6a 7a", board=board)
    )
    assert state.default_action(0) == "play 3p2 3r"  # lowest value, first target
    with pytest.raises(IllegalAction):
        state.default_action(1)


def test_replay_rebuilds_the_state(akatan_decks, first_five_turns) -> None:
    state = new_game(1, PLAYERS, deck=akatan_decks)
    play(state, *first_five_turns, "koikoi", "play 6a", "stop")
    again = replay(1, PLAYERS, None, state.log, deck=akatan_decks)
    assert again.snapshot() == state.snapshot()


def test_cards_are_all_dealt() -> None:
    state = new_game(7, PLAYERS)
    dealt = state.hands[0] + state.hands[1] + state.board + state.stack
    assert sorted(dealt) == sorted(ALL_CARDS)
