"""The picture gallery of docs/pictures/: a few positions of every game, drawn as a player
sees them (``python -m glacier.svg.gallery docs/pictures`` writes it again).

The positions are written out as texts, so the gallery shows the same boards whatever
becomes of the random players that found them.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

from .. import reference
from . import render_position
from ._canvas import Arrow, View

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

    def svg(self) -> str:
        text = self.text if self.text is not None else reference.new_game(self.game, **self.params).text()
        view = View(self.last_move, self.arrows, self.perspective, self.flipped)
        return render_position(self.game, text, self.params, view)


_E_WON = (
    "2 1 211 a7=3l a8=0l3s a9=0l3m a10=0l3s a11=0l a12=0l b8=0m b9=0m b10=0m b11=0m b12=3l c8=0s c9=0m "
    "c10=0s d7=3l d8=0s d9=0s e8=0s e9=3l g1=3l g4=3m g7=3m g10=3m g13=3m i5=3s j7=3s l2=3s"
)
_E_THREE = (
    "3 0 192 b11=4s c5=2l4m4m c6=2m c10=4m d8=2s2m2s d13=4l e3=2l e4=2s e5=2s e8=4s e9=4s e10=4l e12=4m "
    "e13=4l f3=2m f5=2m f7=0m f8=0s4m g6=2s g8=0s4s g11=4s i2=2l i5=0m i7=4l j1=2l j2=0l j4=0s j6=0m j8=0l "
    "j9=0l k2=2m k5=0s k6=2l l2=0m l4=0s l7=4l m4=0l m6=0l m7=0m"
)
_E_SIX = (
    "6 2 266 a8=3l a12=3l a13=3l b6=2l b8=2m b9=3m b11=2m3s b12=3m b13=4l c5=2l c6=2s c8=3s c9=2m c10=4m "
    "c11=4s c12=4m c13=4l d7=2l3m d8=1s3s d9=3l d10=3s d12=4m5s d13=4l5m e4=2m e5=2s e6=2l e9=3m e11=4s "
    "e12=5l e13=4l f2=1m1m f4=3m2s f6=2s f8=3s f10=4s f13=4l g5=0l3l5s g6=1m g8=4s g12=4m h2=2s h3=1s "
    "h4=1l2m2l h5=1s h7=1s i1=1l i2=1m i3=1s i5=1m i8=5m0s i9=4m j4=0l j6=5s j7=0s j8=5s j9=5m j10=5l "
    "k1=1l k4=4s0s k6=0s k9=5l0m l1=1l l3=0m l4=0m l5=5l l6=0m l7=0m5s l8=5l0s m1=1l m3=0l m4=5m m5=0l "
    "m6=0l m7=5m"
)

PICTURES = (
    Picture("ice_age_chess-start", "Ice Age Chess: the start, ice on ranks 3-6", "ice_age_chess"),
    Picture(
        "ice_age_chess-in-check",
        "Ice Age Chess after an Ice Age: White in check after Bf6-e5, two arrows",
        "ice_age_chess",
        "rnb1**nr/ppNkp**p/*****2*/***1bp1*/P**K**P*/*1B*1P*P/Pq*****1/1*****NR w - - 0 27",
        last_move="f6e5",
        arrows=("d4c4", ("c7", "a8")),
    ),
    Picture(
        "ice_age_chess-frozen-king",
        "Ice Age Chess, finished: Black's king was frozen by the Ice Age",
        "ice_age_chess",
        "********/********/p******r/*rp****K/p*****P*/*N****B*/******N*/******** w - - 0 81",
        last_move="h7h6",
    ),
    Picture(
        "chess-mate-from-black",
        "Standard chess (ice_age_period=0), checkmate, seen from Black's side",
        "ice_age_chess",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        {"ice_age_period": 0},
        last_move="d8h4",
        flipped=True,
    ),
    Picture("ice_cube_checkers-start", "Ice Cube Checkers: the start", "ice_cube_checkers"),
    Picture(
        "ice_cube_checkers-sown",
        "Ice Cube Checkers: White has sown cup k into l, a and b",
        "ice_cube_checkers",
        "BBK/WWWBB/W/K/-/-/-/-/-/-/-/WB b 11",
        last_move="k:BKW",
    ),
    Picture(
        "ice_cube_checkers-full-cup",
        "Ice Cube Checkers: all twelve pieces in one cup, seen from Black",
        "ice_cube_checkers",
        "WWWWWBBBBBKK/-/-/-/-/-/-/-/-/-/-/- b 9",
        flipped=True,
    ),
    Picture(
        "ice_cube_checkers-won",
        "Ice Cube Checkers, finished: White controls the cup holding both Kings",
        "ice_cube_checkers",
        "-/-/-/B/WKK/B/WBB/WW/-/-/-/WB w 16",
        last_move="c:BWB",
    ),
    Picture("kuba-start", "Kuba: the start", "kuba"),
    Picture(
        "kuba-captures",
        "Kuba: captures so far, and the push that may not be answered (ko)",
        "kuba",
        "7/3W3/4W1R/R1R1WB1/1BWR1BR/1R3RW/3R3 w 3,5 2,3 - e4f4 103",
        last_move="g4f4",
    ),
    Picture(
        "kuba-won",
        "Kuba, finished: White has pushed off seven Red marbles",
        "kuba",
        "3W3/3B3/7/5W1/R1B2W1/2W1B2/RW5 b 7,5 4,3 - - 187",
        last_move="c1b1",
    ),
    Picture("kings_court-start", "King's Court: the start", "kings_court"),
    Picture(
        "kings_court-jumps",
        "King's Court: Red's double jump a3xc3xe3",
        "kings_court",
        "GRGR1RR1/R3GGG1/G3RGGR/1GR5/G1R1GG2/1R1RR1RG/G2R2G1/RG1G1GR1 g 27",
        last_move="a3xc3xe3",
    ),
    Picture(
        "kings_court-won",
        "King's Court, finished: Green has no piece left in the Court, seen from Green",
        "kings_court",
        "GR1R4/R1G2G1G/6G1/4R3/GR4R1/3R1R1G/1G1R4/R1G4G g 59",
        last_move="c8xe8xe6xe4xg4",
        flipped=True,
    ),
    Picture("e2-start", "E, two players: the start", "martian_chinese_checkers"),
    Picture(
        "e3-stacks",
        "E, three players: stacks, and a move ending in an exchange",
        "martian_chinese_checkers",
        _E_THREE,
        {"players": 3},
        last_move="b10/0-d8xd8/1=c5/2",
    ),
    Picture(
        "e6-tall-stacks",
        "E, six players: tall stacks, seen from player 2 (Green), two arrows",
        "martian_chinese_checkers",
        _E_SIX,
        {"players": 6},
        last_move="h6/0-h4xh4/2=f2/1",
        arrows=("h4/2-e7", "d7/0-g4"),
        perspective=2,
    ),
    Picture(
        "e2-won",
        "E, two players, finished: Red fills Blue's corner",
        "martian_chinese_checkers",
        _E_WON,
    ),
)


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
