// The page of `glacier serve`. It knows no rules: the server sends the board as a picture
// whose cells carry data-cell, and for the position shown what can be clicked (moves from a
// cell to a cell, cells to tap, buttons); the page marks them and reports the clicks.
"use strict";

const $ = selector => document.querySelector(selector);
let info = null;      // the games, their parameters and seats, the levels
let view = null;      // the server's latest view of the game shown
let selected = null;  // the cell a move starts from
let pendingChoice = null;  // actions that share the gesture just made (promotions)
let piece = null;     // in a stack of several movable pieces (E), the one chosen
let polling = null;
const started = new Set();  // the games this page started: closed when it starts another

async function call(method, path, body) {
  const options = {method, headers: {}};
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json();
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
    label.textContent = p.name.replace(/_/g, " ") + " ";
    const input = document.createElement("input");
    input.type = "number";
    input.name = "param-" + p.name;
    input.dataset.param = p.name;
    input.min = p.min;
    if (p.max < 2 ** 40) input.max = p.max;
    input.placeholder = p.default === null ? "none" : String(p.default);
    if (p.name === "players") { input.value = p.default; input.onchange = buildSeats; }
    label.appendChild(input);
    params.appendChild(label);
  }
  buildSeats();
}

function seatCount() {
  const players = document.querySelector("input[data-param=players]");
  return players && players.value ? String(players.value) : "2";
}

function buildSeats() {
  const game = gameInfo();
  const names = game.seats[seatCount()] || game.seats["2"] || Object.values(game.seats)[0];
  const box = $("#seat-choice");
  box.innerHTML = "";
  names.forEach((name, i) => {
    const label = document.createElement("label");
    label.textContent = name + " ";
    const select = document.createElement("select");
    select.name = "seat" + i;
    for (const choice of [{name: info.human, summary: "a person at this page"}, ...info.levels]) {
      const option = document.createElement("option");
      option.value = choice.name;
      option.title = choice.summary;
      option.textContent = choice.name === info.human ? "you" : "computer, " + choice.name;
      select.appendChild(option);
    }
    select.value = i === 0 ? info.human : "medium";
    label.appendChild(select);
    box.appendChild(label);
  });
}

async function newGame(event) {
  event.preventDefault();
  const form = $("#new-game");
  const body = {game: form.game.value, params: {}, seats: []};
  document.querySelectorAll("#params input").forEach(input => {
    if (input.value !== "") body.params[input.dataset.param] = Number(input.value);
  });
  document.querySelectorAll("#seat-choice select").forEach(select => body.seats.push(select.value));
  if (form.position.value.trim()) body.position = form.position.value.trim();
  const file = form.record.files[0];
  if (file) {
    body.record = await file.text();
    body.seats = [];
    delete body.position;
  }
  if (view && started.has(view.id)) call("DELETE", "/api/games/" + view.id).catch(() => {});
  view = null;
  await act("POST", "/api/games", body);
  if (view) started.add(view.id);
}

// --- the game shown -------------------------------------------------------------------------

function path(what) { return "/api/games/" + view.id + (what ? "/" + what : ""); }

function show(next) {
  const changed = !view || next.id !== view.id || next.version !== view.version;
  view = next;
  if (changed) {
    selected = view.clickable.selected;
    pendingChoice = null;
    piece = null;
    render();
  }
  history.replaceState(null, "", "?game=" + view.id);
  clearTimeout(polling);
  if (view.thinking || (view.analysis && view.analysis.running)) {
    polling = setTimeout(() => call("GET", path()).then(show).catch(err => say(err.message)), 250);
  }
}

function render() {
  const board = $("#board");
  board.innerHTML = view.svg;
  board.dataset.state = view.id + ":" + view.version;
  board.dataset.ply = view.ply;
  $("#status").dataset.thinking = view.thinking;
  $("#status").dataset.result = view.result;
  $("#status").textContent = view.status + (view.thinking ? " (thinking\u2026)" : "");
  $("#position").textContent = view.text;
  say(view.error || "");
  renderSeats();
  renderMoves();
  renderAnalysis();
  mark();
  $("[data-action=undo]").disabled = !view.can_undo;
  $("[data-action=redo]").disabled = !view.can_redo;
  $("[data-action=stop]").disabled = !(view.analysis && view.analysis.running);
}

function renderSeats() {
  const box = $("#seats");
  box.innerHTML = "";
  for (const seat of view.seats) {
    const line = document.createElement("div");
    line.className = seat.to_move ? "to-move" : "";
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

function renderMoves() {
  const list = $("#moves");
  list.innerHTML = "";
  for (const move of view.moves) {
    const item = document.createElement("li");
    if (move.number) {
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = move.number;
      item.appendChild(number);
    }
    const span = document.createElement("span");
    span.className = "move" + (move.ply === view.ply ? " current" : "") + (move.ply > view.ply ? " undone" : "");
    span.dataset.ply = move.ply;
    span.dataset.move = move.move;
    span.title = move.seat + ": " + move.move;
    span.textContent = move.text;
    span.onclick = () => act("POST", path("goto"), {ply: move.ply});
    item.appendChild(span);
    list.appendChild(item);
  }
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({block: "nearest"});
}

function renderAnalysis() {
  const box = $("#analysis");
  box.innerHTML = "";
  const a = view.analysis;
  if (!a) return;
  const head = document.createElement("div");
  head.textContent = (a.running ? "analysing: " : "analysis: ") + a.simulations.toLocaleString() +
    " simulations, " + a.seconds + " s; values " + a.values.map(v => v.seat + " " + v.value.toFixed(2)).join(", ");
  box.appendChild(head);
  if (a.error) say(a.error);
  const table = document.createElement("table");
  for (const entry of a.top) {
    const row = table.insertRow();
    row.className = "top-move";
    row.dataset.move = entry.move;
    row.insertCell().textContent = entry.notation;
    row.insertCell().textContent = (100 * entry.share).toFixed(1) + "%";
    row.insertCell().textContent = entry.visits.toLocaleString() + " visits";
  }
  box.appendChild(table);
}

// --- clicks ---------------------------------------------------------------------------------

function cells() { return document.querySelectorAll("#board [data-cell]"); }

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
  for (const [to, actions] of Object.entries(all)) if (actions.some(a => a.piece === piece)) kept[to] = actions;
  return kept;
}

function mark() {
  const c = view.clickable;
  const targets = targetsHere();
  for (const cell of cells()) {
    const name = cell.dataset.cell;
    cell.classList.toggle("movable", name in c.moves);
    cell.classList.toggle("selected", name === selected);
    cell.classList.toggle("target", name in targets);
    cell.classList.toggle("tap", name in c.cells);
    cell.classList.toggle("partial", c.partial.includes(name) && name !== selected);
  }
  const box = $("#choices");
  box.innerHTML = "";
  const stack = piecesHere();
  if (stack.length > 1 && !pendingChoice) {
    for (const name of stack) {
      const button = document.createElement("button");
      button.className = "piece" + (name === piece ? " chosen" : "");
      button.dataset.piece = name;
      button.textContent = "move the " + name;
      button.onclick = () => { piece = piece === name ? null : name; mark(); };
      box.appendChild(button);
    }
  }
  const choices = pendingChoice || c.choices;
  for (const choice of choices) {
    const button = document.createElement("button");
    button.dataset.choice = choice.text;
    button.textContent = choice.text;
    button.onclick = () => send(choice.action);
    box.appendChild(button);
  }
  if (pendingChoice || (selected && !c.selected)) {
    const cancel = document.createElement("button");
    cancel.className = "cancel";
    cancel.textContent = "cancel";
    cancel.onclick = () => { selected = null; pendingChoice = null; mark(); };
    box.appendChild(cancel);
  }
}

function send(action) { return act("POST", path("action"), {action}); }

function clicked(name) {
  if (!view) return;
  const c = view.clickable;
  if (name in c.cells) return send(c.cells[name]);
  const targets = targetsHere();
  if (targets[name]) {
    const actions = targets[name];
    if (actions.length === 1) return send(actions[0].action);
    pendingChoice = actions;  // several moves make this gesture: choose one
    return mark();
  }
  pendingChoice = null;
  piece = null;
  if (name in c.moves) selected = name === selected && !c.selected ? null : name;
  else if (!c.selected) selected = null;
  mark();
}

// A press on a piece selects it at once; releasing it on a destination moves it (a drag).
let pressed = null, justSelected = null;
function cellOf(event) {
  const cell = event.target.closest("[data-cell]");
  return cell ? cell.dataset.cell : null;
}
$("#board").addEventListener("mousedown", event => {
  const name = cellOf(event);
  pressed = name;
  if (!name || !view) return;
  if (targetsHere()[name]) return;  // a destination (which may hold a piece of its own)
  if (name in view.clickable.moves && name !== selected) {
    selected = name;
    justSelected = name;
    pendingChoice = null;
    piece = null;
    mark();
  }
});
$("#board").addEventListener("mouseup", event => {
  const name = cellOf(event);
  const from = pressed;
  pressed = null;
  if (name && from && name !== from && from === selected && targetsHere()[name]) clicked(name);
});
$("#board").addEventListener("click", event => {
  const name = cellOf(event);
  if (!name) return;
  if (name === justSelected) { justSelected = null; return; }
  justSelected = null;
  clicked(name);
});

const buttons = {
  undo: () => act("POST", path("undo")),
  redo: () => act("POST", path("redo")),
  flip: () => act("POST", path("flip")),
  analyse: () => act("POST", path("analyse")),
  stop: () => act("POST", path("stop")),
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
document.addEventListener("keydown", event => {
  if (!view || event.target.closest("input, select, textarea")) return;
  const keys = {ArrowLeft: () => view.ply > 0 && act("POST", path("goto"), {ply: view.ply - 1}),
                ArrowRight: () => view.ply < view.plies && act("POST", path("goto"), {ply: view.ply + 1}),
                Escape: () => { selected = null; pendingChoice = null; mark(); }};
  if (keys[event.key]) { keys[event.key](); event.preventDefault(); }
});

async function start() {
  info = await call("GET", "/api/info");
  const chooser = $("select[name=game]");
  for (const game of info.games) {
    const option = document.createElement("option");
    option.value = game.name;
    option.textContent = game.title;
    chooser.appendChild(option);
  }
  chooser.onchange = buildForm;
  buildForm();
  $("#new-game").addEventListener("submit", newGame);
  if (info.open.length > 1) {  // several games opened (glacier replay --serve): a chooser
    const label = document.createElement("label");
    label.textContent = "Open game ";
    const select = document.createElement("select");
    select.name = "open";
    info.open.forEach((g, i) => {
      const option = document.createElement("option");
      option.value = g.id;
      option.textContent = (i + 1) + ": " + g.title;
      select.appendChild(option);
    });
    select.onchange = () => act("GET", "/api/games/" + select.value);
    label.appendChild(select);
    $("header").appendChild(label);
  }
  const wanted = new URLSearchParams(location.search).get("game") || (info.open[0] && info.open[0].id);
  if (wanted) {
    try { show(await call("GET", "/api/games/" + wanted)); } catch (err) { say(err.message); }
  }
}
start();
