"""The registry of named measurements, each with its targets, and the table they print.

A measurement is a function taking the `Context` and returning `Row`s; register it with
`@measurement(name, what)`. Targets live here, never in timed unit tests. Medians of `--runs`
runs; memory is the highest peak of the runs. Commands being compared run interleaved
(`timing.compare`). A command grill does not have yet is shown as `n/a (not built)`.

    scripts/bench                      every measurement, 7 runs each
    scripts/bench --only due --runs 3  one measurement (repeat --only for more)
    scripts/bench --list               the measurements and what they do
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from benchlib.fixture import ROOT, FixtureSpec, ensure
from benchlib.timing import Command, Sample, compare, gnu_time, summary
from grill.memory import Trace
from grill.model import Library
from grill.store import Store

__all__ = ["REGISTRY", "Context", "Row", "main", "measurement"]

STARTUP_RATIO = 1.3
ANSWER_MS = 20.0
GRADE_MS = 5.0
DUE_RATIO = 1.5
STATS_SECONDS = 2.0
REPORT_SECONDS = 5.0
PEAK_MB = 300.0
ANSWERS_PER_RUN = 40
GRADE_ANSWERS = 1000
LONG_ANSWER_MS = 1000.0
LONG_ANSWERS = {
    "prose, no punctuation": "the loss goes down slowly because the lr is too low and " * 200,
    "math, one symbol repeated": "x / B " * 1700,
    "self-corrections": "the lr is too high - no, too low, " * 300,
}
"""The longest answers grill accepts (MAX_ANSWER_CHARS), in shapes whose scans once grew with
the square of the length."""
DEV_SET = ROOT / "tests" / "grading" / "dev.jsonl"

HELLO = """\
import typer

app = typer.Typer()


@app.command()
def hello(name: str = "world") -> None:
    print(f"hello {name}")


@app.command()
def bye(name: str = "world") -> None:
    print(f"bye {name}")


if __name__ == "__main__":
    app()
"""


@dataclass(frozen=True)
class Row:
    """One line of the table. `result` is ok, MISSED, n/a (...) or empty for a reference."""

    measurement: str
    what: str
    median: str
    ratio: str = ""
    memory: str = ""
    target: str = ""
    result: str = ""


@dataclass
class Context:
    """What every measurement shares: the number of runs, the fixture, a scratch folder."""

    runs: int
    spec: FixtureSpec
    scratch: Path
    _homes: dict[str, Path] = field(default_factory=dict)

    @property
    def grill(self) -> str:
        return str(Path(sys.executable).with_name("grill"))

    def large_home(self) -> Path:
        if "large" not in self._homes:
            self._homes["large"] = ensure(self.spec)
        return self._homes["large"]

    def small_home(self) -> Path:
        """A home with the built-in deck only (the first run creates its database)."""
        home = self.scratch / "builtin-home"
        home.mkdir(exist_ok=True)
        return home

    def env(self, home: Path) -> dict[str, str]:
        # no background refit of the memory: it would run beside the next measurement
        return {
            "GRILL_HOME": str(home),
            "GRILL_NOW": self.spec.now,
            "NO_COLOR": "1",
            "GRILL_NO_BACKGROUND": "1",
        }

    def command(self, home: Path, *args: str) -> Command:
        return Command([self.grill, *args], self.env(home), self.scratch)

    def has_command(self, name: str) -> bool:
        """Whether this grill has the command `name` (its --help succeeds)."""
        home = self.small_home()
        proc = subprocess.run(
            [self.grill, name, "--help"],
            env={**os.environ, **self.env(home)},
            capture_output=True,
        )
        return proc.returncode == 0


Measure = Callable[[Context], list[Row]]
REGISTRY: dict[str, tuple[str, Measure]] = {}


def measurement(name: str, what: str) -> Callable[[Measure], Measure]:
    def register(fn: Measure) -> Measure:
        REGISTRY[name] = (what, fn)
        return fn

    return register


# ---------------------------------------------------------------- formatting


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _mb(sample: Sample) -> str:
    return f"{sample.peak_mb:.0f} MB"


def _verdict(*checks: bool) -> str:
    return "ok" if all(checks) else "MISSED"


def _within_ms(name: str, what: str, seconds: float, limit_ms: float) -> Row:
    """A row for a time measured against a limit in milliseconds."""
    return Row(
        name,
        what,
        _ms(seconds),
        target=f"<= {limit_ms:g} ms",
        result=_verdict(seconds * 1000 <= limit_ms),
    )


def _not_built(name: str, what: str) -> Row:
    return Row(name, what, "", result="n/a (not built)")


# ---------------------------------------------------------------- start-up


@measurement("startup", "grill --version and grill due vs a hello-world Typer app")
def startup(ctx: Context) -> list[Row]:
    hello = ctx.scratch / "hello.py"
    hello.write_text(HELLO)
    home = ctx.small_home()
    found = compare(
        {
            "hello": Command([sys.executable, str(hello), "hello"], cwd=ctx.scratch),
            "version": ctx.command(home, "--version"),
            "due": ctx.command(home, "due"),
        },
        ctx.runs,
    )
    base = summary(found["hello"])
    rows = [
        Row(
            "startup",
            "hello-world Typer app, 2 commands",
            _ms(base.seconds),
            "1.00",
            _mb(base),
            "reference",
        )
    ]
    for key, what in (("version", "grill --version"), ("due", "grill due (built-in deck)")):
        s = summary(found[key])
        ratio = s.seconds / base.seconds
        rows.append(
            Row(
                "startup",
                what,
                _ms(s.seconds),
                f"{ratio:.2f}",
                _mb(s),
                f"<= {STARTUP_RATIO}x",
                _verdict(ratio <= STARTUP_RATIO),
            )
        )
    return rows


# ---------------------------------------------------------------- in-process


@contextlib.contextmanager
def _environment(**values: str) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _grader() -> Callable[..., object] | None:
    try:
        module = importlib.import_module("grill.grader")
    except ModuleNotFoundError:
        return None
    grade: Callable[..., object] = module.grade
    return grade


class _Clock:
    """The study clock of a drill, moved on by hand: 30 s an answer."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now


@measurement("answer", "one answer in a drill: grade, schedule, commit (large home)")
def answer(ctx: Context) -> list[Row]:
    from grill.deck import load_library
    from grill.model import Rating
    from grill.scheduler import Scheduler
    from grill.session import Drill, DrillOptions
    from grill.store import Store

    home = ctx.large_home()
    grader = _grader()
    times: list[float] = []
    with _environment(**ctx.env(home)):
        library = load_library()
        with Store.open(home / "grill.db", now=ctx.spec.moment) as store:
            for _ in range(ctx.runs):
                clock = _Clock(ctx.spec.moment)
                drill = Drill(
                    store, Scheduler(), library, DrillOptions(), grader=grader, clock=clock
                )
                for i in range(ANSWERS_PER_RUN):
                    start = time.perf_counter()
                    card = drill.next_card()
                    if card is None:
                        break
                    _ = drill.done
                    if grader is not None:
                        text = card.answer if i % 3 else card.answer[: len(card.answer) // 2]
                        drill.submit(card, text, 15_000)
                        drill.dues()
                        drill.rate(drill.proposed or Rating.GOOD)
                    else:
                        drill.dues()
                        drill.rate(Rating.GOOD)
                    times.append(time.perf_counter() - start)
                    clock.now += timedelta(seconds=30)
                _take_back(store, drill.session_id)
    if not times:
        return [Row("answer", "per answer", "", result="n/a (nothing due)")]
    what = "per answer: next card, grade, intervals, commit" if grader else "per answer (no grader)"
    return [_within_ms("answer", what, statistics.median(times), ANSWER_MS)]


def _take_back(store: Store, session_id: int | None) -> None:
    """Undo the measured session's reviews and remove it, leaving the fixture as it was."""
    if session_id is None:
        return
    while store.undo_last(session_id=session_id) is not None:
        pass
    conn = sqlite3.connect(store.path)
    with conn:
        conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
    conn.close()


def _grading_times(
    ctx: Context, answers: Callable[[Library], list[tuple[str, str]]]
) -> list[float]:
    """Seconds to grade each (card ref, answer) pair, on the built-in deck in a small home."""
    from grill.deck import load_library
    from grill.grader import grade_ref

    with _environment(GRILL_HOME=str(ctx.small_home())):
        library = load_library(user_decks=False)
        times = []
        for ref, text in answers(library):
            start = time.perf_counter()
            grade_ref(library, ref, text)
            times.append(time.perf_counter() - start)
    return times


@measurement("grade", f"grading alone: {GRADE_ANSWERS:,} answers in one process")
def grade(ctx: Context) -> list[Row]:
    if _grader() is None:
        return [_not_built("grade", "per answer")]
    times = _grading_times(ctx, lambda library: _answers(library, GRADE_ANSWERS))
    median = statistics.median(times)
    p90 = statistics.quantiles(times, n=10)[-1]
    return [_within_ms("grade", f"per answer (p90 {p90 * 1000:.1f} ms)", median, GRADE_MS)]


@measurement("grade-long", "grading the longest answers accepted (10,000 characters)")
def grade_long(ctx: Context) -> list[Row]:
    if _grader() is None:
        return [_not_built("grade-long", "per answer")]
    from grill.answers import MAX_ANSWER_CHARS

    texts = [text[:MAX_ANSWER_CHARS] for text in LONG_ANSWERS.values()]
    times = _grading_times(ctx, lambda _: [("qf-linear-scaling", text) for text in texts])
    return [
        _within_ms("grade-long", what, took, LONG_ANSWER_MS)
        for what, took in zip(LONG_ANSWERS, times, strict=True)
    ]


ODDS_CARDS = 2000
ODDS_MS = 50.0


@measurement("odds", f"a score distribution over 45 and {ODDS_CARDS:,} cards")
def odds(ctx: Context) -> list[Row]:
    from grill.odds import poisson_binomial

    rng = random.Random(5)
    rows = []
    base = 0.0
    for n in (45, ODDS_CARDS):
        chances = [rng.random() for _ in range(n)]
        poisson_binomial(chances)  # numpy imported once, outside the timing
        times = []
        for _ in range(max(5, ctx.runs)):
            start = time.perf_counter()
            poisson_binomial(chances)
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        base = base or median
        big = n == ODDS_CARDS
        rows.append(
            Row(
                "odds",
                f"P(score = k) for {n:,} cards",
                _ms(median),
                f"{median / base:.2f}" if big else "1.00",
                target=f"<= {ODDS_MS:g} ms" if big else "reference",
                result=_verdict(median * 1000 <= ODDS_MS) if big else "",
            )
        )
    return rows


FIT_REVIEWS = 10_000
FIT_SECONDS = 1.0


@measurement("fit", f"fitting the memory models to {FIT_REVIEWS:,} reviews")
def fit(ctx: Context) -> list[Row]:
    from grill.memory import fit as fit_memory

    traces = _synthetic_log(FIT_REVIEWS)
    now = traces[0].at[0] + timedelta(days=30)
    times = []
    for _ in range(max(1, ctx.runs)):
        start = time.perf_counter()
        fit_memory(traces, now)
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    return [
        Row(
            "fit",
            f"grill memory --fit's work, {FIT_REVIEWS:,} reviews of 1,000 cards",
            _ms(median),
            target=f"< {FIT_SECONDS:g} s",
            result=_verdict(median < FIT_SECONDS),
        )
    ]


def _synthetic_log(reviews: int) -> list[Trace]:
    """A seeded log: 1,000 cards, each reviewed every 1-4 evenings by a learner whose recall
    halves in a day at first and doubles its half-life on each success."""
    rng = random.Random(0)
    start = datetime(2026, 1, 5, 18, tzinfo=UTC)
    per_card = reviews // 1000
    out = []
    for c in range(1000):
        day, half, at, ratings = c % 7, 1.0, [], []
        for k in range(per_card):
            if k:
                gap = rng.choice((1, 2, 3, 4))
                day += gap
                recalled = rng.random() < 2 ** (-gap / half)
                half = half * 2 if recalled else 1.0
                ratings.append(3 if recalled else 1)
            else:
                ratings.append(3)
            at.append(start + timedelta(days=day))
        out.append(
            Trace(("bench", str(c)), tuple(at), tuple(d.toordinal() for d in at), tuple(ratings))
        )
    return out


def _answers(library: Library, n: int) -> list[tuple[str, str]]:
    """n (ref, answer) pairs: the labelled tuning sets' answers (each once, unless there are
    fewer than n: a repeat would find the grader's caches warm), else answers cut from the
    deck's own text."""
    known = {c.id for c in library.cards()} | {c.id for c in library.cases()}
    pairs: dict[tuple[str, str], None] = {}
    for path in sorted(DEV_SET.parent.glob("*.jsonl")):
        if path.name.startswith("holdout"):
            continue  # measurement only: never read but for their totals
        for line in path.read_text(encoding="utf-8").splitlines():
            item = json.loads(line) if line.strip() else None
            if item and item["card"] in known:
                pairs[(item["card"], item["answer"])] = None
    if not pairs:
        rng = random.Random(7)
        for card in library.cards():
            words = f"{card.answer} {card.explanation or ''}".split()
            for _ in range(5):
                start = rng.randrange(max(1, len(words) - 30))
                pairs[(card.id, " ".join(words[start : start + rng.randint(3, 30)]))] = None
    listed = list(pairs)
    return [listed[i % len(listed)] for i in range(n)]


# ---------------------------------------------------------------- scale


def _scale_note(ctx: Context) -> str:
    return f"{ctx.spec.cards:,} cards, {ctx.spec.reviews:,} reviews"


@measurement("due", "grill due on the large home vs the built-in deck only")
def due(ctx: Context) -> list[Row]:
    large = ctx.large_home()
    found = compare(
        {"small": ctx.command(ctx.small_home(), "due"), "large": ctx.command(large, "due")},
        ctx.runs,
    )
    base, big = summary(found["small"]), summary(found["large"])
    ratio = big.seconds / base.seconds
    return [
        Row(
            "due",
            "grill due, built-in deck only",
            _ms(base.seconds),
            "1.00",
            _mb(base),
            "reference",
        ),
        Row(
            "due",
            f"grill due, {_scale_note(ctx)}",
            _ms(big.seconds),
            f"{ratio:.2f}",
            _mb(big),
            f"<= {DUE_RATIO}x, < {PEAK_MB:g} MB",
            _verdict(ratio <= DUE_RATIO, big.peak_mb < PEAK_MB),
        ),
    ]


@measurement("stats", "grill stats on the large home")
def stats(ctx: Context) -> list[Row]:
    what = f"grill stats, {_scale_note(ctx)}"
    if not ctx.has_command("stats"):
        return [_not_built("stats", what)]
    s = summary(compare({"stats": ctx.command(ctx.large_home(), "stats")}, ctx.runs)["stats"])
    return [
        Row(
            "stats",
            what,
            _ms(s.seconds),
            memory=_mb(s),
            target=f"< {STATS_SECONDS:g} s, < {PEAK_MB:g} MB",
            result=_verdict(s.seconds < STATS_SECONDS, s.peak_mb < PEAK_MB),
        )
    ]


@measurement("report", "grill report --format json on the large home")
def report(ctx: Context) -> list[Row]:
    what = f"grill report --format json, {_scale_note(ctx)}"
    if not ctx.has_command("report"):
        return [_not_built("report", what)]
    out = ctx.scratch / "report.json"
    command = ctx.command(ctx.large_home(), "report", "--format", "json", "-o", str(out))
    s = summary(compare({"report": command}, ctx.runs)["report"])
    return [
        Row(
            "report",
            what,
            _ms(s.seconds),
            memory=_mb(s),
            target=f"< {REPORT_SECONDS:g} s, < {PEAK_MB:g} MB",
            result=_verdict(s.seconds < REPORT_SECONDS, s.peak_mb < PEAK_MB),
        )
    ]


# ---------------------------------------------------------------- the table


_HEADER = Row("measurement", "what", "median", "ratio", "peak mem", "target", "result")


def render(rows: list[Row]) -> str:
    table = [_HEADER, *rows]
    cells = [[getattr(r, f) for f in Row.__dataclass_fields__] for r in table]
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    right = {2, 3, 4}
    lines = []
    for row in cells:
        parts = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(parts).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scripts/bench",
        description="Measure grill's speed against its targets; exit 1 when one is missed.",
    )
    parser.add_argument("--runs", type=int, default=7, help="runs of each measurement (7)")
    parser.add_argument(
        "--only",
        action="append",
        metavar="NAME",
        choices=list(REGISTRY),
        help="run only this measurement (repeatable)",
    )
    parser.add_argument("--list", action="store_true", help="list the measurements")
    parser.add_argument("--cards", type=int, default=FixtureSpec.cards, help="fixture cards")
    parser.add_argument("--reviews", type=int, default=FixtureSpec.reviews, help="fixture reviews")
    parser.add_argument(
        "--fixture-only",
        action="store_true",
        help="build (or find) the large fixture and print its GRILL_HOME",
    )
    return parser


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.list:
        for name, (what, _) in REGISTRY.items():
            print(f"{name:10} {what}")
        return 0
    spec = replace(FixtureSpec(), cards=args.cards, reviews=args.reviews)
    with tempfile.TemporaryDirectory(prefix="grill-bench-") as scratch:
        os.environ["GRILL_HOME"] = str(Path(scratch) / "bench-process")  # never the user's
        if args.fixture_only:
            print(ensure(spec))
            return 0
        gnu_time()
        ctx = Context(args.runs, spec, Path(scratch))
        started = time.perf_counter()
        rows: list[Row] = []
        for name in args.only or list(REGISTRY):
            print(f"bench: {name}...", file=sys.stderr, flush=True)
            rows += REGISTRY[name][1](ctx)
    print(render(rows))
    print(
        f"\n{args.runs} runs each; medians, peak memory the highest of the runs;"
        f" {time.perf_counter() - started:.0f} s in all."
    )
    return 1 if any(r.result == "MISSED" for r in rows) else 0
