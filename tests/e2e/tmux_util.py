"""Helpers shared by the tests that drive grill in a real terminal through tmux."""

from __future__ import annotations

__all__ = ["wait_for_width"]


def wait_for_width(width: int) -> str:
    """Shell that waits until the pane has its width: a loaded machine can start the command
    before tmux has sized the window, and grill reads the width once, at start-up."""
    return f'until [ "$(stty size | cut -d" " -f2)" = {width} ]; do sleep 0.05; done;'
