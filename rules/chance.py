"""The game's only source of chance: a SplitMix64 stream whose whole state is one integer.

Keeping the generator to a single integer makes a state snapshot small, replay exact, and lets the server
publish a hash of the seed at the start of a game and reveal it at the end (provably fair dice).
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence
from typing import TypeVar

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
T = TypeVar("T")


def next_value(stream: int) -> tuple[int, int]:
    """Advance the stream; return (new stream state, a 64-bit output)."""
    stream = (stream + GOLDEN) & MASK
    z = stream
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return stream, z ^ (z >> 31)


def below(stream: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) by rejection, so no value is favoured."""
    limit = MASK - (MASK % n) if n else 0
    while True:
        stream, value = next_value(stream)
        if value < limit:
            return stream, value % n


DIE_LIMIT = MASK - (MASK % 6)


def two_dice(stream: int) -> tuple[int, int, int]:
    """Two dice, 1 to 6: exactly `below(stream, 6)` twice, inlined because every turn rolls (straight-line
    code with the constants written out; a draw the rejection step refuses, about 1 in 6e18, takes the loop)."""
    s1 = (stream + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((s1 ^ (s1 >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    a = z ^ (z >> 31)
    s2 = (s1 + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((s2 ^ (s2 >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    b = z ^ (z >> 31)
    if a < DIE_LIMIT and b < DIE_LIMIT:
        return s2, a % 6 + 1, b % 6 + 1
    stream, first = below(stream, 6)
    stream, second = below(stream, 6)
    return stream, first + 1, second + 1


def shuffle(stream: int, items: MutableSequence[T]) -> int:
    """Fisher-Yates shuffle in place; returns the new stream state (`below` inlined: every game shuffles)."""
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = MASK - (MASK % n)
        while True:
            stream = (stream + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
            z = ((stream ^ (stream >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        items[i], items[j] = items[j], items[i]
    return stream


def seed_commitment(seed: int, salt: str = "") -> str:
    """The public hash of a seed: published when a game starts, checked against the seed revealed at its end.

    A seed has 62 bits: hashed alone, 2^62 guesses would find it (and every future roll) from the commitment. The
    server hashes it with a secret salt of 128 bits, revealed with the seed; games committed before salts (no
    salt) hash the seed alone."""
    text = f"catan-seed:{seed}:{salt}" if salt else f"catan-seed:{seed}"
    return hashlib.sha256(text.encode()).hexdigest()
