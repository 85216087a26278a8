"""Where grill keeps things: the data folder (GRILL_HOME), user decks, the built-in decks."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["builtin_decks_dir", "db_path", "grill_home", "user_decks_dir"]


def grill_home() -> Path:
    """The data folder: `$GRILL_HOME`, else the platform's user data dir for grill."""
    env = os.environ.get("GRILL_HOME")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("grill", appauthor=False))


def user_decks_dir() -> Path:
    """Every `*.yaml` here is loaded beside the built-in decks."""
    return grill_home() / "decks"


def db_path() -> Path:
    """The SQLite database holding card state and the review log."""
    return grill_home() / "grill.db"


def builtin_decks_dir() -> Path:
    """The decks shipped with grill: inside the wheel when installed, `decks/` in a checkout."""
    packaged = Path(__file__).resolve().parent / "decks"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "decks"
