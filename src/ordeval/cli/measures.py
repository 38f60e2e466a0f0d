"""``ordeval measures``: the measure registry as text, Markdown or JSON."""

from __future__ import annotations

from ordeval.cli.common import add_plugin_option, load_plugin_files, scoring_tasks


def cmd_measures(args) -> int:
    load_plugin_files(args.plugins)
    from ordeval.reports.docs import measure_records, records_json

    if args.format == "json":
        print(records_json(args.task))
        return 0
    records = measure_records(args.task)
    if args.format == "markdown":
        print("| Measure | Task | Direction | Description | Formula | Reference |")
        print("|---|---|---|---|---|---|")
        for record in records:
            formula = " ".join(record["formula"].split()).replace("|", "\\|")
            cells = [
                record["name"],
                record["task"],
                record["direction"],
                record["description"],
                f"`{formula}`",
                record["reference"],
            ]
            print("| " + " | ".join(str(cell).replace("\n", " ") for cell in cells) + " |")
        return 0
    width = max((len(record["name"]) for record in records), default=4)
    for record in records:
        print(f"{record['name']:<{width}}  {record['task']:<14}  {record['direction']:<16}  {record['description']}")
        for line in record["formula"].splitlines():
            print(f"{'':<{width}}    {line}".rstrip())
        if record["reference"]:
            print(f"{'':<{width}}    Reference: {record['reference']}")
    return 0


def add_parser(commands) -> None:
    """The ``measures`` subcommand's arguments."""
    measures = commands.add_parser(
        "measures",
        help="list the registered measures",
        description="The measure registry: name, task, direction, formula, reference.",
    )
    measures.add_argument("--task", choices=scoring_tasks(), help="only the measures of this task")
    measures.add_argument("--format", choices=("text", "markdown", "json"), default="text", help="output format")
    add_plugin_option(measures)
