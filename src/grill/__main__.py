"""`python -m grill` runs the command-line interface."""

from grill.cli import main

main()
