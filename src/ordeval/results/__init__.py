"""Results against numbers from elsewhere: the manifest of a run, numbers and tables compared at their
precision or a tolerance, fingerprints, recorded references (``ordeval diff``), and the papers' published
numbers beside the reproduced ones."""
