"""Computations of the meta-evaluation: they return arrays and tables; writing them is the jobs' and presentation modules' business."""
