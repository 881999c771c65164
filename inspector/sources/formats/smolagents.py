"""smolagents 1.2x agent memories: `agent.memory.get_full_steps()` dumped as a JSON list.

Shape read, one record per step:
- `{"task", "task_images"}` (a `TaskStep`): the user's task, a user turn;
- `{"system_prompt"}`: a system turn; `{"plan", "model_output_message", ...}` (a
  `PlanningStep`): the plan, an assistant turn;
- `{"step_number", "model_output_message": {role, content, tool_calls: [{id, type, function:
  {name, arguments: <JSON text> | object}}]}, "tool_calls", "observations", "error": {type,
  message}, "model_output", ...}` (an `ActionStep`): an assistant turn with the message's text
  and calls (as the model sent them, a raw argument string included; the step's own
  `tool_calls` lists only the calls smolagents could run), then a tool turn answering them with
  the step's `observations`, or with its `error` message as an error result when the calls
  failed. A step whose error is a parsing error with no call is a text reply smolagents could
  not read a call from: its text is scanned like any reply.
`model_input_messages` repeats the whole prompt at every step and is not read.

Turns are numbered in order (a step gives two). Positive marker: the list holds `ActionStep`
records (`step_number` with `model_output_message`). smolagents does not load a memory back
from this dump, so the format is read-only (it has no writer).
"""

from __future__ import annotations

from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.openai_calls import read_tool_calls
from inspector.sources.messages.text_parts import content_text
from inspector.support.counted_words import counted

NAME = "smolagents"
UNREAD_STEPS = (  # what one and several are called
    "step of an unknown shape not read as turns",
    "steps of an unknown shape not read as turns",
)


def claims(document: Document) -> bool:
    """A list of memory steps with at least one action step."""
    value = document.value
    if document.is_jsonl or not isinstance(value, list) or not value:
        return False
    sample = value[:50]
    return all(isinstance(step, dict) and _kind(step) is not None for step in sample) and any(
        _kind(step) == "action" for step in sample
    )


def read(document: Document) -> list[Session]:
    """The agent's memory as one conversation."""
    turns: list[Turn] = []
    unread = 0
    for step in document.value:
        kind = _kind(step) if isinstance(step, dict) else None
        if kind == "task" and isinstance(step["task"], str):
            turns.append(Turn(len(turns), USER, step["task"], None, (), (), step))
        elif kind == "system" and isinstance(step["system_prompt"], str):
            turns.append(Turn(len(turns), SYSTEM, step["system_prompt"], None, (), (), step))
        elif kind == "plan" and isinstance(step["plan"], str):
            turns.append(Turn(len(turns), ASSISTANT, step["plan"], None, (), (), step))
        elif kind == "action":
            turns.extend(_action_turns(step, len(turns)))
        else:
            unread += 1
    problems = (counted(unread, *UNREAD_STEPS),) if unread else ()
    return [Session(NAME, document.path, tuple(turns), (), document, 0, None, problems)]


def _kind(step: dict[str, Any]) -> str | None:
    if "step_number" in step and "model_output_message" in step:
        return "action"
    if "task" in step:
        return "task"
    if "plan" in step:
        return "plan"
    if "system_prompt" in step:
        return "system"
    return None


def _action_turns(step: dict[str, Any], position: int) -> list[Turn]:
    message = step.get("model_output_message")
    message = message if isinstance(message, dict) else {}
    stored = message.get("tool_calls") if message.get("tool_calls") else step.get("tool_calls")
    calls = read_tool_calls(stored)
    text = content_text(message.get("content")) if message else content_text(step.get("model_output"))
    number = step.get("step_number")
    step_id = f"step {number}" if isinstance(number, int) else None
    turns = [Turn(position, ASSISTANT, text, step_id, calls, (), step)]
    error = step.get("error")
    if not isinstance(error, dict):
        error = None
    observations = step.get("observations")
    if calls and (observations is not None or error is not None):
        failed = observations is None
        content = error.get("message") if failed and error is not None else observations  # failed: an error
        results = tuple(ToolResult(call.id, call.name, content, failed) for call in calls)
        turns.append(Turn(position + 1, TOOL, "", None, (), results, step))
    return turns


FORMAT = FileFormat(NAME, claims, read)
