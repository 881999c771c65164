"""`check_output` on a real Pydantic AI agent whose model is a scripted `FunctionModel`: an answer
holding a tool result the model wrote itself goes back to the model with the reason, and the model
then makes the real call; an honest answer passes."""

from __future__ import annotations

from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from inspector.guard.integrations.pydantic_ai_validator import check_output


def notes_agent(script: list[ModelResponse]) -> tuple[Agent[None, str], list[list[ModelMessage]], list[str]]:
    """An agent with one tool, `save_note`, whose model plays `script`; the requests it was sent,
    and what the tool saved."""
    requests: list[list[ModelMessage]] = []
    saved: list[str] = []
    answers = iter(script)

    def play(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        requests.append(list(messages))
        return next(answers)

    agent = Agent(FunctionModel(play))

    @agent.tool_plain
    def save_note(content: str) -> str:
        """Save a note for the person."""
        saved.append(content)
        return "saved"

    agent.output_validator(check_output)
    return agent, requests, saved


def test_a_fabricated_result_is_sent_back_with_the_reason_and_the_model_makes_the_call():
    script = [
        ModelResponse(parts=[TextPart('{success: true, content: "buy milk"}Saved!')]),
        ModelResponse(parts=[ToolCallPart("save_note", {"content": "buy milk"})]),
        ModelResponse(parts=[TextPart("Saved your note: buy milk.")]),
    ]
    agent, requests, saved = notes_agent(script)
    result = agent.run_sync("Note: buy milk")
    assert result.output == "Saved your note: buy milk." and saved == ["buy milk"]
    reason = "".join(str(part.content) for part in requests[1][-1].parts)  # what the model was told next
    assert "Your reply contains a tool result you wrote yourself; no tool ran." in reason
    assert 'Call save_note with {"content": "buy milk"} now' in reason


def test_an_honest_answer_after_the_real_call_passes():
    script = [
        ModelResponse(parts=[ToolCallPart("save_note", {"content": "buy milk"})]),
        ModelResponse(parts=[TextPart("Saved your note: buy milk.")]),
    ]
    agent, requests, saved = notes_agent(script)
    assert agent.run_sync("Note: buy milk").output == "Saved your note: buy milk."
    assert saved == ["buy milk"] and len(requests) == 2
