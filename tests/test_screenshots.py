"""scripts/screenshots records real grill output to SVG, and the README shows every picture."""

from __future__ import annotations

import html
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "screenshots", ROOT / "scripts" / "screenshots.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_shot_records_the_real_output(tmp_path: Path) -> None:
    script = ROOT / "scripts" / "screenshots.py"
    args = [sys.executable, str(script), "--out", str(tmp_path), "decks-list"]
    subprocess.run(args, check=True, capture_output=True, timeout=120)
    svg = (tmp_path / "decks-list.svg").read_text(encoding="utf-8")
    text = html.unescape(svg).replace("\xa0", " ")
    assert svg.startswith("<svg") and "grill decks list" in text
    assert "training-behaviors" in text and "~/.local/share/grill/decks" in text
    assert "grill-shot-" not in text  # the temporary GRILL_HOME is not in the picture
    again = tmp_path / "again"
    subprocess.run([*args[:3], str(again), "decks-list"], check=True, timeout=120)
    assert (again / "decks-list.svg").read_text(encoding="utf-8") == svg  # reproducible


def test_every_picture_is_committed_and_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for shot in _script().SHOTS:
        assert (ROOT / "docs" / "img" / f"{shot.name}.svg").is_file(), shot.name
        assert f"](docs/img/{shot.name}.svg)" in readme, shot.name
