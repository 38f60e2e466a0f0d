"""Statistics of the meta-evaluation: arithmetic that gives the same bits on every CPU, random streams, Kendall's
tau, its intervals, random topic splits, the randomised Tukey HSD and topic set size design."""
