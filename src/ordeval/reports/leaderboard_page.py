"""The results page: ``leaderboard.html``, one self-contained file (inline CSS and JavaScript; no server,
no network, no external file) with, per measure, a table sortable by column (click a header), each
run's interval drawn as a bar, its significance groups, the protocol and the data origin, and each
run's per-topic scores on demand (open the run's name).

Every text from the data (run, measure and topic names, notes) is HTML-escaped, and the per-topic
scores travel as JSON with ``<``, ``>`` and ``&`` escaped, so no name can end the script. The same
input gives the same bytes (no date, no random identifier).
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from ordeval.analysis.groups import GROUPS_KEY, group_label_index, parse_groups
from ordeval.analysis.leaderboard import lower_is_better
from ordeval.io.files import write_text
from ordeval.io.table import Table

#: What each protocol means, as the page states it.
PROTOCOLS = {
    "per-topic": "per-topic: a run's score is the mean over topics of the measure computed on each topic",
    "pooled": "pooled: each measure is computed once over the whole test set (one confusion matrix over "
    "all items), as the official SemEval ranking",
}

_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;
color:#1b1b1b;line-height:1.4}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}
p.meta{margin:.3em 0}.origin{font-weight:600}
table.board{border-collapse:collapse;width:100%;font-size:.9em}
table.board th,table.board td{padding:.2em .5em;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
table.board th{cursor:pointer;user-select:none;background:#f3f3f3;position:sticky;top:0}
table.board th[aria-sort=ascending]::after{content:" \\25B2"}
table.board th[aria-sort=descending]::after{content:" \\25BC"}
td.num{text-align:right;font-variant-numeric:tabular-nums}td.group{font-family:monospace;word-break:break-all}
.bar{position:relative;height:.9em;min-width:10em;background:#f7f7f7;margin-top:.25em}
.bar .ci{position:absolute;top:.3em;height:.3em;background:#7aa6d6}
.bar .mean{position:absolute;top:0;width:2px;height:.9em;margin-left:-1px;background:#1f4e8c}
details summary{cursor:pointer}table.topics{font-size:.85em;margin:.3em 0 .5em 1em;border-collapse:collapse}
table.topics td{padding:0 .6em;border:none}
"""

# Sorting: a header click sorts the rows by that column's data-value (numbers) or text, ascending, then
# descending; ties keep the board order. Per-topic scores: a run's <details> is filled from the JSON on
# its first opening.
_SCRIPT = """
(function(){
"use strict";
var data=JSON.parse(document.getElementById("per-topic").textContent);
function key(row,column,numeric){var cell=row.cells[column];
 if(numeric){var v=parseFloat(cell.getAttribute("data-value"));return isNaN(v)?Infinity:v;}
 return cell.getAttribute("data-value")||cell.textContent;}
document.querySelectorAll("table.board").forEach(function(table){
 var headers=table.tHead.rows[0].cells;
 Array.prototype.forEach.call(headers,function(header,column){
  header.addEventListener("click",function(){
   var numeric=header.getAttribute("data-type")==="number";
   var ascending=header.getAttribute("aria-sort")!=="ascending";
   Array.prototype.forEach.call(headers,function(h){h.removeAttribute("aria-sort");});
   header.setAttribute("aria-sort",ascending?"ascending":"descending");
   var body=table.tBodies[0];var rows=Array.prototype.slice.call(body.rows);
   rows.sort(function(a,b){var x=key(a,column,numeric),y=key(b,column,numeric);
    var order=numeric?(x<y?-1:x>y?1:0):String(x).localeCompare(String(y));
    if(!ascending){order=-order;}
    return order||(+a.getAttribute("data-order"))-(+b.getAttribute("data-order"));});
   rows.forEach(function(row){body.appendChild(row);});
  });
 });
});
document.querySelectorAll("details.topics").forEach(function(details){
 details.addEventListener("toggle",function(){
  if(!details.open||details.getAttribute("data-filled")){return;}
  var scores=data.scores[details.getAttribute("data-measure")][+details.getAttribute("data-run")];
  var table=document.createElement("table");table.className="topics";
  data.topics.forEach(function(topic,t){var row=table.insertRow();
   row.insertCell().textContent=topic;var cell=row.insertCell();cell.className="num";
   cell.textContent=scores[t]===null?"\\u2013":scores[t].toFixed(4);});
  details.appendChild(table);details.setAttribute("data-filled","1");
 });
});
})();
"""


def _text(value) -> str:
    return html.escape(str(value), quote=True)


def _number(value: float, decimals: int = 4) -> str:
    return "\u2013" if not math.isfinite(value) else f"{value:.{decimals}f}"


def _value(value: float) -> str:
    """A sort key attribute: the float's shortest round-trip text, empty for NaN."""
    return repr(float(value)) if math.isfinite(value) else ""


def _json_for_script(payload) -> str:
    """JSON that cannot end a <script> element or open a comment inside it."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _per_topic_payload(per_topic, measures: Sequence[str]) -> tuple[dict, dict[str, dict[str, int]]]:
    """The JSON of per-topic scores (runs x topics per measure, 6 significant digits, null for NaN) and,
    per measure, each run's index in it."""
    if per_topic is None:
        return {"topics": [], "scores": {}}, {}
    scores, index = {}, {}
    run_index = {run: position for position, run in enumerate(per_topic.runs)}
    for measure in measures:
        if measure not in per_topic.measures:
            continue
        matrix = per_topic.matrix(measure).T  # runs x topics
        scores[measure] = [[float(f"{v:.6g}") if math.isfinite(v) else None for v in row] for row in matrix]
        index[measure] = run_index
    return {"topics": [str(topic) for topic in per_topic.topics], "scores": scores}, index


def _bar(low: float, mean: float, high: float, start: float, span: float) -> str:
    def at(value: float) -> str:
        return f"{100 * (value - start) / span:.2f}%"

    parts = []
    if math.isfinite(low) and math.isfinite(high):
        parts.append(f'<span class="ci" style="left:{at(low)};width:{100 * (high - low) / span:.2f}%"></span>')
    if math.isfinite(mean):
        parts.append(f'<span class="mean" style="left:{at(mean)}"></span>')
    return f'<div class="bar">{"".join(parts)}</div>'


def _board_section(
    number: int,
    board: Table,
    names: Mapping[str, str],
    protocol: str,
    level: float,
    run_index: Mapping[str, int] | None,
) -> list[str]:
    records = board.records()
    measure = str(records[0]["measure"])
    direction = "lower is better" if lower_is_better(records[0]["lower_is_better"]) else "higher is better"
    protocol = str(records[0].get("protocol", protocol))
    means = board.column("mean", float)
    low, high = board.column("ci_low", float), board.column("ci_high", float)
    ends = np.concatenate([means, low, high])
    ends = ends[np.isfinite(ends)]
    start, stop = (float(ends.min()), float(ends.max())) if ends.size else (0.0, 1.0)
    span = (stop - start) or 1.0
    level_text = f"{level:.0%} CI"
    lines = [
        f'<section id="board-{number}">',
        f"<h2>{_text(names.get(measure, measure))} ({direction}; {_text(protocol)} protocol)</h2>",
        f'<table class="board" data-measure="{_text(measure)}">',
        "<thead><tr>"
        '<th data-type="number">Rank</th><th data-type="text">Run</th><th data-type="number">Mean</th>'
        f'<th data-type="number">{_text(level_text)}</th><th data-type="number">Interval</th>'
        '<th data-type="number">Group</th></tr></thead>',
        "<tbody>",
    ]
    for order, row in enumerate(records):
        run = str(row["run"])
        labels = parse_groups(row.get("group", "") or "")
        first_group = group_label_index(labels[0]) if labels else ""
        if run_index is not None and run in run_index:
            run_cell = (
                f'<details class="topics" data-measure="{_text(measure)}" data-run="{run_index[run]}">'
                f"<summary>{_text(run)}</summary></details>"
            )
        else:
            run_cell = _text(run)
        mean, ci_low, ci_high = float(row["mean"]), float(row["ci_low"]), float(row["ci_high"])
        lines.append(
            f'<tr data-order="{order}"><td class="num" data-value="{_text(row["rank"])}">{_text(row["rank"])}</td>'
            f'<td class="run" data-value="{_text(run)}">{run_cell}</td>'
            f'<td class="num" data-value="{_value(mean)}">{_number(mean)}</td>'
            f'<td class="num" data-value="{_value(ci_low)}">[{_number(ci_low)}, {_number(ci_high)}]</td>'
            f'<td data-value="{_value(mean)}">{_bar(ci_low, mean, ci_high, start, span)}</td>'
            f'<td class="group" data-value="{first_group}">{_text(row.get("group", "") or "")}</td></tr>'
        )
    lines += ["</tbody>", "</table>", "</section>"]
    return lines


def leaderboard_page(
    title: str,
    boards: Sequence[Table],
    names: Mapping[str, str],
    per_topic,
    protocol: str,
    data_origin: str,
    level: float = 0.95,
    note: str = "",
) -> str:
    """The page's HTML.

    ``boards``: one leaderboard table per measure (:meth:`ordeval.analysis.leaderboard.Leaderboard.table`,
    or the parts of a leaderboard CSV: :func:`~ordeval.analysis.leaderboard.read_leaderboards`), best
    first; a board with a ``protocol`` column shows that protocol, else ``protocol`` (``per-topic`` or
    ``pooled``, see :data:`PROTOCOLS`). ``names``: measure -> display name. ``per_topic``: the
    :class:`~ordeval.tasks.stack.ScoreStack` whose per-topic scores a run's row shows on demand (None: none
    shown). ``data_origin``: the data-origin sentence (:func:`ordeval.io.provenance.origin_sentence`).
    ``note``: the setting (topics, interval, significance test and its parameters).
    """
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol {protocol!r}: expected one of {', '.join(PROTOCOLS)}")
    boards = [board for board in boards if len(board)]
    measures = [str(board["measure"][0]) for board in boards]
    payload, run_index = _per_topic_payload(per_topic, measures)
    shown = sorted({str(board["protocol"][0]) if "protocol" in board else protocol for board in boards})
    lines = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<link rel="icon" href="data:,">',
        f"<title>{_text(title)}</title>",
        f"<style>{_STYLE}</style>",
        "</head>",
        "<body>",
        f"<h1>{_text(title)}</h1>",
        f'<p class="meta origin">{_text(data_origin)}</p>',
    ]
    lines += [f'<p class="meta protocol">Protocol: {_text(PROTOCOLS.get(name, name))}.</p>' for name in shown]
    if note:
        lines.append(f'<p class="meta note">{_text(note)}</p>')
    lines.append(
        f'<p class="meta key">Groups: {_text(GROUPS_KEY)} Click a column header to sort by it; open a run '
        "to see its score on each topic.</p>"
    )
    if len(boards) > 1:
        protocols = [str(board["protocol"][0]) if "protocol" in board else protocol for board in boards]
        mixed = len(set(protocols)) > 1  # name the protocol of each board where the page holds several
        links = "".join(
            f'<li><a href="#board-{number}">{_text(names.get(measure, measure))}'
            + (f" ({_text(protocols[number])})" if mixed else "")
            + "</a></li>"
            for number, measure in enumerate(measures)
        )
        lines.append(f"<nav><ul>{links}</ul></nav>")
    for number, (board, measure) in enumerate(zip(boards, measures, strict=True)):
        lines += _board_section(number, board, names, protocol, level, run_index.get(measure))
    lines += [
        f'<script type="application/json" id="per-topic">{_json_for_script(payload)}</script>',
        f"<script>{_SCRIPT}</script>",
        "</body>",
        "</html>",
        "",
    ]
    return "\n".join(lines)


def write_leaderboard_page(
    path: str | Path,
    title: str,
    boards: Sequence[Table],
    names: Mapping[str, str],
    per_topic,
    protocol: str,
    data_origin: str,
    level: float = 0.95,
    note: str = "",
) -> None:
    """Write :func:`leaderboard_page` to ``path`` (atomically, UTF-8)."""
    write_text(leaderboard_page(title, boards, names, per_topic, protocol, data_origin, level, note), path)
