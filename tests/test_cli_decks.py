"""The command line for decks and cards, as a user types it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from grill import __version__
from grill.cli import app

runner = CliRunner()
BROKEN = Path(__file__).parent / "decks" / "broken"


def run(*args: str) -> tuple[int, str, str]:
    """Run through `python -m grill` so main()'s error handling is exercised as a user sees it."""
    proc = subprocess.run(
        [sys.executable, "-m", "grill", *args], capture_output=True, text=True, timeout=60
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_version_and_help() -> None:
    assert runner.invoke(app, ["--version"]).stdout.strip() == f"grill {__version__}"
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "training behaviour" in result.stdout
    assert "decks" in result.stdout and "card" in result.stdout


def test_decks_list_json_names_the_builtin_deck() -> None:
    result = runner.invoke(app, ["decks", "list", "--json"])
    assert result.exit_code == 0, result.output
    decks = {d["name"]: d for d in json.loads(result.stdout)}
    assert decks["training-behaviors"]["cards"] == 45
    assert decks["training-behaviors"]["builtin"] is True


def test_decks_show_lists_every_card() -> None:
    result = runner.invoke(app, ["decks", "show", "training-behaviors"])
    assert result.exit_code == 0, result.output
    assert "Target: 28/45 answered cold (floor 24)" in result.stdout
    assert "warmup-why" in result.stdout and "qf-spike-first-action" in result.stdout


def test_card_by_number_and_by_id_agree() -> None:
    by_number = json.loads(runner.invoke(app, ["card", "7", "--json"]).stdout)
    by_id = json.loads(runner.invoke(app, ["card", "warmup-why", "--json"]).stdout)
    assert by_number == by_id
    assert by_id["question"] == "Why warmup?"
    assert by_id["section"] == "B"


def test_card_shows_question_answer_and_explanation() -> None:
    result = runner.invoke(app, ["card", "21"])
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "Standard clip value?" in text and "1.0 by global norm." in text
    assert "Saying it out loud" in text


def test_unknown_card_is_one_line_and_exit_2_without_traceback() -> None:
    code, out, err = run("card", "no-such-card")
    assert code == 2
    assert err.startswith("error: no card 'no-such-card'")
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_validate_reports_located_errors_and_exit_2() -> None:
    code, _, err = run("decks", "validate", str(BROKEN / "missing-answer.yaml"))
    assert code == 2
    assert err.strip().endswith("missing-answer.yaml:6:5: card 'warmup-why': 'answer' is missing")
    assert "Traceback" not in err


def test_validate_passes_on_the_builtin_decks() -> None:
    code, out, _ = run("decks", "validate")
    assert code == 0 and out.startswith("ok")


def test_other_commands_refuse_an_invalid_deck_with_the_same_message() -> None:
    code, _, err = run("card", "1", "--deck", str(BROKEN / "unknown-section.yaml"))
    assert code == 2
    assert "unknown-section.yaml:8:14: card 'one': unknown section 'Z'" in err


def test_schema_is_json_for_editors() -> None:
    result = runner.invoke(app, ["decks", "schema"])
    schema = json.loads(result.stdout)
    assert schema["type"] == "object" and "cards" in schema["properties"]
