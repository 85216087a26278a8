"""The candidate memory models: each turns a card's trace into a memory strength after each
review, and a strength and an elapsed time into a chance of recall.

* `FsrsModel` - FSRS-6 with some parameters (the defaults, or the person's own fitted ones):
  strength is stability S in days, recall a power curve (1 + f t/S)^-decay.
* `HlrModel` - half-life regression (Settles and Meeder, Duolingo; also in the srs-benchmark):
  strength is a half-life h = 2^(theta . x) with x = (1, sqrt(1 + recalled), sqrt(1 + forgotten))
  counted over the card's reviews so far (recalls only when spaced: `counts`), recall the
  exponential 2^(-t/h). Its tail falls much faster than FSRS's power curve, which is why it is
  worth having beside FSRS: the two disagree most about a person who forgets fast, and the
  person's own log decides between them.

Every model takes a time scale `kappa` at recall time: t is read as t/kappa, so kappa < 1 is
someone who forgets faster than the model's strength says. grill.memory.fitting learns kappa's
posterior from the log; that is how the uncertainty about the person reaches the forecast.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from grill.memory.events import Trace
from grill.memory.optimizer import DEFAULT_PARAMETERS, replay

__all__ = ["FsrsModel", "HlrModel", "Model", "HLR_PRIOR", "counts", "model_from"]

HLR_PRIOR: tuple[float, float, float] = (-0.5, 1.2, -0.6)
"""HLR's starting weights: a half-life of about 1.5 days after a first look, growing about
2.5-fold over the next two recalls; roughly where FSRS's average learner is."""

_FLOOR = 1e-4
_LN_09 = math.log(0.9)
PIVOT_DAYS = 2.0
"""The stability a slope pivots on: a card of 2 days' stability is read as the model says."""


@dataclass(frozen=True)
class FsrsModel:
    name: str
    parameters: tuple[float, ...] = DEFAULT_PARAMETERS
    curve: str = "power"
    """"power": FSRS-6's own curve; "exp": the same stability read on an exponential curve,
    0.9^(t/S), which agrees with FSRS at t = S and falls much faster after it."""
    slope: float = 0.0
    """How the person's memory time departs from the model's as cards grow stronger: stability
    S is read as S * (S / PIVOT_DAYS) ** slope. Negative: strong cards hold less well than the
    model's growth says (fitted from the log by grill.memory.fitting)."""

    @property
    def decay(self) -> float:
        return self.parameters[20]

    def strengths(self, traces: Sequence[Trace]) -> list[list[float]]:
        return [[s for s, _ in states] for states in replay(self.parameters, traces)]

    def _stability(self, floored: Any) -> Any:
        """The stability the curve reads, from a strength floored at 1e-3 (a float or an array)."""
        return floored if self.slope == 0.0 else floored * (floored / PIVOT_DAYS) ** self.slope

    def recall(self, strength: float, elapsed: float, kappa: float = 1.0) -> float:
        scaled = elapsed / (kappa * self._stability(max(strength, 1e-3)))
        if self.curve == "exp":
            return float(0.9**scaled)
        factor = 0.9 ** (-1 / self.decay) - 1
        return float((1 + factor * scaled) ** -self.decay)

    def recall_array(self, strength: Any, elapsed: Any, kappa: Any) -> Any:
        """`recall` over numpy arrays (broadcast)."""
        import numpy as np

        scaled = elapsed / (kappa * self._stability(np.maximum(strength, 1e-3)))
        if self.curve == "exp":
            return np.exp(scaled * _LN_09)
        factor = 0.9 ** (-1 / self.decay) - 1
        return (1 + factor * scaled) ** -self.decay

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": "fsrs",
            "name": self.name,
            "parameters": list(self.parameters),
            "curve": self.curve,
            "slope": self.slope,
        }


@dataclass(frozen=True)
class HlrModel:
    name: str
    theta: tuple[float, float, float] = HLR_PRIOR

    def half_life(self, recalled: int, forgotten: int) -> float:
        a, b, c = self.theta
        x = a + b * math.sqrt(1 + recalled) + c * math.sqrt(1 + forgotten)
        return float(2.0 ** min(12.0, max(-12.0, x)))

    def strengths(self, traces: Sequence[Trace]) -> list[list[float]]:
        return [[self.half_life(r, w) for r, w in counts(trace)] for trace in traces]

    def recall(self, strength: float, elapsed: float, kappa: float = 1.0) -> float:
        return float(2.0 ** (-elapsed / (kappa * strength)))

    def recall_array(self, strength: Any, elapsed: Any, kappa: Any) -> Any:
        """`recall` over numpy arrays (broadcast)."""
        import numpy as np

        return np.exp2(-elapsed / (kappa * strength))

    def to_dict(self) -> dict[str, object]:
        return {"kind": "hlr", "name": self.name, "theta": list(self.theta)}


def counts(trace: Trace) -> list[tuple[int, int]]:
    """After each review, HLR's (recalled, forgotten) counts. A recall counts only when it was
    spaced (asked on a later study day than the review before, or the first look): a re-ask
    minutes after seeing the answer shows the answer was just read, not that it was kept, and
    counting it made a card relearned three times in one evening look as strong as one recalled
    on three separate days. Every lapse counts."""
    right = wrong = 0
    out = []
    for i, g in enumerate(trace.ratings):
        if g <= 1:
            wrong += 1
        elif i == 0 or trace.days[i] > trace.days[i - 1]:
            right += 1
        out.append((right, wrong))
    return out


Model = FsrsModel | HlrModel
"""A candidate: `strengths(traces)` per review, `recall(strength, elapsed, kappa)`."""


def model_from(data: dict[str, object]) -> Model:
    """A model from its `to_dict`; ValueError when the data is not a model grill knows."""
    kind, name = data.get("kind"), str(data.get("name", ""))
    if kind == "fsrs":
        params = tuple(float(w) for w in data["parameters"])  # type: ignore[attr-defined]
        if len(params) != len(DEFAULT_PARAMETERS):
            raise ValueError(f"{len(params)} FSRS parameters (FSRS-6 has 21)")
        if not all(math.isfinite(w) for w in params):
            raise ValueError("FSRS parameters that are not numbers")
        curve = str(data.get("curve", "power"))
        if curve not in ("power", "exp"):
            raise ValueError(f"unknown forgetting curve {curve!r}")
        slope = float(data.get("slope", 0.0))  # type: ignore[arg-type]
        if not math.isfinite(slope) or abs(slope) > 1:
            raise ValueError(f"a stability slope of {slope} (at most 1 either way)")
        return FsrsModel(name, params, curve, slope)
    if kind == "hlr":
        theta = tuple(float(w) for w in data["theta"])  # type: ignore[attr-defined]
        if len(theta) != 3 or not all(math.isfinite(w) for w in theta):
            raise ValueError("half-life weights that are not three numbers")
        return HlrModel(name, (theta[0], theta[1], theta[2]))
    raise ValueError(f"unknown memory model {kind!r}")


def clip(p: float) -> float:
    return min(1 - _FLOOR, max(_FLOOR, p))
