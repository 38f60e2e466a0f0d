"""The job specs (ordeval.workflow.Specs) that the rules are made of: their inputs and outputs form one
consistent graph whose outputs are exactly the plan's targets and the files other jobs read."""

import copy
from collections import Counter

import pytest
from conftest import REPO, SHARED_RAW, tiny_config

from ordeval import catalogue
from ordeval.config import load
from ordeval.plan import plan as make_plan
from ordeval.workflow import JobSpec, Specs, all_jobs


def jobs(plan) -> dict[tuple[str, str | None], JobSpec]:
    """Every job of the plan (the PDF job only where the plan wants the PDF)."""
    found = all_jobs(Specs(plan), "0123abc")
    if not plan.pdf_wanted():
        del found[("report_pdf", None)]
    return found


def graph(plan):
    """(outputs: path -> jobs making it, inputs: path -> jobs reading it)."""
    made, read = {}, {}
    for (rule, dataset), spec in jobs(plan).items():
        for value in spec.outputs.values():
            for path in [value] if isinstance(value, str) else value:
                made.setdefault(path, []).append((rule, dataset))
        for value in spec.inputs.values():
            for path in [value] if isinstance(value, str) else value:
                read.setdefault(path, []).append((rule, dataset))
    return made, read


def _config(kind: str, pdf: bool) -> tuple[dict, dict]:
    if kind == "default":
        config = load(REPO / "config" / "config.yaml")
    elif kind == "replication":
        config = load(REPO / "config" / "replication.yaml")
        config["data_root"] = str(SHARED_RAW)
    else:
        config = copy.deepcopy(tiny_config())
    config["report"] = {"pdf": pdf}
    return config, {"check_files": kind != "replication" or SHARED_RAW.is_dir()}


@pytest.fixture(scope="module", params=[("default", True), ("default", False), ("replication", True), ("tiny", False)],
                ids=lambda p: f"{p[0]}-pdf" if p[1] else p[0])  # fmt: skip
def plan(request):
    config, options = _config(*request.param)
    return make_plan(config, workdir=REPO, **options)


def test_every_output_is_a_target_or_read_by_another_job(plan):
    made, read = graph(plan)
    targets = set(plan.targets())
    dangling = [path for path in made if path not in targets and path not in read]
    assert dangling == []
    for path, readers in read.items():
        if path in made:
            assert all(reader not in made[path] for reader in readers), f"{path} read by the job making it"


def test_no_path_is_the_output_of_two_jobs(plan):
    made, _ = graph(plan)
    assert {path: makers for path, makers in made.items() if len(makers) > 1} == {}


def test_every_target_is_made_by_exactly_one_job(plan):
    made, _ = graph(plan)
    targets = plan.targets()
    assert len(targets) == len(set(targets))
    assert [path for path in targets if len(made.get(path, [])) != 1] == []


def test_every_input_is_made_by_a_job_or_is_a_source_file(plan):
    made, read = graph(plan)
    sources = {path for data in plan.datasets.values() for path in data.files}
    assert [path for path in read if path not in made and path not in sources] == []


def test_reported_outputs_are_outputs_with_a_report_category(plan):
    for (rule, _), spec in jobs(plan).items():
        outputs = {path for value in spec.outputs.values() for path in ([value] if isinstance(value, str) else value)}
        assert set(spec.reports) <= outputs, rule
        for path, (key, _) in spec.reports.items():
            entry = catalogue.ENTRIES[key]
            assert entry.category and path.endswith("." + entry.reported_format), (rule, path)
    # Every entry with a caption in the HTML report is reported by the job that makes it, and vice versa.
    keys = {key for spec in jobs(plan).values() for key, _ in spec.reports.values()}
    assert keys == set(plan.reported_keys())


def test_captions_are_written_for_every_reported_entry(plan):
    spec = Specs(plan).report_captions()
    assert sorted(spec.params["captions"]) == sorted(spec.outputs["captions"])
    assert len(spec.outputs["captions"]) == len(plan.reported_keys())
    assert all(caption and "{" not in caption for caption in spec.params["captions"].values())


def test_the_report_inputs_every_table_fragment_and_figure(plan):
    spec = Specs(plan).report_tex()
    items = spec.params["items"]
    assert [path for _, path in items] == spec.inputs["outputs"]
    assert Counter(path.rsplit(".", 1)[1] for _, path in items).keys() <= {"tex", "pdf", "png"}
    tables = [path for path in plan.targets() if path.endswith(".tex") and "/report/" not in path]
    assert sorted(path for _, path in items if path.endswith(".tex")) == sorted(tables)
    assert {section for section, _ in items} <= set(catalogue.SECTIONS)


def test_per_dataset_job_params(plan):
    specs = Specs(plan)
    for name, data in plan.datasets.items():
        assert specs.prepare_data_params(name)["spec"] == data.spec
        assert specs.score_runs_params(name)["measures"] == data.measures
        assert specs.consistency_taus_params(name)["measures"] == plan.dataset_measures("consistency", name)
        assert specs.significance_pvalues_params(name)["trials"] == plan.config["significance"]["hsd_trials"]


def test_every_reported_table_gets_its_own_caption_and_the_report_marks_exactly_those(plan):
    found = jobs(plan)
    marked = {path: key for spec in found.values() for path, (key, _) in spec.reports.items() if path.endswith(".csv")}
    assert marked == plan.reported_tables()
    # the rules as the Snakefile defines them: per-data-set rules report {dataset} patterns
    specs = Specs(plan)
    rules = [specs.consistency_taus(), specs.significance_pvalues()]
    rules += [getattr(specs, rule)() for (rule, dataset) in found
              if dataset is None and rule != "manifest" and not rule.endswith("_group")]  # fmt: skip
    reported = {path: key for spec in rules for path, (key, _) in spec.reports.items() if path.endswith(".csv")}
    patterns = {path: key for path, key in reported.items() if "{dataset}" in path}
    assert patterns and set(patterns.values()) <= catalogue.WILDCARD_ENTRIES
    assert not {key for path, key in reported.items() if path not in patterns} & catalogue.WILDCARD_ENTRIES
    captions = found[("report_captions", None)]
    assert set(captions.inputs["tables"]) == set(marked)
    own = {plan.caption_of(path, key) for path, key in marked.items() if key in catalogue.WILDCARD_ENTRIES}
    assert {plan.caption_of(path, key) for path, key in reported.items()} | own == set(captions.outputs["tables"])
    # a rule's one job for its small data sets (no wildcard) shows each table by its own caption
    grouped = {path: key for (rule, _), spec in found.items() if rule.endswith("_group")
               for path, (key, _) in spec.reports.items() if path.endswith(".csv")}  # fmt: skip
    assert grouped and all(plan.caption_of(path, key) in captions.outputs["tables"] for path, key in grouped.items())
    assert set(captions.outputs["tables"]) <= set(plan.targets("report"))
