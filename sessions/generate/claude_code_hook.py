#!/usr/bin/env python3
"""Run the inspector's Stop hook inside the real Claude Code, against the scripted mock model.

Usage:
    python3 sessions/generate/claude_code_hook.py [OUT_DIR] [--claude PATH] [--python PATH] [--keep] [--run NAME]

OUT_DIR defaults to sessions/hooks/.  PATH defaults to $CLAUDE_BIN, else Claude Code 2.1.332 where
run_all.sh installs it (`claude-newest`), else `claude` on $PATH; --python is the
interpreter the inspector is installed in (default: this one), whose `inspector hook install`
writes the hook into the temporary HOME's Claude Code settings (CLAUDE_CONFIG_DIR).

Four runs of `claude -p`, each in its own temporary HOME:

- "block": the mock's first answer plants a fake tool result (scenario.FAKE_RESULT_REPLY) and
  ends the turn; the hook blocks, and Claude Code sends its reason to the model as a new user
  message. The mock answers that request with a real Write call (journal.txt), which runs, and
  then with a short closing answer, after which the hook stays silent (stop_hook_active).
- "clean": the mock answers with plain text; the hook stays silent, and no further request is made.
- "subagent": the main agent delegates (the `Agent` tool, scenario.SUBAGENT_PROMPT); the subagent's
  first answer is a fake `Read` result written as text (scenario.FAKE_READ_REPLY); the hook, on
  Claude Code's `SubagentStop`, blocks, and its reason goes to the subagent, which then reads
  notes.txt for real and answers from what it read; the main agent's closing answer follows.
- "relayed": as "subagent", but the subagent, told by the hook, writes the fake `Read` result again
  (the hook does not block a reply that follows its block: it only tells the person) and hands it
  back as its answer, which Claude Code (running the subagent in the background) gives the main
  agent in a notification. The main agent passes it on; the hook, on `Stop`, blocks
  (`relayed-fake-result`), its reason goes to the main agent, which then reads notes.txt itself
  and answers from what it read.

Each run's evidence is written to OUT_DIR: the session file Claude Code wrote
(`claude-code-hook-<run>.jsonl`, temp paths scrubbed; for "subagent" and "relayed" the subagent's
transcript too, `claude-code-hook-<run>.agent.jsonl`) and the model's requests as the mock received them (the
main agent's, and for "subagent" and "relayed" the subagent's apart) (`claude-code-hook-<run>.requests.json`: each request's messages, the system
prompt and tool definitions left out, the interpreter's path as /path/to/python). The
test tests/hooks/test_real_claude_code.py checks the committed evidence, and runs this script
itself when Claude Code is found where it looks.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from claude_code import first_text, message_events, run_turns, text_block_events, tool_block_events
from harness import NPM_TOOLS, TempRun, find_binary, out_dir
from mock_server import Reply, js, sse
from scenario import DELEGATING_TURN, FAKE_READ_REPLY, FAKE_RESULT_REPLY, NOTES_TEXT, SUBAGENT_PROMPT, TURN_MEMORY

RUNS = ("block", "clean", "subagent", "relayed")
DELEGATING_RUNS = ("subagent", "relayed")
JOURNAL_ENTRY = "I lost track of the refactor again."
PYTHON_PLACEHOLDER = "/path/to/python"  # the interpreter named in the hook's command, in the evidence
CLOSING_TEXT = "Saved to journal.txt for real this time."
CLEAN_TEXT = "Noted. The refactor needs a smaller first step."
SUBAGENT_ANSWER = "notes.txt, read with the Read tool: " + " ".join(NOTES_TEXT.split("\n")).strip()
DELEGATE_CLOSING = "The subagent read it: the meeting moved to Thursday; bring the draft."
DELEGATE_WAITING = "A subagent is reading notes.txt; I will tell you what it says."
RELAYED_TEXT = "The subagent says the meeting moved to Thursday; bring the draft."
READ_MYSELF = "The subagent ran no tool, so I am reading notes.txt myself."
READ_MYSELF_CLOSING = "I read notes.txt myself: " + " ".join(NOTES_TEXT.split("\n")).strip()
CLAUDE_VERSION = "2.1.332"  # the release the evidence was written by (run_all.sh's claude-newest)
# where run_all.sh installs it; else $CLAUDE_BIN, --claude or `claude` on $PATH
CLAUDE_CANDIDATES = [str(NPM_TOOLS / f"claude-{CLAUDE_VERSION}/node_modules/@anthropic-ai/claude-code-linux-x64/claude")]


def make_responder(workdir: str, run: str, requests: list):
    """The mock's responder for `run` ("block" or "clean"): scripted main-model answers, keyed
    by the assistant messages already in the request; each main request's messages kept in `requests`."""
    journal = os.path.join(workdir, "journal.txt")

    def step(n: int, model: str):
        mid = f"msg_hook_{run}_{n:02d}"
        if run == "clean":
            return message_events(mid, model, [text_block_events(0, CLEAN_TEXT)], "end_turn")
        if n == 0:  # a fake result written as text; no tool ran
            return message_events(mid, model, [text_block_events(0, FAKE_RESULT_REPLY)], "end_turn")
        if n == 1:  # after the hook's reason: the real call
            arguments = json.dumps({"file_path": journal, "content": JOURNAL_ENTRY + "\n"})
            return message_events(mid, model, [tool_block_events(0, "toolu_hook_write", "Write", [arguments])], "tool_use")
        return message_events(mid, model, [text_block_events(0, CLOSING_TEXT)], "end_turn")

    def delegating(n: int, model: str, subagent: bool):
        """The "subagent" and "relayed" runs: the main agent's answers, or (`subagent`) the subagent's."""
        mid = f"msg_hook_{run}_{'sub' if subagent else 'main'}_{n:02d}"
        if run == "relayed":
            return relaying(mid, n, model, subagent)
        if subagent and n == 0:  # a fake Read result written as text; no tool ran
            return message_events(mid, model, [text_block_events(0, FAKE_READ_REPLY)], "end_turn")
        if subagent and n == 1:  # after the hook's reason: the real call
            arguments = json.dumps({"file_path": os.path.join(workdir, "notes.txt")})
            return message_events(mid, model, [tool_block_events(0, "toolu_hook_read", "Read", [arguments])], "tool_use")
        if subagent:
            return message_events(mid, model, [text_block_events(0, SUBAGENT_ANSWER)], "end_turn")
        if n == 0:
            return delegation(mid, model)
        return message_events(mid, model, [text_block_events(0, DELEGATE_CLOSING)], "end_turn")

    def relaying(mid: str, n: int, model: str, subagent: bool):
        """The "relayed" run: the subagent writes the fake result twice; the main agent delegates,
        waits, passes the answer on, then (told by the hook) reads the file itself."""
        if subagent:  # the fake Read result, before and after the hook's reason
            return message_events(mid, model, [text_block_events(0, FAKE_READ_REPLY)], "end_turn")
        if n == 0:
            return delegation(mid, model)
        said = {1: DELEGATE_WAITING, 2: RELAYED_TEXT}.get(n)
        if said is not None:
            return message_events(mid, model, [text_block_events(0, said)], "end_turn")
        if n == 3:  # after the hook's reason: the real call
            arguments = json.dumps({"file_path": os.path.join(workdir, "notes.txt")})
            blocks = [text_block_events(0, READ_MYSELF), tool_block_events(1, "toolu_hook_read_main", "Read", [arguments])]
            return message_events(mid, model, blocks, "tool_use")
        return message_events(mid, model, [text_block_events(0, READ_MYSELF_CLOSING)], "end_turn")

    def delegation(mid: str, model: str):
        """The main agent's first answer: the subagent started with the `Agent` tool."""
        arguments = json.dumps({"description": "Read notes", "prompt": SUBAGENT_PROMPT, "subagent_type": "general-purpose"})
        blocks = [text_block_events(0, "Asking a subagent to read it."), tool_block_events(1, "toolu_hook_agent", "Agent", [arguments])]
        return message_events(mid, model, blocks, "tool_use")

    def responder(method, path, body):
        if path.startswith("/v1/messages/count_tokens"):
            return js({"input_tokens": 1000})
        if path.startswith("/v1/messages") and isinstance(body, dict):
            tools = [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
            if run in DELEGATING_RUNS and "Read" in tools:
                subagent = SUBAGENT_PROMPT in first_text(body)
                requests.append({"agent": "subagent" if subagent else "main", "messages": body.get("messages", [])})
                n = sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")
                return sse(delegating(n, body.get("model", "mock"), subagent))
            if "Write" in tools and "Bash" in tools:
                requests.append({"messages": body.get("messages", [])})
                n = sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")
                return sse(step(n, body.get("model", "mock")))
            return js(
                {
                    "id": "msg_hook_side",
                    "type": "message",
                    "role": "assistant",
                    "model": body.get("model", "mock"),
                    "content": [{"type": "text", "text": "Sample session"}],
                    "stop_reason": "end_turn",
                    "stop_sequence": None,
                    "usage": {"input_tokens": 10, "output_tokens": 5},
                }
            )
        return Reply(status=404, json_body={"type": "error", "error": {"type": "not_found_error", "message": "mock"}})

    return responder


def install_hook(python: str, env: dict[str, str], cwd: str) -> str:
    """`inspector hook install` into the temporary HOME's settings; what it said."""
    done = subprocess.run(
        [python, "-m", "inspector", "hook", "install"], env=env, cwd=cwd, capture_output=True, text=True, timeout=120
    )
    if done.returncode != 0:
        sys.exit(f"inspector hook install failed: {done.stderr}")
    return done.stdout


def play(claude: str, python: str, run_name: str, out: Path, keep: bool) -> None:
    """One run of `claude -p` with the hook installed; its evidence written to `out`."""
    run = TempRun(f"cch-{run_name}")
    env = run.base_env(
        CLAUDE_CONFIG_DIR=os.path.join(run.home, ".claude"),
        ANTHROPIC_API_KEY="dummy",
        DISABLE_TELEMETRY="1",
        DISABLE_ERROR_REPORTING="1",
        DISABLE_AUTOUPDATER="1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        CLAUDE_CODE_TMPDIR=os.path.join(run.home, "tmp"),
        XDG_STATE_HOME=os.path.join(run.home, "state"),
        XDG_CONFIG_HOME=os.path.join(run.home, "config"),
    )
    os.makedirs(env["CLAUDE_CODE_TMPDIR"])
    run.save("install.txt", install_hook(python, env, run.work))
    requests: list = []
    with run.mock(make_responder(run.work, run_name, requests), max_requests=40) as srv:
        env["ANTHROPIC_BASE_URL"] = srv.url
        cmd = [claude, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"]
        cmd += ["--model", "claude-sonnet-4-5", "--allowedTools", "Write", "Read", "Agent", "--max-turns", "8"]
        turn = DELEGATING_TURN if run_name in DELEGATING_RUNS else TURN_MEMORY
        rc, stdout, stderr = run_turns(cmd, run.work, env, [turn], timeout=180)
    run.save("stdout.jsonl", stdout)
    run.save("stderr.txt", stderr)
    print(f"{run_name}: claude exit {rc}; {len(requests)} model requests")
    src = run.find_written(os.path.join(run.home, ".claude", "projects", "*", "*.jsonl"), "session file")
    run.copy_scrubbed(src, out / f"claude-code-hook-{run_name}.jsonl")
    _scrub_interpreter(out / f"claude-code-hook-{run_name}.jsonl", python)
    if run_name in DELEGATING_RUNS:  # the subagent's transcript, in <session>/subagents/
        subagents = os.path.join(os.path.dirname(src), Path(src).stem, "subagents", "agent-*.jsonl")
        agent_transcript = out / f"claude-code-hook-{run_name}.agent.jsonl"
        run.copy_scrubbed(run.find_written(subagents, "subagent's transcript"), agent_transcript)
        _scrub_interpreter(agent_transcript, python)
    journal = Path(run.work, "journal.txt")
    evidence = {
        "claude_exit": rc,
        "journal_written": journal.read_text() if journal.exists() else None,
        "requests": requests,
    }
    (out / f"claude-code-hook-{run_name}.requests.json").write_text(
        run.scrub(json.dumps(evidence, indent=1, ensure_ascii=False)) + "\n"
    )
    _scrub_interpreter(out / f"claude-code-hook-{run_name}.requests.json", python)
    run.finish(keep)


def _scrub_interpreter(path: Path, python: str) -> None:
    """The interpreter's path, which the hook's command names, as the placeholder PYTHON_PLACEHOLDER."""
    path.write_text(path.read_text().replace(os.path.abspath(python), PYTHON_PLACEHOLDER))


def main() -> None:
    """Play the runs and write their evidence."""
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default=str(HERE.parent / "hooks"))
    ap.add_argument("--claude")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--run", action="append", choices=RUNS, help="play this run only (repeatable; default: all)")
    args = ap.parse_args()
    claude = find_binary("claude", args.claude, "@anthropic-ai/claude-code", CLAUDE_CANDIDATES)
    out = out_dir(args.out)
    for run_name in args.run or RUNS:
        play(claude, args.python, run_name, out, args.keep)


if __name__ == "__main__":
    main()
