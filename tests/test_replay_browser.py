"""The replay page in a real browser: headless Chromium driven by Selenium opens the page
written by ``glacier replay``, presses the keys and the buttons, and reads the board and
the move list back from the page."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Iterator

import pytest

import glacier
from glacier import records, replay
from glacier.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

needs_browser = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no headless Chromium with chromedriver here (make test installs the Debian packages "
    "chromium and chromium-driver)",
)
E = "martian_chinese_checkers"

SVG = "{http://www.w3.org/2000/svg}"
CHESS_MOVES = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None or DRIVER is None:
        pytest.skip("no headless Chromium with chromedriver here (make test installs the Debian packages)")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chess = glacier.from_text("ice_age_chess", records.STANDARD_CHESS_START, ice_age_period=0)
    for move in CHESS_MOVES:
        chess.play(move)
    kuba = glacier.new_game("kuba")
    for move in ["f1f2", "a2b2", "f3e3"]:
        kuba.play(move)
    folder = tmp_path_factory.mktemp("replay")
    record = folder / "games.record"
    records.write(record, [records.Record.of(chess, ["Ann", "Bob"], {3: "the Ruy Lopez"}), kuba])
    target = folder / "games.html"
    from click.testing import CliRunner

    result = CliRunner().invoke(main, ["replay", str(record), "--html", str(target)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return target


def pieces_shown(browser: Any) -> list[tuple[str, str]]:
    """The chess pieces on the page's board: (letter, where it is drawn)."""
    return sorted(
        (letter, where)
        for letter, where in browser.execute_script(
            "return [...document.querySelectorAll('#board g.piece')]"
            ".map(g => [g.dataset.piece, g.getAttribute('transform')]);"
        )
    )


def pieces_drawn(state: Any) -> list[tuple[str, str]]:
    root = ET.fromstring(glacier.svg.render(state))
    return sorted(
        (g.get("data-piece", ""), g.get("transform", "")) for g in root.iter(f"{SVG}g") if g.get("data-piece")
    )


def counter(browser: Any) -> str:
    return str(browser.find_element("id", "counter").text)


def current_move(browser: Any) -> list[str]:
    return [span.text for span in browser.find_elements("css selector", "#moves .move.current")]


def press(browser: Any, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).send_keys(key).perform()


@needs_browser
def test_keys_and_buttons_step_through_the_game(browser: Any, page: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    browser.get(page.as_uri())
    state = glacier.from_text("ice_age_chess", records.STANDARD_CHESS_START, ice_age_period=0)
    assert browser.find_element("id", "title").text.startswith("Game 1: ice age chess")
    assert "White: Ann, Black: Bob" in browser.find_element("id", "tags").text
    assert counter(browser) == "ply 0 of 6"
    assert current_move(browser) == []
    assert pieces_shown(browser) == pieces_drawn(state)
    moves = [span.text for span in browser.find_elements("css selector", "#moves .move")]
    assert moves == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]

    press(browser, Keys.ARROW_RIGHT)
    state.play("e2e4")
    assert counter(browser) == "ply 1 of 6" and current_move(browser) == ["e4"]
    assert pieces_shown(browser) == pieces_drawn(state)
    marked = browser.find_elements("css selector", "#board rect.last-move")
    assert len(marked) == 2  # e2 and e4

    for _ in range(2):
        press(browser, Keys.ARROW_RIGHT)
    assert counter(browser) == "ply 3 of 6" and current_move(browser) == ["Nf3"]
    assert browser.find_element("id", "comment").text == "the Ruy Lopez"
    press(browser, Keys.END)
    for move in CHESS_MOVES[1:]:
        state.play(move)
    assert counter(browser) == "ply 6 of 6" and current_move(browser) == ["a6"]
    assert pieces_shown(browser) == pieces_drawn(state)
    press(browser, Keys.ARROW_RIGHT)  # past the end: stays
    assert counter(browser) == "ply 6 of 6"
    press(browser, Keys.ARROW_LEFT)
    assert current_move(browser) == ["Bb5"]
    press(browser, Keys.HOME)
    assert counter(browser) == "ply 0 of 6" and current_move(browser) == []

    browser.find_element("id", "last").click()
    assert counter(browser) == "ply 6 of 6"
    browser.find_element("id", "previous").click()
    browser.find_element("id", "previous").click()
    assert current_move(browser) == ["Nc6"]
    browser.find_element("id", "first").click()
    browser.find_element("id", "next").click()
    assert current_move(browser) == ["e4"]
    browser.find_elements("css selector", "#moves .move")[4].click()
    assert current_move(browser) == ["Bb5"] and counter(browser) == "ply 5 of 6"


@needs_browser
def test_the_chooser_switches_games(browser: Any, page: Path) -> None:
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    browser.get(page.as_uri())
    Select(browser.find_element("id", "game")).select_by_index(1)
    assert browser.find_element("id", "title").text.startswith("Game 2: kuba")
    assert counter(browser) == "ply 0 of 3"
    browser.find_element("tag name", "body").click()  # the keys go to the page, not the chooser
    press(browser, Keys.END)
    assert current_move(browser) == ["f3e3"]
    marbles = browser.find_elements("css selector", "#board circle.marble")
    assert len(marbles) == 8 + 8 + 13


def random_e_games(count: int, plies: int) -> list[Any]:
    import random

    rng = random.Random(7)
    games = []
    for _ in range(count):
        state = glacier.new_game(E, max_plies=plies)
        while not state.is_terminal():
            state.play(rng.choice(state.legal_moves()))
        games.append(state)
    return games


def test_a_ten_game_e_record_page_is_small(tmp_path: Path) -> None:
    # Ten E games of 300 plies: every position drawn and inlined made a page of 128 MB.
    games = [records.Record.of(state) for state in random_e_games(10, 300)]
    page = replay.page(games)
    assert len(page.encode("utf-8")) < 5 * 1024 * 1024
    # Each picture is put together in the page: the parts they share (here the opening tag
    # of every picture) are stored once.
    assert page.count('<svg xmlns=\\"http://www.w3.org/2000/svg\\" width=') == 1


@needs_browser
def test_every_position_is_put_together_as_drawn(browser: Any, tmp_path: Path) -> None:
    [state] = random_e_games(1, 80)
    record = records.Record.of(state)
    target = tmp_path / "e.html"
    replay.write(target, [record])
    browser.get(target.as_uri())
    positions = record.positions()
    # The browser's own serialisation of the board, and of the picture drawn in Python.
    same = (
        "const probe = document.createElement('div'); probe.innerHTML = arguments[0];"
        "return probe.innerHTML === document.getElementById('board').innerHTML;"
    )

    def drawn(ply: int) -> str:
        last = state.moves[ply - 1] if ply else None
        return glacier.svg.render(positions[ply], last_move=last)

    assert browser.execute_script(same, drawn(0))
    for ply in (1, 2, 40, 33, 80, 31, 0, 64, 65):  # forward, back past checkpoints, and on
        browser.find_elements("css selector", "#moves .move")[max(ply, 1) - 1].click()
        if ply == 0:
            browser.find_element("id", "first").click()
        assert counter(browser) == f"ply {ply} of 80"
        assert browser.execute_script(same, drawn(ply)), ply
