"""inspector: find and repair broken LLM tool calls in agent sessions.

The names in `__all__` are the library (`docs/python-api.md`): open a session file or a history,
scan it, look at the findings, apply their fixes and write the repaired sessions with their
audit; or check one reply inside an agent's loop (`check_reply`). Each is imported when first used, so `import inspector` loads none of the readers,
detectors or writers (nor Textual, PostgreSQL's driver or Spark).

The core (model, formats, detectors, repair, export, CLI) never imports Textual; the TUI in
`inspector.tui` composes it.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

__version__ = "0.1.0"

__all__ = [
    "AppliedFix",
    "Check",
    "Chosen",
    "Finding",
    "Fix",
    "InspectorError",
    "ScanResult",
    "Session",
    "Source",
    "ToolCall",
    "ToolResult",
    "ToolSpec",
    "Turn",
    "WriteOutcome",
    "__version__",
    "apply_fixes",
    "check_reply",
    "detect_findings",
    "iter_scan",
    "load_tools_file",
    "open_source",
    "scan_file",
    "write_repaired",
]

# The module that defines each public name, imported on first use of the name.
_DEFINED_IN = {
    "InspectorError": "inspector.errors",
    **dict.fromkeys(
        ("Session", "Turn", "ToolCall", "ToolResult", "ToolSpec", "Finding", "Fix", "AppliedFix"), "inspector.model"
    ),
    "load_tools_file": "inspector.support.tools_file",
    "Source": "inspector.sources.base",
    "open_source": "inspector.sources",
    **dict.fromkeys(("ScanResult", "scan_file", "iter_scan"), "inspector.scan.scanner"),
    "detect_findings": "inspector.detect",
    **dict.fromkeys(("Check", "check_reply"), "inspector.guard.reply_check"),
    "apply_fixes": "inspector.repair.apply",
    **dict.fromkeys(("Chosen", "WriteOutcome", "write_repaired"), "inspector.repair.write"),
}

if TYPE_CHECKING:
    from inspector.detect import detect_findings
    from inspector.errors import InspectorError
    from inspector.guard.reply_check import Check, check_reply
    from inspector.model import AppliedFix, Finding, Fix, Session, ToolCall, ToolResult, ToolSpec, Turn
    from inspector.repair.apply import apply_fixes
    from inspector.repair.write import Chosen, WriteOutcome, write_repaired
    from inspector.scan.scanner import ScanResult, iter_scan, scan_file
    from inspector.sources import open_source
    from inspector.sources.base import Source
    from inspector.support.tools_file import load_tools_file


def __getattr__(name: str) -> object:
    """A public name, imported from its module on first use (and kept here after)."""
    if name not in __all__ or name not in _DEFINED_IN:
        raise AttributeError(f"module 'inspector' has no attribute {name!r}")
    value = getattr(import_module(_DEFINED_IN[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
