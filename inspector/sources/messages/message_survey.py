"""The survey of a list of chat messages (`scan --unknowns`), shared by the formats that keep
Anthropic's or OpenAI's messages with their tool's own keys (Cline, Cline's extensions, Kimi CLI,
SWE-agent, Copilot CLI's older store): a message of a role the reader does not know is counted as
the record type `message/<role>`, a content block of a type it does not know as `block/<type>`,
and on the messages, blocks and OpenAI tool calls (`tool_call`, their `function` as `tool_call
function`) it reads, each key it does not know under that record type."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from inspector.sources.unread_records import UnreadTally

TOOL_CALL = "tool_call"
FUNCTION = "tool_call function"


def keysets(table: Mapping[str, str]) -> dict[str, frozenset[str]]:
    """`{record type: "key key ..."}` as the known keys an `UnreadTally` takes."""
    return {kind: frozenset(keys.split()) for kind, keys in table.items()}


def survey_messages(tally: UnreadTally, messages: Iterable[Any], version: str | None) -> None:
    """Count what `tally`'s reader does not know in `messages` (see the module's docstring); a
    value that is not an object is the reader's problem, not a record type."""
    for message in messages:
        if type(message) is not dict:
            continue
        role = message.get("role")
        kind = f"message/{role}" if type(role) is str else "message"
        if not tally.knows(kind):
            tally.unknown_type(kind, version)
            continue
        tally.keys(kind, message, version)
        content = message.get("content")
        for block in content if type(content) is list else ():
            survey_block(tally, block, version)
        calls = message.get("tool_calls")
        for call in calls if type(calls) is list and tally.knows(TOOL_CALL) else ():
            if type(call) is dict:
                tally.keys(TOOL_CALL, call, version)
                if type(call.get("function")) is dict:
                    tally.keys(FUNCTION, call["function"], version)


def survey_block(tally: UnreadTally, block: Any, version: str | None) -> None:
    """Count a content block of a type not known (`block/<type>`), or its keys not known."""
    if type(block) is not dict:
        return
    kind = f"block/{block['type']}" if type(block.get("type")) is str else "block"
    if tally.knows(kind):
        tally.keys(kind, block, version)
    else:
        tally.unknown_type(kind, version)
