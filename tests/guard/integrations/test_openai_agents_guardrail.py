"""`check_final_output` on a real OpenAI Agents SDK agent whose model is scripted (a `Model` that
plays its answers, no network): a final output holding a tool result the model wrote itself trips
the wire; an honest run, whose tool really ran, passes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from agents import (
    Agent,
    Model,
    ModelResponse,
    OutputGuardrailTripwireTriggered,
    RunConfig,
    Runner,
    Usage,
    function_tool,
)
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

from inspector.guard.integrations.openai_agents_guardrail import check_final_output


class ScriptedModel(Model):
    """Answers each request with the next output items of its script."""

    def __init__(self, script: list[list[Any]]) -> None:
        self.script = iter(script)

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        return ModelResponse(output=next(self.script), usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError


def said(text: str) -> ResponseOutputMessage:
    content = [ResponseOutputText(text=text, annotations=[], type="output_text")]
    return ResponseOutputMessage(id="msg_1", content=content, role="assistant", status="completed", type="message")


def run_notes_agent(script: list[list[Any]]) -> tuple[Any, list[str]]:
    """Runs an agent with one tool, `save_note`, on `script`; its final output and what it saved."""
    saved: list[str] = []

    @function_tool
    def save_note(content: str) -> str:
        """Save a note for the person."""
        saved.append(content)
        return "saved"

    agent = Agent(name="notes", model=ScriptedModel(script), tools=[save_note], output_guardrails=[check_final_output])
    result = asyncio.run(Runner.run(agent, "Note: buy milk", run_config=RunConfig(tracing_disabled=True)))
    return result.final_output, saved


def test_a_final_output_holding_a_result_the_model_wrote_trips_the_wire():
    with pytest.raises(OutputGuardrailTripwireTriggered) as tripped:
        run_notes_agent([[said('{success: true, content: "buy milk"}Saved!')]])
    check = tripped.value.guardrail_result.output.output_info
    assert [finding.kind for finding in check.findings] == ["result-prefix"]
    assert check.text == "Saved!"
    assert [(call.name, call.arguments) for call in check.calls] == [("save_note", {"content": "buy milk"})]
    assert check.reason.startswith("Your reply contains a tool result you wrote yourself")


def test_an_honest_run_whose_tool_ran_passes():
    call = ResponseFunctionToolCall(
        type="function_call", call_id="call_1", name="save_note", arguments='{"content": "buy milk"}'
    )
    output, saved = run_notes_agent([[call], [said("Saved your note: buy milk.")]])
    assert output == "Saved your note: buy milk." and saved == ["buy milk"]
