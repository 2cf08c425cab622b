"""The page of ``glacier serve`` as a person meets it, measured; ``--revision REV`` measures
the web app of another git revision instead (its ``python/glacier/web`` taken with ``git
archive`` and run over this checkout's engine), so that two designs can be set side by side.

- ``page``: headless Chromium at 1280x800 plays ``--moves`` moves by mouse in a game of each
  game against the computer at ``--level``. Per move: the bytes the server sent from the
  click on the destination until the computer's reply is shown (the person's move and the
  reply, every answer, poll and event included, counted at the ASGI layer after
  compression), and the time from the release of the mouse button to the frame after the
  board shows the move (two animation frames after the board's ``data-ply`` changed).
- ``memory``: a server of its own (a process) analyses the start of ``--game`` for
  ``--seconds`` while a page watches (the event stream; a revision without one is polled
  four times a second, as its page did); prints the most its resident memory grew, then
  stops watching and prints how long until the server is idle (under 2% of a core over a
  second).
- ``computers``: ``--analyses`` analyses run (watched) while a person plays ``--moves``
  moves against the computer at ``--level``: prints how long each reply took.

    python benches/serve_page.py page [--revision REV] [--moves 6] [--level medium]
    python benches/serve_page.py memory [--revision REV] [--game GAME] [--seconds 30]
    python benches/serve_page.py computers [--revision REV] [--game GAME] [--analyses 40]
"""

from __future__ import annotations

import argparse
import http.client
import importlib
import io
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable, Optional

import glacier

ROOT = Path(__file__).resolve().parent.parent


def web_package(revision: Optional[str]) -> tuple[str, Optional[str]]:
    """The web app's package to run: this checkout's, or ``revision``'s extracted into a
    temporary folder (then the folder to put on the path)."""
    if revision is None:
        return "glacier.web", None
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "python/glacier/web"], check=True, capture_output=True
    ).stdout
    folder = tempfile.mkdtemp(prefix="glacier-web-")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder)
    name = "glacier_web_" + "".join(c if c.isalnum() else "_" for c in revision)
    shutil.move(os.path.join(folder, "python", "glacier", "web"), os.path.join(folder, name))
    return name, folder


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def call(port: int, method: str, path: str, body: Any = None) -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json", "X-Bench": "1"}  # not counted: the page's alone are
    connection.request(method, path, None if body is None else json.dumps(body), headers)
    answer = connection.getresponse()
    data = json.loads(answer.read())
    connection.close()
    if answer.status != 200:
        raise RuntimeError(f"{method} {path}: {answer.status} {data}")
    return data


class Counted:
    """An ASGI app that counts the bytes its responses send (head and body)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.sent = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if (b"x-bench", b"1") in scope.get("headers", []):
            await self.app(scope, receive, send)
            return

        async def counting(message: Any) -> None:
            if message["type"] == "http.response.start":
                self.sent += 17 + sum(len(k) + len(v) + 4 for k, v in message.get("headers", []))
            elif message["type"] == "http.response.body":
                self.sent += len(message.get("body", b""))
            await send(message)

        await self.app(scope, receive, counting)


def serve_here(package: str, folder: Optional[str]) -> tuple[int, Counted]:
    """The web app run in this process, its bytes counted; its port."""
    import uvicorn

    if folder is not None:
        sys.path.insert(0, folder)
    app = Counted(importlib.import_module(f"{package}.app").create_app())
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return port, app


def serve_apart(package: str, folder: Optional[str]) -> tuple[int, subprocess.Popen[bytes]]:
    """The web app run in a process of its own; its port and the process."""
    port = free_port()
    code = "import sys, uvicorn\n"
    if folder is not None:
        code += f"sys.path.insert(0, {folder!r})\n"
    code += (
        f"from {package}.app import create_app\n"
        f"uvicorn.run(create_app(), host='127.0.0.1', port={port}, log_level='warning')\n"
    )
    process = subprocess.Popen([sys.executable, "-c", code])
    deadline = time.monotonic() + 60
    while True:
        try:
            call(port, "GET", "/api/info")
            return port, process
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("the server did not start") from None
            time.sleep(0.2)


def plain_move(view: dict[str, Any], state: Any) -> Optional[tuple[str, Optional[str], str]]:
    """A move of one action: from a cell to a cell whose destination holds no piece that
    could move, or a tap on one cell (from is then None): the move, from, to."""
    from glacier.web.view import gesture

    offered = view["clickable"]["moves"]
    for move in state.legal_moves():
        actions = state.move_to_actions(move)
        if len(actions) == 1:
            shape = gesture(state.game, state.action_to_string(actions[0]))
            if shape[0] == "move" and shape[1] in offered and shape[2] in offered[shape[1]] and shape[2] not in offered:
                return move, shape[1], shape[2]
            if shape[0] == "cell" and shape[1] in view["clickable"]["cells"]:
                return move, None, shape[1]
    return None


def replied(view: dict[str, Any], ply: int) -> bool:
    """Whether the computer has answered the move made at ``ply`` (or the game is over)."""
    return bool(view["ply"] >= ply + 2 and not view["thinking"]) or view["to_move"] is None


# --- the page -----------------------------------------------------------------------------

PROBE = """
const board = document.getElementById('board');
const expected = String(arguments[0]);
window.probe = {};
document.addEventListener('pointerup', () => { window.probe.up = performance.now(); }, {capture: true, once: true});
const watcher = new MutationObserver(() => {
  if (board.dataset.ply === expected && window.probe.up && !window.probe.drawn) {
    window.probe.drawn = performance.now();
    requestAnimationFrame(() => requestAnimationFrame(() => { window.probe.shown = performance.now(); }));
    watcher.disconnect();
  }
});
watcher.observe(board, {attributes: true, attributeFilter: ['data-ply'], subtree: false});
"""


def browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,800",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "chromedriver"), options=options)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}
    )
    return driver


def tap(driver: Any, cell: str) -> None:
    from selenium.webdriver.common.actions.action_builder import ActionBuilder

    x, y = driver.execute_script(
        'const r = document.querySelector(`#board [data-cell="${arguments[0]}"]`).getBoundingClientRect();'
        "return [r.left + r.width / 2, r.top + r.height / 2];",
        cell,
    )
    hand = ActionBuilder(driver, duration=30)
    hand.pointer_action.move_to_location(int(x), int(y)).pointer_down().pointer_up()
    hand.perform()


def until(condition: Callable[[], Any], seconds: float = 60) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError("waited too long")
        time.sleep(0.01)


def measure_page(args: argparse.Namespace) -> None:
    package, folder = web_package(args.revision)
    port, counted = serve_here(package, folder)
    driver = browser()
    url = f"http://127.0.0.1:{port}/"
    print(f"web app: {args.revision or 'this checkout'}; {args.moves} moves a game against the computer ({args.level})")
    print(f"{'game':<28} {'bytes per move':>15} {'click to board, ms':>19}")
    all_bytes: list[float] = []
    all_times: list[float] = []
    try:
        for game in glacier.GAMES:
            state = glacier.new_game(game)
            seats = ["human"] + [args.level] * (state.num_players - 1)
            view = call(port, "POST", "/api/games", {"game": game, "seats": seats, "seed": 1})
            game_id = view["id"]
            driver.get(f"{url}?game={game_id}")
            until(lambda: driver.execute_script("return document.getElementById('board').dataset.ply") == "0")
            sent, times = [], []
            for _ in range(args.moves):
                view = call(port, "GET", f"/api/games/{game_id}")
                state = glacier.from_text(game, view["text"], **view["params"])
                chosen = plain_move(view, state) if not view["thinking"] else None
                if chosen is None or state.is_terminal():
                    break
                _, frm, to = chosen
                ply = view["ply"]
                if frm is not None:
                    tap(driver, frm)  # picks the piece up: the page alone
                    time.sleep(0.2)
                driver.execute_script(PROBE, ply + 1)
                before = counted.sent
                tap(driver, to)
                until(lambda: driver.execute_script("return window.probe.shown"))
                probe = driver.execute_script("return window.probe")

                def answered(ply: int = ply) -> bool:
                    shown = driver.execute_script(
                        "const s = document.querySelector('[role=status]');"
                        "return [s.dataset.thinking, document.getElementById('board').dataset.ply];"
                    )
                    return shown[0] == "false" and int(shown[1]) >= ply + 2

                over = f"/api/games/{game_id}"
                until(lambda over=over: answered() or call(port, "GET", over)["to_move"] is None)
                time.sleep(0.3)  # the last answers of the turn
                sent.append(counted.sent - before)
                times.append(probe["shown"] - probe["up"])
            if sent:
                all_bytes += sent
                all_times += times
                print(f"{game:<28} {statistics.median(sent):>15,.0f} {statistics.median(times):>19.1f}")
            call(port, "DELETE", f"/api/games/{game_id}")
        print(
            f"{'every game (median)':<28} {statistics.median(all_bytes):>15,.0f} {statistics.median(all_times):>19.1f}"
        )
    finally:
        driver.quit()


# --- memory and idleness -------------------------------------------------------------------


def resident(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Watcher:
    """A page watching a game: its event stream, or polls four times a second."""

    def __init__(self, port: int, game_id: str) -> None:
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._watch, args=(port, game_id), daemon=True)
        self.thread.start()

    def _watch(self, port: int, game_id: str) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1.0)  # to notice the stop
        connection.request("GET", f"/api/games/{game_id}/events")
        answer = connection.getresponse()
        if answer.status == 200:
            while not self.stop.is_set():
                try:
                    if not answer.fp.readline():
                        break
                except (TimeoutError, OSError):
                    continue
            connection.close()
            return
        connection.close()
        while not self.stop.is_set():  # no event stream: the page polled
            call(port, "GET", f"/api/games/{game_id}")
            self.stop.wait(0.25)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=10)


def measure_memory(args: argparse.Namespace) -> None:
    package, folder = web_package(args.revision)
    port, process = serve_apart(package, folder)
    try:
        people = ["human"] * glacier.new_game(args.game).num_players
        game_id = call(port, "POST", "/api/games", {"game": args.game, "seats": people})["id"]
        watcher = Watcher(port, game_id)
        time.sleep(1.0)
        base = resident(process.pid)
        call(port, "POST", f"/api/games/{game_id}/analyse")
        most = base
        begun = time.monotonic()
        while time.monotonic() - begun < args.seconds:
            most = max(most, resident(process.pid))
            time.sleep(0.5)
        view = call(port, "GET", f"/api/games/{game_id}")
        simulations = (view.get("analysis") or {}).get("simulations", 0)
        print(f"web app: {args.revision or 'this checkout'}; {args.game}, analysed {args.seconds:.0f} s")
        print(f"resident memory grew by {(most - base) / 2**20:,.0f} MiB ({simulations:,} simulations)")
        watcher.close()
        left = time.monotonic()
        used = cpu_seconds(process.pid)
        while True:
            time.sleep(1.0)
            now = cpu_seconds(process.pid)
            if now - used < 0.02:
                print(f"idle {time.monotonic() - left:.0f} s after the page left")
                break
            used = now
            if time.monotonic() - left > args.idle_limit:
                print(f"still busy {args.idle_limit:.0f} s after the page left")
                break
    finally:
        process.terminate()
        process.wait(timeout=30)


# --- computers among analyses ----------------------------------------------------------------


def measure_computers(args: argparse.Namespace) -> None:
    package, folder = web_package(args.revision)
    port, process = serve_apart(package, folder)
    try:
        people = ["human"] * glacier.new_game(args.game).num_players
        analysed = []
        for _ in range(args.analyses):
            game_id = call(port, "POST", "/api/games", {"game": args.game, "seats": people})["id"]
            call(port, "POST", f"/api/games/{game_id}/analyse")
            analysed.append(game_id)
        stop = threading.Event()

        def watch() -> None:  # shown every few seconds, as pages would
            while not stop.is_set():
                for game_id in analysed:
                    call(port, "GET", f"/api/games/{game_id}")
                stop.wait(5)

        threading.Thread(target=watch, daemon=True).start()
        state = glacier.new_game(args.game)
        seats = ["human"] + [args.level] * (state.num_players - 1)
        game_id = call(port, "POST", "/api/games", {"game": args.game, "seats": seats, "seed": 1})["id"]
        replies = []
        for _ in range(args.moves):
            view = call(port, "GET", f"/api/games/{game_id}")
            state = glacier.from_text(args.game, view["text"], **view["params"])
            if state.is_terminal():
                break
            begun = time.monotonic()
            call(port, "POST", f"/api/games/{game_id}/move", {"move": state.legal_moves()[0]})
            try:
                until(
                    lambda ply=view["ply"]: replied(call(port, "GET", f"/api/games/{game_id}"), ply), args.reply_limit
                )
                replies.append(time.monotonic() - begun)
            except TimeoutError:
                replies.append(float("inf"))
                break
        stop.set()
        shown = ", ".join(f"over {args.reply_limit:.0f} s" if r == float("inf") else f"{r:.2f}" for r in replies)
        print(f"web app: {args.revision or 'this checkout'}; {args.analyses} analyses of {args.game} running")
        print(f"the computer ({args.level}) replied in (s): {shown}")
    finally:
        process.terminate()
        process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["page", "memory", "computers"])
    parser.add_argument("--revision", help="measure the web app of this git revision")
    parser.add_argument("--moves", type=int, default=6)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--game", default=glacier.GAMES[0], choices=glacier.GAMES)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--idle-limit", type=float, default=150.0)
    parser.add_argument("--analyses", type=int, default=40)
    parser.add_argument("--reply-limit", type=float, default=60.0)
    args = parser.parse_args()
    {"page": measure_page, "memory": measure_memory, "computers": measure_computers}[args.what](args)


if __name__ == "__main__":
    main()
