# Stage: leaderboards per data set (mean, interval, rank, significance groups from the p-values of the
# significance stage), as CSV, LaTeX and Markdown, and figures.

LEADERBOARD_TABLES = SPECS.leaderboard_tables()
LEADERBOARD_FIGURES = SPECS.leaderboard_figures()


rule leaderboard_tables:
    input:
        **LEADERBOARD_TABLES.inputs,
        library=PLAN.library("leaderboard_tables"),
    output:
        **reported(LEADERBOARD_TABLES),
    log:
        log("leaderboard_tables"),
    priority: priority("leaderboard_tables")
    conda:
        ENV
    threads: job_threads("leaderboard_tables")
    resources:
        **job_resources("leaderboard_tables"),
    params:
        **job_params(LEADERBOARD_TABLES.params),
    script:
        "../../scripts/leaderboard_tables.py"


rule leaderboard_figures:
    input:
        **LEADERBOARD_FIGURES.inputs,
        library=PLAN.library("leaderboard_figures"),
    output:
        **reported(LEADERBOARD_FIGURES),
    log:
        log("leaderboard_figures"),
    priority: priority("leaderboard_figures")
    conda:
        ENV
    threads: job_threads("leaderboard_figures")
    resources:
        **job_resources("leaderboard_figures"),
    params:
        **job_params(LEADERBOARD_FIGURES.params),
    script:
        "../../scripts/leaderboard_figures.py"


rule leaderboard:
    input:
        PLAN.targets("leaderboard"),
