"""Two plausible new ordinal measures, as a measure designer would write them: one function and one
``register`` line each. Try them: ``ordeval evaluate-measure examples/my_measure.py``.

* RNCSD (ordinal quantification): the root of the normalised sum of squared differences between the
  cumulative distributions -- NMD squares its terms, so one large cumulative error weighs more than
  several small ones (a Cramer-von Mises-type distance between ordinal distributions).
* MSE_M (ordinal classification): macro-averaged mean squared error, MAE_M with squared class distances
  (Baccianella, Esuli and Sebastiani, 2009, define the macro-averaged MAE and MSE).
"""

import numpy as np

from ordeval.tasks.classification import register as register_oc
from ordeval.tasks.quantification import register as register_oq


@register_oq(
    "RNCSD",
    display="RNCSD",
    description="root normalised cumulative squared difference",
    lower_is_better=True,
    reference="this example (a Cramer-von Mises-type distance)",
)
def root_normalised_cumulative_squared_difference(estimate, gold):
    """RNCSD = sqrt( sum_{i<K-1} (cp_i - cp*_i)^2 / (K - 1) ), cp the cumulative distribution."""
    difference = np.cumsum(estimate, axis=-1) - np.cumsum(gold, axis=-1)
    classes = estimate.shape[-1]
    return np.sqrt((difference[..., :-1] ** 2).sum(axis=-1) / (classes - 1))


@register_oc(
    "MSE_M",
    display="MSE^M",
    description="macro-averaged mean squared error",
    lower_is_better=True,
    reference="Baccianella, Esuli and Sebastiani (2009)",
)
def macro_mean_squared_error(confusion):
    """MSE_M = (1/|C+|) sum_{j in C+} ( sum_i (i - j)^2 c_ij ) / c_.j over the non-empty gold classes C+."""
    confusion = np.asarray(confusion, dtype=float)
    classes = confusion.shape[-1]
    index = np.arange(classes)
    squared = (index[:, None] - index[None, :]) ** 2  # system class i (rows) x gold class j (columns)
    gold_totals = confusion.sum(axis=-2)
    errors = (squared * confusion).sum(axis=-2)
    present = gold_totals > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        per_class = np.where(present, errors / np.where(present, gold_totals, 1.0), 0.0)
    return per_class.sum(axis=-1) / np.maximum(present.sum(axis=-1), 1)
