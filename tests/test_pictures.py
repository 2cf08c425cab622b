"""The pictures, checked on their geometry and colours: pieces inside their squares and hexes,
nothing hiding a stack's height, colours told apart, the view options, and the gallery in
docs/pictures being what the code draws now."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import glacier
from glacier import reference
from glacier.errors import IllegalMoveError, InvalidParameterError
from glacier.svg import gallery, render
from glacier.svg import ice_age_chess as chess_drawing
from glacier.svg import ice_cube_checkers as cups_drawing
from glacier.svg import kings_court as court_drawing
from glacier.svg import martian_chinese_checkers as e_drawing

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).parent.parent
E = "martian_chinese_checkers"


def tree(picture: str) -> ET.Element:
    return ET.fromstring(picture)


def elements(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [el for el in root.iter(f"{SVG}{tag}") if el.get("class") == cls]


def words(picture: str) -> list[str]:
    return [t.text or "" for t in tree(picture).iter(f"{SVG}text")]


def points(element: ET.Element) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (p.split(",") for p in element.get("points", "").split())]


def inside_convex(point: tuple[float, float], polygon: list[tuple[float, float]], slack: float = 0.2) -> bool:
    """Whether ``point`` lies in the convex ``polygon`` (or within ``slack`` pixels of it)."""
    x, y = point
    signs = set()
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
        length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
        if abs(cross) / length > slack:
            signs.add(cross > 0)
    return len(signs) <= 1


# --- colours: CIE Lab distances, and colour-blindness simulated (Machado et al. 2009) --------

MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def linear_rgb(colour: str) -> list[float]:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    return [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]


def lab(linear: list[float]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, v)) for v in linear)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: list[float], b: list[float]) -> float:
    return float(sum((p - q) ** 2 for p, q in zip(lab(a), lab(b))) ** 0.5)


def simulate(colour: str, matrix: Any) -> list[float]:
    rgb = linear_rgb(colour)
    return [sum(matrix[i][j] * rgb[j] for j in range(3)) for i in range(3)]


# --- every game ---------------------------------------------------------------------------


def positions(game: str) -> list[Any]:
    """A few states of ``game``: the start, the gallery's positions, a state with moves."""
    params = {"players": 3} if game == E else {}
    states = [glacier.new_game(game, **params)]
    for picture in gallery.PICTURES:
        if picture.game == game and picture.text is not None:
            states.append(glacier.from_text(game, picture.text, **picture.params))
    played = glacier.new_game(game, **params)
    for _ in range(6):
        played.play(played.legal_moves()[len(played.legal_moves()) // 2])
    return [*states, played]


def test_no_picture_draws_a_piece_with_a_font(game: str) -> None:
    for state in positions(game):
        root = tree(render(state))
        for text in root.iter(f"{SVG}text"):
            assert not re.search("[\u2654-\u265f\U0001f000-\U0001faff]", text.text or ""), text.text


def test_both_implementations_draw_the_same_picture_with_every_option(game: str) -> None:
    params = {"players": 3} if game == E else {}
    native, twin = glacier.new_game(game, **params), reference.new_game(game, **params)
    for _ in range(4):
        move = native.legal_moves()[0]
        native.play(move)
        twin.play(move)
    options = {"perspective": 1, "flipped": True, "coordinates": False, "arrows": [native.legal_moves()[0]]}
    assert render(native, **options) == render(twin, **options)
    assert render(native) == render(twin)


def test_the_last_move_is_the_states_unless_told(game: str) -> None:
    params = {"players": 2} if game == E else {}
    state = glacier.new_game(game, **params)
    start = tree(render(state))
    assert not [el for el in start.iter() if el.get("class") == "last-move"]
    state.play(state.legal_moves()[0])
    marked = [el for el in tree(render(state)).iter() if el.get("class") == "last-move"]
    assert marked
    assert not [el for el in tree(render(state, last_move=None)).iter() if el.get("class") == "last-move"]


def test_arrows_are_drawn_and_bad_ones_refused(game: str) -> None:
    params = {"players": 2} if game == E else {}
    state = glacier.new_game(game, **params)
    moves = [m for m in state.legal_moves() if m != "pass"][:2]
    root = tree(render(state, arrows=moves))
    heads = [el for el in root.iter(f"{SVG}polygon") if el.get("class") == "arrow"]
    assert len(heads) >= len(moves)
    with pytest.raises(IllegalMoveError):
        render(state, arrows=["not a move at all"])


def test_coordinates_and_perspective_options(game: str) -> None:
    params = {"players": 2} if game == E else {}
    state = glacier.new_game(game, **params)
    with_labels = len(list(tree(render(state)).iter(f"{SVG}text")))
    without = len(list(tree(render(state, coordinates=False)).iter(f"{SVG}text")))
    assert with_labels - without >= 12
    with pytest.raises(InvalidParameterError):
        render(state, perspective=state.num_players)
    assert render(state, perspective=1) == render(state, flipped=True) or game == E


# --- Ice Age Chess ---------------------------------------------------------------------------


def test_chess_pieces_sit_in_the_middle_of_their_squares() -> None:
    cell, margin = 52, 26
    state = glacier.new_game("ice_age_chess")
    for flipped in (False, True):
        root = tree(render(state, flipped=flipped))
        drawn = [g for g in root.iter(f"{SVG}g") if g.get("class") == "piece"]
        assert len(drawn) == 32
        board = state.text().split(" ")[0]
        for g in drawn:
            x, y, scale = map(float, re.findall(r"[\d.]+", g.get("transform", "")))
            assert scale * chess_drawing.PIECE_BOX == cell
            file, row = int((x - margin) / cell), int((y - margin) / cell)
            assert (x - margin, y - margin) == (file * cell, row * cell)
            rank = 7 - row
            if flipped:
                file, rank = 7 - file, 7 - rank
            expanded = re.sub(r"\d", lambda m: "." * int(m.group()), board).split("/")
            assert expanded[7 - rank][file] == g.get("data-piece")
        # Every outline stays in the box, with room above and below: no piece reaches into
        # the row above (as the rank-2 and rank-7 pawns once did).
        for shape in chess_drawing._SHAPES.values():
            numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", re.sub(r'r="[^"]+"|rx="[^"]+"', "", shape))]
            assert min(numbers) >= 5 and max(numbers) <= 95


def test_chess_check_mate_and_frozen_kings_are_named() -> None:
    mate = glacier.from_text(
        "ice_age_chess", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", ice_age_period=0
    )
    assert "Black wins by checkmate" in words(render(mate))
    frozen = glacier.from_text(
        "ice_age_chess", "********/********/p******r/*rp****K/p*****P*/*N****B*/******N*/******** w - - 0 81"
    )
    assert "White wins (Black's king frozen)" in words(render(frozen))


# --- E ---------------------------------------------------------------------------------------


def tall_stack_text() -> str:
    """Two players, every piece of both in one stack on the centre, large ones at the bottom."""
    stack = "".join(f"{c}{s}" for s in "lms" for c in (0, 3) for _ in range(5))
    return f"2 0 5 g7={stack}"


@pytest.mark.parametrize("players", [2, 3, 6])
def test_e_pieces_stay_inside_their_hexes_and_heights_are_on_top(players: int) -> None:
    texts = [glacier.new_game(E, players=players).text()]
    texts += [p.text for p in gallery.PICTURES if p.game == E and p.params.get("players", 2) == players and p.text]
    if players == 2:
        texts.append(tall_stack_text())
    for text in texts:
        for view in ({}, {"perspective": players - 1}, {"flipped": True}):
            state = glacier.from_text(E, text, players=players)
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
                assert piece.get("fill") == e_drawing.PIECE_COLOURS[int(written[0])]
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
        state = glacier.new_game(E, players=players)
        root = tree(render(state))
        rim = [t for t in root.iter(f"{SVG}text") if t.get("class") == "rim"]
        assert sorted(t.text or "" for t in rim) == sorted([*"abcdefghijklm", *map(str, range(1, 14))])
        assert all(float(t.get("font-size", "0")) >= 11 for t in rim)
        hexes = [points(el) for el in elements(root, "polygon", "hex")]
        for label in rim:
            spot = (float(label.get("x", "")), float(label.get("y", "")))
            assert not any(inside_convex(spot, hexagon, slack=0) for hexagon in hexes), label.text


def test_e_territory_tints_stand_apart_from_the_border_and_each_other() -> None:
    border = linear_rgb(e_drawing.BORDER_FILL)
    tints = [linear_rgb(t) for t in e_drawing.TERRITORY_TINTS]
    assert all(delta_e(tint, border) >= 20 for tint in tints)
    assert all(delta_e(a, b) >= 20 for i, a in enumerate(tints) for b in tints[i + 1 :])


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_e_legend_says_which_colour_is_which_player(players: int) -> None:
    state = glacier.new_game(E, players=players)
    root = tree(render(state))
    legend = elements(root, "polygon", "legend")
    seats = reference.game_module(E).SEATS[players]
    assert [el.get("fill") for el in legend] == [e_drawing.PIECE_COLOURS[c] for c in seats]
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    for player, colour in enumerate(seats):
        assert f"player {player}: {e_drawing.COLOUR_NAMES[colour]}" in texts


def test_e_perspective_puts_the_players_home_at_the_bottom() -> None:
    module = reference.game_module(E)
    for player, colour in enumerate(module.SEATS[6]):
        root = tree(render(glacier.new_game(E, players=6), perspective=player))
        hexes = {el.get("data-hex"): points(el) for el in elements(root, "polygon", "hex")}

        def mean_y(territory: int, hexes: dict[Any, list[tuple[float, float]]] = hexes) -> float:
            names = [module.HEX_NAMES[h] for h in module.TERRITORY_HEXES[territory]]
            return sum(sum(y for _, y in hexes[n]) / 6 for n in names) / len(names)

        assert max(range(6), key=mean_y) == colour


# --- Ice Cube Checkers, Kuba, King's Court --------------------------------------------------


def test_a_full_cup_of_twelve_stays_inside_it() -> None:
    state = glacier.from_text("ice_cube_checkers", "WWWWWBBBBBKK/-/-/-/-/-/-/-/-/-/-/- b 9")
    for flipped in (False, True):
        root = tree(render(state, flipped=flipped))
        cups = {el.get("data-slot"): el for el in elements(root, "rect", "cup")}
        cup = cups["a"]
        x0, y0 = float(cup.get("x", "")), float(cup.get("y", ""))
        cubes = elements(root, "rect", "cube")
        assert sorted(c.get("data-kind", "") for c in cubes) == sorted("WWWWWBBBBBKK")
        for cube in cubes:
            x, y, size = (float(cube.get(k, "")) for k in ("x", "y", "width"))
            assert x0 + 4 <= x and x + size <= x0 + cups_drawing.CUP - 4
            assert y0 + 4 <= y and y + size <= y0 + cups_drawing.CUP - 4
        assert elements(root, "path", "sowing") and len(elements(root, "polygon", "sowing")) == 10


def test_cubes_fill_their_cup() -> None:
    for count in range(1, 13):
        columns, rows, side = cups_drawing.cube_layout(count)
        assert columns * rows >= count
        used = max(columns, rows) * side
        assert used >= (cups_drawing.CUP - 2 * cups_drawing.CUP_PAD) * 0.75 or side == 34.0


def test_kuba_shows_the_captured_counts_in_large_type() -> None:
    state = glacier.from_text("kuba", "3W3/3B3/7/5W1/R1B2W1/2W1B2/RW5 b 7,5 4,3 - - 187")
    root = tree(render(state))
    counts = [t for t in root.iter(f"{SVG}text") if t.get("class") == "captured"]
    assert [t.text for t in counts] == ["7 of 7 Red", "5 of 8", "4 of 7 Red", "3 of 8"]
    assert all(float(t.get("font-size", "0")) >= 14 for t in counts)


def test_kings_court_colours_are_told_apart_by_colour_blind_players() -> None:
    (red, _), (green, _) = court_drawing.PIECE_COLOURS["R"], court_drawing.PIECE_COLOURS["G"]
    assert delta_e(linear_rgb(red), linear_rgb(green)) >= 40
    for kind, matrix in MACHADO.items():
        assert delta_e(simulate(red, matrix), simulate(green, matrix)) >= 40, kind
    # Lightness alone (a grey print, or no colour vision at all) still tells them apart.
    assert abs(lab(linear_rgb(red))[0] - lab(linear_rgb(green))[0]) >= 15


# --- the gallery -------------------------------------------------------------------------------


def test_the_gallery_is_what_the_code_draws_now() -> None:
    folder = ROOT / "docs" / "pictures"
    for picture in gallery.PICTURES:
        path = folder / f"{picture.name}.svg"
        assert path.read_text(encoding="utf-8") == picture.svg() + "\n", (
            f"{path} is stale: run python -m glacier.svg.gallery docs/pictures"
        )
    assert (folder / "README.md").read_text(encoding="utf-8") == gallery.index()
    games = {picture.game for picture in gallery.PICTURES}
    assert games == set(glacier.GAMES)
    shown = {p.params.get("players", 2) for p in gallery.PICTURES if p.game == E}
    assert {2, 3, 6} <= shown
    finished = {
        p.game for p in gallery.PICTURES if p.text and glacier.from_text(p.game, p.text, **p.params).is_terminal()
    }
    assert finished == set(glacier.GAMES)
