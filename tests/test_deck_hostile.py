"""Broken and hostile deck files: each is refused with a located error, fast, in bounded memory.

The corpus lives in tests/decks/broken/; the huge and explosive cases are generated here so the
repository stays small.
"""

from __future__ import annotations

import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grill.deck import load_deck, parse_deck
from grill.errors import DeckError
from grill.paths import builtin_decks_dir

BROKEN = Path(__file__).parent / "decks" / "broken"
CORPUS = sorted(BROKEN.glob("*.yaml"))
LOCATED = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): \S")


def _limit_memory() -> None:  # runs in the child before exec: 1 GiB of address space at most
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def validate(path: Path) -> tuple[int, str, float]:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "grill", "decks", "validate", str(path)],
        capture_output=True,
        text=True,
        timeout=30,
        preexec_fn=_limit_memory,
    )
    return proc.returncode, proc.stderr, time.perf_counter() - start


def test_the_corpus_holds_at_least_forty_broken_decks() -> None:
    assert len(CORPUS) >= 40


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_each_broken_deck_is_a_located_deck_error(path: Path) -> None:
    start = time.perf_counter()
    with pytest.raises(DeckError) as info:
        load_deck(path)
    assert time.perf_counter() - start < 2
    for issue in info.value.issues:
        assert issue.line >= 1 and issue.column >= 1 and issue.message
        assert LOCATED.match(str(issue)), str(issue)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("hostile")
    files = {
        "huge": "deck: x\ntitle: " + "a" * (50 * 1024 * 1024) + "\n",
        "alias-bomb": "a: &a [x, x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n"
            for i in range(9)
        ),
        "deep-lists": "deck: " + "[" * 5000 + "]" * 5000 + "\n",
        "deep-maps": "deck: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n",
        "long-line": "deck: x\ntitle: [" + "1, " * 200_000 + "1]\n",
    }
    out = {}
    for name, text in files.items():
        out[name] = root / f"{name}.yaml"
        out[name].write_text(text)
    return out


@pytest.mark.parametrize("name", ["huge", "alias-bomb", "deep-lists", "deep-maps", "long-line"])
def test_generated_hostile_files_fail_cleanly_within_two_seconds(
    generated: dict[str, Path], name: str
) -> None:
    code, err, seconds = validate(generated[name])
    assert code == 2, err
    assert "Traceback" not in err
    assert all(LOCATED.match(line) for line in err.strip().splitlines()), err
    # the interpreter's own start-up is part of the wall time, so allow it on top of 2 s
    assert seconds < 2 + _startup_seconds(), f"{name} took {seconds:.2f}s"


_STARTUP: list[float] = []


def _startup_seconds() -> float:
    if not _STARTUP:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import grill.cli"], check=True)
        _STARTUP.append(time.perf_counter() - start)
    return _STARTUP[0]


def test_a_python_tag_never_runs(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    deck = tmp_path / "evil.yaml"
    deck.write_text(f'deck: x\ntitle: !!python/object/apply:os.system ["touch {marker}"]\n')
    code, err, _ = validate(deck)
    assert code == 2 and "is not allowed in decks" in err
    assert not marker.exists()


VALID = (builtin_decks_dir() / "training-behaviors.yaml").read_text(encoding="utf-8")[:6000]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400))
def test_any_text_is_a_deck_or_a_deck_error(text: str) -> None:
    try:
        parse_deck(text, "fuzz.yaml")
    except DeckError as exc:
        assert exc.issues and all(i.line >= 1 for i in exc.issues)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(VALID) - 1), st.integers(0, 40), st.text(max_size=12))
def test_a_mangled_real_deck_is_a_deck_or_a_deck_error(at: int, cut: int, insert: str) -> None:
    text = VALID[:at] + insert + VALID[at + cut :]
    try:
        parse_deck(text, "fuzz.yaml")
    except DeckError as exc:
        assert exc.issues and all(LOCATED.match(str(i)) for i in exc.issues)
