"""Each game's facts are declared once, as ``FACTS`` in its reference module
(python/glacier/reference/<game>.py, with the reasons for them); the engine's
``rust/glacier-core/src/games/<game>/facts.rs`` is written from them by this script:

    python tests/facts_rs.py

tests/test_structure.py checks that every facts.rs is what this writes, and that the built
engine serves the same facts (``glacier.game_spec``)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "python") not in sys.path:
    sys.path.insert(0, str(ROOT / "python"))

from glacier import reference  # noqa: E402

#: The width rustfmt keeps lines within.
WIDTH = 100
#: Picture texts longer than this are named constants, written over several lines.
LONG_TEXT = WIDTH


def rust_type(game: str) -> str:
    """The engine's type of ``game`` (``kings_court``: ``KingsCourt``)."""
    return "".join(part.title() for part in game.split("_"))


def path(game: str) -> Path:
    return ROOT / "rust" / "glacier-core" / "src" / "games" / game / "facts.rs"


# --- Rust expressions, laid out on one line when they fit and one item a line otherwise ------


@dataclass
class Items:
    """``&[a, b]``, ``(a, b)`` or ``Name(a, b)``: items between brackets."""

    open: str
    items: list[Node]
    close: str


@dataclass
class Struct:
    """``Name { key: value, ..base }``."""

    name: str
    fields: list[tuple[str, Node]]
    base: Optional[Node] = None


@dataclass
class Code:
    text: str


Node = Union[Items, Struct, Code]


def flat(node: Node) -> str:
    if isinstance(node, Code):
        return node.text
    if isinstance(node, Items):
        return node.open + ", ".join(flat(item) for item in node.items) + node.close
    parts = [f"{key}: {flat(value)}" for key, value in node.fields]
    if node.base is not None:
        parts.append(".." + flat(node.base))
    return f"{node.name} {{ {', '.join(parts)} }}" if parts else f"{node.name} {{}}"


def layout(node: Node, indent: int, used: int) -> str:
    """``node`` written at ``indent`` spaces, with ``used`` characters of its line taken."""
    one_line = flat(node)
    if isinstance(node, Code) or used + len(one_line) <= WIDTH or (isinstance(node, Items) and not node.items):
        return one_line
    inner = " " * (indent + 4)
    if isinstance(node, Items):
        lines = [f"{inner}{layout(item, indent + 4, indent + 5)}," for item in node.items]
        return node.open + "\n" + "\n".join(lines) + "\n" + " " * indent + node.close
    lines = [f"{inner}{key}: {layout(value, indent + 4, indent + 7 + len(key))}," for key, value in node.fields]
    if node.base is not None:
        lines.append(f"{inner}..{layout(node.base, indent + 4, indent + 6)}")
    return f"{node.name} {{\n" + "\n".join(lines) + "\n" + " " * indent + "}"


def string(text: str) -> Code:
    return Code('"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"')


def number(value: int) -> Code:
    return Code(f"{value:_}" if abs(value) >= 10_000 else str(value))


def option(value: Optional[Node]) -> Code:
    return Code("None" if value is None else f"Some({flat(value)})")


def slice_of(items: list[Node]) -> Items:
    return Items("&[", items, "]")


def tuple_of(*items: Node) -> Items:
    return Items("(", list(items), ")")


def params(given: dict[str, int]) -> Items:
    return slice_of([tuple_of(string(name), number(value)) for name, value in given.items()])


def option_value(value: Any) -> Code:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise TypeError(f"a player option is a whole number, a number or a name, not {value!r}")
    if isinstance(value, str):
        return Code(f"OptionValue::Text({flat(string(value))})")
    if isinstance(value, float):
        return Code(f"OptionValue::Number({value!r})")
    return Code(f"OptionValue::Int({flat(number(value))})")


def options(given: dict[str, Any]) -> Items:
    return slice_of([tuple_of(string(name), option_value(value)) for name, value in given.items()])


@dataclass
class Writer:
    """The facts of one game as Rust: the expression, the names of ``crate::game`` it uses,
    and the long texts it names."""

    uses: set[str] = field(default_factory=lambda: {"Facts", "GameFacts"})
    consts: dict[str, str] = field(default_factory=dict)

    def use(self, name: str) -> str:
        self.uses.add(name)
        return name

    def text(self, value: Optional[str], name: str) -> Code:
        if value is None:
            return Code("None")
        if len(value) <= LONG_TEXT:
            return option(string(value))
        const = name.upper().replace("-", "_")
        self.consts[const] = value
        return Code(f"Some({const})")

    def facts(self, facts: Any) -> Struct:
        bench = facts.bench
        hashed = bench.hashed_perft
        fields: list[tuple[str, Node]] = [
            (
                "seats",
                slice_of([tuple_of(number(n), slice_of(list(map(string, names)))) for n, names in facts.seats.items()]),
            ),
            ("mcts_player", self.options(facts.mcts_player)),
            ("net_player", self.options(facts.net_player)),
            ("playout_plies", number(facts.playout_plies)),
            (
                "bench",
                Struct(
                    self.use("BenchDepths"),
                    [
                        ("perft", tuple_of(*map(number, bench.perft))),
                        ("playouts", number(bench.playouts)),
                        ("perft_bench", tuple_of(*map(number, bench.perft_bench))),
                        ("hashed_perft", option(None if hashed is None else tuple_of(*map(number, hashed)))),
                    ],
                ),
            ),
            ("table_checks", slice_of([self.perft_case(case) for case in facts.table_checks])),
            ("starts", slice_of([self.start(name, text, implied) for name, (text, implied) in facts.starts.items()])),
            ("kin", slice_of([self.kin(game, start) for game, start in facts.kin.items()])),
            ("pictures", slice_of([self.picture(picture) for picture in facts.pictures])),
            ("variants", slice_of([params(variant) for variant in facts.variants])),
        ]
        return Struct("GameFacts", fields)

    def options(self, given: dict[str, Any]) -> Items:
        if given:
            self.use("OptionValue")
        return options(given)

    def perft_case(self, case: Any) -> Struct:
        text = Code("None") if case.text is None else option(string(case.text))
        fields = [("text", text), ("params", params(case.params)), ("depth", number(case.depth))]
        return Struct(self.use("PerftCase"), fields)

    def start(self, name: str, text: str, implied: dict[str, int]) -> Struct:
        return Struct(
            self.use("NamedStart"), [("name", string(name)), ("text", string(text)), ("params", params(implied))]
        )

    def kin(self, game: str, start: Optional[str]) -> Struct:
        return Struct(
            self.use("Kin"), [("game", string(game)), ("start", option(None if start is None else string(start)))]
        )

    def arrow(self, arrow: Any) -> Code:
        self.use("Arrow")
        if isinstance(arrow, str):
            return Code(f"Arrow::Move({flat(string(arrow))})")
        return Code(f"Arrow::Cells({', '.join(flat(string(cell)) for cell in arrow)})")

    def picture(self, picture: Any) -> Node:
        self.use("Picture")
        of = Items(
            "Picture::of(", [string(picture.name), string(picture.caption), self.text(picture.text, picture.name)], ")"
        )
        changed: list[tuple[str, Node]] = []
        if picture.params:
            changed.append(("params", params(picture.params)))
        if picture.last_move is not None:
            changed.append(("last_move", option(string(picture.last_move))))
        if picture.arrows:
            changed.append(("arrows", slice_of([self.arrow(arrow) for arrow in picture.arrows])))
        if picture.perspective is not None:
            changed.append(("perspective", option(number(picture.perspective))))
        if picture.flipped:
            changed.append(("flipped", Code("true")))
        if picture.cell_names:
            changed.append(("cell_names", Code("true")))
        return Struct("Picture", changed, of) if changed else of


def long_string(const: str, text: str) -> str:
    """``const TEXT: &str = "...";`` with the text broken after spaces to keep within the
    width (a backslash at the end of a line skips the newline)."""
    out, line = [], f'const {const}: &str = "'
    for word in text.split(" "):
        piece = word + " "
        if len(line) + len(piece) + 1 > WIDTH:
            out.append(line + "\\")
            line = ""
        line += piece
    out.append(line[:-1] + '";')
    return "\n".join(out)


def source(game: str) -> str:
    """The text of ``game``'s facts.rs."""
    module = reference.game_module(game)
    writer = Writer()
    facts = layout(writer.facts(module.FACTS), 4, len("    const FACTS: GameFacts = "))
    uses = ", ".join(sorted(writer.uses))
    use_line = f"use crate::game::{{{uses}}};"
    if len(use_line) > WIDTH:
        use_line = "use crate::game::{\n    " + uses + ",\n};"
    parts = [
        f"//! The facts of {module.TITLE} for the tools around the engine (see [`GameFacts`]).\n"
        "//!\n"
        "//! Written by `python tests/facts_rs.py` from `FACTS` in the game's reference module,\n"
        f"//! python/glacier/reference/{game}.py: the one place the game declares them, with the\n"
        "//! reasons for them. Change them there.",
        f"use super::{rust_type(game)};\n{use_line}",
        *(long_string(const, text) for const, text in writer.consts.items()),
        f"impl Facts for {rust_type(game)} {{\n    const FACTS: GameFacts = {facts};\n}}",
    ]
    return "\n\n".join(parts) + "\n"


def main() -> None:
    for game in reference.GAMES:
        path(game).write_text(source(game))
        print(f"wrote {path(game).relative_to(ROOT)}")


if __name__ == "__main__":
    main()
