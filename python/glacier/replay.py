"""The replay page: recorded games as one self-contained HTML file (``glacier replay``).

The page needs no server and no network. It carries the pictures of the positions compactly
and puts each one together when it is shown: every picture is cut into its SVG tags and
texts, each distinct piece is stored once (a dictionary shared by every position and game),
and a position is the previous one's list of pieces with a few ranges replaced (a move
changes a few cells, the marks and the status line). A few lines of plain JavaScript join
the pieces of the position asked for, and step through them with the buttons, the arrow
keys (left and right, Home and End) or a click on a move. The board marks the last move; a
file with several games gets a chooser.
"""

from __future__ import annotations

import difflib
import html
import json
import re
from pathlib import Path
from typing import Any, Sequence, Union

from glacier import records
from glacier.errors import InvalidRecordError
from glacier.svg import View, render_position

__all__ = ["page", "write"]

_STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; background: #fafafa; }
h1 { font-size: 1.3em; margin: 0 0 .2em; }
#tags { color: #555; margin-bottom: .8em; }
#layout { display: flex; gap: 1.5em; align-items: flex-start; flex-wrap: wrap; }
#board svg { max-width: 92vw; height: auto; }
#controls { margin: .6em 0; display: flex; gap: .4em; align-items: center; }
#controls button { font-size: 1.1em; min-width: 2.6em; padding: .2em .5em; }
#counter { margin-left: .6em; color: #555; }
#moves { max-width: 24em; max-height: 70vh; overflow-y: auto; line-height: 1.9; }
#moves .number { color: #888; margin-left: .4em; }
#moves .move { cursor: pointer; padding: .1em .3em; border-radius: .3em; white-space: nowrap; }
#moves .move:hover { background: #e3ecf7; }
#moves .move.current { background: #f5d142; font-weight: bold; }
#moves .comment { color: #2e6b2e; font-style: italic; }
#comment { color: #2e6b2e; font-style: italic; min-height: 1.4em; }
"""

_SCRIPT = """
const data = JSON.parse(document.getElementById("games").textContent);
const games = data.games, pieces = data.pieces;
// A position is its predecessor with ranges replaced: "at,removed,inserted..." edits in base
// 36, separated by ";", last range first. Every CHECKPOINT-th position is kept once built, so a jump back is short.
const CHECKPOINT = 32;
let built = {}, shown = null;
function position(g, target) {
  const game = games[g];
  let from = 0, list = game.start;
  if (shown && shown.game === g && shown.ply <= target) { from = shown.ply; list = shown.list; }
  else {
    const mark = Math.floor(target / CHECKPOINT) * CHECKPOINT;
    for (let p = mark; p > 0; p -= CHECKPOINT) if (built[g + ":" + p]) { from = p; list = built[g + ":" + p]; break; }
  }
  list = list.slice();
  for (let p = from + 1; p <= target; p++) {
    for (const text of game.edits[p - 1] ? game.edits[p - 1].split(";") : []) {
      const edit = text.split(",").map(n => parseInt(n, 36));
      list.splice(edit[0], edit[1], ...edit.slice(2));
    }
    if (p % CHECKPOINT === 0) built[g + ":" + p] = list.slice();
  }
  shown = {game: g, ply: target, list};
  return list.map(i => pieces[i]).join("");
}
const board = document.getElementById("board"), list = document.getElementById("moves");
const counter = document.getElementById("counter"), note = document.getElementById("comment");
const chooser = document.getElementById("game");
let game = 0, ply = 0;
function build() {
  const g = games[game];
  document.getElementById("title").textContent = g.title;
  document.getElementById("tags").textContent = g.summary;
  list.innerHTML = "";
  const add = (kind, text, ply) => {
    const span = document.createElement("span");
    span.className = kind;
    span.textContent = text;
    if (ply !== undefined) {
      span.dataset.ply = ply;
      span.addEventListener("click", () => go(ply));
    }
    list.append(span, kind === "number" ? "" : " ");
  };
  if (g.comments["0"]) add("comment", g.comments["0"]);
  g.moves.forEach((text, i) => {
    if (g.numbers[i]) add("number", g.numbers[i]);
    add("move", text, i + 1);
    if (g.comments[String(i + 1)]) add("comment", g.comments[String(i + 1)]);
  });
  add("number", g.result);
  go(0);
}
function go(target) {
  const g = games[game];
  ply = Math.max(0, Math.min(g.edits.length, target));
  board.innerHTML = position(game, ply);
  list.querySelectorAll(".move").forEach(span =>
    span.classList.toggle("current", Number(span.dataset.ply) === ply));
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({block: "nearest"});
  counter.textContent = "ply " + ply + " of " + g.edits.length;
  note.textContent = g.comments[ply] || "";
}
document.getElementById("first").onclick = () => go(0);
document.getElementById("previous").onclick = () => go(ply - 1);
document.getElementById("next").onclick = () => go(ply + 1);
document.getElementById("last").onclick = () => go(Infinity);
document.addEventListener("keydown", event => {
  const steps = {ArrowLeft: () => go(ply - 1), ArrowRight: () => go(ply + 1),
                 Home: () => go(0), End: () => go(Infinity)};
  if (steps[event.key] && event.target.tagName !== "SELECT") { steps[event.key](); event.preventDefault(); }
});
if (chooser) chooser.onchange = () => { game = Number(chooser.value); build(); };
build();
"""


#: The buttons' icons, drawn as paths (no font needed).
_ICONS = {
    "first": "M1 1h3v12H1z M15 1v12L5 7z",
    "previous": "M13 1v12L3 7z",
    "next": "M3 1v12l10-6z",
    "last": "M1 1v12l10-6z M12 1h3v12h-3z",
}


def _icon(name: str) -> str:
    return f'<svg width="16" height="14" viewBox="0 0 16 14"><path d="{_ICONS[name]}" fill="currentColor"/></svg>'


def _summary(record: records.Record) -> str:
    tags = record.tags
    seats = records.seat_names(record.game, record.state.num_players)
    players = ", ".join(f"{seat}: {tags.get(seat, '?')}" for seat in seats)
    parts = [players, f"result {record.result}"]
    if tags.get("Date", "?") not in ("?", "????.??.??"):
        parts.append(tags["Date"])
    if tags.get("Parameters"):
        parts.append(tags["Parameters"])
    return "; ".join(parts)


def _title(record: records.Record, number: int) -> str:
    event = record.tags.get("Event", "?")
    title = record.state.game.replace("_", " ")
    return f"Game {number}: {title}" + (f", {event}" if event not in ("?", "") else "")


#: A picture cut into pieces: each tag, and each text between tags.
_PIECE = re.compile(r"<[^>]*>|[^<]+")


class _Pieces:
    """The distinct pieces of every picture of a page, each numbered once."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}

    def of(self, svg: str) -> list[int]:
        return [self.numbers.setdefault(piece, len(self.numbers)) for piece in _PIECE.findall(svg)]

    def table(self) -> list[str]:
        return list(self.numbers)


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, digit = divmod(number, 36)
        out = digits[digit] + out
        if not number:
            return out


def _edits(before: list[int], after: list[int]) -> str:
    """The range replacements that make ``after`` of ``before``, last range first (so each
    applies to the list as the ones before it left it): ``at,removed,inserted...`` in base 36,
    the replacements separated by ``;``."""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    edits = [[i1, i2 - i1, *after[j1:j2]] for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]
    return ";".join(",".join(map(_base36, edit)) for edit in reversed(edits))


def _game_data(record: records.Record, number: int, pieces: _Pieces) -> dict[str, Any]:
    current = record.start()
    params = current.params
    start = pieces.of(render_position(current.game, current.text(), params, View()))
    edits = []
    before = start
    for move in record.state.moves:
        current.play(move)
        after = pieces.of(render_position(current.game, current.text(), params, View(last_move=move)))
        edits.append(_edits(before, after))
        before = after
    return {
        "title": _title(record, number),
        "summary": _summary(record),
        "moves": record.notation,
        "numbers": record.numbers(),
        "result": record.result,
        "start": start,
        "edits": edits,
        "comments": {str(ply): text for ply, text in record.comments.items()},
    }


def page(games: Sequence[records.Record], title: str = "glacier replay") -> str:
    """The replay page of ``games`` (records, as :func:`glacier.records.parse` returns them)."""
    if not games:
        raise InvalidRecordError("there is no game to replay")
    pieces = _Pieces()
    data = [_game_data(record, i + 1, pieces) for i, record in enumerate(games)]
    # "</" inside the JSON would end the script element early.
    payload = json.dumps({"pieces": pieces.table(), "games": data}, separators=(",", ":")).replace("</", "<\\/")
    chooser = ""
    if len(games) > 1:
        options = "".join(f'<option value="{i}">{html.escape(game["title"])}</option>' for i, game in enumerate(data))
        chooser = f'<p><label>Game <select id="game">{options}</select></label></p>'
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{html.escape(title)}</title>
<style>{_STYLE}</style>
</head>
<body>
{chooser}
<h1 id="title"></h1>
<div id="tags"></div>
<div id="layout">
<div>
<div id="board"></div>
<div id="controls">
<button id="first" title="first (Home)">{_icon("first")}</button>
<button id="previous" title="previous (left arrow)">{_icon("previous")}</button>
<button id="next" title="next (right arrow)">{_icon("next")}</button>
<button id="last" title="last (End)">{_icon("last")}</button>
<span id="counter"></span>
</div>
<div id="comment"></div>
</div>
<div id="moves"></div>
</div>
<script type="application/json" id="games">{payload}</script>
<script>{_SCRIPT}</script>
</body>
</html>
"""


def write(path: Union[str, Path], games: Sequence[records.Record], title: str = "glacier replay") -> None:
    """Writes the replay page of ``games`` to ``path``."""
    Path(path).write_text(page(games, title), encoding="utf-8")
