"""The results page in a real headless browser (Chromium through selenium): every run is there, a header
click sorts, a run's per-topic scores show on demand, hostile run names stay text, no console errors.

Skipped with a message where no Chromium and chromedriver are installed (``.ci/run`` installs Debian's
``chromium`` and ``chromium-driver`` and sets ORDEVAL_REQUIRE_BROWSER=1, which turns the skip into a failure).
"""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

from ordeval.analysis.leaderboard import leaderboard
from ordeval.reports.leaderboard_page import write_leaderboard_page
from ordeval.tasks.stack import ScoreStack

pytestmark = pytest.mark.workflow

HOSTILE = "<img src=x onerror=\"document.title='owned'\">&amp;</script>"


def browser_or_skip():
    """A headless Chromium driven by selenium, or a skip saying what is missing."""
    missing = []
    try:
        from selenium import webdriver
    except ImportError:
        missing.append("the Python package selenium")
    binary = next((shutil.which(name) for name in ("chromium", "chromium-browser") if shutil.which(name)), None)
    driver = shutil.which("chromedriver")
    if binary is None:
        missing.append("a chromium binary")
    if driver is None:
        missing.append("chromedriver")
    if missing:
        message = f"no headless browser for the results page test: missing {', '.join(missing)}"
        if os.environ.get("ORDEVAL_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message + " (Debian: apt-get install chromium chromium-driver; pip install selenium)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(executable_path=driver))


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    rng = np.random.default_rng(5)
    runs = [f"team{i:03d}" for i in range(40)]
    runs[3] = HOSTILE
    topics = [f"topic-{i}" for i in range(7)]
    values = 0.5 + rng.normal(scale=0.05, size=(2, 1, 40)) + rng.normal(scale=0.1, size=(2, 7, 40))
    stack = ScoreStack(["MAE_M", "F1_M"], topics, runs, values, [True, False], ["MAE^M", "F1^M"])
    boards = []
    for measure in stack.measures:
        means = stack.matrix(measure).mean(axis=0)
        pvalues = np.where(np.abs(means[:, None] - means[None, :]) > 0.05, 0.001, 0.5)
        boards.append(leaderboard(stack.matrix(measure), runs, measure, stack.direction_of(measure), pvalues).table())
    path = tmp_path_factory.mktemp("page") / "leaderboard.html"
    names = dict(zip(stack.measures, stack.display, strict=True))
    write_leaderboard_page(path, "Tiny: leaderboard", boards, names, stack, "per-topic", "SYNTHETIC data.", 0.95, "n")
    browser = browser_or_skip()
    try:
        browser.get(path.as_uri())
        yield browser, stack, boards
    finally:
        browser.quit()


def column(table, index: int) -> list[str]:
    from selenium.webdriver.common.by import By

    return [
        row.find_elements(By.TAG_NAME, "td")[index].text for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")
    ]


def test_the_page_shows_every_run_sorts_and_opens_per_topic_scores(page):
    from selenium.webdriver.common.by import By

    browser, stack, boards = page
    assert browser.title == "Tiny: leaderboard"  # the hostile name did not run its onerror
    tables = browser.find_elements(By.CSS_SELECTOR, "table.board")
    assert len(tables) == 2
    for table, board in zip(tables, boards, strict=True):
        assert column(table, 1) == list(board["run"])  # every run, in board order, its name as text
        assert HOSTILE in column(table, 1)
        assert column(table, 5) == list(board["group"])
        assert len(table.find_elements(By.CSS_SELECTOR, ".bar .ci")) == len(board)

    table = tables[0]  # MAE^M, lower is better: rank 1 has the smallest mean
    headers = table.find_elements(By.CSS_SELECTOR, "thead th")
    means = [float(text) for text in column(table, 2)]
    assert means == sorted(means)
    headers[2].click()  # Mean: ascending (as it was)
    assert [float(text) for text in column(table, 2)] == sorted(means)
    headers[2].click()  # then descending
    assert [float(text) for text in column(table, 2)] == sorted(means, reverse=True)
    assert headers[2].get_attribute("aria-sort") == "descending"
    headers[1].click()  # Run: by name
    names = column(table, 1)
    assert names == sorted(names, key=str.casefold) or names == sorted(names)
    headers[0].click()  # Rank: back to the board's order
    assert column(table, 1) == list(boards[0]["run"])

    # per-topic scores on demand: none shown until the run is opened
    row = table.find_elements(By.CSS_SELECTOR, "tbody tr")[0]
    run = column(table, 1)[0]
    assert not row.find_elements(By.CSS_SELECTOR, "table.topics")
    row.find_element(By.TAG_NAME, "summary").click()
    from selenium.webdriver.support.ui import WebDriverWait

    # the page builds the per-topic table when the run is opened: wait for its rows (a busy machine)
    WebDriverWait(browser, 20).until(
        lambda _: len(row.find_elements(By.CSS_SELECTOR, "table.topics tr")) == len(stack.topics)
    )
    shown = row.find_elements(By.CSS_SELECTOR, "table.topics tr")
    expected = stack.matrix("MAE_M")[:, stack.runs.index(run)]
    assert [cell.find_elements(By.TAG_NAME, "td")[0].text for cell in shown] == stack.topics
    assert [float(cell.find_elements(By.TAG_NAME, "td")[1].text) for cell in shown] == pytest.approx(expected, abs=6e-5)

    errors = [entry for entry in browser.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]
    assert errors == []
