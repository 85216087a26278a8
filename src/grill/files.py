"""Files a user names: read with a bound, written without harm to what is not grill's.

Reading (`read_capped`): at most a given number of bytes is read from a file, a pipe, a device
or standard input (`-`), so `/dev/zero`, `yes |` or a FIFO never fills the memory; `st_size`
is not trusted (a device or a pipe says 0).

Writing (`write_atomically`, `open_output`, `output_path`): the bytes go to a temporary file
beside the target, then `os.replace` swaps it in, so readers see the old file or the new one,
never a mix, and a failure halfway leaves the old one. The target is what a symlink points to
(a dotfiles repo's `config.toml` stays a link), and it must be a regular file or a new one: a
FIFO, a device or a folder is refused with one line (a UsageError, exit 2), since the rename
would put a regular file in its place (as root, `-o /dev/null` would replace the device). `-`
is standard output. A SIGTERM while the temporary file exists removes it before the process
ends. A write that fails (a full disk, a path under a file) is one GrillError naming the file.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import BinaryIO, TextIO

from grill.errors import GrillError, UsageError

__all__ = [
    "STDOUT",
    "STDOUT_HINT",
    "InputTooLarge",
    "is_stdout",
    "kind_of",
    "open_output",
    "output_path",
    "read_capped",
    "replacing",
    "target_of",
    "write_atomically",
]

STDOUT = "-"
"""The output path that means standard output (`-o -`)."""
STDOUT_HINT = " (-o - writes to standard output)"
"""Added to a refused `-o` path: what to write instead, for a pipe or a terminal."""


class InputTooLarge(UsageError):
    """A file or stream holds more than the reader's bound."""


def is_stdout(path: Path | str) -> bool:
    """Whether `path` is `-`, standard output."""
    return str(path) == STDOUT


def read_capped(path: Path | str, limit: int, too_large: str) -> bytes:
    """The bytes of `path` (`-`: standard input), at most `limit` of them; when there are more,
    raise InputTooLarge saying `{path}: {too_large}`. OSError is left to the caller."""
    if is_stdout(path):
        return _capped(sys.stdin.buffer, limit, f"standard input: {too_large}")
    with open(path, "rb") as stream:
        return _capped(stream, limit, f"{path}: {too_large}")


def _capped(stream: BinaryIO, limit: int, message: str) -> bytes:
    data = stream.read(limit + 1)  # one byte more tells that there is more
    if len(data) > limit:
        raise InputTooLarge(message)
    return data


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def kind_of(mode: int) -> str:
    """What a file of this `st_mode` is, in words: a folder, a named pipe, a device, ..."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def target_of(path: Path, hint: str = "") -> Path:
    """The file that writing `path` replaces: where its symlinks lead. Raise UsageError (with
    `hint` appended) when that is something other than a regular file or a new one."""
    real = Path(os.path.realpath(path))
    try:
        st = os.stat(real)
    except FileNotFoundError:
        return real  # a new file (or a dangling link's target, made now)
    except OSError as exc:
        raise GrillError(f"cannot write {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise UsageError(
            f"cannot write {path}: it is {kind_of(st.st_mode)}, and grill replaces only"
            f" regular files{hint}"
        )
    return real


@contextlib.contextmanager
def replacing(path: Path, hint: str = "") -> Iterator[Path]:
    """A temporary path to write; when the block ends without error it replaces `path`'s
    target (see `target_of`), keeping that file's permissions. Any failure removes it."""
    target = target_of(path, hint)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with _removed_on_sigterm():
            target.parent.mkdir(parents=True, exist_ok=True)
            yield tmp
            with contextlib.suppress(FileNotFoundError):
                os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
            os.replace(tmp, target)
    except OSError as exc:  # the environment failed (a full disk, no folder): exit 1
        raise GrillError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


@contextlib.contextmanager
def open_output(path: Path, *, newline: str | None = None, hint: str = "") -> Iterator[TextIO]:
    """A UTF-8 text stream to write `path` through (see `replacing`); `-`: standard output."""
    if is_stdout(path):
        yield sys.stdout
        sys.stdout.flush()
        return
    with replacing(path, hint) as tmp, tmp.open("w", encoding="utf-8", newline=newline) as out:
        yield out


@contextlib.contextmanager
def output_path(path: Path, hint: str = "") -> Iterator[Path]:
    """A path for a writer that takes a file name (see `replacing`); for `-`, a scratch file
    whose bytes go to standard output at the end."""
    if not is_stdout(path):
        with replacing(path, hint) as tmp:
            yield tmp
        return
    with tempfile.TemporaryDirectory(prefix="grill-out-") as scratch:
        tmp = Path(scratch) / "output"
        yield tmp
        with tmp.open("rb") as data:
            shutil.copyfileobj(data, sys.stdout.buffer)
        sys.stdout.buffer.flush()


def write_atomically(path: Path, text: str, hint: str = "") -> None:
    """Replace `path`'s target with `text` (UTF-8) in one step, creating its folder if needed;
    `-` writes it to standard output."""
    with open_output(path, hint=hint) as out:
        out.write(text)


class _Terminated(SystemExit):
    """SIGTERM while a temporary file exists: unwinds, so that it is removed, then exits."""


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise _Terminated(128 + signum)


@contextlib.contextmanager
def _removed_on_sigterm() -> Iterator[None]:
    """While the block runs, SIGTERM raises instead of ending the process at once (signals can
    be handled only in the main thread; elsewhere the block runs as it is)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
