"""Rule score_runs_<task>: every run of one data set scored on every topic with every measure of its task: the
score matrices, the means, the measures' directions, the stack the analyses read, and the task's own tables."""

from ordeval.tasks import get_task
from ordeval.tasks.plugins import load_plugins
from ordeval.tasks.stack import write_scores
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params, output = snakemake.wildcards.dataset, snakemake.params, snakemake.output
    load_plugins(params.plugins)
    task = get_task(params.task)
    data = task.read_canonical(dataset, params.spec, {key: snakemake.input[key] for key in task.canonical_files()})
    scored = task.score(data, params.measures)
    stack = scored.stack
    files = {measure: output[f"matrix_{measure}"] for measure in stack.measures}
    write_scores(
        stack,
        {**files, "means": output.means, "measures": output.measures, "stack": output.stack},
        processes=snakemake.threads,
    )
    for key, table in scored.extras.items():
        table.write(output[key])
    log.info(
        "%s: scored %d runs x %d topics with %d measures",
        dataset,
        len(stack.runs),
        len(stack.topics),
        len(stack.measures),
    )
