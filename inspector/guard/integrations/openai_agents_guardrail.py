"""`check_final_output`: an OpenAI Agents SDK output guardrail (`Agent(..., output_guardrails=
[check_final_output])`) that checks the agent's final output against the agent's own tools.

A final output holding a tool result the model wrote itself, or a call it printed as text (an
error-severity finding), trips the wire: the run stops with `OutputGuardrailTripwireTriggered`,
whose `guardrail_result.output.output_info` is the `Check` (its findings, the output repaired,
the calls recovered, the reason to give the model). Only text outputs are checked.
"""

from __future__ import annotations

from typing import Any

from agents import Agent, FunctionTool, GuardrailFunctionOutput, OutputGuardrail, RunContextWrapper

from inspector.guard.reply_check import check_reply


async def _check(context: RunContextWrapper[Any], agent: Agent[Any], output: Any) -> GuardrailFunctionOutput:
    """The guardrail's verdict on `output`: tripped when it holds an error-severity finding."""
    if not isinstance(output, str):
        return GuardrailFunctionOutput(output_info=None, tripwire_triggered=False)
    tools = await agent.get_all_tools(context)
    definitions = [
        {"type": "function", "function": {"name": tool.name, "parameters": tool.params_json_schema}}
        for tool in tools
        if isinstance(tool, FunctionTool)
    ]
    check = check_reply(output, tools=definitions)
    return GuardrailFunctionOutput(output_info=check, tripwire_triggered=not check.ok)


check_final_output: OutputGuardrail[Any] = OutputGuardrail(guardrail_function=_check, name="inspector check_reply")
