"""Allow `python -m inspector`."""

from inspector.cli.main import run

run()
