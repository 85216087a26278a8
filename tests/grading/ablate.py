"""What each grader rule earns: turn it off, grade a labelled set, compare with all rules on.

    scripts/ablate [SET.jsonl ...] [--csv FILE] [--only PREFIX]

Rules are the context triggers (grill.grader.context), the swap pairs (`swap:a|b`), the phrase
language's own (grill.grader.match.MATCH_RULES), the derivation's rules
(grill.grader.derive.RULES), the checks against the card's own text (grill.grader.CARD_CHECKS),
the case's red-flag rules (grill.grader.CASE_RULES) and math read as words
(grill.grader.text.NOTATION). Measure on a set the rule was not
written for: the default is the holdout sets on the built-in deck and, for the derivation, fresh2
on the deck made from seed-questions.csv. A rule whose removal changes nothing on any set earns
nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from grill.grader import CARD_CHECKS, CASE_RULES, EXEMPTIONS, swap_ids
from grill.grader.context import TRIGGERS
from grill.grader.derive import RULES
from grill.grader.match import MATCH_RULES
from grill.grader.text import NOTATION

HERE = Path(__file__).parent
DEFAULT_SETS = [HERE / f"{n}.jsonl" for n in ("holdout", "holdout2", "holdout3")]
DEFAULT_CSV_SET = HERE / "fresh2.jsonl"
KEYS = ("correct_vs_not", "exact", "false_not_accepted", "correct_accepted", "case_verdicts")


def _run(files: Sequence[Path], csv: Path | None, without: str) -> list[dict[str, float]]:
    cmd = [sys.executable, str(HERE / "agreement.py"), "--json", *map(str, files)]
    if csv:
        cmd += ["--csv", str(csv)]
    path = os.pathsep.join(p for p in (str(HERE.parent), os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "GRILL_GRADER_WITHOUT": without, "PYTHONPATH": path}
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def _delta(base: list[dict[str, float]], off: list[dict[str, float]]) -> list[float]:
    """Per figure, summed over the sets: what the rule earns (on minus off), in points."""
    return [
        sum(b[k] - o[k] for b, o in zip(base, off, strict=True)) * (1 if k == KEYS[-1] else 100)
        for k in KEYS
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="What each grader rule earns.")
    parser.add_argument("files", nargs="*", type=Path, help="labelled sets (built-in deck)")
    parser.add_argument("--csv", type=Path, help="also grade a set on the deck from this CSV")
    parser.add_argument("--csv-set", type=Path, default=DEFAULT_CSV_SET)
    parser.add_argument("--only", default="", help="rules whose id starts with this")
    args = parser.parse_args(argv)
    files = args.files or DEFAULT_SETS
    csv = args.csv or HERE / "seed-questions.csv"
    rules = [t.id for t in TRIGGERS] + swap_ids() + list(MATCH_RULES) + list(RULES)
    rules += list(CARD_CHECKS) + list(CASE_RULES) + list(EXEMPTIONS) + [NOTATION]
    rules = [r for r in rules if r.startswith(args.only)]

    def measure(without: str) -> list[dict[str, float]]:
        sets = _run(files, None, without)
        if csv.exists() and args.csv_set.exists():
            sets += _run([args.csv_set], csv, without)
        return sets

    base = measure("")
    names = ", ".join(Path(str(s["set"])).name for s in base)
    print(f"on: {names} (csv deck: {csv.name})")
    print(f"{'rule':32} " + " ".join(f"{k[:14]:>14}" for k in KEYS))
    idle = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        for rule, off in zip(rules, pool.map(measure, rules), strict=True):
            earned = _delta(base, off)
            print(f"{rule:32} " + " ".join(f"{d:+14.1f}" for d in earned))
            if not any(abs(d) > 1e-9 for d in earned):
                idle.append(rule)
    print("earns nothing here: " + (", ".join(idle) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
