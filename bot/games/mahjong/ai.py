"""placeholder"""
import random


def choose(view, legal, rng: random.Random) -> str:
    return rng.choice(list(legal))
