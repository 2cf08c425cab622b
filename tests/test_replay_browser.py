"""The replay page in a real browser: headless Chromium driven by Selenium opens the page
written by ``glacier replay``, presses the keys and the buttons, and reads the board and
the move list back from the page."""

from __future__ import annotations

import random
import shutil
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
#: The plies of each game on the page: the third carries a comment.
PLIES = 6

#: The games whose random games never finish (their playouts are cut): long records.
LONG = [game for game in glacier.GAMES if glacier.game_spec(game).playout_plies]


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


def random_game(game: str, seed: int, plies: int = PLIES, **params: Any) -> Any:
    """``game`` after ``plies`` seeded random moves (or to its end, if that comes first)."""
    rng = random.Random(seed)
    state = glacier.new_game(game, **params)
    while not state.is_terminal() and len(state.moves) < plies:
        state.play(rng.choice(state.legal_moves()))
    return state


def page_records() -> list[records.Record]:
    """A game of each kind, its seats named after people, with a comment on the third ply."""
    out = []
    for seed, game in enumerate(glacier.GAMES):
        state = random_game(game, seed)
        assert len(state.moves) == PLIES and not state.is_terminal(), game
        people = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"][: state.num_players]
        out.append(records.Record.of(state, people, {3: "a quiet move"}))
    return out


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("replay")
    record = folder / "games.record"
    records.write(record, page_records())
    target = folder / "games.html"
    from click.testing import CliRunner

    result = CliRunner().invoke(main, ["replay", str(record), "--html", str(target)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return target


def shows(browser: Any, state: Any, last_move: Any = None) -> bool:
    """Whether the page's board is the picture of ``state`` drawn in Python (the browser's own
    serialisation of both)."""
    same = (
        "const probe = document.createElement('div'); probe.innerHTML = arguments[0];"
        "return probe.innerHTML === document.getElementById('board').innerHTML;"
    )
    return bool(browser.execute_script(same, glacier.svg.render(state, last_move=last_move)))


def counter(browser: Any) -> str:
    return str(browser.find_element("id", "counter").text)


def current_move(browser: Any) -> list[str]:
    return [span.text for span in browser.find_elements("css selector", "#moves .move.current")]


def press(browser: Any, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).send_keys(key).perform()


@needs_browser
@pytest.mark.parametrize("number", range(len(glacier.GAMES)))
def test_keys_and_buttons_step_through_the_game(browser: Any, page: Path, number: int) -> None:
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    record = page_records()[number]
    moves = record.state.moves
    state = record.start()
    browser.get(page.as_uri())
    if number:
        Select(browser.find_element("id", "game")).select_by_index(number)
        browser.find_element("tag name", "body").click()  # the keys go to the page, not the chooser
    title = record.game.replace("_", " ")
    assert browser.find_element("id", "title").text.startswith(f"Game {number + 1}: {title}")
    seats = records.seat_names(record.game, state.num_players)
    assert f"{seats[0]}: Ann, {seats[1]}: Bob" in browser.find_element("id", "tags").text
    assert counter(browser) == "ply 0 of 6"
    assert current_move(browser) == []
    assert shows(browser, state)
    shown = [span.text for span in browser.find_elements("css selector", "#moves .move")]
    assert shown == record.notation and len(shown) == 6

    press(browser, Keys.ARROW_RIGHT)
    state.play(moves[0])
    assert counter(browser) == "ply 1 of 6" and current_move(browser) == shown[:1]
    assert shows(browser, state, moves[0])  # the last move marked

    for _ in range(2):
        press(browser, Keys.ARROW_RIGHT)
    assert counter(browser) == "ply 3 of 6" and current_move(browser) == [shown[2]]
    assert browser.find_element("id", "comment").text == "a quiet move"
    press(browser, Keys.END)
    for move in moves[1:]:
        state.play(move)
    assert counter(browser) == "ply 6 of 6" and current_move(browser) == [shown[5]]
    assert shows(browser, state, moves[-1])
    press(browser, Keys.ARROW_RIGHT)  # past the end: stays
    assert counter(browser) == "ply 6 of 6"
    press(browser, Keys.ARROW_LEFT)
    assert current_move(browser) == [shown[4]]
    press(browser, Keys.HOME)
    assert counter(browser) == "ply 0 of 6" and current_move(browser) == []

    browser.find_element("id", "last").click()
    assert counter(browser) == "ply 6 of 6"
    browser.find_element("id", "previous").click()
    browser.find_element("id", "previous").click()
    assert current_move(browser) == [shown[3]]
    browser.find_element("id", "first").click()
    browser.find_element("id", "next").click()
    assert current_move(browser) == [shown[0]]
    browser.find_elements("css selector", "#moves .move")[4].click()
    assert current_move(browser) == [shown[4]] and counter(browser) == "ply 5 of 6"


@needs_browser
def test_the_chooser_switches_games(browser: Any, page: Path) -> None:
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    second = page_records()[1]
    browser.get(page.as_uri())
    Select(browser.find_element("id", "game")).select_by_index(1)
    title = second.game.replace("_", " ")
    assert browser.find_element("id", "title").text.startswith(f"Game 2: {title}")
    assert counter(browser) == "ply 0 of 6"
    browser.find_element("tag name", "body").click()  # the keys go to the page, not the chooser
    press(browser, Keys.END)
    assert current_move(browser) == second.notation[-1:]
    assert shows(browser, second.state, second.state.moves[-1])


def random_long_games(count: int, plies: int) -> list[Any]:
    """``count`` random games of the first game of ``LONG``, to its ply limit ``plies``."""
    rng = random.Random(7)
    games = []
    for _ in range(count):
        state = glacier.new_game(LONG[0], max_plies=plies)
        while not state.is_terminal():
            state.play(rng.choice(state.legal_moves()))
        games.append(state)
    return games


def test_a_ten_game_record_page_is_small(tmp_path: Path) -> None:
    # Ten long games of 300 plies (E's, with a hundred pyramids, when this test was written):
    # every position drawn and inlined made a page of 128 MB.
    games = [records.Record.of(state) for state in random_long_games(10, 300)]
    page = replay.page(games)
    assert len(page.encode("utf-8")) < 5 * 1024 * 1024
    # Each picture is put together in the page: the parts they share (here the opening tag
    # of every picture) are stored once.
    assert page.count('<svg xmlns=\\"http://www.w3.org/2000/svg\\" width=') == 1


@needs_browser
def test_every_position_is_put_together_as_drawn(browser: Any, tmp_path: Path) -> None:
    [state] = random_long_games(1, 80)
    record = records.Record.of(state)
    target = tmp_path / "long.html"
    replay.write(target, [record])
    browser.get(target.as_uri())
    positions = record.positions()

    def drawn(ply: int) -> bool:
        return shows(browser, positions[ply], state.moves[ply - 1] if ply else None)

    assert drawn(0)
    for ply in (1, 2, 40, 33, 80, 31, 0, 64, 65):  # forward, back past checkpoints, and on
        browser.find_elements("css selector", "#moves .move")[max(ply, 1) - 1].click()
        if ply == 0:
            browser.find_element("id", "first").click()
        assert counter(browser) == f"ply {ply} of 80"
        assert drawn(ply), ply
