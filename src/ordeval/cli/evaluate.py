"""``ordeval evaluate-measure``: a new measure's meta-evaluation next to the established measures of its
task, through the pipeline's own stages (``ordeval run`` on a configuration derived from the given one)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from ordeval.cli.common import UserError
from ordeval.io.files import write_text


def registered() -> dict[str, str]:
    """{measure: task} of every measure registered now."""
    from ordeval.cli.common import scoring_tasks
    from ordeval.tasks import get_task

    return {name: task for task in scoring_tasks() for name in get_task(task).registry.names()}


def derived_config(base: dict, plugin: Path, measures: dict[str, str]) -> dict:
    """``base`` with the plugin loaded, the measures reported on (``measure_reports``), only the data sets
    of their tasks, and a name of its own (``<name>-<plugin>``), so that the base results stay as they are."""
    import copy

    from ordeval.tasks import task_of

    config = copy.deepcopy(base)
    tasks = set(measures.values())
    config["datasets"] = {name: spec for name, spec in config["datasets"].items() if task_of(spec) in tasks}
    if not config["datasets"]:
        raise UserError(f"the configuration has no data set of the task(s) {', '.join(sorted(tasks))}")
    config["name"] = f"{base.get('name', 'ordeval')}-{plugin.stem}"
    config["plugins"] = [*base.get("plugins", []), str(plugin)]
    config["measure_reports"] = list(measures)
    if config.get("measures"):  # a configuration that lists the scored measures scores the new ones too
        config["measures"] = [*config["measures"], *(m for m in measures if m not in config["measures"])]
    for section in ("agreement", "consistency", "significance", "leaderboard", "popularity", "topic_set_size"):
        listed = (config.get(section) or {}).get("measures")
        if listed:  # a listed analysis keeps its measures and adds the new ones of its task
            config[section]["measures"] = [*listed, *(m for m in measures if m not in listed)]
    return config


def cmd_evaluate(args, extra) -> int:
    import yaml

    from ordeval.cli import run
    from ordeval.tasks.plugins import load_plugins
    from ordeval.workflow.config import load_yaml

    plugin = Path(args.plugin).resolve()
    if not plugin.exists():  # what is there but is not a regular file: said when it is loaded
        raise UserError(f"{args.plugin}: no such plugin file")
    project = run.project_folder()
    configfile = Path(args.configfile).resolve() if args.configfile else project / "config" / "config.yaml"
    if not configfile.exists():  # what is there but is not a regular file: said by the loader
        raise UserError(f"{args.configfile or configfile}: no such configuration file")
    base = load_yaml(configfile)
    base.update(run._config_overrides(extra))
    before = registered()
    load_plugins([str(plugin)], key="plugin")
    after = registered()
    new = {name: task for name, task in after.items() if name not in before}
    if args.measure:
        unknown = [name for name in args.measure if name not in after]
        if unknown:
            raise UserError(
                f"{args.plugin}: registers no measure {', '.join(unknown)} (it registers {', '.join(new) or 'none'})"
            )
        new = {name: after[name] for name in args.measure}
    if not new:
        raise UserError(f"{args.plugin}: registers no new measure (register one with ordeval.tasks.<task>.register)")
    config = derived_config(base, plugin, new)
    with tempfile.TemporaryDirectory(prefix="ordeval-dry-run-") as temporary:  # a dry run writes nothing
        folder = Path(temporary) if args.dry_run else project / "results" / config["name"]
        derived = folder / "evaluate-measure.yaml"
        derived.parent.mkdir(parents=True, exist_ok=True)
        text = f"# Derived by 'ordeval evaluate-measure {args.plugin}' from {configfile}\n"
        write_text(text + yaml.safe_dump(config, sort_keys=False, allow_unicode=True), derived)
        shown = str(derived) if args.dry_run else os.path.relpath(derived)  # the hints: a command that pastes here
        print(
            f"ordeval evaluate-measure: {', '.join(f'{m} ({t})' for m, t in new.items())}; configuration "
            f"{shown}{' (temporary: a dry run writes nothing)' if args.dry_run else ''}",
            file=sys.stderr,
        )
        run_args = argparse.Namespace(
            configfile=shown, target="measure_reports", cores=args.cores, dry_run=args.dry_run, progress=args.progress
        )
        status = run.cmd_run(run_args, [argument for argument in extra if argument])
    if status == 0 and not args.dry_run:
        for name in new:
            folder = project / "results" / config["name"] / "measures" / name
            print(
                f"{name}: {os.path.relpath(folder)}/report.md, report.html"
                + (", report.pdf" if (folder / "report.pdf").is_file() else "")
            )
    return status


def add_parser(commands) -> None:
    """The ``evaluate-measure`` subcommand's arguments."""
    from ordeval.cli import run

    parser = commands.add_parser(
        "evaluate-measure",
        help="meta-evaluate a new measure next to the established ones",
        description="Register the measures of PLUGIN and run the pipeline's stages on the configuration's data sets "
        "of their task (a derived configuration named <name>-<plugin>, so the base results stay as they are), then "
        "write one report per new measure: results/<name>-<plugin>/measures/<measure>/report.{md,html,tex,pdf}: its "
        "formula and direction, its computed properties, Kendall's tau with CIs against every other measure and its "
        "average similarity, its consistency over random topic splits with the HSD comparisons, its "
        "discriminative power and the topics it needs. Arguments after '--' go to Snakemake.",
    )
    parser.add_argument("plugin", help="Python file that registers the new measure(s)")
    parser.add_argument(
        "--configfile",
        help="base configuration (default config/config.yaml; a paper preset or config/replication.yaml work too)",
    )
    parser.add_argument("--measure", action="append", metavar="NAME", help="only this measure (repeatable)")
    run.add_run_options(parser)
