"""Other formats grill's decks can be written to (Anki). Each writer lives in its own module and
imports its third-party library itself, so `grill` starts without loading any of them."""

__all__: list[str] = []
