"""Reading a Copilot CLI event log (`events.jsonl`) into sessions: which events are turns, which
are kept as they are, and the calls whose arguments the CLI could not parse.

An event is `{"type", "data", "id", "timestamp", "parentId"}` (a subagent's events add `agentId`).
Four types are turns: `user.message` (`data.content`: what the person typed; the `transformedContent`
sent to the model adds the date), `system.message`, `assistant.message` (`content`, `model`,
`toolRequests: [{toolCallId, name, arguments: object}]`) and `tool.execution_complete`
(`toolCallId`, `success`, `result.content` or `error.message`). Every other type the CLI's event
schema (1.0) lists is kept in place, never a turn; a type it does not list is counted in the
problems.

A call whose arguments were not JSON is stored with `arguments: {}` and answered by a failed
`tool.execution_complete` whose `toolTelemetry.properties.wasSyntaxError` is `"true"`; the raw text
is not kept, so the call is read with the CLI's parse error as its arguments (not JSON: it is
flagged `malformed-arguments`, with no repair to propose).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from inspector.model import ARGUMENTS_LOST, ASSISTANT, SYSTEM, TOOL, USER, ToolCall, ToolResult, Turn
from inspector.sources.files.document import BadLine
from inspector.sources.messages.turn_models import model_name
from inspector.support.counted_words import counted

Event = dict[str, Any]

ROLES = {"user.message": USER, "system.message": SYSTEM, "assistant.message": ASSISTANT}
RESULT = "tool.execution_complete"
START = "session.start"
# The other event types of the CLI's session-events schema (1.0.102): kept in place, never a turn.
KNOWN_TYPES = frozenset(
    f"{group}.{name}"
    for group, names in {
        "session": "start resume remote_steerable_changed error idle autopilot_stopped title_changed "
        "schedule_created schedule_cancelled schedule_rearmed autopilot_objective_changed info indexed_search "
        "warning model_change model_deselected auto_tier_recommendation auto_tier_switch_failed mode_changed "
        "mode_notice_delivered session_limits_changed permissions_changed plan_changed todos_changed "
        "memory_changed workspace_file_changed handoff truncation snapshot_rewind shutdown usage_checkpoint "
        "quota_observation usage_record fusion_change_checkpoint request_body_compression_disabled "
        "context_changed usage_info context_cleared compaction_start compaction_complete task_complete "
        "completion_receipt fusion_route_started fusion_route_failed fusion_resolved fusion_handoff "
        "fusion_commit_started fusion_completed permission_recovery binary_asset custom_notification "
        "auto_mode_resolved managed_plugin_progress managed_settings_resolved managed_settings_enforced "
        "tools_updated background_tasks_changed skills_loaded custom_agents_updated mcp_servers_loaded "
        "mcp_server_status_changed mcp_server_tools_loaded mcp_server_removed mcp_server_needs_reconnect "
        "extensions_loaded canvas.opened canvas.registry_changed canvas.closed canvas.unavailable "
        "canvas.recorded canvas.removed extensions.attachments_pushed",
        "assistant": "turn_start turn_retry intent fusion_phase_started fusion_phase_activity "
        "fusion_phase_completed fusion_phase_failed server_tool_progress reasoning reasoning_delta "
        "tool_call_delta streaming_delta message_start message_delta turn_end idle usage",
        "tool": "user_requested execution_start execution_partial_result shell_output execution_progress",
        "skill": "invoked invoked_ref context_delivered context_delivered_ref",
        "subagent": "started configured completed failed selected deselected",
        "hook": "start end progress",
        "permission": "requested completed carriedForward messageAuthorization messageAuthorizationRead "
        "messageAuthorizationDegraded assentDetected contextualAuthorization",
        "model": "call_failure call_final_result call_finished call_start",
        "mcp": "oauth_required oauth_completed oauth_recovery_completed headers_refresh_required "
        "headers_refresh_completed tools.list_changed resources.list_changed prompts.list_changed",
        "workflow": "run_updated run_started run_settled",
        "system": "notification",
        "pending_messages": "modified",
        "agent": "interrupted",
        "tool_search": "activated",
        "sandbox": "decision",
        "user_input": "requested completed",
        "elicitation": "requested completed",
        "sampling": "requested completed",
        "ui": "ephemeral_query",
        "external_tool": "requested completed",
        "command": "queued execute completed",
        "commands": "changed",
        "capabilities": "changed",
        "auto_mode_switch": "requested completed",
        "session_limits_exhausted": "requested completed",
        "exit_plan_mode": "requested completed",
        "human_response": "recorded",
        "mcp_app": "tool_call_complete",
    }.items()
    for name in names.split()
) | {"abort", "prompt_cache_break"}


def agent_of(event: Any) -> str | None:
    """The subagent whose thread an event belongs to (its `agentId`); None for the main thread."""
    agent = event.get("agentId") if type(event) is dict else None
    return agent if type(agent) is str else None


def threads(records: list[Any]) -> dict[str | None, list[int]]:
    """The lines of each thread, in file order: the main one (None) first, then each subagent's."""
    found: dict[str | None, list[int]] = {None: []}
    for index, record in enumerate(records):
        found.setdefault(agent_of(record), []).append(index)
    return found


def unparsed_calls(records: list[Any]) -> dict[str, str]:
    """The ids of the calls whose arguments the CLI could not parse, each with its parse error."""
    found: dict[str, str] = {}
    for record in records:
        data = record.get("data") if type(record) is dict and record.get("type") == RESULT else None
        if type(data) is not dict or data.get("success") is not False:
            continue
        telemetry = data.get("toolTelemetry")
        properties = telemetry.get("properties") if type(telemetry) is dict else None
        if type(properties) is dict and properties.get("wasSyntaxError") == "true":
            error = data.get("error")
            message = error.get("message") if type(error) is dict else None
            found[str(data.get("toolCallId"))] = message if type(message) is str else "the arguments were not JSON"
    return found


class ThreadReader:
    """Reads the events of one thread into turns, counting what it cannot read."""

    def __init__(self, unparsed: dict[str, str]) -> None:
        self.unparsed = unparsed
        self.names: dict[str, str] = {}  # call id -> tool name, for the results
        self.turns: list[Turn] = []
        self.unknown: Counter[str] = Counter()
        self.unreadable = 0
        self.bad_lines: list[BadLine] = []

    def read(self, position: int, record: Any) -> None:
        """Read the event on line `position`: a turn, kept, or counted."""
        if record is None:
            return
        if isinstance(record, BadLine):
            self.bad_lines.append(record)
            return
        kind = record.get("type") if type(record) is dict else None
        data = record.get("data") if type(record) is dict else None
        if kind in ROLES or kind == RESULT:
            if type(data) is not dict:
                self.unreadable += 1
            elif kind == RESULT:
                self.turns.append(self._result(position, record, data))
            else:
                self.turns.append(self._message(position, record, data, ROLES[kind]))
        elif type(kind) is not str:
            self.unreadable += 1
        elif kind not in KNOWN_TYPES:
            self.unknown[kind] += 1

    def problems(self) -> list[str]:
        """What was not read, in words."""
        found = []
        if self.unreadable:
            found.append(
                counted(
                    self.unreadable,
                    "event without a type or a data object, not read as turns",
                    "events without a type or a data object, not read as turns",
                )
            )
        for kind, count in self.unknown.items():
            unknown = f"of an unknown type {kind!r}"
            found.append(
                counted(count, f"event {unknown}, not read as turns", f"events {unknown}, not read as turns")
                + "; kept as written"
            )
        found += [
            f"line {line.number}: invalid JSON ({line.error}), not read; written back as it was"
            for line in self.bad_lines
        ]
        return found

    def _message(self, position: int, event: Event, data: Event, role: str) -> Turn:
        content = data.get("content")
        text = content if type(content) is str else ""
        calls = tuple(self._call(request) for request in _requests(data)) if role == ASSISTANT else ()
        model = model_name(data.get("model")) if role == ASSISTANT else None
        return Turn(position, role, text, _event_id(event), calls, (), event, model=model)

    def _call(self, request: Event) -> ToolCall:
        call_id = request.get("toolCallId")
        call_id = call_id if type(call_id) is str else None
        name = request.get("name")
        name = name if type(name) is str else ""
        if call_id is not None:
            self.names[call_id] = name
        arguments = request.get("arguments")
        error = self.unparsed.get(str(call_id)) if call_id is not None else None
        if error is not None and arguments in ({}, None):
            return ToolCall(call_id, name, error, None, ARGUMENTS_LOST)
        return ToolCall(call_id, name, arguments, arguments if type(arguments) is dict else None)

    def _result(self, position: int, event: Event, data: Event) -> Turn:
        call_id = data.get("toolCallId")
        call_id = call_id if type(call_id) is str else None
        failed = data.get("success") is not True
        result = ToolResult(call_id, self.names.get(call_id or ""), result_content(data), failed)
        return Turn(position, TOOL, "", _event_id(event), (), (result,), event)


def result_content(data: Event) -> Any:
    """What a result said: its `result.content`, or its `error.message` when it failed."""
    for key, field in (("result", "content"), ("error", "message")):
        holder = data.get(key)
        if type(holder) is dict and field in holder:
            return holder[field]
    return ""


def _requests(data: Event) -> list[Event]:
    requests = data.get("toolRequests")
    return [r for r in requests if type(r) is dict] if type(requests) is list else []


def _event_id(event: Event) -> str | None:
    value = event.get("id")
    return value if type(value) is str else None
