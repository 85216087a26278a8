"""The pieces of `scripts/bench`: a seeded fixture of large decks and a long review history
(`fixture`), process timing with wall time and peak memory (`timing`), and the registry of
named measurements with their targets (`measures`). Not part of the installed product."""
