"""`python -m nardy_cli` runs the command line."""

from .commands.cli import main

main()
