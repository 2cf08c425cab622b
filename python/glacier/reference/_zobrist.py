"""Zobrist keys from SplitMix64, exactly as the engine derives them (rust/glacier-core/src/zobrist.rs).

``key(seed, i)`` is the ``i``-th output (from 0) of SplitMix64 started at ``seed``.
"""

from __future__ import annotations

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def key(seed: int, index: int) -> int:
    return mix((seed + (index + 1) * GAMMA) & MASK)


def table(seed: int, first: int, count: int) -> list[int]:
    return [key(seed, first + i) for i in range(count)]
