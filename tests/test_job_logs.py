"""Job logs: a job's own lines, third-party loggers only from WARNING up."""

from __future__ import annotations

import logging

from ordeval.jobs import logged


def test_third_party_info_lines_stay_out_of_job_logs(tmp_path):
    path = tmp_path / "logs" / "probe.log"
    try:
        with logged(path, "probe") as log:
            log.info("probe wrote 3 tables")
            logging.getLogger("fontTools.subset").info("Glyph names: ['a', 'b']")
            logging.getLogger("matplotlib.font_manager").debug("findfont: matching")
            logging.getLogger("fontTools.ttLib").warning("a real problem")
    finally:
        logging.getLogger().handlers.clear()  # logged() sets up logging for a whole job process
        logging.captureWarnings(False)
    text = path.read_text()
    assert "probe wrote 3 tables" in text and "probe done in" in text
    assert "a real problem" in text
    assert "Glyph names" not in text and "findfont" not in text
