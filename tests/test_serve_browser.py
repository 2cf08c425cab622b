"""The page of ``glacier serve`` in a real browser: headless Chromium driven by Selenium plays
a game of every game against the computer by clicking board cells (``data-cell``) and
choice buttons (``data-choice``), and after every move checks that the page shows the
position and the moves that glacier's own state of the same game has. Each game starts
from a near-final position (or with a short ply limit) so that it is played to its end.

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
from glacier import play, records, reference

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no headless Chromium with chromedriver here (make test installs the Debian packages "
    "chromium and chromium-driver)",
)

E = "martian_chinese_checkers"
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

    def screenshot(self, name: str) -> None:
        folder = os.environ.get("GLACIER_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            self.browser.save_screenshot(str(Path(folder) / f"{name}.png"))


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


def test_ice_age_chess_castling_and_promotion(browser: Any, server: str) -> None:
    page = start(browser, server, "ice_age_chess", "4k3/1P6/8/3**3/8/8/8/4K2R w K - 0 1", {"max_plies": 4})
    assert "White" in page.status() and "to move" in page.status()
    page.select("e1")
    assert page.targets() == {"d1", "d2", "e2", "f1", "f2", "g1"}
    page.click(page.cell("g1"))
    page.played("e1g1")
    assert page.script("return document.querySelector('#moves .move').textContent;") == "O-O"
    page.computer_replies()
    page.screenshot("ice_age_chess")
    page.select("b7")
    page.browser.find_element("css selector", page.cell("b8")).click()
    assert sorted(page.choices()) == ["b7b8b", "b7b8n", "b7b8q", "b7b8r"]
    page.choose("b7b8q")
    page.played("b7b8q")
    assert page.page_moves()[-1] == "b7b8q"
    if not page.mine.is_terminal():
        page.computer_replies()
    assert page.mine.is_terminal()
    assert page.status() == play.result_text(page.mine)


def test_kings_court_chain_of_jumps_with_stop(browser: Any, server: str, tmp_path: Path) -> None:
    page = start(browser, server, "kings_court", "G6G/8/8/5R2/1RG1G3/8/8/R7 r 20")
    page.select("b4")
    assert page.targets() == {"a4", "b3", "b5", "d4"}
    page.click(page.cell("d4"))
    page.check()  # the chain has begun: nothing is played yet
    assert page.choices() == ["stop"] and page.targets() == {"f4"}
    page.click(page.cell("f4"))
    assert page.choices() == ["stop"] and page.targets() == {"f6"}  # the chain could go on
    page.screenshot("kings_court")
    page.choose("stop")
    page.played("b4xd4xf4")
    assert page.mine.is_terminal() and page.status() == "Red wins: no Green piece left in the Court"
    page.browser.find_element("css selector", '[data-action="save"]').click()
    page.until(lambda: page.browser.find_element("id", "record-text").text, "the saved record")
    text = page.browser.find_element("id", "record-text").text
    saved = records.loads(text)
    assert saved.moves == page.mine.moves and saved.text() == page.mine.text()
    # The record opened again, from a file given to the page.
    target = tmp_path / "saved.record"
    target.write_text(text, encoding="utf-8")
    before = page.board_state()
    page.browser.find_element("css selector", "input[name=record]").send_keys(str(target))
    page.browser.find_element("css selector", '[data-action="new"]').click()
    page.until(lambda: page.board_state() not in ("", before), "the record opened")
    page.check()
    assert page.status() == "Red wins: no Green piece left in the Court"


def test_ice_cube_checkers_sowing_with_a_chosen_drop(browser: Any, server: str) -> None:
    page = start(browser, server, "ice_cube_checkers", "W/W/W/WBK/-/W/-/B/B/K/B/B w 0", {"max_plies": 2})
    page.click(page.cell("d"))
    assert page.choices() == ["drop B", "drop K"]
    page.screenshot("ice_cube_checkers")
    page.choose("drop K")
    page.played("d:KBW")
    page.computer_replies()
    assert page.mine.is_terminal()
    assert page.status() == play.result_text(page.mine)
    assert "the ply limit" in page.status()


def test_kuba_capture_and_its_extra_turn(browser: Any, server: str) -> None:
    page = start(browser, server, "kuba", "RW5/7/6B/2RRR1B/2RRR2/7/RW5 w 5,6 0,6 - - 10")
    # The analysis first: arrows appear, then stop.
    page.click('[data-action="analyse"]')
    page.until(lambda: len(page.browser.find_elements("css selector", "#board .arrow")) >= 2, "analysis arrows")
    page.until(lambda: page.browser.find_elements("css selector", "#analysis .top-move"), "the top moves listed")
    page.screenshot("kuba")
    page.browser.find_element("css selector", '[data-action="stop"]').click()
    page.until(lambda: not page.browser.find_element("css selector", '[data-action="stop"]').is_enabled(), "a stop")
    shown = page.browser.find_element("id", "analysis").text
    time.sleep(0.6)
    assert page.browser.find_element("id", "analysis").text == shown  # it has stopped
    page.select("b1")
    page.click(page.cell("a1"))
    page.played("b1a1")
    assert page.mine.current_player == 0 and "White to move" in page.status()  # the extra turn
    # This push by dragging the marble onto its square.
    from selenium.webdriver.common.action_chains import ActionChains

    before = page.board_state()
    marble, square = (page.browser.find_element("css selector", page.cell(c)) for c in ("b7", "a7"))
    ActionChains(page.browser).drag_and_drop(marble, square).perform()
    page.until(lambda: page.board_state() != before, "the answer to the drag")
    page.played("b7a7")
    assert page.status() == "White wins: seven Reds captured"


#: Player 0's medium on l5 carries Blue's small: moving it to j5 is a stack move, which can
#: end in a guard exchange (its medium then traps Blue's, as Blue's on h5 and h8 trap Red's).
#: On d6 player 0 has two pieces that can move, a large and a small.
E_POSITION = (
    "2 0 186 a8=3l a10=3l a12=3l b10=3s b13=3m d6=0l3s0s d8=3m f11=3s f12=0m g1=0l g12=3l h5=0m3m "
    "h6=0s h8=0s3s j2=0l j5=3l0l3m k5=3m k8=0s l2=0m l5=0m3s m1=0m m3=0s m6=0l"
)


def test_e_stack_move_with_a_guard_exchange(browser: Any, server: str) -> None:
    page = start(browser, server, E, E_POSITION, {"players": 2, "max_plies": 190})
    # A stack with two pieces to move: choosing one shows only its destinations.
    page.select("d6")
    assert page.targets() == {"a9", "d9", "g3", "g6", "c6", "c7", "d5", "d7", "e5", "e6"}
    pieces = "return [...document.querySelectorAll('#choices [data-piece]')].map(e => e.dataset.piece);"
    assert page.script(pieces) == ["large, level 0", "small, level 2"]
    page.browser.find_element("css selector", '[data-piece="small, level 2"]').click()
    assert page.targets() == {"c6", "c7", "d5", "d7", "e5", "e6"}
    page.browser.find_element("css selector", '[data-piece="large, level 0"]').click()
    assert page.targets() == {"a9", "d9", "g3", "g6"}
    page.select("l5")
    assert page.targets() == {"j5", "j7", "l3", "l7"}
    page.click(page.cell("j5"))
    assert page.choices() == ["=h5", "=h8", "no exchange"]
    page.choose("=h5")
    page.played("l5/0-j5xj5/3=h5/1")
    stack = reference.from_text(E, page.mine.text(), **page.mine.params).position.board
    assert stack[reference.martian_chinese_checkers.HEX_BY_NAME["j5"]] == ((3, 3), (0, 3), (3, 2), (3, 2), (3, 1))
    page.computer_replies()
    page.screenshot(E)
    # Any movement, then (if an exchange could end it) none.
    move = next(m for m in page.mine.legal_moves() if "-" in m and "x" not in m)
    place, _, to = move.partition("-")
    page.select(place.partition("/")[0])
    page.click(page.cell(to))
    if len(page.mine.move_to_actions(move)) == 2:
        page.choose("no exchange")
    page.played(move)
    page.computer_replies()
    assert page.mine.is_terminal() and page.status() == "draw: the ply limit"
