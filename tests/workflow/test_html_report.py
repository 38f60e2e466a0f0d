"""Snakemake's HTML report as a researcher opens it, in a real headless Chromium: the first page says what the
configuration is and where its data come from; a replication's counts per verdict are there, and one click opens
every published number beside the reproduced one, wide, the verdict next to each number. The report is made as
the README says: `snakemake --report` with the same --configfile as the run. Screenshots go to the test's
tmp_path (the path is printed)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import SHARED_RAW, no_shared_data, project_copy
from test_leaderboard_page import browser_or_skip

pytestmark = pytest.mark.workflow


def snakemake(project, *arguments):
    done = subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "2", *arguments],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def open_report(path, shots, name):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser = browser_or_skip()
    browser.set_window_size(1600, 1000)
    browser.get(path.as_uri())
    WebDriverWait(browser, 60).until(lambda b: "ordeval meta-evaluates" in b.find_element(By.TAG_NAME, "body").text)
    browser.save_screenshot(str(shots / f"{name}-first-page.png"))
    print(f"screenshots: {shots}")
    return browser


def test_the_replication_is_one_click_from_the_first_page(tmp_path):
    """The semeval2016 preset (the two SemEval-2016 data sets on the papers' official runs): its report, made with
    the run's own --configfile and nothing else (data_root as every preset's), opens on the verdict counts."""
    if not (SHARED_RAW / "Sem16T4CE").is_dir():
        pytest.skip(no_shared_data(SHARED_RAW / "Sem16T4CE"))
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    project = project_copy(tmp_path / "project", data=True)  # resources/: the real data, as after `ordeval fetch`
    preset = "config/papers/semeval2016.yaml"
    snakemake(project, "--configfile", preset)
    snakemake(project, "--report", "report.html", "--configfile", preset)
    results = project / "results" / "semeval2016"
    summary = (results / "tables" / "replication" / "summary.csv").read_text()
    # only the configured data sets: no row tags a data set that did not run (STC3, DialEval1, Sem17) as real
    assert "STC3" not in summary and "DialEval1" not in summary and "Sem17" not in summary

    shots = tmp_path / "screenshots"
    shots.mkdir()
    browser = open_report(project / "report.html", shots, "semeval2016")
    try:
        text = browser.find_element(By.TAG_NAME, "body").text
        assert "Configuration 'semeval2016'" in text and "Every data set of this configuration is real" in text
        assert "entirely synthetic" not in text and "is synthetic" not in text
        assert "Published versus reproduced" in text and "not comparable" in text
        link = browser.find_element(By.ID, "replication-page")
        link.click()  # one click: the page in the main view
        frame = WebDriverWait(browser, 60).until(lambda b: b.find_element(By.TAG_NAME, "iframe"))
        assert frame.size["width"] >= 1000  # wide
        browser.switch_to.frame(frame)
        WebDriverWait(browser, 60).until(
            lambda b: "Every number, per data set" in b.find_element(By.TAG_NAME, "body").text
        )
        page = browser.find_element(By.TAG_NAME, "body").text
        assert "Sem16T4C" in page and "Sem16T4E" in page and "Kendall's τ" in page and "tau_a" not in page
        # the verdict beside each number: a row reads measures, published, reproduced, verdict
        rows = [row.text for row in browser.find_elements(By.CSS_SELECTOR, "tbody tr")]
        # the reproduced number at the printed precision, the verdict, then unrounded (three decimals more)
        assert any(row.startswith("α_ORD / α_INT 1.000 1.000 exact 1 0") for row in rows), rows[:20]
        browser.switch_to.default_content()
        browser.save_screenshot(str(shots / "semeval2016-published-vs-reproduced.png"))
        assert not [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    finally:
        browser.quit()


def test_the_default_report_says_its_data_are_synthetic(pipeline, tmp_path):
    """The tiny synthetic configuration: the first page says the data are simulated; no replication link."""
    from conftest import run_workflow
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    report = tmp_path / "report.html"
    run_workflow(pipeline.workdir, pipeline.config, "--report", str(report))
    shots = tmp_path / "screenshots"
    shots.mkdir()
    browser = open_report(report, shots, "tiny")
    try:
        text = browser.find_element(By.TAG_NAME, "body").text
        assert "Every data set of this configuration is synthetic" in text and "Configuration 'tiny'" in text
        assert not browser.find_elements(By.ID, "replication-page")
        # what to look at first comes first, above the rule graph, and is one click away
        start = text.index("Start here")
        assert start < text.index("ordeval meta-evaluates")
        links = browser.find_elements(By.CSS_SELECTOR, "a[onclick]")
        assert [link.text for link in links] == [
            "Heatmap of the averaged τ between the measures, the ordinal quantification data sets",
            "Discriminative power, the ordinal quantification data sets",
        ]
        top = browser.find_element(By.XPATH, "//*[contains(text(), 'Start here')]").location["y"]
        graph = browser.find_element(By.ID, "rulegraph").location["y"]
        assert 0 <= top < graph, (top, graph)
        browser.execute_script("arguments[0].click()", links[0])  # one click: the figure in the main view
        WebDriverWait(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, "img[src^='data:image/png']"))
        browser.save_screenshot(str(shots / "tiny-first-figure.png"))
        browser.get(report.as_uri())
        WebDriverWait(browser, 60).until(lambda b: "Start here" in b.find_element(By.TAG_NAME, "body").text)
        link = browser.find_elements(By.CSS_SELECTOR, "a[onclick]")[1]
        browser.execute_script("arguments[0].click()", link)  # one click: the table, as a page of its own
        frame = WebDriverWait(browser, 30).until(lambda b: b.find_element(By.TAG_NAME, "iframe"))
        browser.switch_to.frame(frame)
        WebDriverWait(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, "td.num"))
        assert "discriminative_power" in browser.find_element(By.TAG_NAME, "body").text
        browser.switch_to.default_content()
        browser.save_screenshot(str(shots / "tiny-first-table.png"))
        # every output's entry says what it shows (its caption's title), not its path
        browser.find_element(By.XPATH, "//*[normalize-space(text())='04 Ranking agreement']").click()
        WebDriverWait(browser, 30).until(lambda b: b.find_elements(By.XPATH, "//*[normalize-space(text())='TinySem']"))
        browser.find_element(By.XPATH, "//*[normalize-space(text())='TinySem']").click()
        WebDriverWait(browser, 30).until(
            lambda b: "Kendall's τ between the measures' run rankings" in b.find_element(By.TAG_NAME, "body").text
        )
        assert "results/tiny/tables/agreement" not in browser.find_element(By.TAG_NAME, "body").text
        assert not [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    finally:
        browser.quit()
