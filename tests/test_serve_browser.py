"""The page of ``glacier serve`` in a real browser: headless Chromium driven by Selenium plays
a game of every game against the computer by clicking board cells (``data-cell``) and
choice buttons (``data-choice``), and after every move checks that the page shows the
position and the moves that glacier's own state of the same game has. Each game starts
from a near-final position (or with a short ply limit) so that it is played to its end.

What is played is each game's own: its test module (tests/test_<game>.py) declares
``browser_scenario(table)``, which starts its game with ``table.start(...)`` and plays it
on the :class:`Game` it gets back.

With GLACIER_SCREENSHOTS=<folder> set, a screenshot of every game in mid-play is written
there (docs/play.md shows them).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path
from typing import Any, Iterator, Optional

import pytest

import glacier
from conftest import game_tests

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no headless Chromium with chromedriver here (make test installs the Debian packages "
    "chromium and chromium-driver)",
)

WAIT = 60.0


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    import uvicorn

    from glacier.web import create_app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        running.should_exit = True
        thread.join(timeout=10)


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
        "--window-size=1280,860",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


class Game:
    """A game on the page, and glacier's own state of the same game beside it."""

    def __init__(self, browser: Any, mine: Any) -> None:
        self.browser = browser
        self.mine = mine

    def until(self, condition: Any, what: str) -> Any:
        from selenium.webdriver.support.ui import WebDriverWait

        return WebDriverWait(self.browser, WAIT, poll_frequency=0.05).until(lambda _: condition(), what)

    def board_state(self) -> str:
        return str(self.browser.find_element("id", "board").get_attribute("data-state") or "")

    def thinking(self) -> bool:
        return self.browser.find_element("id", "status").get_attribute("data-thinking") == "true"

    def script(self, code: str) -> Any:
        """Reads the page in one go (it may redraw between two element look-ups)."""
        return self.browser.execute_script(code)

    def page_moves(self) -> list[str]:
        return list(
            self.script("return [...document.querySelectorAll('#moves .move:not(.undone)')].map(e => e.dataset.move);")
        )

    def page_text(self) -> str:
        return str(self.browser.execute_script("return document.getElementById('position').textContent;"))

    def check(self) -> None:
        """The page shows glacier's position and moves."""
        assert self.page_text() == self.mine.text()
        assert self.page_moves() == self.mine.moves
        assert self.browser.find_element("id", "board").get_attribute("data-ply") == str(len(self.mine.moves))

    def click(self, selector: str) -> None:
        """Clicks an element that sends an action, and waits for the page to show the answer."""
        before = self.board_state()
        self.browser.find_element("css selector", selector).click()
        self.until(lambda: self.board_state() != before, f"an answer to the click on {selector}")

    def cell(self, name: str) -> str:
        return f'#board [data-cell="{name}"]'

    def select(self, name: str) -> None:
        """Clicks a cell to pick up its piece (no answer from the server: the page marks it)."""
        self.browser.find_element("css selector", self.cell(name)).click()
        assert self.script("return [...document.querySelectorAll('#board .selected')].map(e => e.dataset.cell);") == [
            name
        ]

    def targets(self) -> set[str]:
        return set(self.script("return [...document.querySelectorAll('#board .target')].map(e => e.dataset.cell);"))

    def choices(self) -> list[str]:
        return list(self.script("return [...document.querySelectorAll('[data-choice]')].map(e => e.dataset.choice);"))

    def choose(self, text: str) -> None:
        self.click(f'[data-choice="{text}"]')

    def played(self, move: str) -> None:
        """The person's move is made: glacier plays it too, and the page must agree."""
        self.mine.play(move)
        self.check()

    def computer_replies(self) -> None:
        """Waits for the computer's moves, plays them on glacier's state and checks the page."""
        self.until(lambda: not self.thinking(), "the computer's move")
        shown = self.page_moves()
        assert shown[: len(self.mine.moves)] == self.mine.moves
        assert len(shown) > len(self.mine.moves) or self.mine.is_terminal()
        for move in shown[len(self.mine.moves) :]:
            self.mine.play(move)
        self.check()

    def status(self) -> str:
        return str(self.browser.find_element("id", "status").text)

    def screenshot(self, name: Optional[str] = None) -> None:
        """With GLACIER_SCREENSHOTS set, the page as ``<name>.png`` (by default the game's name)."""
        folder = os.environ.get("GLACIER_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            self.browser.save_screenshot(str(Path(folder) / f"{name or self.mine.game}.png"))


def start(
    browser: Any, url: str, game: str, position: str, params: Optional[dict[str, int]] = None, level: str = "easy"
) -> Game:
    """Starts a game from the page's form: the person plays the first seat, the computer
    the others at ``level``."""
    from selenium.webdriver.support.ui import Select

    params = params or {}
    browser.get(url)
    loaded = "return document.querySelectorAll('select[name=game] option').length;"
    Game(browser, None).until(lambda: browser.execute_script(loaded) == len(glacier.GAMES), "the game chooser")
    game_chooser = browser.find_element("css selector", "select[name=game]")
    Select(game_chooser).select_by_value(game)
    for name, value in params.items():
        field = browser.find_element("css selector", f'input[data-param="{name}"]')
        field.clear()
        field.send_keys(str(value))
    if "players" in params:
        browser.execute_script("document.querySelector('input[data-param=players]').onchange();")
    seats = browser.find_elements("css selector", "#seat-choice select")
    for i, seat in enumerate(seats):
        Select(seat).select_by_value("human" if i == 0 else level)
    browser.find_element("css selector", "#new-game details summary").click()
    browser.find_element("css selector", "input[name=position]").send_keys(position)
    browser.find_element("css selector", '[data-action="new"]').click()
    mine = glacier.from_text(game, position, **params)
    page = Game(browser, mine)
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
def test_a_game_of_every_game_played_by_clicks(browser: Any, server: str, game: str, tmp_path: Path) -> None:
    scenario = getattr(game_tests(game), "browser_scenario", None)
    assert scenario is not None, f"tests/test_{game}.py declares no browser_scenario"
    scenario(Table(browser, server, tmp_path))
