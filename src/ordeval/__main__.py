"""``python -m ordeval``: the ``ordeval`` command (see :mod:`ordeval.cli`)."""

import sys

from .cli import main

sys.exit(main())
