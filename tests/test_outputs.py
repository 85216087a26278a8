"""Files grill writes at a path the user names (`report -o`, `export anki -o`, `decks new -o`,
`config set`): a symlink is written through to its target, what is not a regular file (a FIFO,
a folder) is refused and left as it was, `-` is standard output, and neither a failure nor a
SIGTERM leaves a temporary file behind. FIFOs and symlinks are made in tmp_path, never real
device nodes."""

from __future__ import annotations

import io
import os
import signal
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from grill.cli import app
from grill.errors import GrillError, UsageError
from grill.files import open_output, output_path, replacing, target_of, write_atomically

runner = CliRunner()

CSV = "question,answer\nWhy warmup?,Stabilizes early gradients; prevents divergence\n"


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# ------------------------------------------------------------------ the helper


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "config.toml"
    real.parent.mkdir()
    real.write_text("old\n")
    link = tmp_path / "config.toml"
    link.symlink_to(real)
    write_atomically(link, "new\n")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "new\n"
    assert _leftovers(tmp_path) == [] and _leftovers(real.parent) == []


def test_a_dangling_symlink_makes_its_target(tmp_path: Path) -> None:
    link = tmp_path / "report.md"
    link.symlink_to(tmp_path / "elsewhere" / "report.md")
    write_atomically(link, "made\n")
    assert link.is_symlink() and (tmp_path / "elsewhere" / "report.md").read_text() == "made\n"


def test_the_target_keeps_its_permissions(tmp_path: Path) -> None:
    target = tmp_path / "secret.toml"
    target.write_text("a = 1\n")
    target.chmod(0o600)
    write_atomically(target, "a = 2\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600 and target.read_text() == "a = 2\n"


@pytest.mark.parametrize("kind", ["fifo", "folder", "link to a fifo"])
def test_what_is_not_a_regular_file_is_refused_and_left_alone(tmp_path: Path, kind: str) -> None:
    if kind == "folder":
        (path := tmp_path / "out.md").mkdir()
    elif kind == "fifo":
        path = _fifo(tmp_path / "out.md")
    else:
        path = tmp_path / "out.md"
        path.symlink_to(_fifo(tmp_path / "pipe"))
    with pytest.raises(UsageError, match="grill replaces only regular files") as caught:
        write_atomically(path, "text")
    assert str(caught.value).startswith(f"cannot write {path}: it is a ")
    real = Path(os.path.realpath(path))
    assert stat.S_ISDIR(real.stat().st_mode) or stat.S_ISFIFO(real.stat().st_mode)
    assert _leftovers(tmp_path) == []


def test_a_symlink_loop_is_one_error(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(GrillError, match="cannot write .*a: Too many levels of symbolic links"):
        target_of(tmp_path / "a")


def test_a_failure_while_writing_keeps_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "report.md"
    target.write_text("the previous report\n")
    with pytest.raises(RuntimeError), open_output(target) as out:
        out.write("half of a new one")
        raise RuntimeError("the database failed halfway")
    assert target.read_text() == "the previous report\n" and _leftovers(tmp_path) == []


def test_dash_is_standard_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    with open_output(Path("-")) as out:
        out.write("to the pipe\n")
    assert capsys.readouterr().out == "to the pipe\n"
    assert list(tmp_path.iterdir()) == []  # no file named '-'


def test_a_writer_that_takes_a_path_can_write_to_standard_output(tmp_path: Path) -> None:
    code = (
        "from pathlib import Path\n"
        "from grill.files import output_path\n"
        "with output_path(Path('-')) as p:\n"
        "    p.write_bytes(b'PK binary')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert run.returncode == 0 and run.stdout == b"PK binary"
    with output_path(tmp_path / "x.bin") as tmp:
        tmp.write_bytes(b"to a file")
    assert (tmp_path / "x.bin").read_bytes() == b"to a file"


def test_sigterm_while_writing_removes_the_temporary_file(tmp_path: Path) -> None:
    code = (
        "import os, signal, sys, time\n"
        "from pathlib import Path\n"
        "from grill.files import replacing\n"
        "with replacing(Path(sys.argv[1])) as tmp:\n"
        "    tmp.write_text('half')\n"
        "    print(tmp.exists(), flush=True)\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    time.sleep(30)\n"
    )
    target = tmp_path / "report.md"
    run = subprocess.run(
        [sys.executable, "-c", code, str(target)], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 128 + signal.SIGTERM and run.stdout == "True\n", run.stderr
    assert list(tmp_path.iterdir()) == []


def test_sigterm_keeps_its_usual_meaning_outside_a_write(tmp_path: Path) -> None:
    code = (
        "import os, signal\n"
        "from pathlib import Path\n"
        "from grill.files import write_atomically\n"
        "write_atomically(Path(os.environ['OUT']), 'x')\n"
        "assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL\n"
    )
    env = dict(os.environ, OUT=str(tmp_path / "x.md"))
    assert subprocess.run([sys.executable, "-c", code], env=env, timeout=60).returncode == 0


def test_replacing_names_the_temporary_beside_the_links_target(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "out.md").symlink_to(real / "out.md")
    with replacing(tmp_path / "out.md") as tmp:
        assert tmp.parent == real  # the rename stays on the target's filesystem
        tmp.write_text("x")
    assert (real / "out.md").read_text() == "x"


# ------------------------------------------------------------------ through the commands


def _one_line(result: Result, code: int) -> str:
    """The command failed with a GrillError of exit code `code`, worded in one line."""
    assert isinstance(result.exception, GrillError), result.output
    assert result.exception.exit_code == code
    message = str(result.exception)
    assert "\n" not in message
    return message


def test_report_to_a_fifo_is_refused_and_the_fifo_stays(tmp_path: Path) -> None:
    fifo = _fifo(tmp_path / "log.csv")
    result = runner.invoke(app, ["report", "-o", str(fifo), "--format", "csv"])
    message = _one_line(result, 2)
    assert "it is a named pipe" in message and "-o - writes to standard output" in message
    assert stat.S_ISFIFO(fifo.stat().st_mode) and _leftovers(tmp_path) == []


def test_report_through_a_symlink_writes_its_target(tmp_path: Path) -> None:
    real = tmp_path / "site" / "progress.md"
    real.parent.mkdir()
    real.write_text("last week's\n")
    link = tmp_path / "progress.md"
    link.symlink_to(real)
    assert runner.invoke(app, ["report", "-o", str(link)]).exit_code == 0
    assert link.is_symlink() and real.read_text().startswith("# Progress report")


def test_report_to_standard_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (work := tmp_path / "work").mkdir()
    monkeypatch.chdir(work)
    result = runner.invoke(app, ["report", "-o", "-", "--format", "md"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("# Progress report")
    assert "wrote the md report to standard output" in result.stderr
    assert list(work.iterdir()) == []
    assert "needs --format" in _one_line(runner.invoke(app, ["report", "-o", "-"]), 2)


def test_anki_export_to_a_fifo_is_refused_and_to_dash_is_a_package(tmp_path: Path) -> None:
    fifo = _fifo(tmp_path / "grill.apkg")
    _one_line(runner.invoke(app, ["export", "anki", "-o", str(fifo)]), 2)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    result = runner.invoke(app, ["export", "anki", "-o", "-", "--deck", "training-behaviors"])
    assert result.exit_code == 0, result.output
    assert zipfile.is_zipfile(io.BytesIO(result.stdout_bytes))
    assert "Wrote standard output" in result.stderr


def test_decks_new_to_a_fifo_is_refused_and_to_dash_prints_the_deck(tmp_path: Path) -> None:
    source = tmp_path / "q.csv"
    source.write_text(CSV)
    fifo = _fifo(tmp_path / "mine.yaml")
    args = ["decks", "new", "mine", "--from-csv", str(source), "-o"]
    _one_line(runner.invoke(app, [*args, str(fifo), "--force"]), 2)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    result = runner.invoke(app, [*args, "-"])
    assert result.exit_code == 0, result.output
    assert "deck: mine" in result.stdout and "Why warmup?" in result.stdout
    assert "wrote deck 'mine'" in result.stderr


def test_config_set_on_a_symlinked_config_writes_through(grill_home: Path, tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "grill.toml"
    real.parent.mkdir()
    real.write_text("# mine\nnew_per_day = 5\n")
    grill_home.mkdir()
    (grill_home / "config.toml").symlink_to(real)
    assert runner.invoke(app, ["config", "set", "target", "30"]).exit_code == 0
    assert (grill_home / "config.toml").is_symlink()
    assert real.read_text() == "# mine\nnew_per_day = 5\ntarget = 30\n"


def test_config_set_on_a_fifo_is_refused(grill_home: Path) -> None:
    grill_home.mkdir()
    fifo = _fifo(grill_home / "config.toml")
    _one_line(runner.invoke(app, ["config", "set", "target", "30"]), 2)
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_sigterm_during_report_leaves_no_temporary_file(tmp_path: Path) -> None:
    # the Markdown writer is made to receive SIGTERM halfway, as a `kill` would deliver it
    code = (
        "import os, signal, sys, time\n"
        "import grill.report as report\n"
        "def halfway(data):\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    time.sleep(30)\n"
        "report.FORMATS['md'] = halfway\n"
        "from grill.cli import main\n"
        "sys.argv = ['grill', 'report', '-o', sys.argv[1]]\n"
        "main()\n"
    )
    out = tmp_path / "out"
    out.mkdir()
    (out / "progress.md").write_text("the previous report\n")
    run = subprocess.run(
        [sys.executable, "-c", code, str(out / "progress.md")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 128 + signal.SIGTERM, run.stderr
    assert "Traceback" not in run.stderr
    assert sorted(p.name for p in out.iterdir()) == ["progress.md"]
    assert (out / "progress.md").read_text() == "the previous report\n"


def test_decks_new_to_a_symlink_loop_is_one_line(tmp_path: Path) -> None:
    source = tmp_path / "q.csv"
    source.write_text(CSV)
    (tmp_path / "a.yaml").symlink_to(tmp_path / "b.yaml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "a.yaml")
    args = ["decks", "new", "mine", "--from-csv", str(source), "-o", str(tmp_path / "a.yaml")]
    message = _one_line(runner.invoke(app, args), 1)
    assert message.endswith("a.yaml: Too many levels of symbolic links")
