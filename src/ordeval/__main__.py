"""``python -m ordeval``: the ``ordeval`` command (see :mod:`ordeval.cli`)."""

import sys

from ordeval.cli import main

sys.exit(main())
