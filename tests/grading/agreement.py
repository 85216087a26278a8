"""Agreement between the grader and a labelled answer set (tests/grading/README.md has the format).

Usable from tests and by hand:

    .venv/bin/python tests/grading/agreement.py tests/grading/dev.jsonl [--deck PATH ...] [-v]
    .venv/bin/python tests/grading/agreement.py tests/grading/fresh1.jsonl \
        --csv tests/grading/seed-questions.csv

prints the report and exits 1 when a floor of issue 4 is missed (90% correct-vs-not agreement,
90% of trap answers rejected). `-v` also lists every disagreement with its answer text.
`--csv` grades against the deck `grill decks new --from-csv` makes from that CSV instead of the
built-in deck: each row's card is found by its number (the CSV's row order), case rows are left out.
`--pin` writes the tuning sets' current verdicts to pinned.json, the regression test's reference,
on the built-in deck and on the deck made from seed-questions.csv.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from grill.deck import dump_deck, load_library, parse_deck
from grill.export.csv_deck import deck_data, read_csv
from grill.grader import grade_ref
from grill.model import Library

__all__ = [
    "FLOOR_BINARY",
    "FLOOR_TRAPS",
    "PINNED",
    "TUNING",
    "Report",
    "Row",
    "csv_library",
    "evaluate",
    "load_rows",
    "main",
    "pin",
    "verdict_letters",
]

FLOOR_BINARY = 0.90
FLOOR_TRAPS = 0.90


@dataclass(frozen=True)
class Row:
    line: int
    card: str
    answer: str
    label: str
    kind: str
    parts: tuple[str, ...] = ()
    red_flags: tuple[str, ...] = ()


CASE_FLAGS = frozenset(
    {"restart_from_scratch", "blame_bitflips", "only_lower_lr", "increase_batch_size"}
)


@dataclass(frozen=True)
class Outcome:
    row: Row
    verdict: str
    flags: tuple[str, ...]
    matched: tuple[str, ...]


@dataclass
class Report:
    """Counts over one labelled set; the shares are properties so they stay consistent."""

    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.outcomes)

    def _share(self, rows: Iterable[Outcome], ok: str) -> float:
        chosen = list(rows)
        if not chosen:
            return 1.0
        return sum(_ok(o, ok) for o in chosen) / len(chosen)

    @property
    def binary(self) -> float:
        """Agreement on correct-vs-not."""
        return self._share(self.outcomes, "binary")

    @property
    def three_way(self) -> float:
        return self._share(self.outcomes, "exact")

    @property
    def traps_rejected(self) -> float:
        """Share of `trap` answers graded wrong."""
        return self._share((o for o in self.outcomes if o.row.kind == "trap"), "wrong")

    @property
    def traps_not_accepted(self) -> float:
        return self._share((o for o in self.outcomes if o.row.kind == "trap"), "not-correct")

    @property
    def correct_accepted(self) -> float:
        """Share of answers labelled correct that the grader accepts."""
        return self._share((o for o in self.outcomes if o.row.label == "correct"), "correct")

    def case_line(self) -> str | None:
        """Case answers: verdicts, red flags and covered parts that agree with the labels."""
        case = [o for o in self.outcomes if o.row.card == "spike"]
        if not case:
            return None
        verdicts = sum(o.verdict == o.row.label for o in case)
        flags = sum(sorted(set(o.flags) & CASE_FLAGS) == sorted(o.row.red_flags) for o in case)
        parts = sum(sorted(o.matched) == sorted(o.row.parts) for o in case)
        n = len(case)
        return f"  case: verdicts {verdicts}/{n}, red flags {flags}/{n}, parts {parts}/{n}"

    def figures(self) -> dict[str, float]:
        """The headline shares, for scripts (`--json`, scripts/ablate)."""
        case = [o for o in self.outcomes if o.row.card == "spike"]
        return {
            "answers": self.total,
            "correct_vs_not": self.binary,
            "exact": self.three_way,
            "false_not_accepted": self.traps_not_accepted,
            "correct_accepted": self.correct_accepted,
            "case_verdicts": sum(o.verdict == o.row.label for o in case),
        }

    def disagreements(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.verdict != o.row.label]

    def passes(self) -> bool:
        return self.binary >= FLOOR_BINARY and self.traps_rejected >= FLOOR_TRAPS

    def format(self, name: str, verbose: bool = False, per_card: bool = True) -> str:
        traps = sum(o.row.kind == "trap" for o in self.outcomes)
        correct = sum(o.row.label == "correct" for o in self.outcomes)
        lines = [
            f"{name}: {self.total} answers",
            f"  correct-vs-not agreement  {self.binary:6.1%}  (floor {FLOOR_BINARY:.0%})",
            f"  three-way agreement       {self.three_way:6.1%}",
            f"  traps rejected (wrong)    {self.traps_rejected:6.1%}  of {traps}"
            f"  (floor {FLOOR_TRAPS:.0%}; not accepted: {self.traps_not_accepted:.1%})",
            f"  correct answers accepted  {self.correct_accepted:6.1%}  of {correct}",
        ]
        if case := self.case_line():
            lines.append(case)
        confusion = Counter((o.row.label, o.verdict) for o in self.outcomes)
        lines.append(
            "  label -> verdict: "
            + ", ".join(f"{a}->{b} {n}" for (a, b), n in sorted(confusion.items()) if a != b)
        )
        if not per_card:
            return "\n".join(lines)
        by_card: dict[str, list[Outcome]] = defaultdict(list)
        for o in self.disagreements():
            by_card[o.row.card].append(o)
        if by_card:
            lines.append("  disagreements per card:")
            for card, outs in sorted(by_card.items(), key=lambda kv: (-len(kv[1]), kv[0])):
                kinds = ", ".join(f"{o.row.kind} {o.row.label}->{o.verdict}" for o in outs)
                lines.append(f"    {card}: {kinds}")
                if verbose:
                    for o in outs:
                        why = f" flags={list(o.flags)}" if o.flags else ""
                        lines.append(
                            f"      line {o.row.line}: {o.row.answer!r} matched={list(o.matched)}"
                            + why
                        )
        return "\n".join(lines)


def _ok(outcome: Outcome, rule: str) -> bool:
    label, verdict = outcome.row.label, outcome.verdict
    if rule == "binary":
        return (label == "correct") == (verdict == "correct")
    if rule == "exact":
        return label == verdict
    if rule == "not-correct":
        return verdict != "correct"
    return verdict == rule


def load_rows(path: Path) -> list[Row]:
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            item = json.loads(line)
            parts, flags = tuple(item.get("parts", ())), tuple(item.get("red_flags", ()))
            rows.append(
                Row(n, str(item["card"]), item["answer"], item["label"], item["kind"], parts, flags)
            )
    return rows


def csv_library(source: Path) -> tuple[Library, dict[str, str]]:
    """The built-in library plus the deck `decks new --from-csv` makes from `source`, and a map
    from each built-in card id to the generated card with the same number."""
    data = deck_data("from-csv", "From CSV", read_csv(source))
    made = parse_deck(dump_deck(data), str(source))
    builtin = load_library(user_decks=False)
    by_n = {c.n: c.id for c in made.cards}
    ids = {c.id: f"from-csv/{by_n[c.n]}" for c in builtin.cards() if c.n in by_n}
    return Library(builtin.decks + (made,)), ids


def evaluate(library: Library, rows: Sequence[Row], ids: dict[str, str] | None = None) -> Report:
    """Grade every row; with `ids`, rows are graded on the mapped cards and the rest left out."""
    report = Report()
    for row in rows:
        if ids is not None and row.card not in ids:
            continue
        ref = ids[row.card] if ids is not None else row.card
        result = grade_ref(library, ref, row.answer)
        data = result.to_dict()
        matched = data.get("matched")
        if matched is None:
            parts = data.get("parts")
            matched = (
                [k for k, v in parts.items() if v["covered"]] if isinstance(parts, dict) else []
            )
        flags = tuple(str(f["id"]) for f in data["flags"])  # type: ignore[attr-defined]
        report.outcomes.append(
            Outcome(row, result.verdict.label, flags, tuple(str(m) for m in matched))  # type: ignore[union-attr]
        )
    return report


PINNED = Path(__file__).with_name("pinned.json")
TUNING = (
    "dev",
    "dev2",
    "dev3",
    "dev4",
    "dev5",
    "fresh1",
    "fresh3",
    "fresh4",
    "fresh5",
    "fresh6",
    "fresh7",
    "fresh8",
    "fresh9",
    "fresh10",
    "fresh11",
    "fresh12",
    "fresh13",
    "fresh14",
    "fresh15",
    "fresh16",
    "fresh17",
    "fresh18",
    "fresh19",
    "fresh20",
    "fresh21",
    "fresh22",
    "fresh23",
    "fresh24",
    "fresh25",
    "fresh26",
    "fresh27",
    "fresh28",
    "fresh29",
    "fresh30",
    "fresh31",
    "fresh32",
    "fresh34",
    "fresh35",
    "fresh36",
    "fresh38",
    "fresh39",
    "fresh40",
    "fresh41",
    "fresh42",
    "fresh43",
    "fresh45",
    "fresh46",
    "fresh48",
    "fresh50",
    "fresh52",
    "fresh55",
    "fresh58",
    "fresh60",
    "fresh62",
    "fresh66",
    "fresh68",
    "fresh70",
    "fresh71",
    "fresh73",
    "fresh75",
    "fresh77",
    "fresh79",
    "fresh81",
    "fresh83",
    "fresh85",
    "fresh87",
    "fresh89",
    "fresh93",
    "fresh97",
    "fresh99",
    "fresh103",
    "fresh106",
    "fresh107",
    "fresh109",
    "fresh111",
    "fresh113",
    "fresh115",
    "fresh117",
)
SEED_CSV = Path(__file__).parent / "seed-questions.csv"
_LETTER = {"correct": "c", "partial": "p", "wrong": "w"}


def verdict_letters(report: Report) -> str:
    """One letter per row (c, p, w): the verdicts a tuning set is pinned at."""
    return "".join(_LETTER[o.verdict] for o in report.outcomes)


def pin(names: Sequence[str] = TUNING) -> dict[str, str]:
    """Write the current verdicts of the tuning sets to pinned.json and return them: on the
    built-in deck under the set's name, on the deck made from the seed CSV under `name:csv`."""
    library = load_library(user_decks=False)
    made, ids = csv_library(SEED_CSV)
    here = Path(__file__).parent
    pins: dict[str, str] = {}
    for n in names:
        rows = load_rows(here / f"{n}.jsonl")
        pins[n] = verdict_letters(evaluate(library, rows))
        pins[f"{n}:csv"] = verdict_letters(evaluate(made, rows, ids))
    PINNED.write_text(json.dumps(pins, indent=1) + "\n", encoding="utf-8")
    return pins


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Agreement of the grader with a labelled set.")
    parser.add_argument("files", nargs="*", type=Path, help="labelled JSON-lines files")
    parser.add_argument(
        "--pin", action="store_true", help="pin the tuning sets at their current verdicts"
    )
    parser.add_argument("--deck", action="append", default=[], type=Path, help="extra deck file")
    parser.add_argument("--csv", type=Path, help="grade against a deck made from this CSV")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("-v", "--verbose", action="store_true", help="show each disagreement")
    args = parser.parse_args(argv)
    if args.pin:
        for name, letters in pin().items():
            print(f"pinned {name}: {len(letters)} verdicts")
        return 0
    library = load_library(args.deck, user_decks=False)
    ids = None
    if args.csv:
        library, ids = csv_library(args.csv)
    ok = True
    for path in args.files:
        report = evaluate(library, load_rows(path), ids)
        if args.json:
            print(json.dumps({"set": str(path), **report.figures()}))
            continue
        print(report.format(str(path), args.verbose))
        ok = ok and report.passes()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
