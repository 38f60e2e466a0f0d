# Popularity vs Uniform (SPEC 4.6): per topic Delta_M = M(BL-popularity) - M(BL-uniform) on the data
# sets that have both runs (POPULARITY_DATASETS); the others are left out, and the logs say why.


rule popularity_table:
    input:
        scores=popularity_score_files(),
        provenance=[provenance_path(name) for name in DATASETS],
        library=library("popularity"),
    output:
        csv=reported(f"{RESULTS}/tables/popularity_vs_uniform.csv", "popularity"),
        tex=f"{RESULTS}/tables/popularity_vs_uniform.tex",
        deltas=reported(f"{RESULTS}/tables/popularity_deltas.csv", "popularity"),
    log:
        f"{RESULTS}/logs/popularity_table.log",
    conda:
        "../../environment.yml"
    params:
        scores=popularity_scores(),
        provenance={name: provenance_path(name) for name in DATASETS},
        skipped=POPULARITY_SKIPPED,
        measures=POPULARITY_MEASURES,
        popularity_run=config["popularity"]["popularity_run"],
        uniform_run=config["popularity"]["uniform_run"],
        tie_tolerance=config["popularity"]["tie_tolerance"],
    script:
        "../../scripts/popularity_table.py"


rule popularity_scatter:
    input:
        scores=lambda wildcards: score_paths(
            wildcards.dataset, POPULARITY_MEASURES
        ).values(),
        provenance=provenance_path("{dataset}"),
        library=library("popularity"),
    output:
        pdf=f"{RESULTS}/figures/popularity_scatter/{{dataset}}.pdf",
        png=reported(
            f"{RESULTS}/figures/popularity_scatter/{{dataset}}.png",
            "popularity",
            "{dataset}",
        ),
        csv=reported(
            f"{RESULTS}/tables/popularity_scatter/{{dataset}}.csv",
            "popularity",
            "{dataset}",
        ),
        tex=f"{RESULTS}/tables/popularity_scatter/{{dataset}}.tex",
    log:
        f"{RESULTS}/logs/popularity_scatter/{{dataset}}.log",
    conda:
        "../../environment.yml"
    params:
        scores=lambda wildcards: score_paths(wildcards.dataset, POPULARITY_MEASURES),
        popularity_run=config["popularity"]["popularity_run"],
        uniform_run=config["popularity"]["uniform_run"],
        tie_tolerance=config["popularity"]["tie_tolerance"],
        ci_level=config["popularity"]["ci_level"],
    script:
        "../../scripts/popularity_scatter.py"


rule popularity_examples:
    input:
        files=popularity_example_files(),
        provenance=[provenance_path(name) for name in DATASETS],
        library=library("popularity", "readers"),
    output:
        pdf=f"{RESULTS}/figures/popularity_examples.pdf",
        png=reported(f"{RESULTS}/figures/popularity_examples.png", "popularity"),
    log:
        f"{RESULTS}/logs/popularity_examples.log",
    conda:
        "../../environment.yml"
    params:
        datasets=popularity_examples(),
        provenance={name: provenance_path(name) for name in DATASETS},
        skipped=popularity_examples_skipped(),
        popularity_run=config["popularity"]["popularity_run"],
        uniform_run=config["popularity"]["uniform_run"],
    script:
        "../../scripts/popularity_examples.py"
