"""What every agent's hook shares once it has the findings of the last reply: which to block on,
which only to tell the person about, what to remember, and the answer in the shape the agents
read (`{"decision": "block", "reason": ...}`, `systemMessage`); and the run around it, which
never fails the agent (an error of the hook's own is one line on stderr, and it exits 0).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

from inspector.hooks.hook_settings import BLOCK, WARN, HookSettings

if TYPE_CHECKING:
    from inspector.model import Finding


def run_hook(
    answer: Callable[[Any, IO[str]], dict[str, str]], stdin: IO[bytes], stdout: IO[str], stderr: IO[str]
) -> int:
    """Run `answer` on the JSON read from `stdin`; its answer, if any, goes to `stdout`. Always 0."""
    try:
        said = answer(json.loads(stdin.read()), stderr)
    except Exception as error:  # the hook's own failure must never stop the agent
        stderr.write(f"inspector hook: {one_line(_worded(error))}\n")
        return 0
    if said:
        stdout.write(json.dumps(said) + "\n")
    return 0


def verdict(
    findings: list[Finding], blocked: list[str], settings: HookSettings, retry: bool
) -> tuple[dict[str, str], list[str]]:
    """The answer for the reply's `findings` (a block, a note to the person, or nothing) and the
    keys of the findings blocked on, `blocked` followed by the new ones. A finding already blocked
    on is left; with `retry` (the reply follows a block) nothing blocks, the person is only told."""
    known = set(blocked)
    fresh = [finding for finding in findings if finding_key(finding) not in known]
    actions = [(finding, settings.action(finding.kind, finding.severity, finding.executed)) for finding in fresh]
    to_block = [] if retry else [finding for finding, action in actions if action == BLOCK]
    to_warn = [finding for finding, action in actions if action in (BLOCK, WARN) and finding not in to_block]
    kept = blocked + [finding_key(finding) for finding in to_block]
    if not (to_block or to_warn):
        return {}, kept
    from inspector.guard.reasons import block_reason, warning_note

    answer = {"decision": "block", "reason": block_reason(to_block)} if to_block else {}
    if to_warn:
        answer["systemMessage"] = warning_note(to_warn)
    return answer, kept


def finding_key(finding: Finding) -> str:
    """What names a finding across calls: its kind, where in its turn it is, and a checksum of its
    message (which quotes what was found), not the turn's id: a reply read from the hook's input
    before the transcript held it has no id of its own yet."""
    import zlib

    span = f"{finding.span[0]}-{finding.span[1]}" if finding.span is not None else ""
    return f"{finding.kind}:{span}:{zlib.crc32(finding.message.encode('utf-8', 'replace')):08x}"


def _worded(error: Exception) -> str:
    """What went wrong, in words: the input that is not JSON and where, the file that cannot be
    read or written and why (not Python's `[Errno 2] ...`)."""
    if isinstance(error, json.JSONDecodeError):
        from inspector.support.json_error_words import what_is_wrong

        return f"the hook's input is not JSON ({what_is_wrong(error)} at line {error.lineno} column {error.colno})"
    if isinstance(error, OSError) and error.filename is not None:
        return f"{error.filename}: {error.strerror or error}"
    return str(error) or type(error).__name__


def one_line(error: object) -> str:
    """An error as one line for stderr, terminal escapes neutralised."""
    from inspector.support.safe_text import one_line as safe_line

    return safe_line(str(error) or type(error).__name__)
