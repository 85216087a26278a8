"""Writing the files a user keeps (settings, decks) so that a crash never leaves half a file.

The text goes to a temporary file beside the target, then `os.replace` swaps it in: readers see
the old file or the new one, never a mix. A failure is one UsageError naming the file.
"""

from __future__ import annotations

import os
from pathlib import Path

from grill.errors import UsageError

__all__ = ["write_atomically"]


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text` (UTF-8) in one step, creating its folder if needed."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
