"""The pictures, checked on their geometry and colours: pieces inside their squares and hexes,
nothing hiding a stack's height, colours told apart, the view options, and the gallery in
docs/pictures being what the code draws now."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

import pytest

import glacier
from glacier import reference
from glacier.errors import IllegalMoveError, InvalidParameterError
from glacier.svg import gallery, render
from svg_checks import SVG, tree

ROOT = Path(__file__).parent.parent


def players_param(game: str) -> Optional[glacier.ParamSpec]:
    """The ``players`` parameter of ``game``, if its number of players is one (E)."""
    return next((p for p in glacier.game_spec(game).params if p.name == "players"), None)


def fewest(game: str, more: int = 0) -> dict[str, int]:
    """The parameters that seat the fewest players (plus ``more``), for a game that takes a
    number of players; none for the others."""
    spec = players_param(game)
    return {"players": spec.min + more} if spec is not None else {}


# --- every game ---------------------------------------------------------------------------


def positions(game: str) -> list[Any]:
    """A few states of ``game``: the start, the gallery's positions, a state with moves."""
    params = fewest(game, 1)
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
    params = fewest(game, 1)
    native, twin = glacier.new_game(game, **params), reference.new_game(game, **params)
    for _ in range(4):
        move = native.legal_moves()[0]
        native.play(move)
        twin.play(move)
    options = {"perspective": 1, "flipped": True, "coordinates": False, "arrows": [native.legal_moves()[0]]}
    assert render(native, **options) == render(twin, **options)
    assert render(native) == render(twin)


def test_the_last_move_is_the_states_unless_told(game: str) -> None:
    params = fewest(game)
    state = glacier.new_game(game, **params)
    start = tree(render(state))
    assert not [el for el in start.iter() if el.get("class") == "last-move"]
    state.play(state.legal_moves()[0])
    marked = [el for el in tree(render(state)).iter() if el.get("class") == "last-move"]
    assert marked
    assert not [el for el in tree(render(state, last_move=None)).iter() if el.get("class") == "last-move"]


def test_arrows_are_drawn_and_bad_ones_refused(game: str) -> None:
    params = fewest(game)
    state = glacier.new_game(game, **params)
    moves = [m for m in state.legal_moves() if m != "pass"][:2]
    root = tree(render(state, arrows=moves))
    heads = [el for el in root.iter(f"{SVG}polygon") if el.get("class") == "arrow"]
    assert len(heads) >= len(moves)
    with pytest.raises(IllegalMoveError):
        render(state, arrows=["not a move at all"])


def test_coordinates_and_perspective_options(game: str) -> None:
    params = fewest(game)
    state = glacier.new_game(game, **params)
    with_labels = len(list(tree(render(state)).iter(f"{SVG}text")))
    without = len(list(tree(render(state, coordinates=False)).iter(f"{SVG}text")))
    assert with_labels - without >= 12
    with pytest.raises(InvalidParameterError):
        render(state, perspective=state.num_players)
    # Seen by the second of two players, the board is turned round; a game of many players
    # (E) turns it to bring each seat's home to the bottom instead.
    assert render(state, perspective=1) == render(state, flipped=True) or players_param(game) is not None


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
    for game in glacier.GAMES:
        spec = players_param(game)
        if spec is not None:  # the fewest players, one more, and the most
            shown = {p.params.get("players", spec.default) for p in gallery.PICTURES if p.game == game}
            assert {spec.min, spec.min + 1, spec.max} <= shown
    finished = {
        p.game for p in gallery.PICTURES if p.text and glacier.from_text(p.game, p.text, **p.params).is_terminal()
    }
    assert finished == set(glacier.GAMES)
