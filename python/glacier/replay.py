"""The replay page: recorded games as one self-contained HTML file (``glacier replay``).

The page needs no server and no network: the picture of every position is inlined, and a
few lines of plain JavaScript step through them with the buttons, the arrow keys (left and
right, Home and End) or a click on a move. The board marks the last move; a file with
several games gets a chooser.
"""

from __future__ import annotations

import html
import json
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
const games = JSON.parse(document.getElementById("games").textContent);
const board = document.getElementById("board"), list = document.getElementById("moves");
const counter = document.getElementById("counter"), note = document.getElementById("comment");
const chooser = document.getElementById("game");
let game = 0, ply = 0;
function build() {
  const g = games[game];
  document.getElementById("title").textContent = g.title;
  document.getElementById("tags").textContent = g.summary;
  list.innerHTML = g.movetext;
  list.querySelectorAll(".move").forEach(span =>
    span.addEventListener("click", () => go(Number(span.dataset.ply))));
  go(0);
}
function go(target) {
  const g = games[game];
  ply = Math.max(0, Math.min(g.positions.length - 1, target));
  board.innerHTML = g.positions[ply];
  list.querySelectorAll(".move").forEach(span =>
    span.classList.toggle("current", Number(span.dataset.ply) === ply));
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({block: "nearest"});
  counter.textContent = "ply " + ply + " of " + (g.positions.length - 1);
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


def _movetext(record: records.Record) -> str:
    """The move list as HTML: numbered as in the record, each move a clickable span."""
    out = []
    if record.comments.get(0):
        out.append(f'<span class="comment">{html.escape(record.comments[0])}</span> ')
    for ply, (number, written) in enumerate(zip(record.numbers(), record.notation), start=1):
        if number:
            out.append(f'<span class="number">{number}</span>')
        out.append(f'<span class="move" data-ply="{ply}">{html.escape(written)}</span> ')
        if record.comments.get(ply):
            out.append(f'<span class="comment">{html.escape(record.comments[ply])}</span> ')
    out.append(f'<span class="number">{html.escape(record.result)}</span>')
    return "".join(out)


def _game_data(record: records.Record, number: int) -> dict[str, Any]:
    positions = []
    current = record.start()
    params = current.params
    positions.append(render_position(current.game, current.text(), params, View()))
    for move in record.state.moves:
        current.play(move)
        positions.append(render_position(current.game, current.text(), params, View(last_move=move)))
    return {
        "title": _title(record, number),
        "summary": _summary(record),
        "movetext": _movetext(record),
        "positions": positions,
        "comments": {str(ply): text for ply, text in record.comments.items()},
    }


def page(games: Sequence[records.Record], title: str = "glacier replay") -> str:
    """The replay page of ``games`` (records, as :func:`glacier.records.parse` returns them)."""
    if not games:
        raise InvalidRecordError("there is no game to replay")
    data = [_game_data(record, i + 1) for i, record in enumerate(games)]
    # "</" inside the JSON would end the script element early.
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
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
