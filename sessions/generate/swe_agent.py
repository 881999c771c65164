"""Write `sessions/swe-agent.traj`, a SWE-agent trajectory built from SWE-agent's own saving code.

SWE-agent runs its commands in a Docker container (SWE-ReX), which this machine cannot start, so
the file is built here, standard library only, the way `sweagent/agent/agents.py` (SWE-agent 1.x,
`DefaultAgent`) builds it, with its default function-calling parser and its `bash` and `submit`
tools: `setup` adds the system prompt and the instance template to `history`
(`add_system_message_to_history`, `add_instance_template_to_history`); each step adds the model's
reply (`add_step_to_history`: `role: "assistant"`, `content`, `thought`, `action`, `tool_calls`,
`message_type: "action"`, `thinking_blocks`), then its observation through `next_step_template`
(`_add_templated_messages_to_history`: `role: "tool"`, `tool_call_ids`, `message_type:
"observation"`), and one `trajectory` entry (`action`, `observation`, `response`, `thought`,
`execution_time`, `state`, `query`, `extra_info`); `save_trajectory` writes
`get_trajectory_data()` (`trajectory`, `history`, `info`, `replay_config`, `environment`) with
`json.dumps(data, indent=2)`. The commands are really run, in a temporary working folder.

    python3 sessions/generate/swe_agent.py [OUT_DIR]

A reply whose call does not parse is a format error SWE-agent answers by asking the model again,
keeping neither in the history, so the planted problems are in replies that also make a good call:
1. (a) a fake result prefix, then a good `bash` call `cat notes.txt`;
2. (b) Hermes `<tool_call>` markup printed before a good `bash` call `echo hi`;
3. a good `submit`.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from scenario import FAKE_RESULT_REPLY, NOTES_TEXT, TURN_READ, hermes_reply

SYSTEM_TEMPLATE = "You are a helpful assistant that can interact with a computer to solve tasks."
INSTANCE_TEMPLATE = "<uploaded_files>\n/tmp/sa-work\n</uploaded_files>\n{problem_statement}"
NEXT_STEP_TEMPLATE = "OBSERVATION:\n{observation}"
NEXT_STEP_NO_OUTPUT = "Your command ran successfully and did not produce any output."
AGENT = "main"


def call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A tool call as litellm hands it to SWE-agent (`step.tool_calls`)."""
    return {"function": {"arguments": json.dumps(arguments), "name": name}, "id": call_id, "type": "function"}


class Agent:
    """The parts of `DefaultAgent` that fill `history` and `trajectory`."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.history: list[dict[str, Any]] = []
        self.trajectory: list[dict[str, Any]] = []

    def setup(self, problem_statement: str) -> None:
        """`add_system_message_to_history`, then `add_instance_template_to_history`."""
        self.history.append(
            {"role": "system", "content": SYSTEM_TEMPLATE, "agent": AGENT, "message_type": "system_prompt"}
        )
        content = INSTANCE_TEMPLATE.format(problem_statement=problem_statement)
        self.history.append({"role": "user", "content": content, "agent": AGENT, "message_type": "observation"})

    def step(self, thought: str, tool_call: dict[str, Any]) -> None:
        """One step: the query sent, the command run, then `add_step_to_history` and the trajectory entry."""
        query = copy.deepcopy([{k: v for k, v in m.items() if k != "agent"} for m in self.history])
        arguments = json.loads(tool_call["function"]["arguments"])
        action = arguments.get("command", "submit") if tool_call["function"]["name"] == "bash" else "submit"
        started = time.perf_counter()
        if action == "submit":
            observation = ""
        else:
            done = subprocess.run(action, shell=True, cwd=self.work, capture_output=True, text=True, timeout=30)
            observation = done.stdout + done.stderr
        execution_time = round(time.perf_counter() - started, 3)
        self.history.append(
            {
                "role": "assistant",
                "content": thought,
                "thought": thought,
                "action": action,
                "agent": AGENT,
                "tool_calls": [tool_call],
                "message_type": "action",
                "thinking_blocks": [],
            }
        )
        template = NEXT_STEP_TEMPLATE.format(observation=observation) if observation.strip() else NEXT_STEP_NO_OUTPUT
        self.history.append(
            {
                "role": "tool",
                "content": template,
                "agent": AGENT,
                "message_type": "observation",
                "tool_call_ids": [tool_call["id"]],
            }
        )
        self.trajectory.append(
            {
                "action": action,
                "observation": observation,
                "response": thought,
                "thought": thought,
                "execution_time": execution_time,
                "state": {"working_dir": "/tmp/sa-work"},
                "query": query,
                "extra_info": {},
            }
        )

    def trajectory_data(self) -> dict[str, Any]:
        """`get_trajectory_data()`."""
        info = {
            "swe_agent_hash": "unavailable",
            "swe_agent_version": "1.1.0",
            "swe_rex_version": "1.2.0",
            "swe_rex_hash": "unavailable",
            "submission": "",
            "exit_status": "submitted",
            "model_stats": {"instance_cost": 0, "tokens_sent": 0, "tokens_received": 0, "api_calls": 3},
        }
        return {
            "trajectory": self.trajectory,
            "history": self.history,
            "info": info,
            "replay_config": None,
            "environment": "main",
        }


def main() -> None:
    """Run the three steps in a temporary folder holding notes.txt and write the trajectory."""
    out = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    with tempfile.TemporaryDirectory(prefix="sa-work-") as folder:
        work = Path(folder)
        (work / "notes.txt").write_text(NOTES_TEXT)
        agent = Agent(work)
        agent.setup(TURN_READ)
        agent.step(FAKE_RESULT_REPLY, call("call_mock_good", "bash", {"command": "cat notes.txt"}))
        markup = hermes_reply("bash", {"command": "echo hi"})
        agent.step(markup, call("call_mock_good_echo", "bash", {"command": "echo hi"}))
        agent.step("Done.", call("call_mock_submit", "submit", {}))
        text = json.dumps(agent.trajectory_data(), indent=2).replace(str(work), "/tmp/sa-work")
    target = out / "swe-agent.traj"
    target.write_text(text)
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
