"""Fitting memory to one person's log, and judging each candidate by how well it predicted it.

The rules, and why:

1. Evidence is the reviews asked on a later study day than the card's review before
   (`Trial.cross_day`): recall after sleep. A re-ask minutes after seeing the answer says
   little about the interview. Mock answers are reviews too, and count.
2. Four candidate models (grill.memory.models): FSRS-6 with the published defaults; FSRS-6
   with parameters fitted to this log by fsrs-rs, shrunk toward the defaults by
   lambda = n / (n + SHRINK_TRIALS) (n cross-day reviews; the first four parameters, initial
   stabilities spanning 0.001-100 days, are shrunk in log space) so 40 reviews move the
   parameters less than a third of the way and a few hundred most of the way; the default
   stability read on an exponential curve, with a slope fitted to the log (`fit_slope`: how
   much better or worse strong cards hold than weak ones, against the model's own growth;
   prior sd SLOPE_PRIOR_SD); and half-life regression with a ridge prior (HLR_PRIOR, sd 1).
3. Each candidate gets a time scale kappa with a log-normal prior (sd KAPPA_PRIOR_SD) and a
   posterior on a grid from the log. The log-likelihood is tempered: divided by the mean
   cross-day reviews per card, since one card's reviews share its difficulty and are not
   independent evidence about the person (each card counts about once). This is what keeps
   three days of study from printing P = 1.00.
4. Candidates are weighted by how well they predicted the person's *later* reviews from the
   earlier ones (a time-series split: fit on reviews before a cut, predict those after, at
   three cuts), tempered the same way (pseudo Bayesian model averaging). With too few reviews to
   split, the weights are equal.
5. The same split says by how much each candidate, fitted on the past, missed the future: its
   predictions of the later reviews were too high or too low. That miss, as a shift in
   log-odds (shrunk toward none by a normal prior, sd RECALIBRATION_SD), corrects every chance
   the candidate forecasts: a person whose memory grows less with each review than the model
   assumes is forecast lower, one whose grows more, higher.

The result, `MemoryFit`, is a mixture over (candidate, kappa); grill.memory.forecast reads it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, cast

import numpy as np

from grill.memory.events import Trace, Trial, trials
from grill.memory.models import HLR_PRIOR, FsrsModel, HlrModel, Model, clip, counts, model_from
from grill.memory.optimizer import DEFAULT_PARAMETERS, fit_parameters

__all__ = [
    "FIT_VERSION",
    "KAPPA_GRID",
    "KAPPA_PRIOR_SD",
    "MIN_TRIALS",
    "SHRINK_TRIALS",
    "SLOPE_GRID",
    "SLOPE_PRIOR_SD",
    "Candidate",
    "Evaluation",
    "MemoryFit",
    "default_fit",
    "fit",
    "fit_slope",
    "recalibrated",
    "recalibration",
    "shrink",
]

FIT_VERSION = 2
"""Bumped when a stored fit can no longer be read by this code (it is then refitted)."""

SHRINK_TRIALS = 100
KAPPA_PRIOR_SD = 1.0
MIN_TRIALS = 10
"""Fewer cross-day reviews than this: too little to fit; the defaults are used."""
RECALIBRATION_SD = 0.5
"""Prior sd of a candidate's recalibration (log-odds): half a unit moves 70% to 79% or 59%."""

KAPPA_GRID = tuple(math.exp(-3.4 + 6.8 * i / 48) for i in range(49))
"""The time scales kappa considered: 1/30 to 30, evenly in log."""
_SPLITS = (0.5, 0.7, 0.85)
MAX_TRIALS = 3000
"""The latest cross-day reviews the time scale, half-life regression and the split use (fsrs-rs
fits on them all): enough to pin each down, and it keeps a refit under a second."""
_FLOOR = 1e-4
_BINS = 5


@dataclass(frozen=True)
class Evaluation:
    """How a candidate predicted the log's later reviews: mean log loss over `n` reviews and
    calibration bins (mean predicted, observed recall, reviews in the bin)."""

    n: int
    log_loss: float
    bins: tuple[tuple[float, float, int], ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "n": self.n,
            "log_loss": round(self.log_loss, 4),
            "bins": [
                {"predicted": round(p, 4), "observed": round(o, 4), "n": k} for p, o, k in self.bins
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Evaluation:
        bins = cast(list[dict[str, Any]], data.get("bins") or [])
        return cls(
            n=int(data["n"]),  # type: ignore[call-overload]
            log_loss=float(data["log_loss"]),  # type: ignore[arg-type]
            bins=tuple((float(b["predicted"]), float(b["observed"]), int(b["n"])) for b in bins),
        )


@dataclass(frozen=True)
class Candidate:
    """One model in the mixture: its weight and the tempered log-likelihood of its time scale
    kappa at each point of the grid (`KAPPA_GRID`), from which kappa's posterior is made."""

    model: Model
    weight: float
    loglik: tuple[float, ...]
    evaluation: Evaluation | None = None
    shift: float = 0.0
    """The log-odds by which this model, fitted on the earlier reviews, missed the later ones
    (`recalibration`); added to every chance it forecasts."""

    def recall(self, strength: float, elapsed: float, kappa: float) -> float:
        """The model's chance of recall, recalibrated by `shift`."""
        return recalibrated(self.model.recall(strength, elapsed, kappa), self.shift)

    def posterior(self) -> tuple[tuple[float, float], ...]:
        """(kappa, weight) pairs; points under 1e-6 are dropped."""
        return _normalised(self.loglik)

    @property
    def kappas(self) -> tuple[tuple[float, float], ...]:
        return self.posterior()

    @property
    def kappa(self) -> float:
        """The posterior mean of log kappa, as a factor."""
        return math.exp(sum(w * math.log(k) for k, w in self.kappas))

    def to_dict(self) -> dict[str, object]:
        return {
            "model": self.model.to_dict(),
            "weight": round(self.weight, 6),
            "loglik": [round(x, 4) for x in self.loglik],
            "evaluation": None if self.evaluation is None else self.evaluation.to_dict(),
            "shift": self.shift,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Candidate:
        ev = data.get("evaluation")
        return cls(
            model=model_from(data["model"]),  # type: ignore[arg-type]
            weight=float(data["weight"]),  # type: ignore[arg-type]
            loglik=_grid_values(data["loglik"]),
            evaluation=None if ev is None else Evaluation.from_dict(ev),  # type: ignore[arg-type]
            shift=float(data.get("shift", 0.0)),  # type: ignore[arg-type]
        )


@dataclass(frozen=True)
class MemoryFit:
    """What was learned about one person's memory, and from how much."""

    fitted_at: datetime | None
    reviews: int
    trials: int
    cards: int
    candidates: tuple[Candidate, ...]
    reference: Evaluation | None = None
    """How FSRS's average learner (defaults, kappa 1) predicted the same later reviews."""
    version: int = FIT_VERSION
    notes: tuple[str, ...] = field(default=())
    speed: float = 1.0
    """How fast this person forgets against FSRS's average learner, at their own review gaps:
    the forgetting the fitted mixture predicts over the forgetting the average learner predicts
    (1 = average, 2 = forgets twice as often)."""
    reach: float = 1.0
    """Days: the longest gaps the log has seen (90th percentile of the cross-day gaps). A
    forecast further out than this weakens the split's verdict between the candidates in
    proportion (forecast.py)."""

    @property
    def fitted(self) -> bool:
        return self.fitted_at is not None and self.trials >= MIN_TRIALS

    @property
    def personal(self) -> FsrsModel:
        """The FSRS parameters the scheduler uses: the fitted ones once there are any."""
        for c in self.candidates:
            if isinstance(c.model, FsrsModel) and c.model.name == "personal":
                return c.model
        return FsrsModel("default")

    def to_dict(self) -> dict[str, object]:
        return {
            "version": self.version,
            "fitted_at": None if self.fitted_at is None else self.fitted_at.isoformat(),
            "reviews": self.reviews,
            "trials": self.trials,
            "cards": self.cards,
            "candidates": [c.to_dict() for c in self.candidates],
            "reference": None if self.reference is None else self.reference.to_dict(),
            "notes": list(self.notes),
            "speed": round(self.speed, 4),
            "reach": round(self.reach, 4),
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> MemoryFit:
        """A stored fit; ValueError when it is of another version or does not make sense."""
        if data.get("version") != FIT_VERSION:
            raise ValueError(f"a memory fit of version {data.get('version')}, not {FIT_VERSION}")
        at = data.get("fitted_at")
        ref = data.get("reference")
        fit_ = cls(
            fitted_at=None if at is None else datetime.fromisoformat(str(at)),
            reviews=int(data["reviews"]),  # type: ignore[call-overload]
            trials=int(data["trials"]),  # type: ignore[call-overload]
            cards=int(data["cards"]),  # type: ignore[call-overload]
            candidates=tuple(Candidate.from_dict(c) for c in data["candidates"]),  # type: ignore[attr-defined]
            reference=None if ref is None else Evaluation.from_dict(ref),  # type: ignore[arg-type]
            notes=tuple(str(n) for n in data.get("notes") or ()),  # type: ignore[attr-defined]
            speed=float(data.get("speed", 1.0)),  # type: ignore[arg-type]
            reach=float(data.get("reach", 1.0)),  # type: ignore[arg-type]
        )
        total = sum(c.weight for c in fit_.candidates)
        if not fit_.candidates or not math.isfinite(total) or abs(total - 1) > 1e-3:
            raise ValueError("a memory fit whose weights do not add up to 1")
        return fit_


def default_fit() -> MemoryFit:
    """Before any evidence: FSRS's average learner, with the prior's uncertainty about kappa."""
    flat = tuple(0.0 for _ in KAPPA_GRID)
    return MemoryFit(None, 0, 0, 0, (Candidate(FsrsModel("default"), 1.0, flat),))


def shrink(fitted: Sequence[float], n: int) -> tuple[float, ...]:
    """Fitted parameters pulled toward the defaults by lambda = n / (n + SHRINK_TRIALS)."""
    lam = n / (n + SHRINK_TRIALS)
    out = []
    for i, (w, d) in enumerate(zip(fitted, DEFAULT_PARAMETERS, strict=True)):
        if i < 4:
            out.append(math.exp(math.log(d) + lam * (math.log(max(w, 1e-3)) - math.log(d))))
        else:
            out.append(d + lam * (w - d))
    return tuple(out)


# ---------------------------------------------------------------- fitting


def fit(
    all_traces: Sequence[Trace],
    now: datetime,
    *,
    progress: Callable[[str], None] | None = None,
) -> MemoryFit:
    """Fit the candidates to these traces and weigh them by their time-series predictions."""
    try:
        return _fit(all_traces, now, progress or (lambda _: None))
    finally:
        _REPLAYS.clear()
        _TRIALS.clear()


def _fit(all_traces: Sequence[Trace], now: datetime, say: Callable[[str], None]) -> MemoryFit:
    evidence = [t for t in _trials(all_traces) if t.cross_day]
    reviews = sum(len(t) for t in all_traces)
    if len(evidence) < MIN_TRIALS:
        base = default_fit()
        note = f"{len(evidence)} reviews on a later day than the one before; {MIN_TRIALS} needed"
        return MemoryFit(
            now, reviews, len(evidence), len(all_traces), base.candidates, notes=(note,)
        )
    tau = _temper(evidence, all_traces)
    say("fitting FSRS to your reviews")
    models = _fit_models(all_traces, len(evidence))
    say("checking each model against your later reviews")
    scores, evals, ref, shifts = _split_scores(all_traces, evidence, tau)
    logw = [scores.get(m.name, 0.0) for m in models]
    top = max(logw)
    raw = [math.exp(x - top) for x in logw]
    weights = [r / sum(raw) for r in raw]
    candidates = tuple(
        Candidate(
            m,
            w,
            _loglik_grid(all_traces, evidence, m, tau),
            evals.get(m.name),
            shifts.get(m.name, 0.0),
        )
        for m, w in zip(models, weights, strict=True)
    )
    speed = _speed(all_traces, evidence, candidates)
    gaps = sorted(t.elapsed for t in evidence)
    reach = gaps[int(0.9 * (len(gaps) - 1))]
    return MemoryFit(
        now,
        reviews,
        len(evidence),
        len(all_traces),
        candidates,
        ref,
        speed=speed,
        reach=reach,
    )


def _speed(
    all_traces: Sequence[Trace], evidence: Sequence[Trial], candidates: Sequence[Candidate]
) -> float:
    """Forgetting predicted by the mixture over forgetting predicted by the average learner,
    summed over the log's own cross-day reviews."""
    evidence = evidence[-MAX_TRIALS:]
    mixed = sum(c.weight * _predictive(c.model, all_traces, evidence, c.kappas) for c in candidates)
    avg = _predictive(FsrsModel("default"), all_traces, evidence, ((1.0, 1.0),))
    return float(np.sum(1 - mixed) / max(1e-9, float(np.sum(1 - avg))))


def _temper(evidence: Sequence[Trial], all_traces: Sequence[Trace]) -> float:
    per_card = len(evidence) / max(1, len({t.trace.key for t in evidence}))
    return max(1.0, per_card)


def _fit_models(all_traces: Sequence[Trace], n: int) -> list[Model]:
    fitted = fit_parameters(all_traces)
    personal = FsrsModel("personal", shrink(fitted, n) if fitted else DEFAULT_PARAMETERS)
    models: list[Model] = [
        FsrsModel("default"),
        personal,
        fit_slope(FsrsModel("steep", curve="exp"), all_traces),
        _fit_hlr(all_traces),
    ]
    return models


SLOPE_GRID = tuple(-0.6 + 0.1 * i for i in range(13))
"""The stability slopes considered (grill.memory.models.FsrsModel.slope)."""
SLOPE_PRIOR_SD = 0.25
"""Prior sd of a slope: 0.25 reads a 10-day card as 1.5x (or 0.67x) as strong as the model says."""


def fit_slope(model: FsrsModel, all_traces: Sequence[Trace]) -> FsrsModel:
    """`model` with the stability slope that best explains the log's cross-day reviews, kappa
    integrated out (maximum a posteriori, normal prior of sd SLOPE_PRIOR_SD, the evidence
    tempered as kappa's)."""
    evidence = [t for t in _trials(all_traces) if t.cross_day][-MAX_TRIALS:]
    if len(evidence) < MIN_TRIALS:
        return model
    tau = _temper(evidence, all_traces)
    base = replace(model, slope=0.0)
    strength = _before(base, all_traces, evidence)
    elapsed, recalled = _columns(evidence)
    kappas = np.array(KAPPA_GRID)
    prior = -(np.log(kappas) ** 2) / (2 * KAPPA_PRIOR_SD**2)
    best, chosen = -math.inf, 0.0
    for b in SLOPE_GRID:
        p = _recall_grid(replace(base, slope=b), strength, elapsed, kappas)
        ll = np.where(recalled[None, :], np.log(p), np.log1p(-p)).sum(axis=1) / tau + prior
        top = float(ll.max())
        value = top + math.log(float(np.exp(ll - top).sum())) - b**2 / (2 * SLOPE_PRIOR_SD**2)
        if value > best:
            best, chosen = value, b
    return replace(base, slope=round(chosen, 6))


def _fit_hlr(all_traces: Sequence[Trace]) -> HlrModel:
    """Ridge-penalised maximum likelihood for HLR's three weights (gradient ascent with a
    step that grows while it helps and halves when it does not)."""
    x, t, y = _hlr_rows(all_traces)
    theta = np.array(HLR_PRIOR)
    step = 0.05
    best = _hlr_objective(theta, x, t, y)
    for _ in range(200):
        trial = theta + step * _hlr_gradient(theta, x, t, y)
        value = _hlr_objective(trial, x, t, y)
        if value > best:
            theta, best, step = trial, value, step * 1.2
        else:
            step *= 0.5
            if step < 1e-6:
                break
    return HlrModel("hlr", (float(theta[0]), float(theta[1]), float(theta[2])))


def _hlr_rows(all_traces: Sequence[Trace]) -> tuple[Any, Any, Any]:
    """Features (1, sqrt(1 + recalled), sqrt(1 + forgotten)) as `counts` tallies them, elapsed
    days and outcome of each cross-day review; at most the latest MAX_TRIALS."""
    rows = []
    tallies: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for t in _trials(all_traces)[-4 * MAX_TRIALS :]:
        if not t.cross_day:
            continue
        if t.trace.key not in tallies:
            tallies[t.trace.key] = counts(t.trace)
        right, wrong = tallies[t.trace.key][t.index - 1]
        rows.append((right, wrong, t.elapsed, t.recalled))
    data = np.array(rows[-MAX_TRIALS:], dtype=float).reshape(-1, 4)
    x = np.column_stack([np.ones(len(data)), np.sqrt(1 + data[:, 0]), np.sqrt(1 + data[:, 1])])
    return x, data[:, 2], data[:, 3] > 0.5


def _hlr_p(theta: Any, x: Any, t: Any) -> tuple[Any, Any]:
    h = np.exp2(np.clip(x @ theta, -12.0, 12.0))
    a = t / h
    return np.clip(np.exp2(-a), _FLOOR, 1 - _FLOOR), a


def _hlr_objective(theta: Any, x: Any, t: Any, y: Any) -> float:
    p, _ = _hlr_p(theta, x, t)
    prior = float(np.sum((theta - np.array(HLR_PRIOR)) ** 2)) / 2
    return float(np.sum(np.where(y, np.log(p), np.log1p(-p)))) - prior


def _hlr_gradient(theta: Any, x: Any, t: Any, y: Any) -> Any:
    p, a = _hlr_p(theta, x, t)
    d = np.where(y, 1.0, -p / (1 - p)) * a * math.log(2) ** 2
    return x.T @ d - (theta - np.array(HLR_PRIOR))


# ---------------------------------------------------------------- kappa's posterior


_REPLAYS: dict[tuple[object, int], tuple[object, dict[tuple[str, str], list[float]]]] = {}
"""Strengths replayed during one `fit`, by (model, id of the traces), with the traces kept
alive so that no other list takes their id: a fit asks for the same replay many times (kappa,
the split, the speed). Emptied when the fit ends."""


_TRIALS: dict[int, tuple[object, list[Trial]]] = {}


def _trials(all_traces: Sequence[Trace]) -> list[Trial]:
    """`trials`, remembered for the length of one fit (as `_REPLAYS`)."""
    if id(all_traces) not in _TRIALS:
        _TRIALS[id(all_traces)] = (all_traces, trials(all_traces))
    return _TRIALS[id(all_traces)][1]


def _before(model: Model, all_traces: Sequence[Trace], evidence: Sequence[Trial]) -> Any:
    """The model's memory strength just before each trial."""
    # an FSRS model's strengths depend on its parameters only (not its curve or slope)
    key = (model.parameters if isinstance(model, FsrsModel) else model, id(all_traces))
    if key not in _REPLAYS:
        keys = (t.key for t in all_traces)
        _REPLAYS[key] = (all_traces, dict(zip(keys, model.strengths(all_traces), strict=True)))
    strengths = _REPLAYS[key][1]
    return np.array([strengths[t.trace.key][t.index - 1] for t in evidence], dtype=float)


def _recall_grid(model: Model, s: Any, elapsed: Any, kappas: Any) -> Any:
    """Recall of each trial (columns) under each kappa (rows), clipped away from 0 and 1."""
    return np.clip(
        model.recall_array(s[None, :], elapsed[None, :], kappas[:, None]), _FLOOR, 1 - _FLOOR
    )


def _columns(evidence: Sequence[Trial]) -> tuple[Any, Any]:
    elapsed = np.array([t.elapsed for t in evidence], dtype=float)
    recalled = np.array([t.recalled for t in evidence], dtype=bool)
    return elapsed, recalled


def _grid_values(values: object) -> tuple[float, ...]:
    out = tuple(float(v) for v in values)  # type: ignore[attr-defined]
    if len(out) != len(KAPPA_GRID) or not all(math.isfinite(v) for v in out):
        raise ValueError("a stored time-scale likelihood that is not one number per grid point")
    return out


def _loglik_grid(
    all_traces: Sequence[Trace], evidence: Sequence[Trial], model: Model, tau: float
) -> tuple[float, ...]:
    """The tempered log-likelihood of each kappa of the grid (the latest MAX_TRIALS)."""
    evidence = evidence[-MAX_TRIALS:]
    if not evidence:
        return tuple(0.0 for _ in KAPPA_GRID)
    elapsed, recalled = _columns(evidence)
    p = _recall_grid(model, _before(model, all_traces, evidence), elapsed, np.array(KAPPA_GRID))
    ll = np.where(recalled[None, :], np.log(p), np.log1p(-p)).sum(axis=1)
    return tuple(float(x) / tau for x in ll)


def _posterior(
    all_traces: Sequence[Trace], evidence: Sequence[Trial], model: Model, tau: float
) -> tuple[tuple[float, float], ...]:
    return _normalised(_loglik_grid(all_traces, evidence, model, tau))


def _normalised(loglik: Sequence[float]) -> tuple[tuple[float, float], ...]:
    """kappa's posterior on the grid: the prior times the (tempered) likelihood."""
    logp = [
        x - math.log(k) ** 2 / (2 * KAPPA_PRIOR_SD**2)
        for x, k in zip(loglik, KAPPA_GRID, strict=True)
    ]
    top = max(logp)
    raw = [math.exp(x - top) for x in logp]
    total = sum(raw)
    kept = [(k, r / total) for k, r in zip(KAPPA_GRID, raw, strict=True) if r / total >= 1e-6]
    norm = sum(w for _, w in kept)
    return tuple((k, w / norm) for k, w in kept)


def _predictive(
    model: Model,
    all_traces: Sequence[Trace],
    evidence: Sequence[Trial],
    kappas: Sequence[tuple[float, float]],
) -> Any:
    """Each trial's recall averaged over kappa's posterior."""
    elapsed, _ = _columns(evidence)
    grid = np.array([k for k, _ in kappas])
    weights = np.array([w for _, w in kappas])
    return weights @ _recall_grid(model, _before(model, all_traces, evidence), elapsed, grid)


# ---------------------------------------------------------------- time-series split


def _split_scores(
    all_traces: Sequence[Trace], evidence: Sequence[Trial], tau: float
) -> tuple[dict[str, float], dict[str, Evaluation], Evaluation | None, dict[str, float]]:
    """Each candidate's tempered log-likelihood of the reviews after each cut, fitted on the
    reviews before it; with the calibration of those predictions, and the recalibration that
    would have corrected them."""
    cuts = [evidence[int(f * len(evidence))].at for f in _SPLITS]
    preds: dict[str, list[tuple[float, bool]]] = {}
    window = MAX_TRIALS // len(cuts)
    for i, cut in enumerate(cuts):
        end = cuts[i + 1] if i + 1 < len(cuts) else None
        train = [t.upto(sum(1 for a in t.at if a < cut)) for t in all_traces]
        train = [t for t in train if len(t)]
        test = [t for t in evidence if t.at >= cut and (end is None or t.at < end)][:window]
        seen = [t for t in _trials(train) if t.cross_day]
        if len(seen) < MIN_TRIALS or not test:
            continue
        outcomes = [t.recalled for t in test]
        judged: list[tuple[str, Model, tuple[tuple[float, float], ...]]] = [
            (m.name, m, _posterior(train, seen, m, tau)) for m in _fit_models(train, len(seen))
        ]
        judged.append(("average", FsrsModel("default"), ((1.0, 1.0),)))
        for name, model, kappas in judged:
            p = _predictive(model, all_traces, test, kappas)
            preds.setdefault(name, []).extend(
                zip((clip(float(x)) for x in p), outcomes, strict=True)
            )
    scores = {
        name: sum(math.log(p if y else 1 - p) for p, y in rows) / tau
        for name, rows in preds.items()
    }
    evals = {name: _evaluation(rows) for name, rows in preds.items()}
    shifts = {name: recalibration(rows, tau) for name, rows in preds.items()}
    return scores, evals, evals.get("average"), shifts


def recalibration(rows: Sequence[tuple[float, bool]], tau: float) -> float:
    """The log-odds shift d that best turns a candidate's split predictions into what happened
    (logit p' = logit p + d): maximum a posteriori under a normal prior of sd RECALIBRATION_SD,
    the evidence tempered by tau as everywhere else; Newton steps."""
    p = np.array([r[0] for r in rows], dtype=float)
    y = np.array([r[1] for r in rows], dtype=float)
    logit = np.log(p / (1 - p))
    d = 0.0
    for _ in range(20):
        q = 1 / (1 + np.exp(-(logit + d)))
        slope = float(np.sum(y - q)) / tau - d / RECALIBRATION_SD**2
        curve = float(np.sum(q * (1 - q))) / tau + 1 / RECALIBRATION_SD**2
        d += slope / curve
        if abs(slope / curve) < 1e-9:
            break
    return d


def recalibrated(p: float, shift: float) -> float:
    """`p` moved by `shift` in log-odds (0 and 1 stay where they are)."""
    if shift == 0.0 or p <= 0.0 or p >= 1.0:
        return p
    z = math.log(p) - math.log1p(-p) + shift
    # the logistic in the form that cannot overflow: a chance of 1e-300 has a logit near -690
    return 1 / (1 + math.exp(-z)) if z >= 0 else math.exp(z) / (1 + math.exp(z))


def _evaluation(rows: Sequence[tuple[float, bool]]) -> Evaluation:
    n = len(rows)
    loss = -sum(math.log(p if y else 1 - p) for p, y in rows) / n
    bins = []
    for b in range(_BINS):
        lo, hi = b / _BINS, (b + 1) / _BINS
        inside = [(p, y) for p, y in rows if lo <= p < hi or (b == _BINS - 1 and p == 1)]
        if inside:
            k = len(inside)
            bins.append((sum(p for p, _ in inside) / k, sum(y for _, y in inside) / k, k))
    return Evaluation(n, loss, tuple(bins))
