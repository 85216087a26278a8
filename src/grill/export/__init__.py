"""Formats other than grill's own YAML: Anki packages out (`anki`), CSV question lists in
(`csv_deck`). Each module imports its third-party library itself, and the CLI imports a module
only when its command runs, so `grill` starts without loading any of them."""

__all__: list[str] = []
