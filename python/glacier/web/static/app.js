// The page of `glacier serve`. It knows no rules: the server sends the board as a picture
// whose cells carry data-cell, and for the position shown what can be clicked (moves from a
// cell to a cell, cells to tap, buttons); the page marks them and reports the clicks. The
// game's changes (a computer's move, the analysis) come from its event stream, each event
// naming the position (the whole view is asked for when that changed); the board is drawn
// again only when its picture changed, and the analysis's arrows lie in a layer of their
// own over it.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = selector => document.querySelector(selector);
let info = null;       // the games, their parameters and seats, the levels
let view = null;       // the view shown (the latest the server sent)
let stream = null;     // the event stream of the game shown
let selected = null;   // the cell a move starts from
let piece = null;      // in a stack of several movable pieces (E), the one chosen
let pendingChoice = null;  // actions that share the gesture just made (promotions)
let alsoMove = null;   // a move onto a piece of one's own that a tap selected instead
let confirmed = null;  // the ply where leaving the line was confirmed
let asking = null;     // an action waiting for that confirmation
let press = null;      // a press on the board: where, and whether it became a drag
let record = null;     // a record file chosen in the form: its text and what it holds
const started = new Set();  // the games this page started: closed when it starts another

async function call(method, path, body) {
  const options = {method, headers: {}};
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data;
  try { data = await response.json(); } catch (err) { data = {error: response.statusText}; }
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function say(text) { $("#message").textContent = text || ""; }

async function act(method, path, body) {
  try {
    say("");
    show(await call(method, path, body));
  } catch (err) {
    say(err.message);
  }
}

// --- the new-game form ----------------------------------------------------------------------

function gameInfo() { return info.games.find(g => g.name === $("select[name=game]").value); }

function buildForm() {
  const game = gameInfo();
  const params = $("#params");
  params.innerHTML = "";
  for (const p of game.params) {
    const label = document.createElement("label");
    label.className = "row";
    label.textContent = p.name.replace(/_/g, " ") + " ";
    const input = document.createElement("input");
    input.type = "number";
    input.name = "param-" + p.name;
    input.dataset.param = p.name;
    input.min = p.min;
    if (p.max < 2 ** 40) input.max = p.max;
    input.placeholder = p.default === null ? "none" : String(p.default);
    if (p.name === "players") { input.value = p.default; input.onchange = () => buildSeats(); }
    label.appendChild(input);
    params.appendChild(label);
  }
  buildSeats();
}

function seatCount() {
  const players = document.querySelector("input[data-param=players]");
  return players && players.value ? String(players.value) : "2";
}

function buildSeats(names, everyone) {
  const game = gameInfo();
  names = names || game.seats[seatCount()] || game.seats["2"] || Object.values(game.seats)[0];
  const box = $("#seat-choice");
  box.innerHTML = "";
  names.forEach((name, i) => {
    const label = document.createElement("label");
    label.className = "row";
    label.textContent = name + " ";
    const select = document.createElement("select");
    select.name = "seat" + i;
    for (const choice of [{name: info.human, summary: "a person at this page"}, ...info.levels]) {
      const option = document.createElement("option");
      option.value = choice.name;
      option.title = choice.summary;
      option.textContent = choice.name === info.human ? "you" : "computer: " + choice.name;
      select.appendChild(option);
    }
    select.value = everyone || (i === 0 ? info.human : "medium");
    select.onchange = levelNotes;
    label.appendChild(select);
    box.appendChild(label);
  });
  levelNotes();
}

// What each computer level chosen is, in words.
function levelNotes() {
  const chosen = new Set([...document.querySelectorAll("#seat-choice select")].map(s => s.value));
  const box = $("#level-notes");
  box.innerHTML = "";
  for (const level of info.levels) {
    if (!chosen.has(level.name)) continue;
    const line = document.createElement("span");
    line.className = "level-note";
    line.dataset.level = level.name;
    line.textContent = level.name + ": " + level.summary;
    box.appendChild(line);
  }
}

async function recordChosen() {
  const file = $("#new-game").record.files[0];
  record = null;
  $("#record-note").textContent = "";
  if (!file) return;
  try {
    const text = await file.text();
    const found = (await call("POST", "/api/records", {record: text})).games;
    record = {text, games: found};
    const note = $("#record-note");
    note.innerHTML = "";
    if (found.length > 1) {
      const select = document.createElement("select");
      select.name = "record_game";
      found.forEach((g, i) => {
        const option = document.createElement("option");
        option.value = i;
        option.textContent = (i + 1) + ": " + g.title + ", " + g.plies + " plies";
        select.appendChild(option);
      });
      select.onchange = () => recordSeats(found[Number(select.value)]);
      note.append("game ", select);
    } else {
      note.textContent = found[0].title + ", " + found[0].plies + " plies";
    }
    recordSeats(found[0]);
  } catch (err) {
    $("#form-message").textContent = err.message;
  }
}

// A record's game and seats shown in the form: every seat a person unless chosen otherwise.
function recordSeats(game) {
  $("select[name=game]").value = game.game;
  buildForm();
  const players = document.querySelector("input[data-param=players]");
  if (players) players.value = game.players;
  buildSeats(game.seats, info.human);
}

async function newGame(event) {
  event.preventDefault();
  const form = $("#new-game");
  $("#form-message").textContent = "";
  const body = {seats: []};
  document.querySelectorAll("#seat-choice select").forEach(select => body.seats.push(select.value));
  if (record) {
    body.record = record.text;
    const which = form.querySelector("select[name=record_game]");
    if (which) body.record_game = Number(which.value);
  } else {
    body.game = form.game.value;
    body.params = {};
    document.querySelectorAll("#params input").forEach(input => {
      if (input.value !== "") body.params[input.dataset.param] = Number(input.value);
    });
    if (form.position.value.trim()) body.position = form.position.value.trim();
  }
  let next;
  try {
    next = await call("POST", "/api/games", body);
  } catch (err) {  // refused: the game shown stays as it was
    $("#form-message").textContent = err.message;
    return;
  }
  const old = view;
  started.add(next.id);
  form.record.value = "";
  form.position.value = "";
  record = null;
  $("#record-note").textContent = "";
  $("#new-box").open = false;
  show(next);
  if (old && old.id !== next.id && started.has(old.id)) {
    started.delete(old.id);
    call("DELETE", "/api/games/" + old.id).catch(() => {});
  }
}

// --- the game shown -------------------------------------------------------------------------

function path(what) { return "/api/games/" + view.id + (what ? "/" + what : ""); }

// The position a selection belongs to: a new one drops it.
function positionKey(v) { return v.id + "|" + v.ply + "|" + v.plies + "|" + v.text + "|" + v.pending.join(","); }

function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

function show(next) {
  if (view && next.id === view.id && next.version <= view.version) return;
  const before = view;
  view = next;
  const newGame = !before || before.id !== view.id;
  if (newGame) listen();
  const moved = newGame || positionKey(before) !== positionKey(view);
  if (moved || !same(before.clickable, view.clickable)) {
    selected = view.clickable.selected;
    piece = null;
    pendingChoice = null;
    alsoMove = null;
    asking = null;
    if (press && press.drag) endDrag();
    press = null;
  }
  if (newGame || before.svg !== view.svg) drawBoard();
  else if (before.arrows !== view.arrows) drawArrows();
  if (newGame || moved || !same(before.clickable, view.clickable) || before.svg !== view.svg) mark();
  renderPanel(before, newGame);
  if (newGame) history.replaceState(null, "", "?game=" + view.id);
}

function listen() {
  if (stream) stream.close();
  const id = view.id;
  stream = new EventSource("/api/games/" + id + "/events");
  stream.onmessage = event => {
    const part = JSON.parse(event.data);
    if (!view || part.id !== view.id || part.version <= view.version) return;
    if (part.position !== view.position) refresh();  // the board or the moves changed
    else show(Object.assign({}, view, part));
  };
  stream.addEventListener("closed", () => {
    stream.close();
    if (view && view.id === id) say("This game is closed on the server: start a new one.");
  });
  stream.onerror = () => {
    if (stream.readyState === EventSource.CLOSED && view && view.id === id) {
      call("GET", path()).then(show).catch(err => say(err.message + ": start a new game."));
    }
  };
}

// The whole view, asked for once at a time (a change during the request asks again).
let refreshing = false, again = false;
async function refresh() {
  if (refreshing) { again = true; return; }
  refreshing = true;
  try {
    show(await call("GET", path()));
  } catch (err) {
    say(err.message);
  } finally {
    refreshing = false;
    if (again) { again = false; refresh(); }
  }
}

// --- the board ------------------------------------------------------------------------------

function boardSvg() { return $("#board svg"); }

function drawBoard() {
  const board = $("#board");
  board.innerHTML = view.svg;
  const svg = boardSvg();
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  for (const name of ["arrows", "marks", "ghost"]) {
    const layer = document.createElementNS(SVG, "g");
    layer.id = "layer-" + name;
    layer.setAttribute("class", "layer");
    svg.appendChild(layer);
  }
  $("#welcome").hidden = true;
  fitBoard();
  drawArrows();
  board.dataset.ply = view.ply;
}

// The board as large as its area allows, keeping its proportions.
function fitBoard() {
  const svg = boardSvg();
  if (!svg) return;
  const box = svg.viewBox.baseVal;
  const area = $("#board-area");
  const wide = getComputedStyle(document.body).getPropertyValue("--wide").trim() === "1";
  const style = getComputedStyle(area);
  const width = area.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  let height;
  if (wide) {
    height = area.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  } else {  // above the panel: leave the status and the buttons in sight below it
    const top = area.getBoundingClientRect().top + window.scrollY;
    height = Math.max(window.innerHeight - top - 240, width * 0.6);
  }
  const scale = Math.max(0.1, Math.min(width / box.width, height / box.height));
  svg.style.width = Math.floor(box.width * scale) + "px";
  svg.style.height = Math.floor(box.height * scale) + "px";
}

function drawArrows() {
  const layer = $("#layer-arrows");
  if (layer) layer.innerHTML = view.arrows || "";
}

function cells() { return document.querySelectorAll("#board [data-cell]"); }
function cellElement(name) { return document.querySelector('#board [data-cell="' + CSS.escape(name) + '"]'); }

// A cell's box in the picture's own coordinates.
function cellBox(element) {
  const svg = boardSvg();
  const rect = element.getBoundingClientRect();
  const inverse = svg.getScreenCTM().inverse();
  const a = new DOMPoint(rect.left, rect.top).matrixTransform(inverse);
  const b = new DOMPoint(rect.right, rect.bottom).matrixTransform(inverse);
  return {x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y, cx: (a.x + b.x) / 2, cy: (a.y + b.y) / 2};
}

function overlay(layer, tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  layer.appendChild(element);
  return element;
}

// The pieces that can move from the selected cell, when there are several (an E stack).
function piecesHere() {
  const targets = selected && view.clickable.moves[selected];
  if (!targets) return [];
  const names = new Set();
  for (const actions of Object.values(targets)) for (const a of actions) if (a.piece) names.add(a.piece);
  return [...names].sort();
}

function targetsHere() {
  const all = selected && view.clickable.moves[selected] ? view.clickable.moves[selected] : {};
  if (!piece) return all;
  const kept = {};
  for (const [to, actions] of Object.entries(all)) {
    const mine = actions.filter(a => a.piece === piece);
    if (mine.length) kept[to] = mine;
  }
  return kept;
}

// Marks what can be clicked: classes on the cells, and over every piece and ice block a
// layer of dots (destinations), rings (cells to tap, cells a button acts on).
function mark() {
  if (!boardSvg()) return;
  const c = view.clickable;
  const targets = targetsHere();
  const choices = pendingChoice || c.choices;
  const acted = new Set(choices.flatMap(choice => choice.cells || []));
  if (alsoMove) acted.add(alsoMove.to);
  for (const cell of cells()) {
    const name = cell.dataset.cell;
    cell.classList.toggle("movable", name in c.moves);
    cell.classList.toggle("selected", name === selected);
    cell.classList.toggle("target", name in targets);
    cell.classList.toggle("tap", name in c.cells);
    cell.classList.toggle("partial", c.partial.includes(name) && name !== selected);
    cell.classList.toggle("acted-on", acted.has(name));
  }
  const layer = $("#layer-marks");
  layer.innerHTML = "";
  for (const cell of cells()) {
    const name = cell.dataset.cell;
    if (!(name in targets || name in c.cells || name === selected || acted.has(name))) continue;
    const box = cellBox(cell);
    const size = Math.min(box.width, box.height);
    if (name === selected) {
      overlay(layer, "circle", {cx: box.cx, cy: box.cy, r: size * 0.44, class: "mark-selected"});
    } else if (name in targets) {
      overlay(layer, "circle", {cx: box.cx, cy: box.cy, r: size * 0.17, class: "mark-target", "data-mark": name});
    } else if (name in c.cells) {
      overlay(layer, "circle", {cx: box.cx, cy: box.cy, r: size * 0.42, class: "mark-tap"});
    }
    if (acted.has(name)) overlay(layer, "circle", {cx: box.cx, cy: box.cy, r: size * 0.36, class: "mark-acted"});
  }
  renderChoices();
}

function button(text, attributes, onclick) {
  const element = document.createElement("button");
  element.textContent = text;
  for (const [name, value] of Object.entries(attributes || {})) element.setAttribute(name, value);
  element.onclick = onclick;
  return element;
}

function renderChoices() {
  const box = $("#choices");
  box.innerHTML = "";
  if (asking) {
    const dropped = view.plies - view.ply;
    const text = document.createElement("p");
    text.className = "confirm-text";
    text.textContent = "A move other than the game's next one: the " + dropped + " move" +
      (dropped === 1 ? "" : "s") + " after this point will be dropped.";
    box.append(text,
      button("Play it", {"data-confirm": "yes", class: "confirm"}, () => {
        const action = asking;
        confirmed = view.ply;
        asking = null;
        send(action);
      }),
      button("Keep the game", {"data-confirm": "no"}, () => { asking = null; clearSelection(); }));
    return;
  }
  const stack = piecesHere();
  if (stack.length > 1 && !pendingChoice) {
    for (const name of stack) {
      box.appendChild(button("move the " + name, {class: "piece" + (name === piece ? " chosen" : ""), "data-piece": name},
        () => { piece = piece === name ? null : name; mark(); }));
    }
  }
  if (alsoMove) {
    box.appendChild(button("move " + alsoMove.from + " to " + alsoMove.to, {class: "also", "data-also": alsoMove.to},
      () => play(alsoMove.from, alsoMove.to, alsoMove.actions)));
  }
  for (const choice of pendingChoice || view.clickable.choices) {
    const element = button("", {"data-choice": choice.text, title: choice.text}, () => send(choice));
    if (choice.picture) {
      const picture = document.createElement("span");
      picture.className = "picture";
      picture.innerHTML = choice.picture;
      element.appendChild(picture);
    }
    element.append(choice.label || choice.text);
    element.onmouseenter = element.onfocus = () => hint(choice.cells, true);
    element.onmouseleave = element.onblur = () => hint(choice.cells, false);
    box.appendChild(element);
  }
  if (pendingChoice || alsoMove) {  // a plain selection needs none: a tap elsewhere, or Escape
    box.appendChild(button("cancel", {class: "cancel"}, clearSelection));
  }
}

// The cells a button acts on, shown stronger while the pointer is on it.
function hint(names, on) {
  for (const name of names || []) {
    const cell = cellElement(name);
    if (cell) cell.classList.toggle("hinted", on);
  }
}

function clearSelection() {
  selected = view ? view.clickable.selected : null;
  piece = null;
  pendingChoice = null;
  alsoMove = null;
  asking = null;
  mark();
}

// Sends an action; leaving the line asks first (once per move).
function send(entry) {
  if (entry.leaves && view.ply < view.plies && confirmed !== view.ply) {
    asking = entry;
    renderChoices();
    return;
  }
  return act("POST", path("action"), {action: entry.action});
}

function play(from, to, actions) {
  alsoMove = null;
  if (actions.length === 1) return send(actions[0]);
  selected = from;
  pendingChoice = actions;  // several moves make this gesture: choose one
  mark();
}

function tapped(name) {
  if (!view || !name) return;
  const c = view.clickable;
  if (name in c.cells) {
    const action = c.cells[name];
    return send({action, leaves: c.cells_leave[name]});
  }
  const targets = targetsHere();
  if (targets[name]) {
    if (name in c.moves && name !== selected && !c.selected) {
      // A piece of one's own that the selected one could also move onto: the tap selects
      // it, and a button keeps that move at hand.
      const move = {from: selected, to: name, actions: targets[name]};
      selected = name;
      piece = null;
      pendingChoice = null;
      alsoMove = move;
      return mark();
    }
    return play(selected, name, targets[name]);
  }
  pendingChoice = null;
  alsoMove = null;
  piece = null;
  if (name in c.moves) selected = name === selected && !c.selected ? null : name;
  else if (!c.selected) selected = null;
  mark();
}

// --- pointer: taps and drags, for mouse, pen and touch alike -------------------------------

function cellAt(x, y) {
  for (const element of document.elementsFromPoint(x, y)) {
    const cell = element.closest && element.closest("#board [data-cell]");
    if (cell) return cell.dataset.cell;
  }
  return null;
}

// The picture's elements that stand on a cell (its piece, marble or stack), for a drag.
function piecesOn(name) {
  const cell = cellElement(name);
  const box = cell.getBoundingClientRect();
  const found = [];
  for (const element of boardSvg().children) {
    if (element.classList.contains("layer") || element.hasAttribute("data-cell") || element.querySelector("[data-cell]")) continue;
    if (element.classList.contains("arrow") || element.classList.contains("last-move")) continue;
    const rect = element.getBoundingClientRect();
    const cx = (rect.left + rect.right) / 2, cy = (rect.top + rect.bottom) / 2;
    const inside = cx > box.left && cx < box.right && cy > box.top && cy < box.bottom;
    if (inside && rect.width > 0 && rect.width <= box.width * 1.3 && rect.height <= box.height * 1.3) found.push(element);
  }
  return found;
}

function startDrag(event) {
  const svg = boardSvg();
  const ghost = $("#layer-ghost");
  ghost.innerHTML = "";
  const originals = piecesOn(press.cell);
  for (const element of originals) {
    ghost.appendChild(element.cloneNode(true));
    element.classList.add("lifted");
  }
  const start = new DOMPoint(press.x, press.y).matrixTransform(svg.getScreenCTM().inverse());
  press.drag = {originals, start};
  moveDrag(event);
}

function moveDrag(event) {
  const svg = boardSvg();
  const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
  const {start} = press.drag;
  $("#layer-ghost").setAttribute("transform", "translate(" + (at.x - start.x) + " " + (at.y - start.y) + ")");
  const over = cellAt(event.clientX, event.clientY);
  for (const cell of cells()) cell.classList.toggle("drag-over", cell.dataset.cell === over && over in targetsHere());
}

function endDrag() {
  const ghost = $("#layer-ghost");
  if (ghost) { ghost.innerHTML = ""; ghost.removeAttribute("transform"); }
  if (press && press.drag) for (const element of press.drag.originals) element.classList.remove("lifted");
  for (const cell of cells()) cell.classList.remove("drag-over");
}

const boardElement = $("#board");
boardElement.addEventListener("pointerdown", event => {
  if (!view || (event.pointerType === "mouse" && event.button !== 0)) return;
  const name = cellAt(event.clientX, event.clientY);
  press = {cell: name, x: event.clientX, y: event.clientY, id: event.pointerId, drag: null, was: selected};
  if (!name) return;
  event.preventDefault();
  boardElement.setPointerCapture(event.pointerId);
  const c = view.clickable;
  // A press on a piece that can move selects it at once (a drag may follow), unless it is
  // a destination of the piece already selected (a tap there moves, or switches).
  if (name in c.moves && name !== selected && !targetsHere()[name]) {
    selected = name;
    piece = null;
    pendingChoice = null;
    alsoMove = null;
    mark();
  }
});
boardElement.addEventListener("pointermove", event => {
  if (!press || press.id !== event.pointerId || !press.cell) return;
  if (!press.drag) {
    const far = Math.hypot(event.clientX - press.x, event.clientY - press.y) > 6;
    if (!far || !(press.cell in view.clickable.moves)) return;
    if (press.cell !== selected) {  // a drag from a destination that holds a piece of one's own
      selected = press.cell;
      piece = null;
      pendingChoice = null;
      alsoMove = null;
      mark();
    }
    startDrag(event);
  } else {
    moveDrag(event);
  }
});
boardElement.addEventListener("pointerup", event => {
  if (!press || press.id !== event.pointerId) return;
  const done = press;
  const name = cellAt(event.clientX, event.clientY);
  if (done.drag) {
    endDrag();
    press = null;
    const targets = targetsHere();
    if (name && name !== done.cell && targets[name]) play(done.cell, name, targets[name]);
    return;
  }
  press = null;
  if (!name) return;
  if (name === done.cell && name === selected && done.was !== name && name in view.clickable.moves) return;  // selected by the press
  tapped(name);
});
boardElement.addEventListener("pointercancel", () => { if (press && press.drag) endDrag(); press = null; });
boardElement.addEventListener("contextmenu", event => event.preventDefault());

// --- the panel ------------------------------------------------------------------------------

function renderPanel(before, newGame) {
  const status = $("#status");
  status.dataset.thinking = view.thinking;
  status.dataset.result = view.result;
  status.textContent = view.status + (view.thinking ? " (thinking\u2026)" : "");
  status.classList.toggle("over", view.over);
  $("#title").textContent = view.title;
  $("#board").dataset.state = view.id + ":" + view.version;
  $("#board").dataset.ply = view.ply;
  $("#position").textContent = view.text;
  if (view.error) say(view.error);
  if (newGame || !same(before.seats, view.seats)) renderSeats();
  if (newGame || before.ply !== view.ply || !same(before.moves, view.moves)) renderMoves(newGame);
  renderAnalysis();
  const over = $("#over");
  over.hidden = !view.over;
  if (view.over) $("#over-text").textContent = view.status;
  $("[data-action=undo]").disabled = !view.can_undo;
  $("[data-action=redo]").disabled = !view.can_redo;
  $("[data-action=analyse]").disabled = view.over;
  $("[data-action=stop]").disabled = !view.analysing;
}

function renderSeats() {
  const box = $("#seats");
  box.innerHTML = "";
  for (const seat of view.seats) {
    const line = document.createElement("div");
    line.className = "seat" + (seat.to_move ? " to-move" : "");
    const who = seat.player === "human" ? "you" : "computer (" + seat.player + ")";
    line.textContent = (seat.to_move ? "\u25b6 " : "") + seat.name + ": " + who + " ";
    if (seat.note) {
      const note = document.createElement("span");
      note.className = "note";
      note.textContent = seat.note;
      line.appendChild(note);
    }
    box.appendChild(line);
  }
}

// The moves as a table of full moves: a row per move number, a column per seat.
function renderMoves(newGame) {
  const table = $("#moves");
  const seats = view.seats.length;
  if (newGame || table.tHead.rows.length === 0 || table.tHead.rows[0].cells.length !== seats + 1) {
    table.tHead.innerHTML = "";
    const head = table.tHead.insertRow();
    head.appendChild(document.createElement("th"));
    for (const seat of view.seats) {
      const th = document.createElement("th");
      th.textContent = seat.name;
      head.appendChild(th);
    }
    table.className = "seats-" + seats;
  }
  const body = table.tBodies[0];
  body.innerHTML = "";
  let row = null;
  for (const move of view.moves) {
    if (move.number || !row) {
      row = body.insertRow();
      const number = document.createElement("th");
      number.className = "number";
      number.textContent = (move.number || "").replace(/\.+$/, "");
      row.appendChild(number);
      for (let i = 0; i < seats; i++) row.insertCell();
    }
    const span = document.createElement("span");
    span.className = "move" + (move.ply === view.ply ? " current" : "") + (move.ply > view.ply ? " undone" : "");
    span.dataset.ply = move.ply;
    span.dataset.move = move.move;
    span.title = move.seat + ": " + move.move;
    span.textContent = move.text;
    span.onclick = () => act("POST", path("goto"), {ply: move.ply});
    row.cells[move.mover + 1].appendChild(span);
  }
  const current = body.querySelector(".current");
  const box = $("#moves-box");
  if (current) {  // in view inside the list alone: the page itself never scrolls for it
    const top = current.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    const head = table.tHead.getBoundingClientRect().height;
    if (top - head < box.scrollTop) box.scrollTop = top - head;
    else if (top + current.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = top + current.offsetHeight - box.clientHeight;
    }
  } else if (view.ply === 0) {
    box.scrollTop = 0;
  }
}

function renderAnalysis() {
  const box = $("#analysis");
  const a = view.analysis;
  box.hidden = !a;
  if (!a) { box.innerHTML = ""; return; }
  box.innerHTML = "";
  const head = document.createElement("div");
  head.className = "analysis-head";
  const state = a.running ? "analysing" : "analysis" + (a.ended ? " (" + a.ended + ")" : "");
  head.textContent = state + ": " + a.simulations.toLocaleString() + " simulations, " + a.seconds.toFixed(1) + " s";
  box.appendChild(head);
  if (a.values.length) {
    const values = document.createElement("div");
    values.className = "values";
    const shown = value => (Math.abs(value) < 0.005 ? 0 : value).toFixed(2);
    values.textContent = "values: " + a.values.map(v => v.seat + " " + shown(v.value)).join(", ");
    box.appendChild(values);
  }
  if (a.error) say(a.error);
  const table = document.createElement("table");
  if (a.top.length) {
    const head = table.createTHead().insertRow();
    for (const name of ["move", "share", "visits"]) {
      const th = document.createElement("th");
      th.textContent = name;
      head.appendChild(th);
    }
  }
  const rows = table.createTBody();
  for (const entry of a.top) {
    const row = rows.insertRow();
    row.className = "top-move";
    row.dataset.move = entry.move;
    row.insertCell().textContent = entry.notation;
    row.insertCell().textContent = (100 * entry.share).toFixed(1) + "%";
    row.insertCell().textContent = entry.visits.toLocaleString();
  }
  box.appendChild(table);
}

// --- buttons and keys -----------------------------------------------------------------------

const buttons = {
  undo: () => act("POST", path("undo")),
  redo: () => act("POST", path("redo")),
  flip: () => act("POST", path("flip")),
  analyse: () => act("POST", path("analyse")),
  stop: () => act("POST", path("stop")),
  rematch: async () => {
    try {
      const next = await call("POST", path("rematch"), {});
      started.add(next.id);
      show(next);
    } catch (err) { say(err.message); }
  },
  save: async () => {
    try {
      const data = await call("GET", path("record"));
      $("#record-text").textContent = data.record;
      const link = $("#download");
      link.download = data.filename;
      link.href = URL.createObjectURL(new Blob([data.record], {type: "text/plain"}));
      $("#saved").hidden = false;
    } catch (err) { say(err.message); }
  },
};
for (const [name, handler] of Object.entries(buttons)) {
  $("[data-action=" + name + "]").addEventListener("click", () => { if (view) handler(); });
}
$("[data-banner=new]").addEventListener("click", () => {
  $("#new-box").open = true;
  $("select[name=game]").focus();
});

function goto(ply) { if (ply !== view.ply) act("POST", path("goto"), {ply}); }

document.addEventListener("keydown", event => {
  if (!view || event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
  const keys = {
    ArrowLeft: () => view.ply > 0 && goto(view.ply - 1),
    ArrowRight: () => view.ply < view.plies && goto(view.ply + 1),
    Home: () => goto(0),
    End: () => goto(view.plies),
    Backspace: () => view.can_undo && buttons.undo(),
    Escape: clearSelection,
  };
  if (keys[event.key]) { keys[event.key](); event.preventDefault(); }
});

// A page left, kept in the back-forward cache or hidden behind another tab stops listening:
// the server then knows nobody watches the game, and the browser's few connections to one
// server stay free for the tabs in sight. Shown again, it catches up.
function pause() { if (stream) { stream.close(); stream = null; } }
function resume() {
  if (!view || stream) return;
  call("GET", path()).then(next => { view = null; show(next); }).catch(err => say(err.message));
}
window.addEventListener("pagehide", pause);
window.addEventListener("pageshow", event => { if (event.persisted) resume(); });
document.addEventListener("visibilitychange", () => { if (document.hidden) pause(); else resume(); });

new ResizeObserver(() => fitBoard()).observe($("#board-area"));
window.addEventListener("resize", () => { fitBoard(); if (view) mark(); });

async function start() {
  info = await call("GET", "/api/info");
  const chooser = $("select[name=game]");
  for (const game of info.games) {
    const option = document.createElement("option");
    option.value = game.name;
    option.textContent = game.title;
    chooser.appendChild(option);
  }
  chooser.onchange = () => { record = null; $("#new-game").record.value = ""; $("#record-note").textContent = ""; buildForm(); };
  buildForm();
  $("#new-game").addEventListener("submit", newGame);
  $("#new-game").record.addEventListener("change", recordChosen);
  const opened = info.open.filter(g => g.preloaded);
  if (opened.length > 1) {  // several games opened (glacier replay --serve): a chooser
    const label = document.createElement("label");
    label.textContent = "Open game ";
    const select = document.createElement("select");
    select.name = "open";
    opened.forEach((g, i) => {
      const option = document.createElement("option");
      option.value = g.id;
      option.textContent = (i + 1) + ": " + g.title;
      select.appendChild(option);
    });
    select.onchange = () => act("GET", "/api/games/" + select.value);
    label.appendChild(select);
    $("#open-games").appendChild(label);
  }
  const wanted = new URLSearchParams(location.search).get("game") || (opened[0] && opened[0].id);
  if (wanted) {
    try { show(await call("GET", "/api/games/" + wanted)); } catch (err) { say(err.message); }
  }
  if (!view) $("#new-box").open = true;
}
start();
