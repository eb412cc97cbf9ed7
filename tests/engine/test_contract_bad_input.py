"""The contract on bad input, for every game: ``apply`` raises only IllegalAction, whatever
it is given (non-strings, empty or huge strings, unknown cards, garbage arguments, codes of
other seats, seats that do not exist) and changes nothing; ``legal_actions`` of a seat that
does not exist is empty; ``default_action`` and ``view`` of such a seat raise IllegalAction.

States come from seeded random playouts (``random_states``), one of every kind of moment
met (passing, bidding, bury, claim windows, pending choices...) plus random ones.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import IllegalAction, State
from tests.engine.random_states import GAMES, finished_state, sample_states

BAD_SEATS: list[Any] = [-1, -4, 4, 99, None, "0", 1.0, True, [0], 10**30]

NOT_STRINGS: list[Any] = [None, 0, 1.5, b"play", ["pass"], {}, ("pass",), object()]

JUNK: list[str] = [
    "",
    " ",
    "\n",
    "\t \r\n",
    "\x00",
    "x" * 100_000,
    "play " + "1b " * 10_000,
    "play",
    "pass pass",
    "play zz",
    "play 11p1 zz",
    "play 99x",
    "play 1b 1b",
    "take zz",
    "take",
    "bid -5",
    "bid 1e9",
    "bid 60.0",
    "bid ²",
    "bid ٦٠",
    "bid",
    "discard",
    "discard zz",
    "discard f9",
    "kong",
    "kong zz",
    "chow zz zz zz",
    "chow 1b 1b",
    "extend ²",
    "declare zz",
    "give",
    "give left",
    "give left zz",
    "give up 5t",
    "give left 5t left 5t",
    "pass_cards a b c",
    "play catfish=zz",
    "play catfish=",
    "play catfish=² 5t",
    "wish",
    "wish ²",
    "wish 1 2",
    "gift",
    "gift zz",
    "gift 9",
    "gift -1",
    "bury",
    "bury zz zz zz zz zz zz",
    "bury ² ² ² ² ² ²",
    "trump",
    "trump Z",
    "trump ²",
    "cancel zz",
    "koikoi zz",
    "stop 1",
    "mahjong zz",
    "call zz",
    "🀄",
    "play 🀄",
    "ｐｌａｙ １ｂ",
    "play\u00a0zz",
    "play 1\u0301b",
    "\ud800",
    "play \u202e1b",
    "PLAY ZZ",
    "None",
]


def _fingerprint(state: State) -> tuple[Any, ...]:
    views = [state.view(s) for s in range(state.num_seats)] + [state.view(None)]
    return state.version, list(state.log), len(state.events), views


def _seats_to_try(state: State) -> list[Any]:
    acting = sorted(set(state.to_act) | set(state.may_act))
    idle = [s for s in range(state.num_seats) if s not in acting]
    return acting + idle[:1] + BAD_SEATS


def _variants(state: State, seat: int) -> list[str]:
    """Garbage built from the seat's legal codes: each verb with unknown arguments, a legal
    code with an extra word, the legal codes of the other seats."""
    legal = state.legal_actions(seat) if isinstance(seat, int) else []
    out: list[str] = []
    verbs = sorted({c.split()[0] for c in legal if c.split()})
    for verb in verbs:
        out += [f"{verb} zz", f"{verb} ²", f"{verb} zz zz zz zz zz zz zz", f"{verb} -1"]
    for code in legal[:3] + legal[-3:]:
        words = code.split()
        out.append(f"{code} zz")
        if len(words) >= 2:
            out.append(f"{words[0]} {words[1]} zz")
            out.append(f"{words[0]} {words[1]} ²")
    return out


def _others_codes(state: State, seat: int) -> list[str]:
    """Legal codes of the other seats that this seat may not play itself."""
    own = set(state.legal_actions(seat)) if isinstance(seat, int) else set()
    out: list[str] = []
    for other in range(state.num_seats):
        if other != seat:
            out += [c for c in state.legal_actions(other)[:4] if c not in own]
    return out


def _assert_refused(state: State, seat: Any, code: Any, before: tuple[Any, ...]) -> None:
    try:
        state.apply(seat, code)
    except IllegalAction as exc:
        assert isinstance(exc.reason, str) and exc.reason
    except Exception as exc:  # noqa: BLE001 - the point of the test
        raise AssertionError(
            f"{state.game}: apply({seat!r}, {str(code)[:60]!r}) raised {type(exc).__name__}: {exc}"
        ) from exc
    else:
        raise AssertionError(f"{state.game}: apply({seat!r}, {str(code)[:60]!r}) was accepted")
    assert _fingerprint(state) == before, f"{state.game}: a refused action changed the state"


def _states(game: str) -> list[State]:
    return sample_states(game, 1, 6) + [finished_state(game, 2)]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_apply_refuses_garbage_with_illegal_action_only(game: str) -> None:
    for state in _states(game):
        before = _fingerprint(state)
        for seat in _seats_to_try(state):
            codes: list[Any] = NOT_STRINGS + JUNK
            if isinstance(seat, int) and not isinstance(seat, bool):
                codes = codes + _variants(state, seat) + _others_codes(state, seat)
            for code in codes:
                _assert_refused(state, seat, code, before)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_other_case_is_refused_or_means_the_legal_code(game: str) -> None:
    """A legal code in other letter case is either refused (IllegalAction) or taken as that
    very code."""
    for state in _states(game)[:-1]:
        for seat in sorted(set(state.to_act) | set(state.may_act)):
            legal = state.legal_actions(seat)
            for code in legal[:4] + legal[-4:]:
                for variant in {code.upper(), code.swapcase(), code.title()} - {code}:
                    trial = state.clone()
                    before = _fingerprint(trial)
                    try:
                        trial.apply(seat, variant)
                    except IllegalAction:
                        assert _fingerprint(trial) == before
                        continue
                    expected = state.clone()
                    expected.apply(seat, code)
                    assert trial.log == expected.log, (game, variant, trial.log[-1])


@pytest.mark.parametrize("game", sorted(GAMES))
def test_bad_seats_elsewhere_in_the_contract(game: str) -> None:
    for state in _states(game):
        before = _fingerprint(state)
        for seat in BAD_SEATS:
            assert state.legal_actions(seat) == [], (game, seat)
            with pytest.raises(IllegalAction):
                state.default_action(seat)
            if seat is not None:
                with pytest.raises(IllegalAction):
                    state.view(seat)
        assert _fingerprint(state) == before


def test_codes_and_seats_are_checked_before_the_game_sees_them() -> None:
    """The engine core refuses what no game could mean, with a reason for the player."""
    state = GAMES["koikoi"].new_game(1, ["Ann", "Bob"])
    seat = state.to_act[0]
    with pytest.raises(IllegalAction, match="not seated"):
        state.apply(True, state.legal_actions(1)[0] if state.legal_actions(1) else "x")
    with pytest.raises(IllegalAction, match="text"):
        state.apply(seat, None)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="too long"):
        state.apply(seat, "play " + "x" * 10_000)
