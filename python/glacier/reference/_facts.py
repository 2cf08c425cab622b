"""The facts each game declares for the tools around it (the engine's ``GameFacts``,
game.rs): its reference module holds ``FACTS``, the one declaration of them. The engine's
``facts.rs`` of the game is written from it (``python tests/facts_rs.py``), and a test
checks that the built engine's ``glacier.game_spec`` says the same, field by field."""

from __future__ import annotations

from typing import NamedTuple, Optional, Union


class BenchDepths(NamedTuple):
    """Workloads of the benchmarks (see ``glacier.BenchDepths``)."""

    perft: tuple[int, int]
    playouts: int
    perft_bench: tuple[int, int, int]
    hashed_perft: Optional[tuple[int, int]]


class PerftCase(NamedTuple):
    """A perft check: the position (None: the start) with its parameters, to a depth."""

    text: Optional[str]
    params: dict[str, int]
    depth: int


class Picture(NamedTuple):
    """A picture of the gallery: a position (None: the start) and how it is shown."""

    name: str
    caption: str
    text: Optional[str] = None
    params: dict[str, int] = {}  # noqa: RUF012  (never changed: a declaration)
    last_move: Optional[str] = None
    arrows: tuple[Union[str, tuple[str, str]], ...] = ()
    perspective: Optional[int] = None
    flipped: bool = False
    cell_names: bool = False


class Facts(NamedTuple):
    """What a game declares for the tools: the fields of ``glacier.GameSpec`` after its
    parameters, in the same order."""

    seats: dict[int, tuple[str, ...]]
    mcts_player: dict[str, Union[int, str]]
    net_player: dict[str, Union[int, float, str]]
    playout_plies: int
    bench: BenchDepths
    table_checks: tuple[PerftCase, ...]
    starts: dict[str, tuple[str, dict[str, int]]]
    kin: dict[str, Optional[str]]
    pictures: tuple[Picture, ...]
    variants: tuple[dict[str, int], ...]
