"""`check_output`: a Pydantic AI output validator (`agent.output_validator(check_output)`) that
checks the agent's text output against its tools and the calls of the run since the person spoke.

An output holding a tool result the model wrote itself, or a call it printed as text (an
error-severity finding), raises `ModelRetry` with `Check.reason`: Pydantic AI sends the reason to
the model, which tries again (up to the agent's output retries); a clean output passes unchanged.
"""

from __future__ import annotations

from typing import Any

from pydantic_ai import ModelRetry, RunContext
from pydantic_ai.messages import ModelMessage, ModelRequest, RetryPromptPart, ToolCallPart, ToolReturnPart

from inspector.guard.reply_check import check_reply


def check_output(ctx: RunContext[Any], output: str) -> str:
    """`output` when it is clean; `ModelRetry(reason)` when it holds an error-severity finding."""
    calls, results = _exchange(ctx.messages)
    check = check_reply(output, tools=_tools(ctx), calls=calls, results=results)
    if not check.ok:
        raise ModelRetry(check.reason)
    return output


def _tools(ctx: RunContext[Any]) -> list[dict[str, Any]]:
    """The run's function tools, as OpenAI tool definitions (none when the run has not set them)."""
    manager = ctx.tool_manager
    if manager is None or manager.tools is None:
        return []
    return [
        {"type": "function", "function": {"name": tool.name, "parameters": tool.parameters_json_schema}}
        for tool in manager.tool_defs
        if tool.kind == "function"
    ]


def _exchange(messages: list[ModelMessage]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The calls the model made since the person's last prompt, and their results."""
    start = max((index for index, message in enumerate(messages) if _is_prompt(message)), default=0)
    calls: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    for message in messages[start:]:
        for part in message.parts:
            if isinstance(part, ToolCallPart):
                calls.append({"id": part.tool_call_id, "name": part.tool_name, "arguments": part.args or {}})
            elif isinstance(part, ToolReturnPart):
                results.append({"tool_call_id": part.tool_call_id, "content": part.model_response_str()})
            elif isinstance(part, RetryPromptPart) and part.tool_name:
                results.append({"tool_call_id": part.tool_call_id, "content": part.model_response(), "is_error": True})
    return calls, results


def _is_prompt(message: ModelMessage) -> bool:
    return isinstance(message, ModelRequest) and any(part.part_kind == "user-prompt" for part in message.parts)
