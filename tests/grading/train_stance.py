"""Train the case's stance model (grill.grader.stance) on the tuning sets' case answers.

    PYTHONPATH=tests:src .venv/bin/python tests/grading/train_stance.py [--write] [--cv]

Each red flag whose phrases a case answer says is one example: put forward when the set labels
the answer with that red flag, turned down otherwise. The model is a logistic regression with an
L2 penalty of LAMBDA on every weight but the bias, fitted by Newton's method (deterministic);
features seen fewer than MIN_COUNT times are left out. `--write` stores it in
src/grill/grader/stance.json; `--cv` prints leave-one-set-out errors against the hand-written
rules alone (each set's examples predicted by a model trained on the others).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

from grading.agreement import TUNING, load_rows  # noqa: E402
from grill.deck import load_library  # noqa: E402
from grill.grader import _analyse, _unasked, _view, case_phrases, red_flag_hits  # noqa: E402
from grill.grader.stance import VETO, WEIGHTS, features  # noqa: E402

LAMBDA = 1.0
MIN_COUNT = 2
DIGITS = 4


@dataclass(frozen=True)
class Example:
    set: str
    line: int
    flag: str
    put: bool
    rules: bool
    features: tuple[str, ...]


def examples(names: Sequence[str]) -> list[Example]:
    """Every red flag a case answer of these sets says, with its label and features."""
    library = load_library(user_decks=False)
    case = next(c for d in library.decks for c in d.cases)
    phrases = case_phrases(case)
    out = []
    for name in names:
        for row in load_rows(HERE / f"{name}.jsonl"):
            if row.card != case.id and row.card != "spike":
                continue
            flag_view = _unasked(_view(_analyse(row.answer), phrases))
            for flag, hit, rules in red_flag_hits(case, flag_view):
                if hit is None:
                    continue
                names_ = tuple(features(flag_view, hit, rules, flag.id))
                out.append(
                    Example(name, row.line, flag.id, flag.id in row.red_flags, rules, names_)
                )
    return out


def train(data: Sequence[Example], lam: float = LAMBDA) -> tuple[float, dict[str, float]]:
    """The bias and the weight of each feature seen at least MIN_COUNT times."""
    counts = Counter(f for e in data for f in e.features)
    vocab = sorted(f for f, n in counts.items() if n >= MIN_COUNT)
    index = {f: i for i, f in enumerate(vocab)}
    x = np.zeros((len(data), len(vocab) + 1))
    x[:, -1] = 1.0
    for i, e in enumerate(data):
        for f in e.features:
            if f in index:
                x[i, index[f]] = 1.0
    y = np.array([e.put for e in data], dtype=float)
    penalty = np.full(x.shape[1], lam)
    penalty[-1] = 0.0
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ w)))
        gradient = x.T @ (y - p) - penalty * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        w += step
        if float(np.abs(step).max()) < 1e-8:
            break
    weights = {f: round(float(w[i]), DIGITS) for f, i in index.items()}
    return round(float(w[-1]), DIGITS), {f: v for f, v in weights.items() if v != 0.0}


def predict(model: tuple[float, dict[str, float]], e: Example) -> bool:
    """The grader's decision: the rules keep the idea and the model does not veto it."""
    bias, weights = model
    z = bias + sum(weights.get(f, 0.0) for f in e.features)
    return e.rules and z >= math.log(VETO / (1 - VETO))


def stored(
    model: tuple[float, dict[str, float]], names: Sequence[str], n: int
) -> dict[str, object]:
    bias, weights = model
    return {
        "trained_on": list(names),
        "examples": n,
        "lambda": LAMBDA,
        "min_count": MIN_COUNT,
        "bias": bias,
        "weights": dict(sorted(weights.items())),
    }


def errors(data: Sequence[Example], decide: dict[int, bool]) -> str:
    """Ideas turned down but flagged, and ideas put forward but not flagged."""
    wrongly = sum(1 for i, e in enumerate(data) if decide[i] and not e.put)
    missed = sum(1 for i, e in enumerate(data) if not decide[i] and e.put)
    return f"flagged when turned down {wrongly}, missed when put forward {missed}"


def cross_validate(data: Sequence[Example]) -> None:
    learned: dict[int, bool] = {}
    for name in sorted({e.set for e in data}):
        rest = [e for e in data if e.set != name]
        model = train(rest)
        for i, e in enumerate(data):
            if e.set == name:
                learned[i] = predict(model, e)
    rules = {i: e.rules for i, e in enumerate(data)}
    print(f"{len(data)} red-flag ideas said in {len({(e.set, e.line) for e in data})} answers")
    print(f"  rules alone:       {errors(data, rules)}")
    print(f"  leave-one-set-out: {errors(data, learned)}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="store the model in stance.json")
    parser.add_argument("--cv", action="store_true", help="leave-one-set-out errors")
    args = parser.parse_args(argv)
    data = examples(TUNING)
    if args.cv:
        cross_validate(data)
    model = train(data)
    if args.write:
        text = json.dumps(stored(model, TUNING, len(data)), indent=1, sort_keys=False)
        WEIGHTS.write_text(text + "\n", encoding="utf-8")
        print(f"wrote {WEIGHTS} ({len(model[1])} weights from {len(data)} examples)")
    fitted = {i: predict(model, e) for i, e in enumerate(data)}
    print(f"  trained on all:    {errors(data, fitted)}")
    return 0 if math.isfinite(model[0]) else 1


if __name__ == "__main__":
    sys.exit(main())
