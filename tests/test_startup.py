"""Start-up stays lean: a command imports what it needs and nothing heavy besides. Checked by
the modules a real `grill` process has loaded when it ends, never by timing (scripts/bench
measures the time)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# run grill's entry point, then write the names of every module loaded (and executed: a module
# still waiting behind importlib's LazyLoader does not count) to the file named in argv[1]
PROBE = """
import json, sys
from importlib.util import _LazyModule

out, sys.argv = sys.argv[1], ["grill", *sys.argv[2:]]
from grill.__main__ import main  # what the installed `grill` runs
try:
    main()
except SystemExit:
    pass
loaded = [n for n, m in sys.modules.items() if m is not None and not isinstance(m, _LazyModule)]
with open(out, "w") as fh:
    json.dump(sorted(loaded), fh)
"""

NEVER_AT_START = (
    "prompt_toolkit",  # the drill's and the mock's line editor
    "genanki",  # the Anki export
    "rapidfuzz",  # the grader's typo matching
    "grill.grader",
    "grill.report",  # the progress report and its charts (grill.report.svg)
    "grill.simulate",
    "grill.mock",
    "concurrent.futures",  # the report's parallel log export (and logging with it)
)


def _loaded(tmp_path: Path, *args: str) -> set[str]:
    out = tmp_path / "modules.json"
    env = {k: v for k, v in os.environ.items() if k != "GRILL_DEBUG"}
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(out), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(out.read_text()))


def _found(loaded: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in loaded if any(m == n or m.startswith(n + ".") for n in names))


def test_version_loads_typer_and_nothing_of_grill_s_own_weight(tmp_path: Path) -> None:
    loaded = _loaded(tmp_path, "--version")
    heavy = (*NEVER_AT_START, "rich", "yaml", "fsrs", "sqlite3", "grill.deck", "grill.store")
    assert _found(loaded, heavy) == []
    assert "typer" in loaded  # the probe really ran the command line


@pytest.mark.parametrize("deck_cached", [False, True])
def test_due_loads_neither_rich_the_editor_the_grader_report_export_nor_yaml(
    tmp_path: Path, deck_cached: bool
) -> None:
    if deck_cached:
        _loaded(tmp_path, "due")  # the first run parses the built-in deck and caches it
    loaded = _loaded(tmp_path, "due")
    # rich is a third of grill's own start-up: `grill due` draws its tables with grill.ui.plain
    heavy = NEVER_AT_START + ("fsrs", "rich") + (("yaml",) if deck_cached else ())
    assert _found(loaded, heavy) == []
    assert {"grill.session", "grill.store", "grill.ui.due"} <= loaded  # due itself ran


def test_start_up_runs_with_the_collector_paused_and_the_command_with_it_running(
    tmp_path: Path,
) -> None:
    probe = """
import gc, json, sys
import grill.cli.drill as drill

def due():
    print(json.dumps({"enabled": gc.isenabled(), "frozen": gc.get_freeze_count()}))
drill.due = due
sys.argv = ["grill", "due"]
from grill.__main__ import main
main()
"""
    env = {**os.environ, "GRILL_HOME": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(proc.stdout)
    # the command itself collects garbage as usual; what start-up built is out of its way
    assert seen["enabled"] is True and seen["frozen"] > 10_000
