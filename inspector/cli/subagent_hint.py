"""After the text report of session files named one by one: the transcripts of the subagents a
session ran, which its agent keeps in files of their own beside it and the scan did not read
(`inspector scan ~/.claude/projects/P/ID.jsonl` reads the main thread alone), named with the
command that reads them. The agents' places are looked at only for a file of a format whose agent
keeps its subagents apart, and that agent's alone, so a scan of any other file loads nothing more."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path

from inspector.scan.summary import SessionSummary
from inspector.support.counted_words import counted
from inspector.support.safe_text import neutralise, shown_name

# The formats of the agents that keep a subagent's transcript in a file of its own beside its
# session, each with its agent's module in `discovery` (the agents with `subagents`).
SUBAGENT_FORMATS = {
    "claude-code": "claude_code",
    "gemini-cli": "gemini_cli",
    "kimi-code": "kimi_code",
    "qwen-code": "qwen_code",
}


def subagent_hints(named: Sequence[Path], read: Sequence[Path], found: Sequence[SessionSummary]) -> list[str]:
    """A line for each session file of `named` (the paths given) that ran subagents whose
    transcripts are not among the files `read`: how many, and the command that reads them."""
    formats = {summary.path: summary.format for summary in found}
    read_already = set(read)
    hints = []
    for path in dict.fromkeys(named):
        agent_module = SUBAGENT_FORMATS.get(formats.get(path) or "")
        if agent_module is None:
            continue
        from inspector.sources.discovery import subagents_beside  # for these formats only

        unread = [each for each in subagents_beside(path, agent_module) if each not in read_already]
        if unread:
            hints.append(_hint(path, unread))
    return hints


def _hint(path: Path, subagents: list[Path]) -> str:
    """The line for `path`: the transcripts named, or their folder when they are several in a folder
    of their own (not the session's, which holds other sessions)."""
    folders = {each.parent for each in subagents}
    own_folder = len(folders) == 1 and len(subagents) > 1 and path.parent not in folders
    targets = [folders.pop()] if own_folder else subagents
    command = " ".join(shlex.quote(str(target)) for target in targets)
    ran = counted(len(subagents), "subagent, whose transcript", "subagents, whose transcripts")
    return (
        f"inspector: {shown_name(path.name)} ran {ran} its agent keeps beside it, not read here:"
        f" inspector scan {neutralise(command)}"
    )
