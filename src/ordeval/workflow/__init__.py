"""What the Snakemake workflow needs from the library: the configuration (schema, checks, limits), the plan
of a configuration (data sets, measures, output paths, targets), resources per job,
the code each job depends on, and what the rule scripts share."""
