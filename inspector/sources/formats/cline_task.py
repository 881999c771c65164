"""The tasks of the VS Code extensions Cline, Roo Code and Kilo Code:
`<Code>/User/globalStorage/<extension id>/tasks/<id>/api_conversation_history.json`.

Shape read: a JSON list of Anthropic messages (`text`, `tool_use`, `tool_result` blocks, a string
content too) with the extensions' own keys (`ts`; Cline's `modelInfo {modelId, providerId, mode}`
and `metrics`; Roo Code's `isSummary`, `condenseParent`, ...), kept as they are. A user message
ends with an `<environment_details>` block; the first one wraps the task in `<task>` (Cline) or
`<user_message>` (Roo Code, Kilo Code). Until the extensions called tools natively, the model
wrote its calls as XML in its text (`<read_file><path>notes.txt</path></read_file>`) and the
extension answered in the user's text (`[read_file for 'notes.txt'] Result:\\n...`): those are
read as the reply's calls and their results (`_cline_task_xml`), not as markup printed by
mistake. Cline's native results open with the same description, read as the content after it.
A user message holding only results (and the environment's details) is a tool turn. A task's
last reply, an `attempt_completion` that ends it, is read as that reply's text (its `result`):
it waits for no answer.

Positive marker: a list of messages in which a user text block starts with `<task>`,
`<user_message>` or `<environment_details>`, which only these extensions write. The task's
`ui_messages.json` (what the chat shows), `task_metadata.json` and `state/taskHistory.json` beside
it are not read: the API history is the conversation.

Read-only: the extensions reopen a task from this file, but they run only inside VS Code, where a
repaired file could not be checked to load; `fix --to openai` exports it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from inspector.model import ASSISTANT, TOOL, USER, Session, ToolCall, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats._cline_task_xml import result_header, xml_calls
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.anthropic_messages import ROLES, is_text_block, message_turn
from inspector.sources.messages.message_survey import keysets, survey_messages
from inspector.sources.messages.turn_models import model_name
from inspector.sources.unread_records import Unread, UnreadTally

NAME = "cline-task"
MARKERS = ("<task>", "<user_message>", "<environment_details>")
ENVIRONMENT = "<environment_details>"
COMPLETION = "attempt_completion"
FAILED = "The tool execution failed"  # how Cline's result of a failed call starts
LOOKED_AT = 50  # messages claims looks at
_EXTENSION_KEYS = (
    "ts modelInfo metrics isSummary condenseId condenseParent truncationId truncationParent isTruncationMarker"
)
# The keys the three extensions write on each record type (Cline's native calls add `call_id`).
KNOWN_KEYS = keysets(
    {
        "message/user": f"role content {_EXTENSION_KEYS}",
        "message/assistant": f"role content id reasoning_details {_EXTENSION_KEYS}",
        "block/text": "type text",
        "block/tool_use": "type id name input call_id",
        "block/tool_result": "type tool_use_id content is_error call_id",
        "block/thinking": "type thinking signature",
        "block/redacted_thinking": "type data",
        "block/image": "type source",
    }
)


def claims(document: Document) -> bool:
    """A list of messages with a user text block only these extensions write."""
    value = document.value
    if document.is_jsonl or not isinstance(value, list) or not value:
        return False
    return any(
        isinstance(message, dict)
        and message.get("role") == "user"
        and any(_starts_with_marker(block) for block in _blocks(message)[:LOOKED_AT])
        for message in value[:LOOKED_AT]
    )


def read(document: Document) -> list[Session]:
    """The task's one session: XML calls and text results read as calls and results."""
    turns: list[Turn] = []
    problems: list[str] = []
    names: dict[str, str] = {}
    for position, message in enumerate(document.value):
        if not isinstance(message, dict) or not (type(message.get("role")) is str and message["role"] in ROLES):
            problems.append(f"message {position}: not a message with a user or assistant role, skipped")
            continue
        turn = message_turn(position, message, names)
        turns.append(_with_xml_calls(turn, message) if turn.role == ASSISTANT else _with_text_results(turn, message))
    if turns and turns[-1].role == ASSISTANT:
        turns[-1] = _completed(turns[-1])
    return [Session(NAME, document.path, tuple(turns), (), document, 0, None, tuple(problems))]


def _completed(last: Turn) -> Turn:
    """The task's last reply: an `attempt_completion` that ends the task waits for no result, so
    what it says (its `result`) is read as the reply's text rather than as a call."""
    if not last.tool_calls or any(call.name != COMPLETION for call in last.tool_calls):
        return last
    said = [call.arguments.get("result") for call in last.tool_calls if call.arguments]
    text = "\n\n".join(part for part in (last.text, *said) if isinstance(part, str) and part)
    return replace(last, text=text, tool_calls=())


def _with_xml_calls(turn: Turn, message: dict[str, Any]) -> Turn:
    text, calls = xml_calls(turn.text)
    info = message.get("modelInfo")
    model = model_name(info.get("modelId")) if isinstance(info, dict) else None
    if not calls and not model:
        return turn
    return _rebuilt(turn, turn.role, text, (*turn.tool_calls, *calls), turn.tool_results, model)


def _with_text_results(turn: Turn, message: dict[str, Any]) -> Turn:
    """A user turn with the results its text blocks hold; a tool turn when, beside the environment's
    details, it holds nothing else."""
    results: list[ToolResult] = []
    said: list[str] = []
    answered = False
    for block in _blocks(message):
        if not is_text_block(block):
            answered = answered or (isinstance(block, dict) and block.get("type") == "tool_result")
            continue
        header = result_header(block["text"])
        if header is not None:
            results.append(ToolResult(None, header[0], header[1], header[1].startswith(FAILED)))
        elif results and not block["text"].startswith(ENVIRONMENT):
            last = results[-1]  # the blocks a result goes on with (a completion's feedback)
            content = "\n".join(filter(None, (last.content, block["text"])))
            results[-1] = ToolResult(last.call_id, last.name, content, last.is_error)  # (quicker than `replace`)
        elif not block["text"].startswith(ENVIRONMENT):
            said.append(block["text"])
    if not results and not answered:
        return turn
    role = TOOL if not said and (results or turn.tool_results) else USER
    native = tuple(_described(result) for result in turn.tool_results)
    return _rebuilt(turn, role, "".join(said), turn.tool_calls, (*native, *results), turn.model)


def _rebuilt(
    turn: Turn,
    role: str,
    text: str,
    calls: tuple[ToolCall, ...],
    results: tuple[ToolResult, ...],
    model: str | None,
) -> Turn:
    """`turn` with what reading the extensions' text changed: built directly rather than through
    `dataclasses.replace`, which costs several times more on every message of a long task."""
    return Turn(turn.position, role, text, turn.id, calls, results, turn.raw, turn.edited, model)


def _described(result: ToolResult) -> ToolResult:
    """A native result whose content Cline opens with the call's description: its content after it."""
    header = result_header(result.content) if isinstance(result.content, str) else None
    if header is None:
        return result
    return replace(result, content=header[1], is_error=result.is_error or header[1].startswith(FAILED))


def _blocks(message: dict[str, Any]) -> list[Any]:
    content = message.get("content")
    return content if isinstance(content, list) else []


def _starts_with_marker(block: Any) -> bool:
    return is_text_block(block) and block["text"].startswith(MARKERS)


def survey(document: Document) -> tuple[Unread, ...]:
    """The message roles and block types the reader does not know, and the keys it does not know
    on the messages and their blocks (the task file names no version)."""
    tally = UnreadTally(KNOWN_KEYS)
    survey_messages(tally, document.value, None)
    return tally.unread()


FORMAT = FileFormat(NAME, claims, read, survey=survey)
