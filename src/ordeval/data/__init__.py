"""The public real data: the registry of the files the replication and the paper presets read (origin repository,
commit, path, size, SHA-256, licence, use), a data folder checked against it, and ``ordeval fetch``'s download.

- :mod:`ordeval.data.registry` reads ``registry.yaml`` (the one list of the files; docs/data.md is generated from it
  by :mod:`ordeval.data.docs`) and checks files against it: planning refuses a registered file that is missing or
  whose bytes differ, before any job (:mod:`ordeval.workflow.source_check`).
- :mod:`ordeval.data.fetch` downloads the registered files into a data folder (default ``resources/``) with pooch,
  or copies them from a local copy, each checked and written atomically.
"""
