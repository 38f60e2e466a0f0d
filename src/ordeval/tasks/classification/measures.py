"""Evaluation measures for ordinal classification (docs/methods.md, section 3) and their registry.

Notation (Sakai, ACL-IJCNLP 2021). Classes C = {0..K-1} in ordinal order. Per topic, a confusion matrix
``c`` with ``c[i, j]`` = number of the topic's items that the SYSTEM puts in class i and the GOLD puts in
class j (rows: system, columns: gold); c_i. = sum_j c_ij (system totals), c_.j = sum_i c_ij (gold totals),
N = sum_ij c_ij; C+ = {j : c_.j > 0}, the gold classes the topic has items of.

Every measure takes ``confusion`` of shape ``(..., K, K)`` (any leading axes, e.g. runs x topics; integer
counts or floats) and returns float64 scores of shape ``(...)``. :func:`confusion_matrices` builds the
runs x topics x K x K counts from per-item labels; :func:`pooled_confusion` sums them over topics (the
official SemEval protocol: one matrix for the whole test set).

Undefined cases (0/0) get documented values, and :func:`convention_masks` says where each one occurred.
An empty topic (N = 0) gets NaN from every measure (readers reject empty topics, so it means a bug).

The property flags of each registered measure (its ``properties``) declare the paper's Table 4 columns
(Sakai, ACL-IJCNLP 2021): (I) ``ordinal``, (II) ``handles_constant`` (runs that always return one class
are scored meaningfully and told apart, unlike kappa, which gives all of them 0) and (III)
``handles_imbalance`` (not micro-averaged over the items: "MAE_mu and Accuracy ignore class imbalance"),
and two further properties of ordeval's own: ``constant_no_better_than_chance`` (a constant run never
beats the chance-level run) and ``majority_run_far_from_perfect`` (a majority-class run stays 1/2 from
the perfect score). Each is defined precisely, and checked on every measure (plugins too), by
:mod:`ordeval.tasks.classification.properties`; a test fails when a declared flag and its check disagree.

Flags (I, II, III): alpha_ORD, alpha_INT, CEM_ORD, MAE_M: yes, yes, yes; kappa: yes, no, yes;
F1_M, HMPR: no, yes, yes; MAE_mu: yes, yes, no; Accuracy: no, yes, no (the paper's Table 4).
No better than chance / majority run far from perfect: alpha_ORD, alpha_INT, kappa, HMPR, F1_M: yes, yes;
MAE_M: no, yes; CEM_ORD, Accuracy, MAE_mu: no, no.
"""

from __future__ import annotations

import numpy as np

from ordeval.stats import portable
from ordeval.tasks.registry import Registry

#: The ordinal classification measures, in the paper's Table 2 order (the default table order).
REGISTRY = Registry("classification")
register = REGISTRY.register
MEASURES = REGISTRY

REFERENCE = "Sakai, ACL-IJCNLP 2021, Eq. "


def get_measure(name: str):
    """The registered measure called ``name``; a clear error lists the known ones otherwise."""
    return REGISTRY[name]


# --------------------------------------------------------------------------- confusion matrices


def _integer_array(values, name: str, ndim: int) -> np.ndarray:
    array = np.asarray(values)
    if array.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimension(s), got shape {array.shape}")
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"{name} must hold integers, got dtype {array.dtype}")
    return array.astype(np.int64, copy=False)


def _check_range(array: np.ndarray, name: str, upper: int) -> None:
    if array.size and (array.min() < 0 or array.max() >= upper):
        bad = array[(array < 0) | (array >= upper)][0]
        raise ValueError(f"{name} holds {bad}, outside 0..{upper - 1}")


def confusion_matrices(gold, runs, topic_index, num_topics: int, num_classes: int) -> np.ndarray:
    """Per-run, per-topic confusion counts: int64 array (R, T, K, K).

    ``gold``: class indices (items,); ``runs``: class indices (R, items); ``topic_index``: topic of every
    item, 0..T-1 (items,). ``c[r, t, i, j]`` = number of items of topic t that run r puts in class i and
    the gold puts in class j. A topic without items gets an all-zero matrix (every measure: NaN).
    """
    if int(num_classes) != num_classes or num_classes < 2:
        raise ValueError(f"ordinal classification needs at least 2 classes, got {num_classes}")
    if int(num_topics) != num_topics or num_topics < 1:
        raise ValueError(f"num_topics must be a positive integer, got {num_topics}")
    num_classes, num_topics = int(num_classes), int(num_topics)
    gold = _integer_array(gold, "gold", 1)
    runs = _integer_array(runs, "runs", 2)
    topic_index = _integer_array(topic_index, "topic_index", 1)
    items = gold.shape[0]
    if runs.shape[1] != items:
        raise ValueError(f"runs label {runs.shape[1]} items, gold has {items}")
    if topic_index.shape[0] != items:
        raise ValueError(f"topic_index has {topic_index.shape[0]} items, gold has {items}")
    _check_range(gold, "gold", num_classes)
    _check_range(runs, "runs", num_classes)
    _check_range(topic_index, "topic_index", num_topics)
    num_runs = runs.shape[0]
    # flat index ((r * T + t) * K + i) * K + j, one bincount for everything
    per_item = topic_index * num_classes * num_classes + gold  # (items,): t * K * K + j
    run_offset = np.arange(num_runs, dtype=np.int64)[:, None] * (num_topics * num_classes * num_classes)
    flat = run_offset + per_item[None, :] + runs * num_classes
    size = num_runs * num_topics * num_classes * num_classes
    counts = np.bincount(flat.ravel(), minlength=size)
    return counts.astype(np.int64, copy=False).reshape(num_runs, num_topics, num_classes, num_classes)


def pooled_confusion(confusion) -> np.ndarray:
    """One matrix per run over all topics, shape (R, 1, K, K): the official SemEval scorers' protocol."""
    confusion = np.asarray(confusion)
    if confusion.ndim != 4 or confusion.shape[-1] != confusion.shape[-2]:
        raise ValueError(f"confusion must have shape (runs, topics, K, K), got {confusion.shape}")
    return confusion.sum(axis=1, keepdims=True)


# --------------------------------------------------------------------------- building blocks


def _as_confusion(confusion) -> np.ndarray:
    c = np.asarray(confusion, dtype=np.float64)
    if c.ndim < 2 or c.shape[-1] != c.shape[-2] or c.shape[-1] < 1:
        raise ValueError(f"a confusion matrix has shape (..., K, K), got {c.shape}")
    if np.isnan(c).any() or (c < 0).any():
        raise ValueError("confusion counts must be non-negative numbers")
    return c


def _margins(c: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """System totals c_i. (..., K), gold totals c_.j (..., K), N (...)."""
    return c.sum(axis=-1), c.sum(axis=-2), c.sum(axis=(-2, -1))


def _divide(numerator, denominator, fill: float) -> np.ndarray:
    """numerator / denominator where the denominator is > 0, ``fill`` elsewhere (no warnings)."""
    numerator, denominator = np.broadcast_arrays(np.asarray(numerator, float), np.asarray(denominator, float))
    positive = denominator > 0
    return np.where(positive, numerator / np.where(positive, denominator, 1.0), fill)


def _empty_is_nan(values: np.ndarray, total: np.ndarray) -> np.ndarray:
    return np.where(total > 0, values, np.nan)


def _mean_over_gold_classes(values: np.ndarray, gold_totals: np.ndarray) -> np.ndarray:
    """Mean of ``values`` (..., K) over C+ = {j : c_.j > 0}; 0 where C+ is empty (N = 0, made NaN later)."""
    present = gold_totals > 0
    return _divide(np.where(present, values, 0.0).sum(axis=-1), present.sum(axis=-1), 0.0)


def class_distance(num_classes: int) -> np.ndarray:
    """w_ij = |i - j| (K, K)."""
    index = np.arange(num_classes)
    return np.abs(index[:, None] - index[None, :]).astype(np.float64)


def _span_sums(counts: np.ndarray) -> np.ndarray:
    """S_ij = sum_{l=min(i,j)}^{max(i,j)} counts_l, shape (..., K, K)."""
    num_classes = counts.shape[-1]
    cumulative = np.concatenate([np.zeros(counts.shape[:-1] + (1,)), np.cumsum(counts, axis=-1)], axis=-1)
    index = np.arange(num_classes)
    low = np.minimum(index[:, None], index[None, :])
    high = np.maximum(index[:, None], index[None, :])
    return cumulative[..., high + 1] - cumulative[..., low]


def cem_proximity(gold_counts) -> np.ndarray:
    """prox_ij = -log2(max{0.5, K_ij} / N) of CEM_ORD, shape (..., K, K) for gold counts (..., K).

    K_ij = c_.i/2 + sum_{l=i+1..j} c_.l if i <= j, and c_.i/2 + sum_{l=j..i-1} c_.l if i > j: the gold
    items from the system's class i to the gold class j, the system's class counted half. Both cases are
    (sum_{l=min(i,j)}^{max(i,j)} c_.l) - c_.i/2. N = sum_l c_.l; NaN where N = 0.
    prox is not symmetric: K_ij - c_.j/2 is, so prox_ij = prox_ji exactly when c_.i = c_.j.
    """
    gold_counts = np.asarray(gold_counts, dtype=np.float64)
    total = gold_counts.sum(axis=-1)[..., None, None]
    k = _span_sums(gold_counts) - gold_counts[..., :, None] / 2
    diagonal = np.eye(gold_counts.shape[-1], dtype=bool)
    k = np.where(diagonal, gold_counts[..., :, None] / 2, k)  # exactly c_.i/2, without cumulative-sum noise
    with np.errstate(divide="ignore", invalid="ignore"):
        prox = -portable.log2(np.maximum(0.5, k) / np.where(total > 0, total, 1.0)) + 0.0  # + 0.0: no -0.0 where K = N
    return np.where(total > 0, prox, np.nan)


def _kappa_parts(c: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Observed sum_ij w_ij c_ij, expected sum_ij w_ij c_i. c_.j / N, and N."""
    system, gold, total = _margins(c)
    weight = class_distance(c.shape[-1])
    observed = np.einsum("...ij,ij->...", c, weight)
    expected = _divide(np.einsum("...i,ij,...j->...", system, weight, gold), total, 0.0)
    return observed, expected, total


def _ordinal_metric(n: np.ndarray) -> np.ndarray:
    """d2_ij = (sum_{k=min(i,j)}^{max(i,j)} n_k - (n_i + n_j)/2)^2, (..., K, K); 0 on the diagonal."""
    mass = _span_sums(n) - (n[..., :, None] + n[..., None, :]) / 2
    return np.where(np.eye(n.shape[-1], dtype=bool), 0.0, mass**2)


def _interval_metric(n: np.ndarray) -> np.ndarray:
    """d2_ij = (i - j)^2, (K, K)."""
    return class_distance(n.shape[-1]) ** 2


def _alpha_parts(c: np.ndarray, metric) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Observed sum_{i<j} O_ij d2_ij, expected sum_{i<j} E_ij d2_ij, and N (two coders: gold, system)."""
    system, gold, total = _margins(c)
    n = system + gold  # n_i: how many of the 2N labels are i
    d2 = metric(n)
    # O_ij = c_ij + c_ji for i != j and d2 is symmetric with d2_ii = 0, so sum_{i<j} O_ij d2_ij = sum_ij c_ij d2_ij.
    observed = (c * d2).sum(axis=(-2, -1))
    pairs = (n[..., :, None] * n[..., None, :] * d2).sum(axis=(-2, -1)) / 2  # sum_{i<j} n_i n_j d2_ij
    expected = _divide(pairs, 2 * total - 1, 0.0)
    return observed, expected, total


def _one_minus_ratio(observed, expected, total) -> np.ndarray:
    """1 - observed / expected; 1.0 where expected = 0 (all labels in one class); NaN where N = 0."""
    return _empty_is_nan(1.0 - _divide(observed, expected, 0.0), total)


def _precision_recall(c: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Prec_j = c_jj / c_j. (0 if c_j. = 0), Rec_j = c_jj / c_.j (0 if c_.j = 0), and c_.j; each (..., K)."""
    system, gold, _ = _margins(c)
    correct = np.diagonal(c, axis1=-2, axis2=-1)
    return _divide(correct, system, 0.0), _divide(correct, gold, 0.0), gold


def harmonic_f1(precision, recall) -> np.ndarray:
    """f1(p, r) = 2 p r / (p + r), and 0 when p = r = 0."""
    precision, recall = np.asarray(precision, float), np.asarray(recall, float)
    return _divide(2 * precision * recall, precision + recall, 0.0)


# --------------------------------------------------------------------------- the measures


@register(
    "alpha_ORD",
    display="α_ORD",
    description="Krippendorff's alpha, ordinal metric (gold and system as two coders)",
    lower_is_better=False,
    reference=REFERENCE + "6-8",
    latex=r"$\alpha_{ORD}$",
    ordinal=True,
    handles_constant=True,
    handles_imbalance=True,
    constant_no_better_than_chance=True,
    majority_run_far_from_perfect=True,
)
def krippendorff_alpha_ordinal(confusion) -> np.ndarray:
    """alpha_ORD = 1 - (sum_i sum_{j>i} O_ij d2_ij) / (sum_i sum_{j>i} E_ij d2_ij).

    Gold and system are two coders of every item u: n_i(u) = how many of u's two labels are i;
    n_i = sum_u n_i(u) = c_i. + c_.i; O_ij = sum_u n_i(u) n_j(u) = c_ij + c_ji (i != j);
    E_ij = n_i n_j / (2N - 1); d2_ij = (sum_{k=i..j} n_k - (n_i + n_j)/2)^2 (i < j).
    Convention: when all 2N labels fall in one class the expected disagreement is 0 (and so is the
    observed one): alpha = 1.0, as the run agrees with the gold on every item. N = 0: NaN.
    """
    return _one_minus_ratio(*_alpha_parts(_as_confusion(confusion), _ordinal_metric))


@register(
    "alpha_INT",
    display="α_INT",
    description="Krippendorff's alpha, interval metric (gold and system as two coders)",
    lower_is_better=False,
    reference=REFERENCE + "6-8",
    latex=r"$\alpha_{INT}$",
    ordinal=True,
    handles_constant=True,
    handles_imbalance=True,
    constant_no_better_than_chance=True,
    majority_run_far_from_perfect=True,
)
def krippendorff_alpha_interval(confusion) -> np.ndarray:
    """alpha_INT = 1 - (sum_i sum_{j>i} O_ij d2_ij) / (sum_i sum_{j>i} E_ij d2_ij), d2_ij = (i - j)^2.

    O_ij = c_ij + c_ji, E_ij = n_i n_j / (2N - 1), n_i = c_i. + c_.i (as alpha_ORD).
    Convention: all 2N labels in one class (expected disagreement 0): alpha = 1.0. N = 0: NaN.
    """
    return _one_minus_ratio(*_alpha_parts(_as_confusion(confusion), _interval_metric))


@register(
    "HMPR",
    display="HMPR",
    description="harmonic mean of macro-averaged precision and recall",
    lower_is_better=False,
    reference=REFERENCE + "10",
    latex="HMPR",
    ordinal=False,
    handles_constant=True,
    handles_imbalance=True,
    constant_no_better_than_chance=True,
    majority_run_far_from_perfect=True,
)
def harmonic_mean_precision_recall(confusion) -> np.ndarray:
    """HMPR = f1(P, R), P = mean_{j in C+} Prec_j, R = mean_{j in C+} Rec_j, f1(p, r) = 2pr / (p + r).

    Prec_j = c_jj / c_j., Rec_j = c_jj / c_.j. Conventions: Prec_j = 0 for a gold class the run never
    predicts (c_j. = 0); f1(0, 0) = 0 (P = R = 0 exactly when the run gets no item right).
    Classes outside C+ (no gold items) are left out of both means. N = 0: NaN.
    """
    c = _as_confusion(confusion)
    precision, recall, gold = _precision_recall(c)
    mean_precision = _mean_over_gold_classes(precision, gold)
    mean_recall = _mean_over_gold_classes(recall, gold)
    return _empty_is_nan(harmonic_f1(mean_precision, mean_recall), gold.sum(axis=-1))


@register(
    "F1_M",
    display="F1^M",
    description="macro-averaged F1 over the gold classes",
    lower_is_better=False,
    reference=REFERENCE + "9",
    latex=r"F1$^{M}$",
    ordinal=False,
    handles_constant=True,
    handles_imbalance=True,
    constant_no_better_than_chance=True,
    majority_run_far_from_perfect=True,
)
def macro_f1(confusion) -> np.ndarray:
    """F1_M = (1/|C+|) sum_{j in C+} f1(Prec_j, Rec_j), f1(p, r) = 2pr / (p + r).

    Prec_j = c_jj / c_j., Rec_j = c_jj / c_.j. Conventions: Prec_j = 0 if c_j. = 0; f1(0, 0) = 0.
    (When c_j. = 0, c_jj = 0 and Rec_j = 0, so f1 is 0 whatever Prec_j: the precision convention never
    changes F1_M.) N = 0: NaN.
    """
    c = _as_confusion(confusion)
    precision, recall, gold = _precision_recall(c)
    return _empty_is_nan(_mean_over_gold_classes(harmonic_f1(precision, recall), gold), gold.sum(axis=-1))


@register(
    "MAE_M",
    display="MAE^M",
    description="macro-averaged mean absolute error over the gold classes",
    lower_is_better=True,
    reference=REFERENCE + "1",
    latex=r"MAE$^{M}$",
    ordinal=True,
    handles_constant=True,
    handles_imbalance=True,
    constant_no_better_than_chance=False,
    majority_run_far_from_perfect=True,
)
def macro_mean_absolute_error(confusion) -> np.ndarray:
    """MAE_M = (1/|C+|) sum_{j in C+} (sum_{i in C} |i - j| c_ij) / c_.j.

    No 0/0 when N > 0: C+ is then non-empty and every c_.j averaged over is > 0. N = 0: NaN.
    """
    c = _as_confusion(confusion)
    _, gold, total = _margins(c)
    per_class = _divide(np.einsum("...ij,ij->...j", c, class_distance(c.shape[-1])), gold, 0.0)
    return _empty_is_nan(_mean_over_gold_classes(per_class, gold), total)


@register(
    "kappa",
    display="κ",
    description="linear weighted kappa",
    lower_is_better=False,
    reference=REFERENCE + "5",
    latex=r"$\kappa$",
    ordinal=True,
    handles_constant=False,
    handles_imbalance=True,
    constant_no_better_than_chance=True,
    majority_run_far_from_perfect=True,
)
def linear_weighted_kappa(confusion) -> np.ndarray:
    """kappa = 1 - (sum_ij w_ij c_ij) / (sum_ij w_ij e_ij), w_ij = |i - j|, e_ij = c_i. c_.j / N.

    A constant run gets exactly 0 (e = c then). Convention: when every gold and system label of the
    topic is the same class, sum w e = 0 (and sum w c = 0): kappa = 1.0, as the run agrees with the
    gold on every item. (The sum is 0 only then: c_i. c_.j > 0 for some i != j otherwise.) N = 0: NaN.
    """
    return _one_minus_ratio(*_kappa_parts(_as_confusion(confusion)))


@register(
    "CEM_ORD",
    display="CEM_ORD",
    description="Closeness Evaluation Measure, ordinal (Amigó et al., ACL 2020)",
    lower_is_better=False,
    reference=REFERENCE + "3-4",
    latex=r"CEM$_{ORD}$",
    ordinal=True,
    handles_constant=True,
    handles_imbalance=True,
    constant_no_better_than_chance=False,
    majority_run_far_from_perfect=False,
)
def closeness_evaluation_measure(confusion) -> np.ndarray:
    """CEM_ORD = (sum_ij prox_ij c_ij) / (sum_j prox_jj c_.j), prox_ij = -log2(max{0.5, K_ij} / N).

    K_ij = c_.i/2 + sum_{l=i+1..j} c_.l (i <= j), c_.i/2 + sum_{l=j..i-1} c_.l (i > j): gold counts only
    (see :func:`cem_proximity`). No 0/0 when N > 0: for j in C+, K_jj = c_.j/2 >= 1/2 and c_.j <= N, so
    prox_jj = log2(2N / c_.j) >= 1 and the denominator is >= sum_j c_.j = N > 0. (For integer counts the
    0.5 floor never matters: a cell with c_ij > 0 has c_.j >= 1, and K_ij >= c_.j/2.) N = 0: NaN.
    """
    c = _as_confusion(confusion)
    _, gold, total = _margins(c)
    prox = cem_proximity(gold)
    used = c > 0  # prox of an unused cell may be NaN (N = 0) and must not reach the sums
    numerator = np.where(used, prox * c, 0.0).sum(axis=(-2, -1))
    denominator = np.where(gold > 0, np.diagonal(prox, axis1=-2, axis2=-1) * gold, 0.0).sum(axis=-1)
    return _empty_is_nan(_divide(numerator, denominator, 0.0), total)


@register(
    "Accuracy",
    display="Accuracy",
    description="fraction of items in their gold class",
    lower_is_better=False,
    reference="Sakai, ACL-IJCNLP 2021 (no equation number)",
    latex="Accuracy",
    ordinal=False,
    handles_constant=True,
    handles_imbalance=False,
    constant_no_better_than_chance=False,
    majority_run_far_from_perfect=False,
)
def accuracy(confusion) -> np.ndarray:
    """Accuracy = sum_j c_jj / N. N = 0: NaN."""
    c = _as_confusion(confusion)
    total = c.sum(axis=(-2, -1))
    return _empty_is_nan(_divide(np.trace(c, axis1=-2, axis2=-1), total, 0.0), total)


@register(
    "MAE_mu",
    display="MAE^µ",
    description="micro-averaged mean absolute error over the items",
    lower_is_better=True,
    reference=REFERENCE + "2",
    latex=r"MAE$^{\mu}$",
    ordinal=True,
    handles_constant=True,
    handles_imbalance=False,
    constant_no_better_than_chance=False,
    majority_run_far_from_perfect=False,
)
def micro_mean_absolute_error(confusion) -> np.ndarray:
    """MAE_mu = (sum_ij |i - j| c_ij) / N. N = 0: NaN."""
    c = _as_confusion(confusion)
    total = c.sum(axis=(-2, -1))
    observed = np.einsum("...ij,ij->...", c, class_distance(c.shape[-1]))
    return _empty_is_nan(_divide(observed, total, 0.0), total)


# --------------------------------------------------------------------------- conventions


def convention_masks(confusion) -> list[tuple[str, str, float | None, np.ndarray]]:
    """Where each 0/0 convention was used: ``(measure, case, value used or None, mask of shape (...))``.

    For confusion (..., K, K), every mask has shape (...). The cases (non-empty topics only):
    kappa, alpha_ORD, alpha_INT: all labels in one class, expected disagreement 0 -> 1.0;
    HMPR, F1_M: a gold class the run never predicts, Prec_j = 0/0 -> 0.0 (never changes F1_M);
    F1_M: a gold class with Prec_j = Rec_j = 0 (c_jj = 0), f1 = 0/0 -> 0.0;
    HMPR: mean precision = mean recall = 0 (no item right), f1 = 0/0 -> 0.0.
    Last, for every measure, the empty topics (N = 0), scored NaN (value None).
    """
    c = _as_confusion(confusion)
    system, gold, total = _margins(c)
    nonempty = total > 0
    present = gold > 0
    one_class = "expected disagreement 0: every gold and system label in one class"
    masks: list[tuple[str, str, float | None, np.ndarray]] = []
    for name, metric in (("alpha_ORD", _ordinal_metric), ("alpha_INT", _interval_metric)):
        _, expected, _ = _alpha_parts(c, metric)
        masks.append((name, one_class, 1.0, nonempty & (expected == 0)))
    unpredicted = nonempty & (present & (system == 0)).any(axis=-1)
    unpredicted_case = "precision 0/0: a gold class the run never predicts (c_j. = 0), Prec_j = 0"
    precision, recall, _ = _precision_recall(c)
    mean_sum = _mean_over_gold_classes(precision, gold) + _mean_over_gold_classes(recall, gold)
    masks.append(("HMPR", unpredicted_case, 0.0, unpredicted))
    masks.append(("HMPR", "f1 0/0: mean precision = mean recall = 0 (no item right)", 0.0, nonempty & (mean_sum == 0)))
    masks.append(("F1_M", unpredicted_case, 0.0, unpredicted))
    per_class_zero = present & (precision + recall == 0)
    masks.append(
        ("F1_M", "f1 0/0: Prec_j = Rec_j = 0 for a gold class (c_jj = 0)", 0.0, nonempty & per_class_zero.any(axis=-1))
    )
    _, expected, _ = _kappa_parts(c)
    masks.append(("kappa", one_class, 1.0, nonempty & (expected == 0)))
    for name in REGISTRY:
        masks.append((name, "empty topic (N = 0): no score, NaN", None, ~nonempty))
    return masks
