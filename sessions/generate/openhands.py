"""Write `sessions/openhands-conversation/`: an OpenHands conversation folder, built from the SDK's
event models, not by OpenHands.

Run it with any Python 3.11 (standard library only):

    python3 sessions/generate/openhands.py [OUT_DIR]

The OpenHands SDK (`openhands-sdk` on PyPI) needs Python 3.12 or newer, which this machine does
not have, so it is not run: the folder is laid out as the SDK's `ConversationState` keeps one
(`openhands-sdk/openhands/sdk/conversation/persistence_const.py`: `base_state.json` and
`events/event-{idx:05d}-{event_id}.json`) and each event is the JSON its pydantic model dumps
(OpenHands/software-agent-sdk `openhands-sdk/openhands/sdk/event/`: `llm_convertible/system.py`
`SystemPromptEvent`, `llm_convertible/message.py` `MessageEvent`, `llm_convertible/action.py`
`ActionEvent`, `llm_convertible/observation.py` `ObservationEvent` and `AgentErrorEvent`,
`conversation_state.py` `ConversationStateUpdateEvent`; every event with its `id`, `timestamp`,
`source` and its class as `kind`), with the CLI's tool names (`terminal {command}`).

The scripted replies:
1. (a) a fake tool result written as text; no tool ran;
2. (b) Hermes `<tool_call>` markup naming `terminal`, printed as text;
3. (c) a `terminal` call whose arguments are cut off: the agent answers it with an
   `AgentErrorEvent` (its `action` is null, nothing ran);
4. (d) a good `terminal` call, `cat notes.txt`, and its observation; then the closing answer.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from scenario import FAKE_RESULT_REPLY, NOTES_TEXT, READING_TEXT, RETRY_TEXT, hermes_reply, user_turns

CONVERSATION = "3f2a9c4e-8b1d-4e6f-a5c7-2d9e0b1f4a68"
WORK = "/tmp/openhands-work"
MODEL = "openai/mock"
BROKEN = '{"command": "cat notes.txt"'


class Events:
    """The conversation's events, numbered as the SDK numbers them."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def add(self, kind: str, source: str, **fields: Any) -> str:
        """Append one event; its id."""
        index = len(self.events)
        event_id = f"{index:08x}-0000-4000-8000-{index:012x}"
        timestamp = f"2026-11-28T04:00:{index:02d}.000000"
        self.events.append({"id": event_id, "timestamp": timestamp, "source": source, **fields, "kind": kind})
        return event_id


def text(value: str) -> dict[str, Any]:
    """A `TextContent`."""
    return {"cache_prompt": False, "type": "text", "text": value}


def message(events: Events, source: str, role: str, value: str, response: str | None = None) -> None:
    """A `MessageEvent`."""
    llm_message = {
        "role": role,
        "content": [text(value)],
        "tool_calls": None,
        "tool_call_id": None,
        "name": None,
        "reasoning_content": None,
        "thinking_blocks": [],
        "responses_reasoning_item": None,
    }
    events.add(
        "MessageEvent",
        source,
        llm_message=llm_message,
        llm_response_id=response,
        activated_skills=[],
        extended_content=[],
        sender=None,
        critic_result=None,
    )


def action(events: Events, call_id: str, arguments: str, thought: str, runs: bool) -> str:
    """An `ActionEvent` calling `terminal`; `action` is null when its arguments do not parse."""
    command = json.loads(arguments)["command"] if runs else None
    return events.add(
        "ActionEvent",
        "agent",
        thought=[text(thought)],
        reasoning_content=None,
        thinking_blocks=[],
        responses_reasoning_item=None,
        action={"command": command, "is_input": False, "timeout": None, "reset": False, "kind": "TerminalAction"}
        if runs
        else None,
        tool_name="terminal",
        tool_call_id=call_id,
        tool_call={"id": call_id, "name": "terminal", "arguments": arguments, "origin": "completion"},
        llm_response_id=f"chatcmpl-{call_id}",
        security_risk="UNKNOWN",
        critic_result=None,
        summary=None,
    )


def conversation() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The base state and the events."""
    memory, read, only_text = user_turns("Use the real terminal tool on notes.txt.")
    events = Events()
    events.add(
        "SystemPromptEvent",
        "agent",
        system_prompt=text("You are OpenHands agent, a helpful AI assistant that can interact with a computer."),
        tools=[
            {"name": "terminal", "description": "Execute a bash command in the terminal.", "kind": "TerminalTool"},
            {"name": "finish", "description": "Signals the completion of the current task.", "kind": "FinishTool"},
        ],
        dynamic_context=None,
    )
    message(events, "user", "user", memory)
    message(events, "agent", "assistant", FAKE_RESULT_REPLY, "chatcmpl-a")
    message(events, "user", "user", read)
    message(events, "agent", "assistant", hermes_reply("terminal", {"command": "cat notes.txt"}), "chatcmpl-b")
    message(events, "user", "user", only_text)
    action(events, "call_mock_broken", BROKEN, READING_TEXT, runs=False)
    events.add(
        "AgentErrorEvent",
        "agent",
        tool_name="terminal",
        tool_call_id="call_mock_broken",
        error=f"Error validating args {BROKEN} for tool 'terminal': Unterminated string",
        classification=None,
    )
    good = action(events, "call_mock_good", json.dumps({"command": "cat notes.txt"}), RETRY_TEXT, runs=True)
    observation = {
        "content": [text(NOTES_TEXT)],
        "is_error": False,
        "command": "cat notes.txt",
        "exit_code": 0,
        "timeout": False,
        "metadata": {"exit_code": 0, "pid": -1, "working_dir": WORK, "prefix": "", "suffix": ""},
        "full_output_save_dir": None,
        "kind": "TerminalObservation",
    }
    events.add(
        "ObservationEvent",
        "environment",
        tool_name="terminal",
        tool_call_id="call_mock_good",
        observation=observation,
        action_id=good,
        extended_content=[],
    )
    message(events, "agent", "assistant", "The notes say the meeting moved to Thursday.", "chatcmpl-e")
    events.add("ConversationStateUpdateEvent", "environment", key="execution_status", value="finished")
    base_state = {
        "id": CONVERSATION,
        "agent": {"llm": {"model": MODEL, "base_url": "http://127.0.0.1:0/v1", "usage_id": "agent"}, "kind": "Agent"},
        "workspace": {"working_dir": WORK, "kind": "LocalWorkspace"},
        "persistence_dir": f"/tmp/openhands-home/.openhands/conversations/{CONVERSATION.replace('-', '')}",
        "max_iterations": 500,
        "stuck_detection": True,
        "execution_status": "finished",
    }
    return base_state, events.events


def main() -> None:
    """Write the conversation's folder into OUT_DIR (default: `sessions/`)."""
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
    folder = out / "openhands-conversation"
    (folder / "events").mkdir(parents=True, exist_ok=True)
    base_state, events = conversation()
    (folder / "base_state.json").write_text(json.dumps(base_state, indent=2) + "\n")
    for index, event in enumerate(events):
        (folder / "events" / f"event-{index:05d}-{event['id']}.json").write_text(json.dumps(event) + "\n")


if __name__ == "__main__":
    main()
