"""E (Martian Chinese Checkers), hand-verified positions for every rule of
docs/rules/martian_chinese_checkers.md, on both implementations.

Hex names: letter a..m is q = -6..6, number 1..13 is r + 7 (s = -q - r). Handy facts used below:
- row 3 (r = -4): e3 f3 are territory 2, g3 is the q = 0 border ray (homes of 1 and 2), h3 i3
  j3 are territory 1, k3 is the s = 0 ray (homes of 0 and 1), l3 m3 are territory 0;
- row 7 (r = 0): a7..f7 are the ray in the homes of 2 and 3, g7 the centre (every home),
  h7..m7 the ray in the homes of 0 and 5;
- directions: east (1,0) is letter+1, west letter-1, (0,-1) number-1, (0,1) number+1,
  (1,-1) letter+1 number-1, (-1,1) letter-1 number+1.

With 2 players the colours are 0 (player 0) and 3 (player 1), so territories 1 and 2 and the
q = 0 ray are nobody's home. ``position()`` parks every piece a test does not place in one stack
per colour (small, medium, large from the bottom) on a corner far from the action, so the texts
hold the full 15 pieces per colour; tests look at the moves of the pieces they placed.
"""

from __future__ import annotations

import math
import re
from typing import Any, Optional

import pytest

import glacier
from glacier import reference
from glacier.errors import IllegalMoveError, InvalidParameterError, InvalidPositionError, InvalidRecordError
from glacier.reference import _zobrist
from glacier.svg import gallery, render
from glacier.svg import martian_chinese_checkers as drawing
from svg_checks import SVG, delta_e, elements, inside_convex, linear_rgb, points, tree

GAME = "martian_chinese_checkers"
SEATS = {2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4), 5: (0, 1, 2, 3, 4), 6: (0, 1, 2, 3, 4, 5)}
#: Each colour's parking corner (in its own home, far from the hexes the tests use).
PARK = {0: "m1", 1: "g1", 2: "a7", 3: "a13", 4: "g13", 5: "m7"}
#: Room for colours 0 and 3 to park in low stacks, along the edges near their corners.
PARK_LINE = {
    0: ["m1", "l1", "k1", "j1", "i1", "h1", "g1", "m2", "m3", "m4", "m5", "m6", "m7", "l2", "k2"],
    3: ["a13", "b13", "c13", "d13", "e13", "f13", "g13", "a12", "a11", "a10", "a9", "a8", "a7", "b12", "c12"],
}

START_2P = (
    "2 0 0 a8=3l a9=3l a10=3l a11=3l a12=3l b8=3m b9=3m b10=3m b11=3m c8=3s c9=3m c10=3s d8=3s "
    "d9=3s e8=3s i6=0s j5=0s j6=0s k4=0s k5=0m k6=0s l3=0m l4=0m l5=0m l6=0m m2=0l m3=0l m4=0l "
    "m5=0l m6=0l"
)

#: The hexes of each territory with the size of the piece the set-up puts there.
TERRITORY_START = {
    0: "i6=s j5=s j6=s k4=s k5=m k6=s l3=m l4=m l5=m l6=m m2=l m3=l m4=l m5=l m6=l",
    1: "h1=l h2=m h3=s h4=s h5=s i1=l i2=m i3=m i4=s j1=l j2=m j3=s k1=l k2=m l1=l",
    2: "b6=l c5=l c6=m d4=l d5=m d6=s e3=l e4=m e5=m e6=s f2=l f3=m f4=s f5=s f6=s",
    3: "a8=l a9=l a10=l a11=l a12=l b8=m b9=m b10=m b11=m c8=s c9=m c10=s d8=s d9=s e8=s",
    4: "b13=l c12=m c13=l d11=s d12=m d13=l e10=s e11=m e12=m e13=l f9=s f10=s f11=s f12=m f13=l",
    5: "h8=s h9=s h10=s h11=m h12=l i8=s i9=m i10=m i11=l j8=s j9=m j10=l k8=m k9=l l8=l",
}


def territory(t: int, colour: int) -> dict[str, str]:
    """Territory ``t`` filled as at the start, with pieces of ``colour``."""
    return {cell.split("=")[0]: f"{colour}{cell.split('=')[1]}" for cell in TERRITORY_START[t].split()}


def position(
    stacks: dict[str, str], players: int = 2, to_move: int = 0, ply: int = 0, height: Optional[int] = None
) -> str:
    """A position text with ``stacks``; each seated colour's missing pieces are parked, in one
    stack on its corner, or (with ``height``, for stack limits) in stacks of at most ``height``
    pieces along the board's edge near that corner (colours 0 and 3 only)."""
    counts = {(c, s): 0 for c in SEATS[players] for s in "sml"}
    for stack in stacks.values():
        for k in range(0, len(stack), 2):
            counts[int(stack[k]), stack[k + 1]] += 1
    stacks = dict(stacks)
    for c in SEATS[players]:
        missing = [f"{c}{s}" for s in "sml" for _ in range(5 - counts[c, s])]
        spots = [PARK[c]] if height is None else PARK_LINE[c]
        chunk = max(len(missing), 1) if height is None else height
        for spot, k in zip(spots, range(0, len(missing), chunk)):
            assert spot not in stacks
            stacks[spot] = "".join(missing[k : k + chunk])
    return f"{players} {to_move} {ply} " + " ".join(f"{h}={s}" for h, s in stacks.items())


def state_of(impl: Any, stacks: dict[str, str], players: int = 2, to_move: int = 0, ply: int = 0, **params: Any) -> Any:
    text = position(stacks, players, to_move, ply, height=params.get("stack_limit"))
    return impl.from_text(GAME, text, players=players, **params)


def moves_from(state: Any, place: str) -> list[str]:
    return [m for m in state.legal_moves() if m.startswith(place + "-")]


def stacks_of(state: Any) -> dict[str, str]:
    return dict(field.split("=") for field in state.text().split()[3:])


# --- set-up ------------------------------------------------------------------------------


def test_start_two_players(impl: Any) -> None:
    state = impl.new_game(GAME)
    assert state.text() == START_2P
    assert state.num_players == 2 and state.current_player == 0 and not state.is_terminal()
    assert state.params == {"players": 2, "stack_limit": None, "max_plies": 2000}


def test_start_all_player_counts(impl: Any) -> None:
    for n, seats in SEATS.items():
        state = impl.new_game(GAME, players=n)
        assert state.num_players == n and state.current_player == 0
        expected = {}
        for colour in seats:
            expected.update(territory(colour, colour))
        assert stacks_of(state) == expected, n


def test_start_moves_two_players(impl: Any) -> None:
    """Worked out by hand: 12 small, 12 medium and 4 large movements (perft(1) = 28)."""
    state = impl.new_game(GAME)
    expected = [
        # small: the tip i6 has four empty neighbours, the other four smalls two each
        "i6/0-h6",
        "i6/0-h7",
        "i6/0-i5",
        "i6/0-i7",
        "j6/0-i7",
        "j6/0-j7",
        "j5/0-i5",
        "j5/0-j4",
        "k6/0-j7",
        "k6/0-k7",
        "k4/0-j4",
        "k4/0-k3",
        # medium: k5 jumps out over its four neighbours; each of l3..l6 has two ways out
        "k5/0-k3",
        "k5/0-i5",
        "k5/0-i7",
        "k5/0-k7",
        "l6/0-j8",
        "l6/0-l8",
        "l5/0-j7",
        "l5/0-l7",
        "l4/0-l2",
        "l4/0-j4",
        "l3/0-l1",
        "l3/0-j3",
        # large: m6 walks out, m5 and m3 jump a neighbour first, m2 walks out; m4 is boxed in
        "m6/0-j9",
        "m5/0-j8",
        "m3/0-j3",
        "m2/0-j2",
    ]
    assert state.legal_moves() == sorted(expected)


# --- movement ----------------------------------------------------------------------------


def test_small_steps_one_hex_every_way(impl: Any) -> None:
    state = state_of(impl, {"h4": "0s"})
    assert moves_from(state, "h4/0") == ["h4/0-g4", "h4/0-g5", "h4/0-h3", "h4/0-h5", "h4/0-i3", "h4/0-i4"]


@pytest.mark.parametrize(
    ("between", "legal"),
    [
        ({}, True),  # step + step
        ({"f3": "0s"}, True),  # jump over an own piece (a step onto it is refused)
        ({"f3": "3s"}, True),  # step onto an opponent, or jump it
        ({"f3": "3s0s"}, True),  # jump over a stack topped by an own piece
        ({"g3": "0s"}, False),  # never land on an own piece
        ({"g3": "3s"}, True),  # landing on an opponent outside its home
    ],
)
def test_medium_moves_two_hexes(impl: Any, between: dict, legal: bool) -> None:
    state = state_of(impl, {"e3": "0m", **between})
    assert ("e3/0-g3" in state.legal_moves()) is legal
    assert "e3/0-f3" not in state.legal_moves() and "e3/0-h3" not in state.legal_moves()


@pytest.mark.parametrize(
    ("between", "legal"),
    [
        ({}, True),  # 1+1+1
        ({"f3": "0s"}, True),  # 2+1: jump f3 onto g3, step to h3
        ({"g3": "0s"}, True),  # 1+2: step to f3, jump g3 onto h3
        ({"f3": "0s", "g3": "0s"}, False),  # two own pieces in a row: no split works
        ({"f3": "3s", "g3": "0s"}, True),  # 1+2 touching down on the opponent on f3
        ({"f3": "0s", "g3": "3s"}, True),  # 2+1 touching down on the opponent on g3
        ({"h3": "0s"}, False),  # the last hex is own
        ({"f3": "3s", "g3": "3s", "h3": "3s"}, True),  # opponents outside their home: 1+1+1
    ],
)
def test_large_moves_three_hexes_in_any_split(impl: Any, between: dict, legal: bool) -> None:
    state = state_of(impl, {"e3": "0l", **between})
    assert ("e3/0-h3" in state.legal_moves()) is legal


def test_a_movement_is_one_move_however_split(impl: Any) -> None:
    # f3 and g3 hold opponents: 1+1+1, 1+2 and 2+1 all work, and it is still one move.
    state = state_of(impl, {"e3": "0l", "f3": "3s", "g3": "3s"})
    assert state.legal_moves().count("e3/0-h3") == 1
    state.play("e3/0-h3")
    assert stacks_of(state)["h3"] == "0l" and "e3" not in stacks_of(state)
    assert state.current_player == 1 and state.text().split()[:3] == ["2", "1", "1"]


def test_landing_on_another_colour_stacks(impl: Any) -> None:
    state = state_of(impl, {"h4": "0s", "h3": "3m"})
    state.play("h4/0-h3")
    assert stacks_of(state)["h3"] == "3m0s"
    assert "h4" not in stacks_of(state)


def test_board_edge_stops_a_movement(impl: Any) -> None:
    # e3 lies on the edge (s = 6): west and (0,-1) leave the board at once.
    state = state_of(impl, {"e3": "0m"})
    assert moves_from(state, "e3/0") == ["e3/0-c5", "e3/0-e5", "e3/0-g1", "e3/0-g3"]


# --- the home-territory rule -------------------------------------------------------------


def test_no_trap_in_its_home_but_jumping_it_is_fine(impl: Any) -> None:
    # e7 is on the ray in colour 3's home: a 3s there may not be trapped, even part-way.
    state = state_of(impl, {"d7": "0m", "e7": "3s"})
    assert "d7/0-f7" in state.legal_moves()  # a jump over e7
    small = state_of(impl, {"d7": "0s", "e7": "3s"})
    assert "d7/0-e7" not in small.legal_moves()
    # Landing on f7 would trap a 3s there: refused at the end of the move too.
    end = state_of(impl, {"d7": "0m", "e7": "3s", "f7": "3s"})
    assert "d7/0-f7" not in end.legal_moves()


def test_a_smaller_piece_traps_nothing(impl: Any) -> None:
    state = state_of(impl, {"d7": "0s", "e7": "3m"})
    assert "d7/0-e7" in state.legal_moves()  # small on medium: the medium is not trapped
    state.play("d7/0-e7")
    assert stacks_of(state)["e7"] == "3m0s"


def test_home_rule_refuses_every_split(impl: Any) -> None:
    # d7 and e7 both hold a 3s in its home: 1+1+1 and 1+2 touch d7, 2+1 touches e7.
    home = state_of(impl, {"c7": "0l", "d7": "3s", "e7": "3s"})
    assert "c7/0-f7" not in home.legal_moves()
    assert "c7/0-f7" in state_of(impl, {"c7": "0l", "e7": "3s"}).legal_moves()  # 1+2 over e7
    # The same pieces outside colour 3's home are fine to touch down on.
    away = state_of(impl, {"e3": "0l", "f3": "3s", "g3": "3s"})
    assert "e3/0-h3" in away.legal_moves()


def test_home_rule_on_the_centre(impl: Any) -> None:
    state = state_of(impl, {"h7": "0s", "g7": "3s"})
    assert "h7/0-g7" not in state.legal_moves()
    state = state_of(impl, {"h7": "0s", "g7": "3m"})
    assert "h7/0-g7" in state.legal_moves()


def test_home_rule_protects_the_movers_own_pieces(impl: Any) -> None:
    # k3 is on the ray in colour 0's home: landing on it would trap the mover's own 0s.
    home = state_of(impl, {"i3": "0m", "k3": "0s3s"})
    assert "i3/0-k3" not in home.legal_moves()
    assert "i3/0-k3" in state_of(impl, {"i3": "0m", "k3": "3s"}).legal_moves()  # k3 is not colour 3's home
    # h3 is in nobody's home (territory 1, unseated): the same stack may be landed on.
    away = state_of(impl, {"f3": "0m", "h3": "0s3s"})
    assert "f3/0-h3" in away.legal_moves()


def test_home_rule_counts_pieces_already_trapped(impl: Any) -> None:
    # Three players (colours 0, 2, 4). f4 is in territory 2; its 2s is already trapped by 4l.
    state = state_of(impl, {"h4": "0m", "f4": "2s4l"}, players=3)
    assert "h4/0-f4" not in state.legal_moves()
    assert "h4/0-f4" in state_of(impl, {"h4": "0m", "f4": "4l"}, players=3).legal_moves()
    # Only pieces at most the mover's size count: a 2m under the 4l stops the medium but not a small.
    state = state_of(impl, {"h4": "0m", "f4": "2m4l"}, players=3)
    assert "h4/0-f4" not in state.legal_moves()
    state = state_of(impl, {"g4": "0s", "f4": "2m4l"}, players=3)
    assert "g4/0-f4" in state.legal_moves()
    # The same stack in nobody's home is fine for the medium.
    state = state_of(impl, {"j3": "0m", "h3": "2s4l"}, players=3)
    assert "j3/0-h3" in state.legal_moves()


# --- stacks, riders and trapping ----------------------------------------------------------


def test_riders_come_along_and_pieces_below_stay(impl: Any) -> None:
    state = state_of(impl, {"h3": "3s0m3s"})
    assert moves_from(state, "h3/0") == [] and moves_from(state, "h3/2") == []
    assert "h3/1-j3" in state.legal_moves()
    state.play("h3/1-j3")
    stacks = stacks_of(state)
    assert stacks["h3"] == "3s" and stacks["j3"] == "0m3s"
    # Player 1 now moves both of its freed smalls: the one left behind and the rider.
    assert moves_from(state, "h3/0") and moves_from(state, "j3/1")


def test_riders_are_not_checked(impl: Any) -> None:
    # The rider 3s ends above the 0m, not on the 3s of j3: only the moved piece touches down.
    state = state_of(impl, {"h3": "0m3s", "j3": "3s"})
    state.play("h3/0-j3")
    assert stacks_of(state)["j3"] == "3s0m3s"
    # A rider of the mover's colour neither: the 0m lands on a 3s, the 0s rides on the 0m.
    state = state_of(impl, {"h3": "0m0s", "j3": "3s"})
    state.play("h3/0-j3")
    assert stacks_of(state)["j3"] == "3s0m0s"


def test_trapped_pieces_cannot_move(impl: Any) -> None:
    state = state_of(impl, {"h3": "0s3m"})
    assert moves_from(state, "h3/0") == []
    with pytest.raises(IllegalMoveError, match="trapped"):
        state.play("h3/0-i3")
    equal = state_of(impl, {"h3": "0m3m"})  # at least as large traps
    assert moves_from(equal, "h3/0") == []
    smaller = state_of(impl, {"h3": "0m3s"})
    assert moves_from(smaller, "h3/0") != []


def test_the_top_of_a_stack_moves_alone(impl: Any) -> None:
    state = state_of(impl, {"h3": "0s3m"}, to_move=1)
    state.play("h3/1-j3")
    stacks = stacks_of(state)
    assert stacks["h3"] == "0s" and stacks["j3"] == "3m"


# --- stack limit ---------------------------------------------------------------------------


def test_stack_limit_counts_pieces_there_plus_moving(impl: Any) -> None:
    one = state_of(impl, {"h4": "0s", "h3": "3s"}, stack_limit=2)
    assert "h4/0-h3" in one.legal_moves()  # 1 + 1
    two = state_of(impl, {"h4": "0s", "h3": "3m3s"}, stack_limit=2)
    assert "h4/0-h3" not in two.legal_moves()  # 2 + 1
    assert "h4/0-h3" in state_of(impl, {"h4": "0s", "h3": "3m3s"}).legal_moves()  # no limit
    # Two pieces moving (the 0m and its rider) fit only on an empty hex.
    carried = state_of(impl, {"h4": "0m3s", "f4": "3s"}, stack_limit=2)
    assert "h4/0-f4" not in carried.legal_moves()
    empty = state_of(impl, {"h4": "0m3s"}, stack_limit=2)
    assert "h4/0-f4" in empty.legal_moves()


def test_stack_limit_applies_at_every_touch_down(impl: Any) -> None:
    # f3 is 2 high: the large may jump it but not touch down on it; g3 is own.
    blocked = state_of(impl, {"e3": "0l", "f3": "3m3s", "g3": "0s"}, stack_limit=2)
    assert "e3/0-h3" not in blocked.legal_moves()
    free = state_of(impl, {"e3": "0l", "f3": "3m3s", "g3": "0s"})
    assert "e3/0-h3" in free.legal_moves()  # 1+2 via f3
    jump = state_of(impl, {"e3": "0l", "f3": "3m3s"}, stack_limit=2)
    assert "e3/0-h3" in jump.legal_moves()  # 2+1 over f3


def test_stack_limit_one_forbids_stacking(impl: Any) -> None:
    state = state_of(impl, {"h4": "0s", "h3": "3s", "e3": "0m", "f3": "3s"}, stack_limit=1)
    assert "h4/0-h3" not in state.legal_moves()
    assert "e3/0-g3" in state.legal_moves()  # jumping is still fine


def test_stack_limit_in_texts_and_parameters(impl: Any) -> None:
    with pytest.raises(InvalidPositionError, match="more than the stack_limit 2"):
        state_of(impl, {"h3": "0s3s0m"}, stack_limit=2)
    for bad in (0, -1, "2", 1.5):
        with pytest.raises(InvalidParameterError):
            impl.new_game(GAME, stack_limit=bad)
    assert impl.new_game(GAME, stack_limit=3).params["stack_limit"] == 3
    assert impl.new_game(GAME, stack_limit=None).params["stack_limit"] is None


# --- guard exchanges -------------------------------------------------------------------------


def test_seed_example_one(impl: Any) -> None:
    """Bob's large red (3l) traps Chris's small blue (0s) on h3. Chris (player 0) traps a small
    red with her medium blue and exchanges: the medium blue covers her small blue, the large
    red covers Bob's small red."""
    state = state_of(impl, {"h3": "0s3l", "i3": "3s", "g3": "0m"})
    assert not [m for m in state.legal_moves() if m.startswith("x")]  # nothing to exchange yet
    assert moves_from(state, "g3/0") == [
        "g3/0-e3",
        "g3/0-e5",
        "g3/0-g1",
        "g3/0-g5",
        "g3/0-i1",
        "g3/0-i3",
        "g3/0-i3xi3/1=h3/1",
    ]
    state.play("g3/0-i3xi3/1=h3/1")
    stacks = stacks_of(state)
    assert stacks["h3"] == "0s0m" and stacks["i3"] == "3s3l" and "g3" not in stacks
    assert state.current_player == 1


def test_declined_exchange_can_be_taken_by_either_player_later(impl: Any) -> None:
    """Seed: if the mover does not exchange, the opponent may, as the whole of its turn; and
    if it declines too, the first player may exchange on its next turn."""
    state = state_of(impl, {"h3": "0s3l", "i3": "3s", "g3": "0m"})
    state.play("g3/0-i3")  # the plain move, without the exchange
    assert stacks_of(state)["i3"] == "3s0m"
    assert "xh3/1=i3/1" in state.legal_moves()  # Bob's whole-turn exchange
    state.play("a13/12-d13")  # Bob declines and moves his parked large
    assert "xi3/1=h3/1" in state.legal_moves()  # Chris may exchange as her whole turn
    state.play("xi3/1=h3/1")
    stacks = stacks_of(state)
    assert stacks["h3"] == "0s0m" and stacks["i3"] == "3s3l"


def test_seed_example_two(impl: Any) -> None:
    """Bob's medium red traps Chris's small blue on h3; Chris stacks a large blue on both and
    exchanges: the medium red comes out of the middle onto her large blue."""
    state = state_of(impl, {"h3": "0s3m", "e3": "0l"})
    assert moves_from(state, "e3/0") == ["e3/0-b6", "e3/0-e6", "e3/0-h3", "e3/0-h3xh3/2=h3/1"]
    state.play("e3/0-h3xh3/2=h3/1")
    assert stacks_of(state)["h3"] == "0s0l3m"


def test_seed_final_scenario(impl: Any) -> None:
    """Three players: 0 (you), 2 (Bob), 4 (Chris). Bob's 2l traps your 0s; trapping one of
    Chris's pieces gives no exchange with Bob's guard, trapping one of Bob's does."""
    chris = state_of(impl, {"h3": "0s2l", "i3": "4s", "g3": "0m"}, players=3)
    assert "g3/0-i3" in chris.legal_moves()
    assert not [m for m in chris.legal_moves() if "x" in m]
    bob = state_of(impl, {"h3": "0s2l", "i3": "2s", "g3": "0m"}, players=3)
    assert [m for m in bob.legal_moves() if "x" in m] == ["g3/0-i3xi3/1=h3/1"]


def test_exchange_with_trapped_pieces_in_one_stack(impl: Any) -> None:
    # X = 0m traps 3s and is itself trapped by G = 3l, which traps the 0m: a whole-turn swap.
    state = state_of(impl, {"h3": "3s0m3l"})
    assert moves_from(state, "h3/1") == []
    assert [m for m in state.legal_moves() if "x" in m] == ["xh3/1=h3/2"]
    state.play("xh3/1=h3/2")
    assert stacks_of(state)["h3"] == "3s3l0m"


def test_exchange_names_places_after_the_movement(impl: Any) -> None:
    # The 0l carries 0s and 3m (which traps the 0s) onto the 3s of e3; G is the rider 3m,
    # named at its place after the movement.
    state = state_of(impl, {"h3": "0l0s3m", "e3": "3s"})
    assert [m for m in state.legal_moves() if "x" in m] == ["h3/0-e3xe3/1=e3/3"]
    state.play("h3/0-e3xe3/1=e3/3")
    assert stacks_of(state)["e3"] == "3s3m0s0l"


def test_exchange_is_not_checked_against_landing_rules(impl: Any) -> None:
    # The 3l lands (by the swap) on k3 above the 0l in colour 0's home, trapping it there.
    state = state_of(impl, {"k3": "0l3s", "h3": "0s3l", "i3": "0m"})
    state.play("i3/0-k3xk3/2=h3/1")
    stacks = stacks_of(state)
    assert stacks["k3"] == "0l3s3l" and stacks["h3"] == "0s0m"


def test_exchange_needs_x_to_be_the_moved_piece(impl: Any) -> None:
    state = state_of(impl, {"h3": "0s3l", "i3": "3s0m"})  # X = 0m already traps the 3s
    assert "xi3/1=h3/1" in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="cannot end this move"):
        state.play("m1/12-j1xi3/1=h3/1")  # the parked large moves: it is not X


def test_several_guards_give_several_exchanges(impl: Any) -> None:
    state = state_of(impl, {"h3": "0s3l", "h5": "0s3m", "i3": "3s0m"})
    assert [m for m in state.legal_moves() if m.startswith("x")] == ["xi3/1=h3/1", "xi3/1=h5/1"]


# --- passing ---------------------------------------------------------------------------------


def test_pass_only_when_nothing_else_is_legal(impl: Any) -> None:
    text = "2 0 7 a13=3s3s3s3s3s3m3m3m3m3m3l3l3l3l g7=0s0s0s0s0s0m0m0m0m0m0l0l0l0l0l3l"
    state = impl.from_text(GAME, text)
    assert state.legal_moves() == ["pass"] and not state.is_terminal()
    state.play("pass")
    assert state.text() == text.replace("2 0 7", "2 1 8")
    assert "pass" not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="only legal when"):
        state.play("pass")


# --- the goal --------------------------------------------------------------------------------

#: Colour 0 in its goal (territory 3) except e8; a 3s shares a8 with it.
ALMOST_HOME = {**territory(3, 0), "a8": "3s0l", "f8": "0s"}
del ALMOST_HOME["e8"]


def test_filling_the_goal_wins(impl: Any) -> None:
    state = state_of(impl, ALMOST_HOME)
    assert not state.is_terminal()
    state.play("f8/0-e8")
    assert state.is_terminal() and state.legal_moves() == []
    assert state.returns() == [1.0, -1.0]
    assert state.current_player == 1  # the turn still passes on


def test_goal_needs_one_piece_on_each_hex(impl: Any) -> None:
    stacks = {**ALMOST_HOME, "d9": "0s0s"}
    del stacks["f8"]
    state = state_of(impl, stacks)  # all 15 in the goal territory, but e8 is empty
    assert not state.is_terminal() and state.returns() == [0.0, 0.0]


def test_a_rider_can_win_for_its_owner(impl: Any) -> None:
    # Player 1 (colour 3) moves its 3m with colour 0's last small riding on it onto e8.
    stacks = {**ALMOST_HOME, "g8": "3m0s"}
    del stacks["f8"]
    state = state_of(impl, stacks, to_move=1)
    state.play("g8/0-e8")
    assert stacks_of(state)["e8"] == "3m0s"
    assert state.returns() == [1.0, -1.0]


def test_reading_a_finished_text_checks_from_the_player_before(impl: Any) -> None:
    # Both colours fill their goals (the start with the colours swapped). The check starts
    # with the player before the one to move and goes clockwise.
    swapped = {**territory(3, 0), **territory(0, 3)}
    assert state_of(impl, swapped, to_move=0).returns() == [-1.0, 1.0]
    assert state_of(impl, swapped, to_move=1).returns() == [1.0, -1.0]
    # Three players (colours 0, 2, 4; goals 3, 5, 1): players 1 and 2 both done.
    both = {**territory(5, 2), **territory(1, 4)}
    assert state_of(impl, both, players=3, to_move=0).returns() == [-0.5, -0.5, 1.0]  # 2 first
    assert state_of(impl, both, players=3, to_move=1).returns() == [-0.5, 1.0, -0.5]  # 0 (not done), then 1
    assert state_of(impl, both, players=3, to_move=2).returns() == [-0.5, 1.0, -0.5]  # 1 first


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_returns_for_every_player_count(impl: Any, players: int) -> None:
    seats = SEATS[players]
    winner = players - 1
    colour = seats[winner]
    state = state_of(impl, territory((colour + 3) % 6, colour), players=players, to_move=0, ply=10)
    lose = -1.0 / (players - 1)
    assert state.is_terminal() and state.legal_moves() == []
    assert state.returns() == [1.0 if p == winner else lose for p in range(players)]
    assert impl.new_game(GAME, players=players).returns() == [0.0] * players


# --- the ply limit ---------------------------------------------------------------------------


def test_ply_limit_is_a_draw(impl: Any) -> None:
    state = impl.new_game(GAME, max_plies=1)
    state.play("i6/0-h6")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.current_player == 1
    text = state_of(impl, {}, ply=5, max_plies=5)
    assert text.is_terminal() and text.returns() == [0.0, 0.0]
    assert not state_of(impl, {}, ply=4, max_plies=5).is_terminal()


def test_a_win_on_the_last_ply_counts(impl: Any) -> None:
    state = state_of(impl, ALMOST_HOME, ply=9, max_plies=10)
    state.play("f8/0-e8")
    assert state.returns() == [1.0, -1.0]
    done = dict(ALMOST_HOME, e8="0s")
    del done["f8"]
    assert state_of(impl, done, to_move=1, ply=50, max_plies=10).returns() == [1.0, -1.0]


def test_passes_count_as_plies(impl: Any) -> None:
    text = "2 0 9 a13=3s3s3s3s3s3m3m3m3m3m3l3l3l3l g7=0s0s0s0s0s0m0m0m0m0m0l0l0l0l0l3l"
    state = impl.from_text(GAME, text, max_plies=10)
    state.play("pass")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


# --- hash ------------------------------------------------------------------------------------


def test_hash_follows_the_documented_keys(impl: Any) -> None:
    seed = 0x4D415253
    state = impl.new_game(GAME)
    expected = _zobrist.key(seed, 205740 + 0)
    for field in START_2P.split()[3:]:
        name, stack = field.split("=")
        q, r = "abcdefghijklm".index(name[0]) - 6, int(name[1:]) - 7
        hex_index = sum(1 for qq in range(-6, q) for rr in range(-6, 7) if abs(qq + rr) <= 6)
        hex_index += sum(1 for rr in range(-6, r) if abs(q + rr) <= 6)
        for level in range(len(stack) // 2):
            colour, size = int(stack[2 * level]), "sml".index(stack[2 * level + 1]) + 1
            expected ^= _zobrist.key(seed, ((hex_index * 90 + level) * 6 + colour) * 3 + size - 1)
    assert state.hash() == expected


def test_hash_depends_on_side_to_move_and_stack_order_not_ply(impl: Any) -> None:
    a = state_of(impl, {"h3": "0s3l"}, to_move=0)
    assert a.hash() != state_of(impl, {"h3": "0s3l"}, to_move=1).hash()
    assert a.hash() == state_of(impl, {"h3": "0s3l"}, to_move=0, ply=33).hash()
    assert a.hash() != state_of(impl, {"h3": "3l0s"}, to_move=0).hash()
    three = state_of(impl, {}, players=3, to_move=2)
    assert len({state_of(impl, {}, players=3, to_move=p).hash() for p in range(3)}) == 3
    assert three.current_player == 2


# --- bad input -------------------------------------------------------------------------------

BAD_TEXTS = [
    ("2 0 0", "an E position is"),
    ("7 0 0 i6=0s", "number of players must be 2 to 6"),
    ("02 0 0 i6=0s", "number of players must be 2 to 6"),
    (START_2P.replace("2 0 0", "2 2 0", 1), "player to move must be a number from 0 to 1"),
    (START_2P.replace("2 0 0", "2 x 0", 1), "player to move"),
    (START_2P.replace("2 0 0", "2 0 -1", 1), "ply count"),
    (START_2P.replace("2 0 0", "2 0 01", 1), "ply count"),
    (START_2P.replace("i6=0s", "a1=0s"), "'a1' is not a hex of the board"),
    (START_2P.replace("i6=0s", "n7=0s"), "'n7' is not a hex"),
    (START_2P.replace("i6=0s", "g07=0s"), "'g07' is not a hex"),
    (START_2P.replace("i6=0s", "g14=0s"), "'g14' is not a hex"),
    (START_2P.replace("i6=0s", "m8=0s"), "'m8' is not a hex"),
    (START_2P.replace("i6=0s", "j6=0s"), "hex j6 is listed twice"),
    (START_2P.replace("i6=0s", "i6="), "the stack on i6 must be pieces"),
    (START_2P.replace("i6=0s", "i6=0"), "the stack on i6 must be pieces"),
    (START_2P.replace("i6=0s", "i6=0x"), "bad piece '0x' on i6"),
    (START_2P.replace("i6=0s", "i6=6s"), "bad piece '6s' on i6"),
    (START_2P.replace("i6=0s", "i6=1s"), "colour 1 on i6, but with 2 players the colours are 0, 3"),
    (START_2P.replace(" i6=0s", ""), "colour 0 has 4 small pieces"),
    (START_2P.replace("i6=0s", "i6=0s0s"), "colour 0 has 6 small pieces"),
    (START_2P.replace("i6=0s", "i6=0m"), "colour 0 has 4 small pieces"),
    (START_2P.replace(" i6=0s", "  i6=0s"), "expected '<hex>=<stack>'"),
    (START_2P.replace("i6=0s", "i6:0s"), "expected '<hex>=<stack>'"),
    (START_2P + " ", "expected '<hex>=<stack>'"),
]


@pytest.mark.parametrize(("text", "message"), BAD_TEXTS)
def test_bad_texts(impl: Any, text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        impl.from_text(GAME, text)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_number_of_players_comes_from_the_text(impl: Any, players: int) -> None:
    text = position({"h3": "0m"}, players=players, to_move=players - 1, ply=7)
    state = impl.from_text(GAME, text)
    assert state.num_players == players and state.current_player == players - 1
    assert state.params == {"players": players, "stack_limit": None, "max_plies": 2000}
    assert stacks_of(state)["h3"] == "0m"
    # Given and agreeing is fine; other parameters still come from the caller.
    again = impl.from_text(GAME, text, players=players, max_plies=50)
    assert again.params == {"players": players, "stack_limit": None, "max_plies": 50}
    assert again.text() == state.text() and again.hash() == state.hash()
    # Without a text, the parameter (default 2) decides.
    assert impl.new_game(GAME).num_players == 2


@pytest.mark.parametrize(("in_text", "given"), [(3, 2), (6, 3), (2, 6)])
def test_a_given_player_count_that_disagrees_with_the_text(impl: Any, in_text: int, given: int) -> None:
    text = impl.new_game(GAME, players=in_text).text()
    message = (
        f"the position text has players={in_text}, but players={given} was given "
        "(leave players out to take it from the text)"
    )
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        impl.from_text(GAME, text, players=given)


def test_a_bad_player_count_in_the_text_is_a_position_error(impl: Any) -> None:
    # A count that is not 2-6 states nothing: the text itself is wrong, given players or not.
    for players in ("7", "1", "03", "x"):
        text = START_2P.replace("2", players, 1)
        with pytest.raises(InvalidPositionError, match="the number of players must be 2 to 6"):
            impl.from_text(GAME, text)
        with pytest.raises(InvalidPositionError, match="the number of players must be 2 to 6"):
            impl.from_text(GAME, text, players=2)
    # A bad parameter is still a parameter error, whatever the text says.
    with pytest.raises(InvalidParameterError, match="between 2 and 6, got 7"):
        impl.from_text(GAME, START_2P, players=7)


def test_playouts_and_environments_read_the_player_count_from_the_text() -> None:
    import glacier

    text = glacier.new_game(GAME, players=6).text()
    assert glacier.playouts(GAME, 4, seed=1, position=text, cutoff=6).returns.shape == (4, 6)
    env = glacier.VectorEnv(GAME, num_envs=2, position=text)
    assert env.num_players == 6
    with pytest.raises(InvalidParameterError, match="players=6, but players=3 was given"):
        glacier.playouts(GAME, 4, position=text, players=3)


def test_texts_read_in_any_order_and_written_in_board_order(impl: Any) -> None:
    fields = START_2P.split()
    shuffled = " ".join(fields[:3] + list(reversed(fields[3:])))
    assert impl.from_text(GAME, shuffled).text() == START_2P
    # An own colour directly on its own (only an exchange makes that) reads fine.
    state = state_of(impl, {"h3": "0s0m"})
    assert stacks_of(state)["h3"] == "0s0m"


@pytest.mark.parametrize("players", [7, 1, 0, -2, None, "3"])
def test_bad_player_counts(impl: Any, players: Optional[Any]) -> None:
    with pytest.raises(InvalidParameterError):
        impl.new_game(GAME, players=players)


BAD_MOVES = [
    ("e5", "not an E move"),
    ("i6/0-i5x", "not an E move"),
    ("i6/00-i5", "not an E move"),
    ("i6/0i5", "not an E move"),
    ("z1/0-a1", "not an E move"),
    ("x", "not an E move"),
    ("e5/0-e6", "no piece at e5/0"),
    ("i6/1-i5", "no piece at i6/1"),
    ("e8/0-f8", "has colour 3, not the mover's 0"),
    ("i6/0-i4", "a small piece moves exactly 1 hex in a straight line"),
    ("k5/0-k6", "a medium piece moves exactly 2 hexes in a straight line"),
    ("m4/0-j4", "no split of the path"),
    ("i6/0-i5xi5/0=e8/0", "cannot end this move"),
    ("xi6/0=e8/0", "not a guard exchange"),
    ("pass", "only legal when"),
]


@pytest.mark.parametrize(("move", "message"), BAD_MOVES)
def test_bad_moves_leave_the_state_unchanged(impl: Any, move: str, message: str) -> None:
    state = impl.new_game(GAME)
    with pytest.raises(IllegalMoveError, match=message):
        state.play(move)
    assert state.text() == START_2P and state.moves == []


def test_board_drawing(impl: Any) -> None:
    drawing = str(state_of(impl, {"h3": "0s3l"}))
    assert "3l+" in drawing and "h3=0s3l" in drawing and "player 0 (colour 0) to move" in drawing


def test_both_implementations_draw_the_same_board() -> None:
    import glacier
    from glacier import reference

    for text, params in [
        (START_2P, {}),
        (position({"h3": "0s3l", "e8": "3m0s"}, ply=12), {}),
        (position({**territory(3, 0), **territory(0, 3)}, to_move=1), {}),  # finished
        (position({}, players=6, to_move=4, ply=99), {"players": 6}),
    ]:
        assert str(glacier.from_text(GAME, text, **params)) == str(reference.from_text(GAME, text, **params))


# --- records: the seats' tags and the results of many players -----------------------------


def test_seats_and_results_in_records() -> None:
    import glacier
    from glacier import records

    assert records.seat_names(GAME, 3) == ("Red", "Green", "Black")
    won = glacier.from_text(
        GAME,
        "2 1 211 a7=3l a8=0l3s a9=0l3m a10=0l3s a11=0l a12=0l b8=0m b9=0m b10=0m b11=0m b12=3l c8=0s c9=0m "
        "c10=0s d7=3l d8=0s d9=0s e8=0s e9=3l g1=3l g4=3m g7=3m g10=3m g13=3m i5=3s j7=3s l2=3s",
    )
    assert records.result_of(won) == "1-0"
    text = records.dumps(won, players=["Ann", "Bob"])
    assert '[Red "Ann"]' in text and '[Blue "Bob"]' in text and '[Result "1-0"]' in text and "[Position " in text
    draw = glacier.new_game(GAME, players=3, max_plies=0)
    assert records.result_of(draw) == "1/3-1/3-1/3"
    assert records.result_of(glacier.new_game(GAME)) == "*"
    # A game decided off the board may carry any result; a finished one only its own.
    assert '[Result "0-1"]' in records.dumps(glacier.new_game(GAME), Result="0-1")
    with pytest.raises(InvalidRecordError, match="the game ended 1-0"):
        records.dumps(won, Result="0-1")
    with pytest.raises(InvalidRecordError, match="not a result for 3 players"):
        records.dumps(draw, Result="1-0")
    with pytest.raises(InvalidRecordError, match="written from the game"):
        records.dumps(draw, Game="chess")
    with pytest.raises(InvalidRecordError, match="3 players, got 2 names"):
        records.dumps(draw, players=["a", "b"])


# --- pictures -----------------------------------------------------------------------------


def tall_stack_text() -> str:
    """Two players, every piece of both in one stack on the centre, large ones at the bottom."""
    stack = "".join(f"{c}{s}" for s in "lms" for c in (0, 3) for _ in range(5))
    return f"2 0 5 g7={stack}"


@pytest.mark.parametrize("players", [2, 3, 6])
def test_e_pieces_stay_inside_their_hexes_and_heights_are_on_top(players: int) -> None:
    texts = [glacier.new_game(GAME, players=players).text()]
    texts += [p.text for p in gallery.PICTURES if p.game == GAME and p.params.get("players", 2) == players and p.text]
    if players == 2:
        texts.append(tall_stack_text())
    for text in texts:
        for view in ({}, {"perspective": players - 1}, {"flipped": True}):
            state = glacier.from_text(GAME, text, players=players)
            root = tree(render(state, **view))
            hexes = {el.get("data-hex"): points(el) for el in elements(root, "polygon", "hex")}
            assert len(hexes) == 127
            pieces = elements(root, "polygon", "piece")
            stacks = dict(part.split("=") for part in text.split(" ")[3:])
            assert len(pieces) == sum(len(s) // 2 for s in stacks.values())
            for piece in pieces:
                for corner in points(piece):
                    assert inside_convex(corner, hexes[piece.get("data-hex")]), (text, piece.attrib)
                # Every piece, buried or not, shows its colour and size as the text has it.
                hex_name, level = piece.get("data-hex"), int(piece.get("data-level", ""))
                written = stacks[hex_name][2 * level : 2 * level + 2]
                assert written == piece.get("data-colour", "") + "sml"[int(piece.get("data-size", "")) - 1]
                assert piece.get("fill") == drawing.PIECE_COLOURS[int(written[0])]
            # The stack heights come after every hex and every piece, so nothing covers them.
            order = list(root.iter())
            last_drawn = max(order.index(el) for el in pieces + elements(root, "polygon", "hex"))
            badges = elements(root, "circle", "height")
            assert len(badges) == sum(1 for s in stacks.values() if len(s) > 2)
            assert all(order.index(badge) > last_drawn for badge in badges)
            heights = {t.get("data-hex"): t.text for t in root.iter(f"{SVG}text") if t.get("data-hex")}
            assert heights == {h: str(len(s) // 2) for h, s in stacks.items() if len(s) > 2}


def test_e_names_its_hexes_on_the_rim_readably() -> None:
    for players in (2, 6):
        state = glacier.new_game(GAME, players=players)
        root = tree(render(state))
        rim = [t for t in root.iter(f"{SVG}text") if t.get("class") == "rim"]
        assert sorted(t.text or "" for t in rim) == sorted([*"abcdefghijklm", *map(str, range(1, 14))])
        assert all(float(t.get("font-size", "0")) >= 11 for t in rim)
        hexes = [points(el) for el in elements(root, "polygon", "hex")]
        for label in rim:
            spot = (float(label.get("x", "")), float(label.get("y", "")))
            assert not any(inside_convex(spot, hexagon, slack=0) for hexagon in hexes), label.text
        for seat in range(players):
            # Turned to any seat's side, no letter and number stand on each other.
            turned = [t for t in tree(render(state, perspective=seat)).iter(f"{SVG}text") if t.get("class") == "rim"]
            spots = [(float(t.get("x", "")), float(t.get("y", ""))) for t in turned]
            closest = min(math.dist(a, b) for i, a in enumerate(spots) for b in spots[i + 1 :])
            assert closest >= 14, (players, seat, closest)


def test_e_territory_tints_stand_apart_from_the_border_and_each_other() -> None:
    border = linear_rgb(drawing.BORDER_FILL)
    tints = [linear_rgb(t) for t in drawing.TERRITORY_TINTS]
    assert all(delta_e(tint, border) >= 20 for tint in tints)
    assert all(delta_e(a, b) >= 20 for i, a in enumerate(tints) for b in tints[i + 1 :])


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_e_legend_says_which_colour_is_which_player(players: int) -> None:
    state = glacier.new_game(GAME, players=players)
    root = tree(render(state))
    legend = elements(root, "polygon", "legend")
    seats = reference.game_module(GAME).SEATS[players]
    assert [el.get("fill") for el in legend] == [drawing.PIECE_COLOURS[c] for c in seats]
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    for player, colour in enumerate(seats):
        assert f"player {player}: {drawing.COLOUR_NAMES[colour]}" in texts


def test_e_perspective_puts_the_players_home_at_the_bottom() -> None:
    module = reference.game_module(GAME)
    for player, colour in enumerate(module.SEATS[6]):
        root = tree(render(glacier.new_game(GAME, players=6), perspective=player))
        hexes = {el.get("data-hex"): points(el) for el in elements(root, "polygon", "hex")}

        def mean_y(territory: int, hexes: dict[Any, list[tuple[float, float]]] = hexes) -> float:
            names = [module.HEX_NAMES[h] for h in module.TERRITORY_HEXES[territory]]
            return sum(sum(y for _, y in hexes[n]) / 6 for n in names) / len(names)

        assert max(range(6), key=mean_y) == colour


# --- hooks of the generic tests (tests/test_actions.py) -------------------------------------

#: The starts that look the same from every seat: the seats are evenly spread for 2, 3 and 6
#: players; with 4 or 5 some neighbours sit closer than others.
SYMMETRIC_VARIANTS = [{"players": n} for n in (2, 3, 6)]


def check_action_meaning(state: Any, name: str, after: list[str], where: str) -> None:
    """``pass``, ``no exchange``, a step or jump (``a1-b2``), its landing (``/0``), the
    exchange's capture (``x..``) and placement (``=..``) each narrow the moves alike."""
    if name in ("pass", "no exchange"):
        assert len(after) == 1 and (after[0] == "pass" if name == "pass" else "x" not in after[0]), where
    elif name.startswith("x"):
        assert all(move.startswith(name + "/") for move in after), where
    elif name.startswith("="):
        assert all(name + "/" in move for move in after), where
    elif name.startswith("/"):
        assert all(move.endswith(name) or name + "=" in move for move in after), where
    else:
        frm, to = name.split("-")
        assert all(move.startswith(frm + "/") and move.split("-")[1].startswith(to) for move in after), where


def to_move_planes(players: int) -> set[int]:
    """The observation planes that say who is to move (one per seat)."""
    return set(range(56, 56 + players))


# --- scenarios of the play and web tests (tests/test_play.py, test_serve_api.py, -------------
# --- test_serve_browser.py) -------------------------------------------------------------------


def _picture_text(name: str) -> str:
    import glacier

    picture = next(p for p in glacier.game_spec(GAME).pictures if p.name == name)
    assert picture.text is not None
    return picture.text


#: Finished positions and how glacier.play tells their end.
PLAY_ENDS = ((_picture_text("e2-won"), {}, "Red wins: every Red pyramid home in its goal"),)

#: Two pieces of player 0 on d6 (levels 0 and 2, a large and a small): the destination tells
#: which moves.
TWO_ON_D6 = (
    "2 0 186 a8=3l a10=3l a12=3l b10=3s b13=3m c6=3s d6=0l3s0s d8=3m f11=3s f12=0m g1=0l g12=3l h5=0m3m h6=0s "
    "h8=0s3s j2=0l j5=3l0l3m k5=3m k8=0s l2=0m l5=0m m1=0m m3=0s m6=0l"
)

#: Player 0's medium on l5 carries Blue's small: moving it to j5 is a stack move, which can
#: end in a guard exchange (its medium then traps Blue's, as Blue's on h5 and h8 trap Red's).
#: On d6 player 0 has two pieces that can move, a large and a small.
STACK_AND_EXCHANGE = (
    "2 0 186 a8=3l a10=3l a12=3l b10=3s b13=3m d6=0l3s0s d8=3m f11=3s f12=0m g1=0l g12=3l h5=0m3m "
    "h6=0s h8=0s3s j2=0l j5=3l0l3m k5=3m k8=0s l2=0m l5=0m3s m1=0m m3=0s m6=0l"
)


def play_scenario(run: Any) -> None:
    """Seats by colour with their goals; a movement written without its level."""
    import glacier
    from glacier import play as playing

    three = glacier.new_game(GAME, players=3)
    assert playing.seat_names(GAME, 3) == ("Red", "Green", "Black")
    assert playing.goals(three) == ["Blue", "Clear", "Yellow"]
    assert playing.seat_notes(three)[0] == "goal: fill the Blue territory"
    assert playing.seat_number(GAME, 3, "green") == 1
    start = glacier.new_game(GAME)
    move = next(m for m in start.legal_moves() if m.startswith("i6/0-"))
    assert playing.read_move(start, move.replace("/0", "")) == move
    stacked = glacier.from_text(GAME, TWO_ON_D6)
    assert playing.read_move(stacked, "d6-g3") == "d6/0-g3"
    assert playing.read_move(stacked, "d6-c6") == "d6/2-c6"
    assert playing.read_move(stacked, "d6-c6xc6/1=h5/1") == "d6/2-c6xc6/1=h5/1"
    with pytest.raises(IllegalMoveError):
        playing.read_move(stacked, "d6-b6")
    assert start.moves == [] and stacked.moves == []
    out = run("play", GAME, "-p", "players=3", "--seat", "Green", "--level", "easy", input="quit\n")
    assert "You are Green (player 1); your goal: fill the Clear territory." in out
    assert "Red (player 0) is the computer (easy), goal: the Blue territory." in out
    assert "colours: 0 = Red (player 0), 2 = Green (player 1), 4 = Black (player 2)" in out


def serve_api_scenario(api: Any) -> None:
    """A movement goes from hex to hex; exchanges, levels, ``no exchange`` and ``pass`` are
    buttons; a stack with two movable pieces says which piece each movement moves."""
    from glacier.web.session import gesture

    assert gesture(GAME, "k5-i7") == ("move", "k5", "i7")
    for choice in ("xh3", "=i3", "/1", "no exchange", "pass"):
        assert gesture(GAME, choice) == ("choice",)
    view = api.new(game=GAME, position=TWO_ON_D6, seats=["human", "human"])
    pieces = {to: [entry["piece"] for entry in entries] for to, entries in view["clickable"]["moves"]["d6"].items()}
    assert pieces["g3"] == ["large, level 0"] and set(pieces["c6"]) == {"small, level 2"}


def browser_scenario(table: Any) -> None:
    """A stack with two pieces to move, a stack move ending in a guard exchange, then any
    movement (and no exchange) to the ply limit."""
    from glacier import reference

    page = table.start(GAME, STACK_AND_EXCHANGE, {"players": 2, "max_plies": 190})
    # A stack with two pieces to move: choosing one shows only its destinations.
    page.select("d6")
    assert page.targets() == {"a9", "d9", "g3", "g6", "c6", "c7", "d5", "d7", "e5", "e6"}
    pieces = "return [...document.querySelectorAll('#choices [data-piece]')].map(e => e.dataset.piece);"
    assert page.script(pieces) == ["large, level 0", "small, level 2"]
    page.tap('[data-piece="small, level 2"]')
    assert page.targets() == {"c6", "c7", "d5", "d7", "e5", "e6"}
    page.tap('[data-piece="large, level 0"]')
    assert page.targets() == {"a9", "d9", "g3", "g6"}
    page.select("l5")
    assert page.targets() == {"j5", "j7", "l3", "l7"}
    # j5 holds a large of Red's own, free to move: a tap there picks it up, and a button
    # keeps the move from l5 at hand (a drag from l5 would make it at once).
    page.tap(page.cell("j5"))
    assert page.selected() == ["j5"]
    page.click('[data-also="j5"]')
    assert page.choices() == ["=h5", "=h8", "no exchange"]
    assert page.labels() == [
        "swap the moved piece with the guard on h5",
        "swap the moved piece with the guard on h8",
        "no exchange: the move ends on j5",
    ]
    assert page.acted_on() == {"h5", "h8", "j5"}
    page.screenshot()
    page.choose("=h5")
    page.played("l5/0-j5xj5/3=h5/1")
    module = reference.game_module(GAME)
    stack = reference.from_text(GAME, page.mine.text(), **page.mine.params).position.board
    assert stack[module.HEX_BY_NAME["j5"]] == ((3, 3), (0, 3), (3, 2), (3, 2), (3, 1))
    page.computer_replies()
    # Any movement, then (if an exchange could end it) none.
    move = next(m for m in page.mine.legal_moves() if "-" in m and "x" not in m)
    place, _, to = move.partition("-")
    page.select(place.partition("/")[0])
    page.click(page.cell(to))
    if len(page.mine.move_to_actions(move)) == 2:
        page.choose("no exchange")
    page.played(move)
    page.computer_replies()
    assert page.mine.is_terminal() and page.status() == "draw: the ply limit"


# --- searches (tests/test_search.py) ----------------------------------------------------------


#: Positions whose best move is forced, with that move: name -> (text, params, move).
FORCED_MOVES = {
    # Colour 0 has 14 pieces in its goal; its small on f8 steps onto e8, the last goal hex.
    "E last piece home": (
        "2 0 40 a8=3s0l a9=0l a10=0l a11=0l a12=0l a13=3s3s3s3s3m3m3m3m3m3l3l3l3l3l b8=0m b9=0m b10=0m "
        "b11=0m c8=0s c9=0m c10=0s d8=0s d9=0s f8=0s",
        {},
        "f8/0-e8",
    ),
}


#: Colour 0 home but for its large on a7, whose only goal hex is a10 (a large keeps its
#: hexes modulo 3), walled in by colour 0's own pieces on a8/a9, b10/c10 and b9/c8: one of
#: them has to step out first. (Colour 3 is in the same plight at k5.)
WALLED = (
    "2 0 100 a7=0l a8=0l a9=0m a11=0l a12=0l b8=0s b9=0s b10=0s b11=0m c8=0m c9=0m c10=0m d8=0l "
    "d9=0s e8=0s h6=3l i5=3l i6=3s j5=3s j6=3m k4=3m k6=3l l3=3m l4=3s l6=3m m2=3s m3=3l m4=3l "
    "m5=3m m6=3s"
)


def heuristic(state: Any) -> tuple[float, ...]:
    """The game's heuristic values of ``state``: a search's first simulation evaluates its root."""
    from glacier import search

    return search.mcts(state, simulations=1, evaluator="heuristic").values


def test_the_e_heuristic_sees_a_goal_hex_walled_in_by_own_pieces() -> None:
    from glacier import players

    state = glacier.from_text("martian_chinese_checkers", WALLED)
    assert "a7/0-a10" not in state.legal_moves()
    # The wall counts 2 movements on top of the large's one (docs/rules/
    # martian_chinese_checkers.md, "Heuristic"); the medium on a9 stepping out to c7 leaves
    # two in all (the large jumps a8 to a9 and steps in; the medium comes back).
    opened = state.copy()
    opened.play("a9/0-c7")
    assert heuristic(opened)[0] > heuristic(state)[0]
    # So a search player gets out, where the wall used to hold both players to the ply limit.
    for evaluator in ("heuristic", None):
        seats = [players.MCTSPlayer(400, evaluator, seed=seat) for seat in range(2)]
        game = state.copy()
        while not game.is_terminal() and len(game.moves) < 40:
            game.play(seats[game.current_player].choose(game))
        assert game.is_terminal() and game.returns() == [1.0, -1.0], evaluator


def test_heuristic_priors_follow_the_work_each_move_saves() -> None:
    # E rates a move by the movements of work (the heuristic's) it saves its player: the
    # priors are a softmax over it, so a move saving one movement more has e (at temperature
    # 1) or e**2 (at 0.5) times the prior, and the search selects by PUCT.
    import numpy as np

    from glacier import search

    state = glacier.new_game("martian_chinese_checkers", players=2)
    uniform = search.mcts(state, simulations=50, evaluator="heuristic")
    assert len(set(uniform.priors.values())) == 1
    for temperature in (1.0, 0.5):
        result = search.mcts(
            state, simulations=50, evaluator="heuristic", priors="heuristic", prior_temperature=temperature
        )
        priors = sorted({round(p, 6) for p in result.priors.values()})
        assert sum(result.priors.values()) == pytest.approx(1.0, abs=1e-5)
        assert len(priors) > 1
        ratios = [b / a for a, b in zip(priors, priors[1:])]
        # Neighbouring levels differ by whole movements: e ** (k / temperature) for k >= 1.
        for ratio in ratios:
            k = np.log(ratio) * temperature
            assert k == pytest.approx(round(k), abs=1e-3) and round(k) >= 1
        # PUCT follows the priors: the most visited move is among the most promising.
        best = max(result.priors.values())
        assert result.priors[result.move] == pytest.approx(best)


def test_the_default_mcts_player_of_e_searches_with_the_priors() -> None:
    # E's default (players.MCTS_DEFAULTS): rollouts cut after 20 plies, PUCT over the
    # heuristic priors; the same search as naming them (tests/test_search.py checks that the
    # other games keep theirs).
    from glacier import players

    state = glacier.new_game("martian_chinese_checkers", players=3)
    default = players.from_spec("mcts:60", seed=2)
    named = players.MCTSPlayer(60, "rollout", seed=2, rollout_plies=20, priors="heuristic")
    default.choose(state)
    named.choose(state)
    assert default.last is not None and named.last is not None
    assert len(set(default.last.priors.values())) > 1
    assert (default.last.move, default.last.visits, default.last.priors) == (
        named.last.move,
        named.last.visits,
        named.last.priors,
    )


def test_flat_monte_carlo_cuts_its_playouts_in_e() -> None:
    # Random games of E never finish: whole playouts would all score 0 (a draw at the ply
    # limit), so the player cuts them after 20 plies by default there and scores the rest by
    # the heuristic; from the walled position that finds the way out, as MCTS does.
    from glacier import errors, players

    player = players.from_spec("flat:200", seed=1)
    assert isinstance(player, players.MonteCarloPlayer) and player.name == "flat:200"
    assert players.PLAYOUT_PLIES["martian_chinese_checkers"] == 20
    state = glacier.from_text("martian_chinese_checkers", WALLED)
    move = player.choose(state)
    assert move in state.legal_moves() and state.text() == glacier.from_text("martian_chinese_checkers", WALLED).text()
    cut = players.from_spec("flat:200:6", seed=1)
    assert isinstance(cut, players.MonteCarloPlayer) and (cut.playout_plies, cut.name) == (6, "flat:200:6")
    assert cut.spawn(2).playout_plies == 6
    assert cut.choose(state) in state.legal_moves()
    with pytest.raises(errors.InvalidParameterError, match="playout_plies"):
        players.MonteCarloPlayer(playout_plies=-1)
    with pytest.raises(errors.InvalidParameterError, match="whole number"):
        players.from_spec("flat:200:x")


# --- the command line and pictures (tests/test_cli_and_pictures.py) ---------------------------


#: The names of the hexes, each drawn with its name.
CELL_NAMES = set(reference.game_module(GAME).HEX_NAMES)
