"""Computations of the meta-evaluation.

They return arrays and tables; writing them is the business of the jobs and the presentation modules.
"""
