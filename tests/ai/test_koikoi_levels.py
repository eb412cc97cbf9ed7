"""Koi-Koi's AI levels: easy, normal, strong; the strong search sees only its view."""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Iterator

import pytest

from bot.engine.search import Budget
from bot.games.hanafuda.cards import ALL_CARDS
from bot.games.koikoi import SPEC, choose, judge, new_game, strong
from bot.games.koikoi.ai import choose_easy
from bot.games.koikoi.judge import _choose_play, _Position, opponent_lacks
from bot.games.koikoi.rules import MONTH, KoiKoiState, card_value
from bot.games.koikoi.strong import (
    _counts,
    _greedy_play,
    _policy_play,
    _policy_target,
    _Round,
    choose_one_ply,
    choose_searched,
    choose_strong,
    count_points,
    hot_cards,
    sample_world,
)

FIXED = Budget(samples=6, seconds=None)  # no clock: deterministic


def _positions(seeds: range, every: int = 1) -> list[tuple[KoiKoiState, int]]:
    """States met while the normal AI plays itself (every phase occurs)."""
    out = []
    for seed in seeds:
        state = new_game(seed, ["A", "B"])
        rng = random.Random(seed)
        step = 0
        while not state.is_over:
            seat = state.to_act[0]
            if step % every == 0:
                out.append((state.clone(), seat))
            state.apply(seat, choose(state.view(seat), state.legal_actions(seat), rng))
            step += 1
    return out


def _visible(view: dict) -> Counter:
    seen = Counter(view["hand"]) + Counter(view["board"])
    seen += Counter(view["captures"][0]) + Counter(view["captures"][1])
    if (view.get("pending") or {}).get("card"):
        seen[view["pending"]["card"]] += 1
    return seen


def test_the_spec_declares_three_levels_and_normal_is_choose() -> None:
    assert list(SPEC.ai_levels()) == ["easy", "normal", "strong"]
    assert SPEC.ai("normal") is choose is SPEC.choose
    assert SPEC.ai("strong") is SPEC.levels["strong"]
    assert SPEC.ai("grandmaster") is choose  # an unknown stored level plays normal


def test_the_strong_samples_hold_exactly_the_cards_the_seat_cannot_see() -> None:
    phases = Counter()
    for state, seat in _positions(range(6), every=2):
        view = state.view(seat)
        phases[view["phase"]] += 1
        unseen = Counter(ALL_CARDS) - _visible(view)
        opp = 1 - seat
        for k, weight in ((0, 1.0), (1, 1.0), (2, 1.0), (3, 0.05), (4, 0.0)):
            world = sample_world(view, random.Random(k), weight)
            hidden = Counter(world.hands[opp]) + Counter(world.stack)
            assert hidden == unseen  # the multiset of unseen cards, nothing else
            assert sorted(world.hands[seat]) == sorted(view["hand"])
            assert world.board == view["board"]
            assert [sorted(c) for c in world.captures] == [sorted(c) for c in view["captures"]]
            assert len(world.hands[opp]) == state.view(None)["hand_counts"][opp]
            assert len(world.stack) == view["stack_count"]
    assert {"play", "choose_flip", "decide"} <= set(phases)


def test_the_samples_read_the_laid_cards_as_a_belief_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the reading (``lack_weight`` below 1) the opponent's sampled hand avoids the
    months they are believed to lack — never at the price of a card the seat has seen:
    the sample holds the unseen cards and nothing else, and where the reading leaves too
    few unseen cards for their hand (a player who holds captures back) the rest come from
    the lacked months. Against a player who takes whenever they can it is never wrong."""
    fired = 0
    for _state, view in _normal_against_a_taker(range(60, 60 + 4)):
        lacks = opponent_lacks(view)
        unseen = Counter(ALL_CARDS) - _visible(view)
        if lacks and view["hand_counts"][1]:
            fired += 1
            for k, weight in enumerate((0.0, 0.05, 0.5)):
                world = sample_world(view, random.Random(k), weight)
                assert Counter(world.hands[1]) + Counter(world.stack) == unseen
                if weight == 0.0:  # a taker's hand: the reading is exact
                    assert not {MONTH[c] for c in world.hands[1]} & lacks
    assert fired >= 30
    # Too few other cards (a reading that names all months but one): the hand takes
    # cards of the lacked months, never a card the seat has seen.
    state, seat = next((st, s) for st, s in _positions(range(1)) if st.phase == "play")
    view = state.view(seat)
    unseen = Counter(ALL_CARDS) - _visible(view)
    months = sorted({MONTH[c] for c in unseen})
    monkeypatch.setattr(judge, "opponent_lacks", lambda v: frozenset(months[1:]))
    for k in range(3):
        world = sample_world(view, random.Random(k), 0.0)
        assert Counter(world.hands[1 - seat]) + Counter(world.stack) == unseen
        assert len(world.hands[1 - seat]) == view["hand_counts"][1 - seat]


def test_a_searching_thread_keeps_its_own_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """Searches of several tables run at once in worker threads: the reading one thread
    cached for its view is not replaced by another thread's reading of another view."""
    views = [st.view(s) for st, s in _positions(range(2)) if st.phase == "play"][:2]
    mine = strong._lacks(views[0])
    worker = threading.Thread(target=strong._lacks, args=(views[1],))
    worker.start()
    worker.join()

    def unread(view: object) -> frozenset[int]:
        raise AssertionError("the reading of this thread's view was read again")

    monkeypatch.setattr(judge, "opponent_lacks", unread)
    assert strong._lacks(views[0]) == mine


@pytest.mark.parametrize("plies", [0, 2], ids=["normal-search", "strong-search"])
def test_what_the_seat_cannot_see_changes_nothing_the_searches_do(plies: int) -> None:
    """A twin with the opponent's hand and the stack dealt differently (the same counts):
    the seat's view is the same, and so are the samples and the searched choice — of
    normal (no plays left to the one-ply judgement in its playouts) and of strong."""
    for state, seat in _positions(range(3), every=5):
        twin = state.clone()
        opp = 1 - seat
        pool = twin.hands[opp] + twin.stack
        random.Random(99).shuffle(pool)
        twin.hands[opp], twin.stack = pool[: len(twin.hands[opp])], pool[len(twin.hands[opp]) :]
        if twin.hands[opp] == state.hands[opp] and twin.stack == state.stack:
            continue
        view = state.view(seat)
        assert twin.view(seat) == view
        legal = state.legal_actions(seat)
        a = choose_searched(view, legal, random.Random(5), FIXED, plies)
        b = choose_searched(twin.view(seat), legal, random.Random(5), FIXED, plies)
        assert a == b


def _engine_greedy(state: KoiKoiState, seat: int) -> str:
    if state.phase == "decide":
        return "stop"
    legal = state.legal_actions(seat)
    if state.phase == "choose_flip":
        return max(legal, key=lambda c: card_value(c.split()[1]))
    card, target = _greedy_play(state.hands[seat], state.board)
    return f"play {card} {target}" if target else f"play {card}"


def _engine_policy(state: KoiKoiState, seat: int) -> str:
    """The normal-like playout policy, driving the real state machine."""
    if state.phase == "decide":
        return "stop"
    mine, theirs = _counts(state.captures[seat]), _counts(state.captures[1 - seat])
    if state.phase == "choose_flip":
        return "take " + _policy_target(state.flip_options, mine, theirs)
    card, target = _policy_play(state.hands[seat], state.board, mine, theirs)
    return f"play {card} {target}" if target else f"play {card}"


@pytest.mark.parametrize("smart", [False, True])
def test_the_fast_playout_ends_rounds_exactly_as_the_rules_do(smart: bool) -> None:
    """The search's list-based round (no events) against the real state machine, with
    either playout policy (greedy, or the normal-like one the strong AI plays on with)."""
    policy = _engine_policy if smart else _engine_greedy
    checked = 0
    for state, seat in _positions(range(4), every=3):
        view = state.view(seat)
        for code in state.legal_actions(seat):
            world = sample_world(view, random.Random(checked))
            fast = _Round(world, smart=smart).run(code)
            world.apply(seat, code)
            while not world.is_over:
                world.apply(world.current, policy(world, world.current))
            end = world.history[-1]
            assert fast == (end["winner"], end["points"]), (view["phase"], code)
            checked += 1
    assert checked > 100


def test_the_playouts_first_plays_can_be_the_normal_ais_own() -> None:
    """With plays left to the one-ply judgement (strong's ``NORMAL_PLIES``), the
    list-based round plays those as normal's one-ply judgement does from the seat's view
    of the sampled round (no record of plays: no reading), then the normal-like policy —
    as the real state machine does."""
    table = {"scores": [0, 0], "round": 1, "rounds": 6}
    checked = 0
    for state, seat in _positions(range(3), every=4):
        view = state.view(seat)
        for code in state.legal_actions(seat)[:3]:
            for plies in (1, 3):
                world = sample_world(view, random.Random(checked))
                fast_round = _Round(world, smart=True)
                fast_round.normal, fast_round.table = plies, table
                fast = fast_round.run(code)
                world.apply(seat, code)
                left = plies
                while not world.is_over:
                    s = world.current
                    if world.phase == "play" and left:
                        left -= 1
                        v = {**world.view(s), **table, "plays": None, "last_play": None}
                        hand = world.hands[s]
                        move = _choose_play(v, world.legal_actions(s), random.Random(len(hand)))
                    else:
                        move = _engine_policy(world, s)
                    world.apply(s, move)
                end = world.history[-1]
                assert fast == (end["winner"], end["points"]), (view["phase"], code, plies)
                checked += 1
    assert checked > 40


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_the_levels_play_legal_moves_and_repeat_with_the_same_dice(level: str) -> None:
    for state, seat in _positions(range(2), every=3):
        view, legal = state.view(seat), state.legal_actions(seat)
        if level == "normal":  # its search has no clock: the same on any machine
            first = choose(view, legal, random.Random(1))
            again = choose(view, legal, random.Random(1))
        elif level == "strong":
            first = choose_strong(view, legal, random.Random(1), FIXED)
            again = choose_strong(view, legal, random.Random(1), FIXED)
        else:
            first = choose_easy(view, legal, random.Random(1))
            again = choose_easy(view, legal, random.Random(1))
        assert first in legal and first == again


def test_the_easy_ai_makes_plausible_mistakes_not_nonsense() -> None:
    """The easy AI's play is normal's, or a capture; it lays a card without taking
    anything only when normal would, or when nothing can be taken (then its cheapest)."""
    from bot.games.koikoi.rules import MONTH

    laid_cheapest = took_other = 0
    for state, seat in _positions(range(4)):
        view, legal = state.view(seat), state.legal_actions(seat)
        if view["phase"] != "play" or len(legal) == 1:
            continue
        months = {MONTH[b] for b in view["board"]}
        for k in range(4):
            code = choose_easy(view, legal, random.Random(k))
            assert code in legal
            if len(code.split()) == 3 or MONTH[code.split()[1]] in months:
                took_other += code != choose(view, legal, random.Random(k))
                continue
            normal = choose(view, legal, random.Random(k))
            can_take = any(len(c.split()) == 3 or MONTH[c.split()[1]] in months for c in legal)
            if can_take:
                assert code == normal
            else:
                cheapest = min(card_value(c.split()[1]) for c in legal)
                assert code == normal or card_value(code.split()[1]) == cheapest
                laid_cheapest += 1
    assert took_other > 0 and laid_cheapest > 0  # both kinds of position were met


def test_the_playouts_yaku_totals_are_the_rules_totals() -> None:
    from bot.games.koikoi.rules import score_yaku
    from bot.games.koikoi.strong import _counts, count_points

    rng = random.Random(3)
    for _ in range(3000):
        pile = rng.sample(ALL_CARDS, rng.randrange(0, 30))
        assert count_points(_counts(pile)) == sum(p for _, p in score_yaku(pile)), pile


def _decide_views(limit: int) -> list[dict]:
    views = []
    for state, seat in _positions(range(40)):
        if state.phase == "decide" and len(state.hands[seat]) >= 2:
            views.append(state.view(seat))
            if len(views) >= limit:
                break
    return views


def test_the_koikoi_call_in_the_last_round_follows_the_match() -> None:
    """Normal weighs Koi-Koi by playing the round out; in the last round a playout is judged
    by the match: far behind, stopping loses for sure, so it plays on; a point ahead,
    stopping wins the match, and playing on would only give the opponent the chance to
    turn it, so it stops."""
    views = _decide_views(8)
    assert len(views) >= 4
    for view in views:
        me = view["seat"]
        last = dict(view, round=view["rounds"])
        behind = dict(last, scores=[0, 0])
        behind["scores"][1 - me] = view["pending"]["points"] + 40
        ahead = dict(last, scores=[0, 0])
        ahead["scores"][me] = 1
        assert choose(behind, ["koikoi", "stop"], random.Random(2)) == "koikoi"
        assert choose(ahead, ["koikoi", "stop"], random.Random(2)) == "stop"


def test_the_hot_cards_are_exactly_those_that_raise_the_yaku_total() -> None:
    rng = random.Random(11)
    hot_seen = 0
    for _ in range(1500):
        pile = rng.sample(ALL_CARDS, rng.randrange(0, 30))
        before = count_points(_counts(pile))
        hot = hot_cards(_counts(pile))
        for c in ALL_CARDS:
            if c not in pile:
                raises = count_points(_counts([*pile, c])) > before
                assert (c in hot) == raises, (pile, c)
                hot_seen += raises
    assert hot_seen > 1000


def test_the_playout_policy_makes_a_yaku_before_a_richer_capture_and_denies_one() -> None:
    """Greedy takes the Crane (a bright) over the Sake cup; the normal-like policy takes
    the Sake cup when it is our fifth animal (Tane), and, with nothing of ours at stake,
    the Boar the opponent's Ino-Shika-Cho waits for over the Crane."""
    board = ["1b", "9a"]
    hand = ["1p1", "9p1"]
    mine = _counts(["2a", "4a", "5a", "8a"])  # four animals: a fifth makes Tane
    assert _greedy_play(hand, board) == ("1p1", None)
    assert _policy_play(hand, board, mine, _counts([])) == ("9p1", None)
    theirs = _counts(["6a", "10a"])  # Butterflies and Deer: the Boar completes it
    assert _policy_play(["1p1", "7p1"], ["7a", "1b"], _counts([]), theirs) == ("7p1", None)
    assert _greedy_play(["1p1", "7p1"], ["7a", "1b"]) == ("1p1", None)


def _play_view(theirs: list[str]) -> dict:
    """Seat 0 to play: the Deer (10a) and a Cherry plain (3p1) on the board, a card of each
    month in hand; ``theirs`` is the opponent's capture pile."""
    hand = ["10p1", "3p2", "12p1"]
    return {
        "seat": 0,
        "phase": "play",
        "hand": hand,
        "board": ["10a", "3p1", "5p1", "7p1"],
        "captures": [["1p1", "2p1"], theirs],
        "pending": None,
        "hand_counts": [3, 3],
        "yaku_points": [0, 0],
        "scores": [0, 0],
        "round": 1,
        "rounds": 6,
    }


def test_normal_lets_a_capture_wait_when_nobody_else_can_make_it() -> None:
    """With the other Maple cards (10r, 10p2) in the opponent's pile, nobody but us can
    take the Deer: normal spends this turn on the Cherry plain, which the opponent could
    take (3b and 3r are unseen), and takes the Deer later. With 10p2 unseen the Deer may
    go to the opponent's hand first, and the richer capture comes first again. (The rule
    is normal's one-ply judgement, its search's prior.)"""
    legal = ["play 10p1", "play 3p2", "play 12p1"]
    sure = _play_view(["10r", "10p2", "6p1"])
    assert choose_one_ply(sure, legal, random.Random(1)) == "play 3p2"
    contested = _play_view(["10r", "6p1", "6p2"])
    assert choose_one_ply(contested, legal, random.Random(1)) == "play 10p1"


def test_normal_does_not_wait_with_a_capture_that_makes_its_yaku() -> None:
    """The same sure Deer, but our pile holds the Boar and the Butterflies: the Deer makes
    Ino-Shika-Cho now (we may stop before the opponent scores), so it does not wait."""
    view = _play_view(["10r", "10p2", "6p1"])
    view["captures"] = [["7a", "6a"], ["10r", "10p2", "6p1"]]
    legal = ["play 10p1", "play 3p2", "play 12p1"]
    assert choose_one_ply(view, legal, random.Random(1)) == "play 10p1"


def _always_takes(view: dict, legal: list[str], rng: random.Random) -> str:
    """A player that takes a card whenever it can (else lays its first card)."""
    board_months = {MONTH[c] for c in view["board"]}
    takes = [c for c in legal if c.split()[0] != "play" or MONTH[c.split()[1]] in board_months]
    return (takes or legal)[0]


def _normal_against_a_taker(games: range) -> Iterator[tuple[KoiKoiState, dict]]:
    """Seeded games (``new_game(g)``) of normal in seat 0 against a player who takes
    whenever it can: the state and seat 0's view at each of normal's decisions, before
    normal answers (its dice: ``random.Random(g - games.start)``)."""
    for g in games:
        state = new_game(g, ["A", "B"])
        rng = random.Random(g - games.start)
        while not state.is_over:
            seat = state.to_act[0]
            view = state.view(seat)
            legal = state.legal_actions(seat)
            if seat == 0:
                yield state, view
                code = choose(view, legal, rng)
            else:
                code = _always_takes(view, legal, rng)
            state.apply(seat, code)


def test_a_card_laid_turns_ago_still_rules_its_board_months_out() -> None:
    """The opponent (seat 1) laid the Iris ribbon on turn 1 and took nothing: the board
    then held Pine, Plum, Chrysanthemum and Maple cards, so their hand held none of those
    months then — and holds none now (a hand only shrinks). Their last play took a card
    (the last turn alone tells nothing); the whole round still rules the four months out,
    the Maple Deer still on the board among them."""
    plays = [
        {"seat": 1, "card": "5r", "took": []},
        {"seat": 1, "card": "6p1", "took": []},
        {"seat": 0, "card": "1b", "took": ["1p1"]},
        {"seat": 0, "card": "2r", "took": ["2p1"]},
        {"seat": 1, "card": "6r", "took": ["6p1"]},
        {"seat": 1, "card": "11p1", "took": []},
        {"seat": 0, "card": "9p1", "took": ["9a"]},
        {"seat": 0, "card": "12p1", "took": []},
    ]
    view = {
        "seat": 0,
        "phase": "play",
        "hand": ["3b", "10p1", "4a"],
        "board": ["10a", "5r", "11p1", "12p1"],
        "captures": [["1b", "1p1", "2r", "2p1", "9p1", "9a"], ["6r", "6p1"]],
        "pending": None,
        "hand_counts": [3, 4],
        "yaku_points": [0, 0],
        "scores": [0, 0],
        "round": 1,
        "rounds": 6,
        "plays": plays,
        "last_play": plays[-4],
        "last_flip": plays[-3],
    }
    assert opponent_lacks(view) == {1, 2, 9, 10}
    assert opponent_lacks({k: v for k, v in view.items() if k != "plays"}) == frozenset()
    assert _Position(view).p_opp_holds(10) == 0.0  # the Deer is safe from their hand
    # Our own laid cards tell nothing of their hand; neither do their captures.
    mine = [{**p, "seat": 1 - p["seat"]} for p in plays]
    assert opponent_lacks({**view, "plays": mine}) == frozenset()  # (they took each time)


def test_the_whole_round_reading_never_names_a_month_a_taker_holds() -> None:
    """Against a player who takes whenever they can, every month the whole-round reading
    names is absent from their true hand, in every phase of our turns; it names all the
    last play's months and, over these games, often more."""
    fired = more = 0
    for state, view in _normal_against_a_taker(range(40, 40 + 6)):
        lacks = opponent_lacks(view)
        assert not {MONTH[c] for c in state.hands[1]} & lacks
        last = opponent_lacks({**view, "plays": None})
        assert last <= lacks
        fired += bool(lacks)
        more += len(lacks) > len(last)
    assert fired >= 50 and more >= 20


def test_normal_reads_a_laid_card_as_no_match_in_the_opponents_hand() -> None:
    """An opponent that laid a card and took nothing held no card of any month on the board
    they played to: normal (from the view: today's board less their play and flip) names
    those months, and their true hand holds none of them; it counts the chance they hold
    such a month as nil, and a month it cannot rule out as likelier than before."""
    fired = 0
    for state, view in _normal_against_a_taker(range(0, 0 + 4)):
        lacks = opponent_lacks(view)
        assert not {MONTH[c] for c in state.hands[1]} & lacks
        if lacks and view["phase"] == "play":
            fired += 1
            pos = _Position(view)
            plain = _Position({**view, "last_play": None, "plays": []})
            for month in range(1, 13):
                if month in lacks:
                    assert pos.p_opp_holds(month) == 0.0
                else:
                    assert pos.p_opp_holds(month) >= plain.p_opp_holds(month)
    assert fired >= 10
    # Our own laid card, or the opponent's capture, tells nothing.
    state = new_game(0, ["A", "B"])
    view = state.view(state.to_act[0])
    assert (
        opponent_lacks({**view, "last_play": {"seat": view["seat"], "card": "1b", "took": []}})
        == frozenset()
    )
    opp = 1 - view["seat"]
    assert (
        opponent_lacks({**view, "last_play": {"seat": opp, "card": "1b", "took": ["1p1"]}})
        == frozenset()
    )
