"""Pitting San Da Yi policies against each other (AI strength tests and benchmarks). Pure.

A policy is ``(state, seat, rng) -> code``: :func:`ai_policy` asks the AI with the seat's
view only; :func:`random_policy` picks a uniformly random legal action.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.engine.rng import make_rng
from bot.games.sandayi.ai import choose
from bot.games.sandayi.rules import Options, SanDaYiState
from bot.games.sandayi.views import HandRecord

Policy = Callable[[SanDaYiState, int, random.Random], str]
PLAYERS = ("North", "East", "South", "West")


def ai_policy(state: SanDaYiState, seat: int, rng: random.Random) -> str:
    return choose(state.view(seat), state.legal_actions(seat), rng)


def random_policy(state: SanDaYiState, seat: int, rng: random.Random) -> str:
    return rng.choice(state.legal_actions(seat))


def forced_hand(
    seed: int | str, declarer_policy: Policy, defender_policy: Policy, bid: int = 60
) -> HandRecord:
    """One hand where the first bidder declares at ``bid`` (the others pass), played out by
    the two policies; returns the hand's history entry."""
    state = SanDaYiState(seed, PLAYERS, Options(hands=1))
    rng = make_rng(seed, "arena")
    declarer = state.to_act[0]
    state.apply(declarer, f"bid {bid}")
    while state.phase == "bidding":
        state.apply(state.to_act[0], "pass")
    while not state.is_over:
        seat = state.to_act[0]
        policy = declarer_policy if seat == declarer else defender_policy
        state.apply(seat, policy(state, seat, rng))
    return state.history[-1]


@dataclass(frozen=True)
class DeclarerStats:
    hands: int
    mean_declarer: float  # mean settlement of the declarer per hand
    declarer_win_rate: float  # hands settled in the declarer's favour (2C, 2D)
    kou_di_rate: float

    @property
    def mean_defenders(self) -> float:
        """Mean settlement of the three defenders together per hand."""
        return -self.mean_declarer


def declarer_stats(
    seeds: Sequence[int | str], declarer_policy: Policy, defender_policy: Policy, bid: int = 60
) -> DeclarerStats:
    entries = [forced_hand(s, declarer_policy, defender_policy, bid) for s in seeds]
    pays = [e["settlement"][e["declarer"]] for e in entries]
    return DeclarerStats(
        hands=len(entries),
        mean_declarer=statistics.mean(pays),
        declarer_win_rate=sum(p > 0 for p in pays) / len(pays),
        kou_di_rate=sum(e["kou_di"] for e in entries) / len(entries),
    )


def match(seed: int | str, policies: Sequence[Policy], hands: int = 8) -> SanDaYiState:
    """A whole match (bidding included) with one policy per seat."""
    state = SanDaYiState(seed, PLAYERS, Options(hands=hands))
    rng = make_rng(seed, "arena")
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, policies[seat](state, seat, rng))
    return state
