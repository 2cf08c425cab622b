"""The page of ``glacier serve`` in a real browser: headless Chromium driven by Selenium, with
one browser for the module, sized by the DevTools protocol to a phone (390x844, with touch),
a tablet (768x1024), a laptop (1280x800) and a desktop (1920x1080).

Every move is made as a hand makes it: a press and a release at a cell's coordinates, or a
drag from one cell to another through the points between (a finger on the phone, the mouse
elsewhere), never a click on an element handle. After every move the page must show the
position and the moves that glacier's own state of the same game has.

What is played is each game's own: its test module (tests/test_<game>.py) declares
``browser_scenario(table)``, which starts its game with ``table.start(...)`` and plays it
on the :class:`Game` it gets back; each starts from a near-final position (or with a short
ply limit) so that it is played to its end. The other tests check what a person meets
whatever the game: the board and the panel at every window size after 60 plies, a move
during an analysis, a refused new game, the keys, leaving the line, the end of a game, and
games made by others through the API.

With GLACIER_SCREENSHOTS=<folder> set, screenshots are written there (docs/play.md shows
them: ``<game>.png`` in mid-play at a laptop's size, ``phone-<game>.png`` at a phone's).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import time
import urllib.request
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import pytest

import glacier
from conftest import game_tests, web_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no headless Chromium with chromedriver here (make test installs the Debian packages "
    "chromium and chromium-driver)",
)

WAIT = 60.0
#: The game of the tests that any game would do for.
GAME = glacier.GAMES[0]

#: The window sizes a person uses: width, height, and whether it is a phone (touch).
SIZES = {
    "phone": (390, 844, True),
    "tablet": (768, 1024, False),
    "laptop": (1280, 800, False),
    "desktop": (1920, 1080, False),
}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with web_server() as (port, _):
        yield f"http://127.0.0.1:{port}/"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--window-size=1920,1080",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def window(browser: Any, size: str) -> None:
    """Makes the browser's window ``size`` (a key of :data:`SIZES`); a phone has touch."""
    width, height, phone = SIZES[size]
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 2 if phone else 1, "mobile": phone},
    )
    browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": phone, "maxTouchPoints": 5})
    browser.touch = phone


@pytest.fixture()
def laptop(browser: Any) -> Any:
    window(browser, "laptop")
    return browser


def post(url: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url.rstrip("/") + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def get(url: str, path: str) -> Any:
    with urllib.request.urlopen(url.rstrip("/") + path, timeout=30) as answer:
        return json.load(answer)


def played_game(
    url: str, game: str, params: dict[str, int], plies: int, seed: int = 1, position: str = ""
) -> tuple[str, Any]:
    """A game of people made through the API (from ``position``, by default the start) with
    ``plies`` random moves (none that ends it while another will do), and glacier's state."""
    state = glacier.from_text(game, position, **params) if position else glacier.new_game(game, **params)
    body = {"game": game, "params": params, "seats": ["human"] * state.num_players, "position": position}
    view = post(url, "/api/games", body)
    rng = random.Random(seed)
    for _ in range(plies):
        moves = state.legal_moves()
        rng.shuffle(moves)
        for move in moves:
            trial = state.copy()
            trial.play(move)
            if not trial.is_terminal() or move == moves[-1]:
                break
        state.play(move)
        post(url, f"/api/games/{view['id']}/move", {"move": move})
    return str(view["id"]), state


def plain_move(url: str, game_id: str, state: Any) -> tuple[str, str, str]:
    """A move of one action from a cell to a cell whose destination holds no piece that
    could move (a tap there moves, never picks that piece up): the move, from, to."""
    from glacier.web.view import gesture

    offered = get(url, f"/api/games/{game_id}")["clickable"]["moves"]
    for move in state.legal_moves():
        actions = state.move_to_actions(move)
        if len(actions) == 1:
            shape = gesture(state.game, state.action_to_string(actions[0]))
            if shape[0] == "move" and shape[2] not in offered and len(offered[shape[1]][shape[2]]) == 1:
                return move, shape[1], shape[2]
    raise AssertionError(f"no plain move here: {state.text()}")


class Game:
    """A game on the page, and glacier's own state of the same game beside it."""

    def __init__(self, browser: Any, mine: Any) -> None:
        self.browser = browser
        self.mine = mine

    def until(self, condition: Any, what: str) -> Any:
        from selenium.webdriver.support.ui import WebDriverWait

        return WebDriverWait(self.browser, WAIT, poll_frequency=0.05).until(lambda _: condition(), what)

    def script(self, code: str, *args: Any) -> Any:
        """Reads the page in one go (it may change between two element look-ups)."""
        return self.browser.execute_script(code, *args)

    def board_state(self) -> str:
        return str(self.script("return document.getElementById('board').dataset.state || '';"))

    def thinking(self) -> bool:
        return bool(self.script("return document.querySelector('[role=status]').dataset.thinking === 'true';"))

    def page_moves(self) -> list[str]:
        return list(
            self.script("return [...document.querySelectorAll('#moves .move:not(.undone)')].map(e => e.dataset.move);")
        )

    def page_text(self) -> str:
        return str(self.script("return document.getElementById('position').textContent;"))

    def snapshot(self) -> dict[str, Any]:
        """The position, the moves and the ply the page shows, read at one moment."""
        return dict(
            self.script(
                "return {text: document.getElementById('position').textContent,"
                " moves: [...document.querySelectorAll('#moves .move:not(.undone)')].map(e => e.dataset.move),"
                " ply: document.getElementById('board').dataset.ply};"
            )
        )

    def check(self) -> None:
        """The page shows glacier's position and moves."""
        shown = self.snapshot()
        assert shown == {"text": self.mine.text(), "moves": self.mine.moves, "ply": str(len(self.mine.moves))}

    # --- a hand on the page ---------------------------------------------------------------

    def centre(self, selector: str) -> tuple[float, float]:
        """Where the element is on the screen (brought into sight first)."""
        found = self.script(
            "const e = document.querySelector(arguments[0]); if (!e) return null;"
            "e.scrollIntoView({block: 'nearest', inline: 'nearest'});"
            "const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];",
            selector,
        )
        assert found is not None, f"nothing on the page is {selector}"
        return float(found[0]), float(found[1])

    def _hand(self) -> Any:
        from selenium.webdriver.common.actions import interaction
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        from selenium.webdriver.common.actions.pointer_input import PointerInput

        touch = getattr(self.browser, "touch", False)
        kind = interaction.POINTER_TOUCH if touch else interaction.POINTER_MOUSE
        return ActionBuilder(self.browser, mouse=PointerInput(kind, "finger" if touch else "mouse"), duration=50)

    def tap(self, selector: str) -> None:
        """A press and a release at the element's centre."""
        x, y = self.centre(selector)
        hand = self._hand()
        hand.pointer_action.move_to_location(int(x), int(y)).pointer_down().pointer_up()
        hand.perform()

    def drag(self, frm: str, to: str, halfway: Optional[Callable[[], None]] = None) -> None:
        """Presses on cell ``frm``, moves through the points between to cell ``to`` and lets
        go there; ``halfway()`` is called with the piece held halfway."""
        (x1, y1), (x2, y2) = self.centre(self.cell(frm)), self.centre(self.cell(to))
        hand = self._hand()
        hand.pointer_action.move_to_location(int(x1), int(y1)).pointer_down()
        for step in (1, 2):
            hand.pointer_action.move_to_location(int(x1 + (x2 - x1) * step / 4), int(y1 + (y2 - y1) * step / 4))
        if halfway is not None:
            hand.perform()
            halfway()
            hand = self._hand()  # the same input source (by its name): the button stays down
        for step in (3, 4):
            hand.pointer_action.move_to_location(int(x1 + (x2 - x1) * step / 4), int(y1 + (y2 - y1) * step / 4))
        hand.pointer_action.pointer_up()
        hand.perform()

    def click(self, selector: str) -> None:
        """Taps something that sends an action, and waits for the page to show the answer."""
        before = self.board_state()
        self.tap(selector)
        self.until(lambda: self.board_state() != before, f"an answer to the tap on {selector}")

    def cell(self, name: str) -> str:
        return f'#board [data-cell="{name}"]'

    def selected(self) -> list[str]:
        return list(self.script("return [...document.querySelectorAll('#board .selected')].map(e => e.dataset.cell);"))

    def select(self, name: str) -> None:
        """Taps a cell to pick up its piece (no answer from the server: the page marks it)."""
        self.tap(self.cell(name))
        assert self.selected() == [name]

    def targets(self) -> set[str]:
        return set(self.script("return [...document.querySelectorAll('#board .target')].map(e => e.dataset.cell);"))

    def choices(self) -> list[str]:
        return list(self.script("return [...document.querySelectorAll('[data-choice]')].map(e => e.dataset.choice);"))

    def labels(self) -> list[str]:
        """What the choice buttons say."""
        return list(self.script("return [...document.querySelectorAll('[data-choice]')].map(e => e.textContent);"))

    def acted_on(self) -> set[str]:
        """The cells marked as those the choice buttons act on."""
        return set(self.script("return [...document.querySelectorAll('#board .acted-on')].map(e => e.dataset.cell);"))

    def choose(self, text: str) -> None:
        self.click(f'[data-choice="{text}"]')

    def played(self, move: str) -> None:
        """The person's move is made: glacier plays it too, and the page must agree (unless a
        computer has answered it already: :meth:`computer_replies` checks that)."""
        self.mine.play(move)
        done = self.mine.moves
        self.until(lambda: self.page_moves()[: len(done)] == done, f"the move {move} listed")
        shown = self.snapshot()
        if shown["moves"] == done:
            assert shown == {"text": self.mine.text(), "moves": done, "ply": str(len(done))}

    def computer_replies(self) -> None:
        """Waits for the computer's moves, plays them on glacier's state and checks the page."""
        self.until(lambda: not self.thinking() and len(self.page_moves()) > len(self.mine.moves), "the computer's move")
        shown = self.page_moves()
        assert shown[: len(self.mine.moves)] == self.mine.moves
        for move in shown[len(self.mine.moves) :]:
            self.mine.play(move)
        self.check()

    def status(self) -> str:
        return str(self.script("return document.querySelector('[role=status]').textContent;"))

    def screenshot(self, name: Optional[str] = None) -> None:
        """With GLACIER_SCREENSHOTS set, the page as ``<name>.png`` (by default the game's name)."""
        folder = os.environ.get("GLACIER_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            time.sleep(0.3)  # the last frame painted
            self.browser.save_screenshot(str(Path(folder) / f"{name or self.mine.game}.png"))


def open_form(browser: Any) -> None:
    browser.execute_script("document.getElementById('new-box').open = true;")


def start(
    browser: Any, url: str, game: str, position: str, params: Optional[dict[str, int]] = None, level: str = "easy"
) -> Game:
    """Starts a game from the page's form: the person plays the first seat, the computer
    the others at ``level``."""
    from selenium.webdriver.support.ui import Select

    params = params or {}
    browser.get(url)
    loaded = "return document.querySelectorAll('select[name=game] option').length;"
    page = Game(browser, None)
    page.until(lambda: browser.execute_script(loaded) == len(glacier.GAMES), "the game chooser")
    open_form(browser)
    Select(browser.find_element("css selector", "select[name=game]")).select_by_value(game)
    for name, value in params.items():
        field = browser.find_element("css selector", f'input[data-param="{name}"]')
        field.clear()
        field.send_keys(str(value))
    if "players" in params:
        browser.execute_script("document.querySelector('input[data-param=players]').onchange();")
    for i, seat in enumerate(browser.find_elements("css selector", "#seat-choice select")):
        Select(seat).select_by_value("human" if i == 0 else level)
    browser.execute_script("document.getElementById('start-from').open = true;")
    browser.find_element("css selector", "input[name=position]").send_keys(position)
    page.tap('[data-action="new"]')
    mine = glacier.from_text(game, position, **params)
    page.mine = mine
    page.until(lambda: page.board_state() != "" and page.page_text() == mine.text(), "the new game")
    page.check()
    return page


class Table:
    """What a game's ``browser_scenario`` is given: :meth:`start` begins a game on the page,
    and ``tmp_path`` is a folder of its own."""

    def __init__(self, browser: Any, url: str, tmp_path: Path) -> None:
        self.browser = browser
        self.url = url
        self.tmp_path = tmp_path

    def start(self, game: str, position: str, params: Optional[dict[str, int]] = None, level: str = "easy") -> Game:
        return start(self.browser, self.url, game, position, params, level)


@pytest.mark.parametrize("game", glacier.GAMES)
def test_a_game_of_every_game_played_by_hand(laptop: Any, server: str, game: str, tmp_path: Path) -> None:
    scenario = getattr(game_tests(game), "browser_scenario", None)
    assert scenario is not None, f"tests/test_{game}.py declares no browser_scenario"
    scenario(Table(laptop, server, tmp_path))


# --- every window size ------------------------------------------------------------------------


def layouts() -> list[tuple[str, dict[str, int]]]:
    """Every game, with the fewest and the most players it allows."""
    out: list[tuple[str, dict[str, int]]] = []
    for game in glacier.GAMES:
        spec = glacier.game_spec(game)
        if any(p.name == "players" for p in spec.params):
            out += [(game, {"players": min(spec.seats)}), (game, {"players": max(spec.seats)})]
        else:
            out.append((game, {}))
    return out


LAYOUTS = layouts()

GEOMETRY = """
const inside = r => r.left >= -1 && r.right <= innerWidth + 1;
const box = e => e.getBoundingClientRect();
const board = box(document.querySelector('#board svg'));
const sideways = [...document.querySelectorAll('body *')].filter(e => {
  const style = getComputedStyle(e);
  const unseen = e.closest('[hidden]') || e.closest('details:not([open]) > :not(summary)');
  if (style.display === 'none' || e.closest('svg') || unseen) return false;
  const r = box(e);
  const scrolls = e.scrollWidth > e.clientWidth + 1 && ['auto', 'scroll'].includes(style.overflowX);
  return (r.width > 0 && !inside(r)) || scrolls;
}).map(e => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className);
const listBox = box(document.getElementById('moves-box'));
const current = document.querySelector('#moves .current');
return {
  width: innerWidth, height: innerHeight,
  page: [document.documentElement.scrollWidth, document.body.scrollWidth],
  board: [board.left, board.right, board.width, board.height],
  sideways,
  status: box(document.querySelector('[role=status]')),
  undo: box(document.querySelector('[data-action=undo]')),
  analyse: box(document.querySelector('[data-action=analyse]')),
  listed: [...document.querySelectorAll('#moves [data-ply]')].map(e => Number(e.dataset.ply)),
  current: current && [box(current).top, box(current).bottom, listBox.top, listBox.bottom],
};
"""


@pytest.fixture(scope="module")
def long_games(server: str) -> list[tuple[str, dict[str, int], str, Any]]:
    """A game of 60 plies of every layout, made through the API."""
    return [(game, params, *played_game(server, game, params, 60)) for game, params in LAYOUTS]


@pytest.mark.parametrize("size", SIZES)
def test_the_board_and_the_panel_fit_every_window(browser: Any, server: str, long_games: Any, size: str) -> None:
    """After 60 plies: the board within the window's width, its longer side at least 60% of
    the window's shorter side (85% of a phone's width); nothing scrolls sideways, the page
    included; whose turn it is, Undo and Analyse within the width (and, from a laptop's
    size up, within the height: in sight without scrolling); every move listed, the
    current one in sight in the list."""
    width, height, phone = SIZES[size]
    window(browser, size)
    for game, params, game_id, state in long_games:
        browser.get(f"{server}?game={game_id}")
        page = Game(browser, state)
        text = state.text()
        page.until(lambda page=page, text=text: page.page_text() == text, "the game shown")
        page.check()
        seen = page.script(GEOMETRY)
        what = f"{game} {params} at {width}x{height}"
        assert (seen["width"], seen["height"]) == (width, height)
        left, right, board_width, board_height = seen["board"]
        assert left >= 0 and right <= width + 0.5, what
        longer = max(board_width, board_height)
        assert longer >= (0.85 * width if phone else 0.6 * min(width, height)), (what, seen["board"])
        assert max(seen["page"]) <= width and seen["sideways"] == [], (what, seen["page"], seen["sideways"])
        for name in ("status", "undo", "analyse"):
            element = seen[name]
            assert element["left"] >= 0 and element["right"] <= width, (what, name, element)
            if width >= 1280:
                assert element["top"] >= 0 and element["bottom"] <= height, (what, name, element)
        assert seen["listed"] == list(range(1, len(state.moves) + 1)), what
        top, bottom, list_top, list_bottom = seen["current"]
        assert top >= list_top - 1 and bottom <= list_bottom + 1, (what, seen["current"])
        if size in ("laptop", "phone"):
            page.screenshot(f"{'phone' if phone else 'laptop'}-{game}{params.get('players', '')}")


def test_a_move_by_touch_on_a_phone(browser: Any, server: str) -> None:
    """On a phone a finger taps a piece and its destination, and drags another."""
    window(browser, "phone")
    game_id, state = played_game(server, GAME, {}, 0)
    browser.get(f"{server}?game={game_id}")
    page = Game(browser, state)
    page.until(lambda: page.page_text() == state.text(), "the game shown")
    move, frm, to = plain_move(server, game_id, state)
    page.select(frm)
    assert to in page.targets()
    page.tap(page.cell(to))
    page.played(move)
    move, frm, to = plain_move(server, game_id, state)
    page.drag(frm, to)
    page.played(move)


# --- never in the way -------------------------------------------------------------------------


def test_a_move_by_hand_while_the_analysis_runs(laptop: Any, server: str) -> None:
    """The analysis's updates change the arrows and figures, not the selection or a drag in
    progress; a move reaches the list and the analysis goes on from the new position."""
    game_id, state = played_game(server, GAME, {}, 0)
    laptop.get(f"{server}?game={game_id}")
    page = Game(laptop, state)
    page.until(lambda: page.page_text() == state.text(), "the game shown")
    page.tap('[data-action="analyse"]')
    page.until(lambda: page.script("return document.querySelectorAll('#layer-arrows .arrow').length") >= 2, "arrows")
    page.script(
        "window.drawn = 0; new MutationObserver(() => window.drawn++).observe("
        "document.getElementById('board'), {childList: true});"
        "window.updates = 0; new MutationObserver(() => window.updates++).observe("
        "document.getElementById('analysis'), {childList: true, subtree: true});"
    )
    move, frm, to = plain_move(server, game_id, state)
    page.select(frm)
    updates = page.script("return window.updates;")
    page.until(lambda: page.script("return window.updates;") >= updates + 3, "the analysis going on")
    assert page.selected() == [frm] and to in page.targets()  # the selection survives its updates
    page.screenshot("analysis")
    page.tap(page.cell(to))
    page.played(move)
    page.until(lambda: page.script("return document.querySelector('#analysis .top-move') !== null"), "a new analysis")
    assert page.script("return window.drawn;") == 1  # the board is drawn again for the move alone
    # A drag held while the analysis goes on.
    move, frm, to = plain_move(server, game_id, state)

    def held() -> None:
        """The piece follows the pointer, and stays in hand while the analysis goes on."""
        lifted = "return document.querySelector('#layer-ghost').childElementCount"
        assert page.script(lifted) > 0 and page.script("return document.querySelectorAll('#board .lifted').length")
        moved = "return document.querySelector('#layer-ghost').getAttribute('transform')"
        assert page.script(moved) not in (None, "translate(0 0)")
        updates = page.script("return window.updates;")
        page.until(lambda: page.script("return window.updates;") >= updates + 2, "the analysis going on")
        assert page.script(lifted) > 0

    page.drag(frm, to, halfway=held)
    page.played(move)
    page.tap('[data-action="stop"]')
    page.until(lambda: "stopped" in page.script("return document.getElementById('analysis').textContent;"), "a stop")


def test_a_refused_new_game_leaves_the_game_shown_playable(laptop: Any, server: str) -> None:
    from selenium.webdriver.support.ui import Select

    game, other = glacier.GAMES[-1], glacier.GAMES[0]
    game_id, state = played_game(server, game, {}, 2)
    laptop.get(f"{server}?game={game_id}")
    page = Game(laptop, state)
    page.until(lambda: page.page_text() == state.text(), "the game shown")
    open_form(laptop)
    Select(laptop.find_element("css selector", "select[name=game]")).select_by_value(other)
    laptop.execute_script("document.getElementById('start-from').open = true;")
    laptop.find_element("css selector", "input[name=position]").send_keys("not a position")
    page.tap('[data-action="new"]')
    page.until(lambda: page.script("return document.getElementById('form-message').textContent;"), "the refusal")
    title = glacier.game_spec(other).title.split(" (")[0]
    assert title in page.script("return document.getElementById('form-message').textContent;")
    assert get(server, f"/api/games/{game_id}")["ply"] == 2  # the game is still on the server
    laptop.execute_script("document.getElementById('new-box').open = false;")
    page.check()
    move, frm, to = plain_move(server, game_id, state)
    page.select(frm)
    page.tap(page.cell(to))
    page.played(move)


def test_the_keys_walk_the_game_and_backspace_undoes(laptop: Any, server: str) -> None:
    from selenium.webdriver.common.keys import Keys

    game_id, state = played_game(server, GAME, {}, 6)
    laptop.get(f"{server}?game={game_id}")
    page = Game(laptop, state)
    page.until(lambda: page.page_text() == state.text(), "the game shown")
    body = laptop.find_element("css selector", "body")

    def ply() -> int:
        return int(page.script("return document.getElementById('board').dataset.ply;"))

    for key, expected in (
        (Keys.HOME, 0),
        (Keys.ARROW_RIGHT, 1),
        (Keys.ARROW_RIGHT, 2),
        (Keys.END, 6),
        (Keys.ARROW_LEFT, 5),
    ):
        body.send_keys(key)
        page.until(lambda expected=expected: ply() == expected, f"ply {expected} after {key!r}")
    body.send_keys(Keys.END)
    page.until(lambda: ply() == 6, "the end")
    body.send_keys(Keys.BACKSPACE)  # people at every seat: one move back
    page.until(lambda: ply() == 5, "Backspace undoing")
    assert "Backspace" in page.script("return document.querySelector('[data-action=undo]').title;")
    assert page.script("return document.querySelectorAll('#moves .move.undone').length") == 1


def test_playing_on_from_an_earlier_move_asks_first(laptop: Any, server: str) -> None:
    game_id, state = played_game(server, GAME, {}, 4)
    laptop.get(f"{server}?game={game_id}")
    page = Game(laptop, state)
    page.until(lambda: page.page_text() == state.text(), "the game shown")
    page.click('#moves [data-ply="2"]')
    page.mine = glacier.new_game(GAME)
    for move in state.moves[:2]:
        page.mine.play(move)
    offered = get(server, f"/api/games/{game_id}")["clickable"]["moves"]
    other, frm, to = next(
        (entries[0]["text"], frm, to)
        for frm, targets in offered.items()
        for to, entries in targets.items()
        if len(entries) == 1
        and entries[0]["text"] != state.moves[2]
        and len(page.mine.move_to_actions(entries[0]["text"])) == 1
    )
    page.drag(frm, to)  # a drag: the destination may hold a piece of one's own
    page.until(lambda: page.script("return document.querySelector('[data-confirm]') !== null"), "the question")
    assert "2 moves" in page.script("return document.getElementById('choices').textContent;")
    page.tap('[data-confirm="no"]')  # the game stays as it was
    assert page.selected() == [] and len(page.script("return [...document.querySelectorAll('#moves .move')]")) == 4
    page.drag(frm, to)
    page.until(lambda: page.script("return document.querySelector('[data-confirm]') !== null"), "the question")
    page.tap('[data-confirm="yes"]')
    page.played(other)
    assert len(page.script("return [...document.querySelectorAll('#moves .move')]")) == 3


def test_the_end_of_a_game_offers_a_rematch_with_the_seats_swapped(laptop: Any, server: str) -> None:
    from glacier import records
    from glacier.web.view import gesture

    # A game whose winning move is one gesture from a cell to a cell.
    game, (text, params, move, result) = next(
        (game, game_tests(game).WIN_IN_ONE)
        for game in glacier.GAMES
        if hasattr(game_tests(game), "WIN_IN_ONE")
        and gesture(game, game_tests(game).WIN_IN_ONE[2])[0] == "move"
        and len(glacier.from_text(game, game_tests(game).WIN_IN_ONE[0]).move_to_actions(game_tests(game).WIN_IN_ONE[2]))
        == 1
    )
    page = start(laptop, server, game, text, params, level="easy")
    _, frm, to = gesture(game, move)
    page.select(frm)
    page.tap(page.cell(to))
    page.played(move)
    page.until(lambda: page.script("return !document.getElementById('over').hidden;"), "the banner")
    assert page.script("return document.getElementById('over-text').textContent;") == result
    assert page.script("return document.querySelector('[role=status]').dataset.result;") == records.result_of(page.mine)
    before = page.board_state()
    page.tap('[data-action="rematch"]')
    page.until(lambda: page.board_state().split(":")[0] != before.split(":")[0], "the rematch")
    seats = page.script("return [...document.querySelectorAll('#seats .seat')].map(e => e.textContent);")
    seats = [seat.lstrip("\u25b6 ") for seat in seats]
    names = glacier.game_spec(game).seats[2]
    assert seats[0].startswith(f"{names[0]}: computer (easy)") and seats[1].startswith(f"{names[1]}: you")


def test_games_made_through_the_api_do_not_close_the_game_shown(laptop: Any, server: str) -> None:
    game_id, state = played_game(server, GAME, {}, 1)
    laptop.get(f"{server}?game={game_id}")
    page = Game(laptop, state)
    page.until(lambda: page.page_text() == state.text(), "the game shown")
    for _ in range(200):
        post(server, "/api/games", {"game": GAME, "seats": ["human"] * state.num_players})
    assert get(server, f"/api/games/{game_id}")["ply"] == 1
    move, frm, to = plain_move(server, game_id, state)
    page.select(frm)
    page.tap(page.cell(to))
    page.played(move)


def test_a_record_opens_with_the_seats_chosen_and_is_not_kept_for_the_next_game(
    laptop: Any, server: str, tmp_path: Path
) -> None:
    from selenium.webdriver.support.ui import Select

    from glacier import records

    game = next(game for game in glacier.GAMES if max(glacier.game_spec(game).seats) >= 3)
    state = glacier.new_game(game, players=3)
    for _ in range(3):
        state.play(state.legal_moves()[0])
    path = tmp_path / "three.record"
    path.write_text(records.dumps(state), encoding="utf-8")
    laptop.get(server)
    page = Game(laptop, state)
    page.until(lambda: page.script("return document.querySelectorAll('select[name=game] option').length"), "the form")
    open_form(laptop)
    laptop.execute_script("document.getElementById('start-from').open = true;")
    laptop.find_element("css selector", "input[name=record]").send_keys(str(path))
    page.until(lambda: len(laptop.find_elements("css selector", "#seat-choice select")) == 3, "the record's seats")
    Select(laptop.find_elements("css selector", "#seat-choice select")[2]).select_by_value("easy")
    page.tap('[data-action="new"]')
    page.until(lambda: page.page_text() == state.text(), "the record opened")
    seats = page.script("return [...document.querySelectorAll('#seats .seat')].map(e => e.textContent);")
    assert [seat.split(":")[1].split()[0] for seat in seats] == ["you", "you", "computer"]
    assert page.script("return document.querySelector('input[name=record]').value;") == ""
