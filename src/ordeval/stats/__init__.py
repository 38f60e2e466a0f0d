"""Statistics of the meta-evaluation: arithmetic that gives the same bits on every CPU, random streams, Kendall's
tau, its intervals, random topic splits, the randomised Tukey HSD and topic set size design."""

#: The largest magnitude of a score: the statistics square scores and sum the squares (variances, intervals, the
#: residual variance of topic set size design), which must stay finite: a score of 1e200 would give an interval
#: [-inf, inf]. Every score read from a file or given by a measure is checked against it.
MAX_SCORE = 1e100
