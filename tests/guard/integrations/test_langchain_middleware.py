"""`ReplyCheck` in a real LangChain agent (`create_agent`), its model scripted with LangChain's own
`GenericFakeChatModel`: a reply holding a tool result the model wrote itself has its call run by
the agent's tool node ("recover") or is sent back to the model with the reason ("retry")."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from pydantic import Field

from inspector.guard.integrations.langchain_middleware import ReplyCheck

FAKE_SAVE = '{success: true, content: "buy milk"}Saved!'


class ScriptedModel(GenericFakeChatModel):
    """Answers with its script, one message a call, and keeps every request it was sent."""

    requests: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedModel:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.requests.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def notes_agent(script: list[AIMessage], **options: Any) -> tuple[Any, ScriptedModel, list[str]]:
    """An agent with one tool, `save_note`, that keeps what it saved; its model plays `script`."""
    saved: list[str] = []

    @tool
    def save_note(content: str) -> str:
        """Save a note for the person."""
        saved.append(content)
        return "saved"

    model = ScriptedModel(messages=iter(script))
    agent = create_agent(model, tools=[save_note], middleware=[ReplyCheck(tools=[save_note], **options)])
    return agent, model, saved


def test_a_fake_result_becomes_the_real_call_the_tool_node_runs():
    agent, model, saved = notes_agent([AIMessage(FAKE_SAVE), AIMessage("Saved your note: buy milk.")])
    messages = agent.invoke({"messages": [HumanMessage("Note: buy milk")]})["messages"]
    assert saved == ["buy milk"]
    human, repaired, ran, answer = messages
    assert repaired.text == "Saved!" and [(c["name"], c["args"]) for c in repaired.tool_calls] == [
        ("save_note", {"content": "buy milk"})
    ]
    assert isinstance(ran, ToolMessage) and ran.content == "saved" and ran.tool_call_id == repaired.tool_calls[0]["id"]
    assert answer.text == "Saved your note: buy milk."
    assert "{success" not in "".join(message.text for message in model.requests[1])


def test_recovery_keeps_the_replys_thinking_and_other_blocks_in_place():
    thinking = {"type": "thinking", "thinking": "The person wants a note.", "signature": "c2lnbmVk"}
    image = {"type": "image", "url": "https://example.com/list.png"}
    reply = AIMessage([thinking, {"type": "text", "text": '{success: true, content: "buy milk"}'}, image, "Saved!"])
    agent, model, saved = notes_agent([reply, AIMessage("Saved your note: buy milk.")])
    repaired = agent.invoke({"messages": [HumanMessage("Note: buy milk")]})["messages"][1]
    assert saved == ["buy milk"]
    assert repaired.content == [thinking, {"type": "text", "text": "Saved!"}, image]
    assert [call["name"] for call in repaired.tool_calls] == ["save_note"]


def test_a_reply_whose_text_was_all_printed_call_keeps_no_empty_text_block():
    thinking = {"type": "thinking", "thinking": "Save it.", "signature": "c2lnbmVk"}
    printed = '<tool_call>{"name": "save_note", "arguments": {"content": "buy milk"}}</tool_call>'
    reply = AIMessage([thinking, {"type": "text", "text": printed}])
    agent, model, saved = notes_agent([reply, AIMessage("Saved your note: buy milk.")])
    repaired = agent.invoke({"messages": [HumanMessage("Note: buy milk")]})["messages"][1]
    assert saved == ["buy milk"] and repaired.content == [thinking]


def test_retry_asks_the_model_again_with_the_reason_and_it_makes_the_call():
    real_call = AIMessage("", tool_calls=[{"name": "save_note", "args": {"content": "buy milk"}, "id": "call_1"}])
    script = [AIMessage(FAKE_SAVE), real_call, AIMessage("Saved your note: buy milk.")]
    agent, model, saved = notes_agent(script, on_finding="retry")
    messages = agent.invoke({"messages": [HumanMessage("Note: buy milk")]})["messages"]
    assert saved == ["buy milk"]
    told = model.requests[1][-1]
    assert isinstance(told, HumanMessage)
    assert told.text.startswith("Your reply contains a tool result you wrote yourself; no tool ran.")
    assert 'Call save_note with {"content": "buy milk"} now' in told.text
    assert messages[-1].text == "Saved your note: buy milk." and len(model.requests) == 3


def test_after_max_retries_the_reply_is_kept_repaired_and_its_call_recovered():
    agent, model, saved = notes_agent(
        [AIMessage(FAKE_SAVE), AIMessage(FAKE_SAVE), AIMessage("Done.")], on_finding="retry", max_retries=1
    )
    messages = agent.invoke({"messages": [HumanMessage("Note: buy milk")]})["messages"]
    assert saved == ["buy milk"] and len(model.requests) == 3
    asked_again, repaired = messages[2], messages[3]
    assert asked_again.text.startswith("Your reply contains a tool result") and repaired.text == "Saved!"
    assert messages[-1].text == "Done."


def test_an_agent_run_asynchronously_is_checked_alike():
    agent, model, saved = notes_agent([AIMessage(FAKE_SAVE), AIMessage("Saved your note: buy milk.")])
    messages = asyncio.run(agent.ainvoke({"messages": [HumanMessage("Note: buy milk")]}))["messages"]
    assert saved == ["buy milk"] and [message.text for message in messages[1:]] == [
        "Saved!",
        "saved",
        "Saved your note: buy milk.",
    ]


def test_tools_given_as_plain_functions_are_read_as_the_agent_reads_them():
    saved: list[str] = []

    def save_note(content: str) -> str:
        """Save a note for the person."""
        saved.append(content)
        return "saved"

    model = ScriptedModel(messages=iter([AIMessage(FAKE_SAVE), AIMessage("Saved.")]))
    agent = create_agent(model, tools=[save_note], middleware=[ReplyCheck(tools=[save_note])])
    agent.invoke({"messages": [HumanMessage("Note: buy milk")]})
    assert saved == ["buy milk"]


def test_an_honest_reply_passes_untouched():
    agent, model, saved = notes_agent([AIMessage("Nothing to save.")])
    messages = agent.invoke({"messages": [HumanMessage("Hi")]})["messages"]
    assert [message.text for message in messages] == ["Hi", "Nothing to save."] and saved == []


def test_an_unknown_setting_is_refused():
    with pytest.raises(ValueError, match="recover"):
        ReplyCheck(on_finding="ignore")  # type: ignore[arg-type]
