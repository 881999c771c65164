"""`ReplyCheck`: a LangChain 1.x agent middleware (`create_agent(..., middleware=[ReplyCheck(tools=tools)])`)
that checks each reply of the model after it is made, before the agent acts on it.

On a reply holding a tool result the model wrote itself, or a call it printed as text, it either
recovers the call ("recover", the default): the reply becomes the repaired one carrying the call as
a real tool call, so the agent's tool node runs it and the model answers from its real result; or
asks the model again ("retry"): the reply stays, followed by a message giving the reason, and the
model runs again. A reply with errors but no call to recover is always asked again. After
`max_retries` asks in one exchange, the reply is kept repaired and the agent goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal
from uuid import uuid4

from langchain.agents.middleware import AgentMiddleware, AgentState, hook_config
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.runtime import Runtime

from inspector.guard.reply_check import Check, check_reply
from inspector.model import ToolCall

OnFinding = Literal["recover", "retry"]
_ASKED_AGAIN = "inspector-reason-"  # the start of the id of each message giving the model a reason


class ReplyCheck(AgentMiddleware[AgentState[Any], Any]):
    """Checks the model's last reply (`check_reply`, with the exchange's calls and results and the
    agent's `tools`: the tools given to `create_agent`, or their definitions) and recovers its
    calls or asks the model again, as `on_finding` says."""

    def __init__(
        self,
        *,
        tools: Sequence[BaseTool | Callable[..., Any] | dict[str, Any]] = (),
        on_finding: OnFinding = "recover",
        max_retries: int = 2,
    ) -> None:
        super().__init__()
        if on_finding not in ("recover", "retry"):
            raise ValueError(f'on_finding is "recover" or "retry", not {on_finding!r}')
        self.tool_definitions = [convert_to_openai_tool(tool) for tool in tools]
        self.on_finding = on_finding
        self.max_retries = max_retries

    @hook_config(can_jump_to=["model"])
    def after_model(self, state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any] | None:
        """The reply replaced, or a reason added and the model run again; None when it is clean."""
        messages = state["messages"]
        reply = messages[-1] if messages else None
        if not isinstance(reply, AIMessage) or not reply.text:
            return None
        exchange = _exchange(messages[:-1])
        calls = [call for message in exchange if isinstance(message, AIMessage) for call in message.tool_calls]
        results = [_result(message) for message in exchange if isinstance(message, ToolMessage)]
        check = check_reply(reply.text, tools=self.tool_definitions, calls=calls, results=results)
        if check.ok:
            return None
        asked = sum(1 for message in exchange if _is_reason(message))
        if check.calls and (self.on_finding == "recover" or asked >= self.max_retries):
            return {"messages": [_recovered(reply, check)]}
        if asked >= self.max_retries:
            return {"messages": [_with_text(reply, check.text)]}
        reason = HumanMessage(check.reason, id=f"{_ASKED_AGAIN}{uuid4().hex}")
        return {"messages": [reason], "jump_to": "model"}


def _exchange(messages: Sequence[AnyMessage]) -> Sequence[AnyMessage]:
    """The messages after the person's last one (a reason this middleware gave is not theirs)."""
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if isinstance(message, HumanMessage) and not _is_reason(message):
            return messages[index + 1 :]
    return messages


def _is_reason(message: AnyMessage) -> bool:
    return isinstance(message, HumanMessage) and (message.id or "").startswith(_ASKED_AGAIN)


def _result(message: ToolMessage) -> dict[str, Any]:
    """A tool message as `check_reply` reads a result."""
    return {"tool_call_id": message.tool_call_id, "content": message.text, "status": message.status}


def _recovered(reply: AIMessage, check: Check) -> AIMessage:
    """The reply repaired, carrying the recovered calls as its own (same id: it replaces the reply)."""
    calls = [*reply.tool_calls, *(_tool_call(call) for call in check.calls)]
    return _with_text(reply, check.text).model_copy(update={"tool_calls": calls})


def _with_text(reply: AIMessage, text: str) -> AIMessage:
    """The reply with its text (every text block, which `reply.text` joins) replaced by `text` in
    the place of the first text block; its other blocks (thinking and its signature, images, the
    provider's call blocks) kept as they were, in their places. An empty text leaves no text block
    (providers refuse empty ones)."""
    if isinstance(reply.content, str):
        return reply.model_copy(update={"content": text})
    content: list[str | dict[str, Any]] = []
    text_placed = False
    for block in reply.content:
        if not _is_text_block(block):
            content.append(block)
        elif not text_placed:
            text_placed = True
            if text:
                content.append({**block, "text": text} if isinstance(block, dict) else text)
    return reply.model_copy(update={"content": content})


def _is_text_block(block: str | dict[str, Any]) -> bool:
    """Whether LangChain reads the block as text (as `AIMessage.text` does)."""
    return isinstance(block, str) or (block.get("type") == "text" and isinstance(block.get("text"), str))


def _tool_call(call: ToolCall) -> dict[str, Any]:
    """A recovered call as LangChain's tool call, with an id of its own."""
    return {"name": call.name, "args": call.arguments or {}, "id": f"call_{uuid4().hex[:24]}", "type": "tool_call"}
