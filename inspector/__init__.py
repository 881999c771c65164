"""inspector: find and repair broken LLM tool calls in agent sessions.

The core (model, formats, detectors, repair, export, CLI) never imports Textual; the TUI in
`inspector.tui` composes it.
"""

__version__ = "0.1.0"
