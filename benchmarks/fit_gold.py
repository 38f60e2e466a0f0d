"""The gold settings of the SemEval simulators from real per-topic class counts, for ``fit_simulators.py``:
the logistic topic model (:func:`ordeval.tasks.topic_model.logistic_topic_proportions`) by maximum likelihood,
and the fitted gold simulated again beside the real one (docs/methods.md, section 6)."""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from ordeval.stats.seeding import stream
from ordeval.tasks import topic_model
from ordeval.tasks.quantification import simulate as oq_simulate


def fit_gold(counts: np.ndarray) -> dict:
    """Settings of the tweet gold simulators from real per-topic class counts (topics x K): the logistic topic
    model (:func:`ordeval.tasks.topic_model.logistic_topic_proportions`) by maximum likelihood of the counts."""
    sizes = counts.sum(axis=1)
    logs = np.log(sizes)
    half_width = np.sqrt(3) * logs.std()  # U(a, b) has sd (b - a) / sqrt(12); kept within the real sizes
    low = max(int(round(np.exp(logs.mean() - half_width))), int(sizes.min()))
    high = min(int(round(np.exp(logs.mean() + half_width))), int(sizes.max()))
    num_classes = counts.shape[1]
    # the topic's location and log scale integrated out on a grid of standard normal values (a topic's
    # likelihood is narrow in its location: a few hundred tweets place it within about 0.1)
    location_z, scale_z = np.linspace(-6, 6, 241), np.linspace(-5, 5, 41)
    grid = np.array(np.meshgrid(location_z, scale_z, indexing="ij")).reshape(2, -1)  # 2 x nodes
    log_weights = -0.5 * (grid**2).sum(axis=0)
    log_weights -= np.log(np.exp(log_weights).sum())

    def unpack(theta: np.ndarray) -> tuple[np.ndarray, float, float]:
        cuts = np.cumsum(np.concatenate([theta[:1], np.exp(theta[1 : num_classes - 1])]))
        return cuts, float(np.exp(theta[-2])), float(np.exp(theta[-1]))

    def negative_log_likelihood(theta: np.ndarray) -> float:
        """- log likelihood of the counts (multinomial given the topic's proportions, the topic's location
        and log scale integrated out). theta: first cut point, log gaps between cut points, log location_sd,
        log scale_sd."""
        cuts, location_sd, scale_sd = unpack(theta)
        probabilities = topic_model.logistic_class_probabilities(cuts, location_sd * grid[0], scale_sd * grid[1])
        per_node = counts @ np.log(np.maximum(probabilities, 1e-300)).T + log_weights  # topics x nodes
        top = per_node.max(axis=1, keepdims=True)
        return -float((top[:, 0] + np.log(np.exp(per_node - top).sum(axis=1))).sum())

    cumulative = np.cumsum(counts.sum(axis=0) / counts.sum())[:-1]
    start_cuts = np.log(cumulative / (1 - cumulative))  # the pooled shares' cut points at location 0, scale 1
    start = np.concatenate([start_cuts[:1], np.log(np.diff(start_cuts)), np.log([1.0, 0.2])])
    # quasi-Newton to the optimum, then a simplex search from there to polish it (starting at other location
    # and scale sds, 0.5 and 1.5 by 0.1 and 0.4, leads to the same optimum at three decimals)
    rough = minimize(negative_log_likelihood, start, method="L-BFGS-B")
    best = minimize(
        negative_log_likelihood, rough.x, method="Nelder-Mead", options={"maxiter": 20000, "xatol": 1e-6, "fatol": 1e-8}
    )
    cuts, location_sd, scale_sd = unpack(best.x)
    empty = (counts == 0).mean(axis=0)
    return {
        "items_min": low,
        "items_max": high,
        "cut_points": [round(float(c), 3) for c in cuts],
        "location_sd": round(location_sd, 3),
        "scale_sd": round(scale_sd, 3),
        "real": {
            "topics": int(len(sizes)),
            "items": int(sizes.sum()),
            "sizes_min": int(sizes.min()),
            "sizes_max": int(sizes.max()),
            "topics_with_an_empty_class": int((counts == 0).any(axis=1).sum()),
            "empty_share_per_class": [round(float(v), 3) for v in empty],
            "sd_per_class": [round(float(v), 4) for v in (counts / sizes[:, None]).std(axis=0)],
        },
    }


def gold_check(gold: dict, num_topics: int, seeds: int) -> dict:
    """The fitted gold simulated ``seeds`` times: per class, the share of topics with no tweet of it and the sd
    of its proportion over the topics (mean over the seeds), to set beside the real gold's."""
    settings = {key: gold[key] for key in ("cut_points", "location_sd", "scale_sd")}
    empty, spread = [], []
    for seed in range(seeds):
        values = oq_simulate.simulate_tweet_gold(
            stream(seed, "check", "gold"),
            topics=num_topics,
            num_classes=len(gold["cut_points"]) + 1,
            tweets_min=gold["items_min"],
            tweets_max=gold["items_max"],
            **settings,
        )
        empty.append((values == 0).mean(axis=0))
        spread.append(values.std(axis=0))
    return {
        "empty_share_per_class": [round(float(v), 3) for v in np.mean(empty, axis=0)],
        "sd_per_class": [round(float(v), 4) for v in np.mean(spread, axis=0)],
    }
