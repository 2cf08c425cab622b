"""The picture gallery of docs/pictures/: a few positions of every game, drawn as a player
sees them (``python -m glacier.svg.gallery docs/pictures`` writes it again).

Each game declares its pictures in its reference module (``FACTS.pictures``; the engine's
``glacier.game_spec(name).pictures`` says the same). The positions are written out as texts,
so the gallery shows the same boards whatever becomes of the random players that found them.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

from .. import reference
from ._canvas import CELLS, Arrow, View
from ._render import render_position

__all__ = ["PICTURES", "Picture", "index", "write"]


@dataclass(frozen=True)
class Picture:
    name: str
    caption: str
    game: str
    text: Optional[str] = None
    """The position (the start when None)."""
    params: dict[str, Any] = field(default_factory=dict)
    last_move: Optional[str] = None
    arrows: tuple[Arrow, ...] = ()
    perspective: Optional[int] = None
    flipped: bool = False
    cell_names: bool = False

    def svg(self) -> str:
        text = self.text if self.text is not None else reference.new_game(self.game, **self.params).text()
        view = View(self.last_move, self.arrows, self.perspective, self.flipped, CELLS if self.cell_names else True)
        return render_position(self.game, text, self.params, view)


def _pictures() -> tuple[Picture, ...]:
    """Every game's pictures, as each reference module declares them (``FACTS.pictures``), in
    the registry's order."""
    return tuple(
        Picture(
            p.name,
            p.caption,
            game,
            p.text,
            dict(p.params),
            p.last_move,
            tuple(p.arrows),
            p.perspective,
            p.flipped,
            p.cell_names,
        )
        for game in reference.GAMES
        for p in reference.game_module(game).FACTS.pictures
    )


PICTURES = _pictures()


def index(pictures: tuple[Picture, ...] = PICTURES) -> str:
    """The gallery page (docs/pictures/README.md)."""
    lines = [
        "# Pictures",
        "",
        "What `glacier.svg.render` draws (and `glacier show --svg`, notebooks and the replay page",
        "of `glacier replay` show), for every game. Written by `python -m glacier.svg.gallery",
        "docs/pictures`; the test suite checks that these files are what the code draws now.",
        "",
    ]
    for picture in pictures:
        lines += [f"## {picture.caption}", "", f"![{picture.caption}]({picture.name}.svg)", ""]
    return "\n".join(lines)


def write(directory: Union[str, Path]) -> list[Path]:
    """Writes every picture and the index page into ``directory``; returns the files."""
    target = Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for picture in PICTURES:
        path = target / f"{picture.name}.svg"
        path.write_text(picture.svg() + "\n", encoding="utf-8")
        written.append(path)
    page = target / "README.md"
    page.write_text(index(), encoding="utf-8")
    return [*written, page]


if __name__ == "__main__":
    for path in write(sys.argv[1] if len(sys.argv) > 1 else "docs/pictures"):
        print(path)
