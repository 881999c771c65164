#!/usr/bin/env python3
"""Show that a session whose secrets `inspector fix --accept secret` masked is still resumed by
its real tool: Codex CLI, Gemini CLI and Claude Code, each against the scripted mock.

Usage (with the project's venv active, so that `inspector` runs):
    python3 sessions/generate/masked_resume.py [OUT_DIR] [--only codex,gemini,claude]
        [--codex PATH] [--gemini PATH] [--claude PATH] [--inspector PATH] [--keep]

OUT_DIR defaults to sessions/masked/.  For each tool, in a temporary HOME and working folder
holding `secrets.env` (fake credentials that still match the secret detector):

1. the tool runs one user turn: the model reads `secrets.env` with the tool's own read tool (the
   secrets come in as the tool's result) and answers quoting the AWS key id;
2. the session file is copied, scrubbed as every generator scrubs it, to `<tool>.before.<ext>`;
3. `inspector fix --accept secret` masks that copy into a new file, which (the placeholders put
   back to the temporary paths) replaces the session where the tool keeps it;
4. the tool resumes it for one more user turn (`codex exec resume --last`,
   `gemini --resume latest -p`, `claude -p --resume <id>`);
5. it checks that the CLI exited 0, that no request the mock received from then on holds a
   secret and the resumed turn's request holds every mask, and that the file the tool left starts
   with the masked file, byte for byte, followed by the new turn.  Any failure exits 1.

It writes `<tool>.resumed.<ext>` (the session after step 4, scrubbed) and
`<tool>.resumed-request.json` (the history the resumed turn's request sent, from the first user
turn on: its path and its `input` / `contents` / `messages`, scrubbed).  The wire format of the mock's answers is the
tool's own generator's (`codex.py`, `gemini_cli.py`, `claude_code.py`); their side requests
are answered by those generators' responders.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import claude_code
import codex
import gemini_cli
from harness import DEFAULT_OUT, NPM_TOOLS, TempRun, arg_parser, find_binary, out_dir
from mock_server import Reply, sse

# Obviously fake values, each of a shape the secret detector knows.
GITHUB_TOKEN = "ghp_FAKEfake0123456789FAKEfake0123456789"
AWS_KEY_ID = "AKIAFAKEEXAMPLE01234"
PASSWORD = "Fake-Passw0rd-2026"
SECRETS = (GITHUB_TOKEN, AWS_KEY_ID, PASSWORD)
MASKS = ("[REDACTED:github-token]", "[REDACTED:aws-access-key]", "[REDACTED:secret-value]")
SECRETS_ENV = (
    "# Fake credentials for a test: none of them is real.\n"
    f"GITHUB_TOKEN={GITHUB_TOKEN}\nAWS_ACCESS_KEY_ID={AWS_KEY_ID}\npassword={PASSWORD}\n"
)

TURN_READ = "Read secrets.env and tell me what it holds."
TURN_RESUMED = "Which of them should I rotate first?"
SUMMARY_TEXT = f"secrets.env holds a GitHub token, an AWS access key id ({AWS_KEY_ID}) and a password."
ROTATE_TEXT = "Rotate the GitHub token first: it reaches the most."


@dataclass
class Tool:
    """One CLI's part: its sample name, session file's extension, temp tag, and how to run it.

    ``prepare(run, url)`` writes the tool's config and returns its environment; ``first`` and
    ``resume(session_path)`` are the command lines of the two user turns; ``session_glob`` finds
    the session file in the temp HOME; ``responder(run)`` answers the mock's requests;
    ``history_key`` names the history in a request body.
    """

    name: str
    ext: str
    tag: str
    prepare: Callable[[TempRun, str], dict[str, str]]
    first: list[str]
    resume: Callable[[str], list[str]]
    session_glob: str
    responder: Callable[[TempRun], Callable[[str, str, Any], Reply]]
    history_key: str


def codex_tool(binary: str) -> Tool:
    """Codex CLI: `codex exec`, then `codex exec resume --last`; calls its shell tool."""

    def prepare(run: TempRun, url: str) -> dict[str, str]:
        home = Path(run.home, ".codex")
        home.mkdir()
        Path(home, "config.toml").write_text(
            f'model = "{codex.MODEL}"\nmodel_provider = "mock"\napproval_policy = "never"\n'
            f'sandbox_mode = "danger-full-access"\n\n[model_providers.mock]\nname = "Mock"\n'
            f'base_url = "{url}/v1"\nwire_api = "responses"\nenv_key = "MOCK_API_KEY"\n'
            "request_max_retries = 0\nstream_max_retries = 0\n"
        )
        return run.base_env(CODEX_HOME=str(home), MOCK_API_KEY="dummy", RUST_LOG="warn")

    def responder(run: TempRun) -> Callable[[str, str, Any], Reply]:
        script, fallback = codex.Script(), codex.make_responder(codex.Script(), {})

        def answer(method: str, path: str, body: Any) -> Reply:
            if not (path.endswith("/responses") and isinstance(body, dict)):
                return fallback(method, path, body)
            names = [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
            shell = next((t for t in ("shell_command", "exec_command", "shell") if t in names), "shell")
            n = sum(
                1
                for it in body.get("input") or []
                if it.get("type") == "function_call" or (it.get("type") == "message" and it.get("role") == "assistant")
            )
            if n == 0:
                items = [
                    codex.fcall("fc_mock_read", "call_mock_read", shell, codex.shell_args(shell, "cat secrets.env"))
                ]
            else:
                items = [codex.message(f"msg_mock_{n:02d}", SUMMARY_TEXT if n == 1 else ROTATE_TEXT)]
            return sse(script.events(items))

        return answer

    skip = "--skip-git-repo-check"
    return Tool(
        "codex",
        "jsonl",
        "cx",
        prepare,
        [binary, "exec", skip, TURN_READ],
        lambda _session: [binary, "exec", "resume", "--last", skip, TURN_RESUMED],
        ".codex/sessions/*/*/*/rollout-*.jsonl",
        responder,
        "input",
    )


def gemini_tool(binary: str) -> Tool:
    """Gemini CLI: `gemini -p`, then `gemini --resume latest -p`; calls its read_file tool."""
    flags = ["-m", gemini_cli.MODEL, "-o", "stream-json", "--skip-trust", "--approval-mode", "yolo"]

    def prepare(run: TempRun, url: str) -> dict[str, str]:
        Path(run.home, ".gemini").mkdir()
        settings = {
            "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "general": {"disableAutoUpdate": True, "disableUpdateNag": True, "sessionRetention": {"enabled": False}},
            "ide": {"enabled": False},
        }
        Path(run.home, ".gemini", "settings.json").write_text(json.dumps(settings, indent=2))
        return run.base_env(
            GEMINI_API_KEY="dummy", GOOGLE_GEMINI_BASE_URL=url, GEMINI_CLI_NO_RELAUNCH="true", NO_BROWSER="true"
        )

    def responder(run: TempRun) -> Callable[[str, str, Any], Reply]:
        fallback = gemini_cli.make_responder(run.work, {})

        def answer(method: str, path: str, body: Any) -> Reply:
            tools = [
                d.get("name") for t in (body or {}).get("tools") or [] for d in t.get("functionDeclarations") or []
            ]
            if ":streamGenerateContent" not in path or "read_file" not in tools:
                return fallback(method, path, body)
            n = sum(1 for c in body.get("contents") or [] if c.get("role") == "model")
            if n == 0:
                chunks = gemini_cli.text_chunks(
                    "", [{"functionCall": {"name": "read_file", "args": {"file_path": "secrets.env"}}}]
                )
            else:
                chunks = gemini_cli.text_chunks(SUMMARY_TEXT if n == 1 else ROTATE_TEXT)
            return sse([(None, c) for c in chunks])

        return answer

    return Tool(
        "gemini-cli",
        "jsonl",
        "gm",
        prepare,
        [binary, *flags, "-p", TURN_READ],
        lambda _session: [binary, *flags, "--resume", "latest", "-p", TURN_RESUMED],
        ".gemini/tmp/*/chats/session-*.json*",
        responder,
        "contents",
    )


def claude_tool(binary: str) -> Tool:
    """Claude Code: `claude -p`, then `claude -p --resume <session id>`; calls its Read tool."""
    flags = ["--output-format", "json", "--model", "claude-sonnet-4-5", "--allowedTools", "Read"]

    prepare = claude_code.claude_env

    def responder(run: TempRun) -> Callable[[str, str, Any], Reply]:
        fallback = claude_code.make_responder(run.work)
        secrets_env = json.dumps({"file_path": os.path.join(os.path.realpath(run.work), "secrets.env")})

        def answer(method: str, path: str, body: Any) -> Reply:
            tools = [t.get("name") for t in (body or {}).get("tools") or [] if isinstance(t, dict)]
            if not (path.startswith("/v1/messages?") or path == "/v1/messages") or "Read" not in tools:
                return fallback(method, path, body)
            n = sum(1 for m in body.get("messages") or [] if m.get("role") == "assistant")
            model = body.get("model", "mock")
            if n == 0:
                block = claude_code.tool_block_events(0, "toolu_mock_read", "Read", [secrets_env])
                return sse(claude_code.message_events("msg_mock_00", model, [block], "tool_use"))
            text = claude_code.text_block_events(0, SUMMARY_TEXT if n == 1 else ROTATE_TEXT)
            return sse(claude_code.message_events(f"msg_mock_{n:02d}", model, [text], "end_turn"))

        return answer

    return Tool(
        "claude-code",
        "jsonl",
        "cc",
        prepare,
        [binary, "-p", TURN_READ, *flags],
        lambda session: [binary, "-p", TURN_RESUMED, "--resume", Path(session).stem, *flags],
        ".claude/projects/*/*.jsonl",
        responder,
        "messages",
    )


def play(tool: Tool, inspector: str, out: Path, keep: bool) -> list[str]:
    """Run the tool's two turns around the masking; the checks that failed (none: it was resumed)."""
    run = TempRun(tool.tag)
    Path(run.work, "secrets.env").write_text(SECRETS_ENV)
    failed: list[str] = []
    with run.mock(tool.responder(run), max_requests=40) as srv:
        env = tool.prepare(run, srv.url)
        if run.run_each(tool.name, [tool.first], env, "first-output.txt") != [0]:
            failed.append("the first turn failed")
        session = run.find_written(os.path.join(run.home, tool.session_glob), "session file")
        before = out / f"{tool.name}.before.{tool.ext}"
        run.copy_scrubbed(session, before)
        masked = Path(run.home, f"masked.{tool.ext}")
        fix = subprocess.run([inspector, "fix", "--accept", "secret", str(before), "-o", str(masked)], text=True)
        if fix.returncode not in (0, 1) or not masked.exists():
            return [*failed, f"inspector fix exited {fix.returncode}"]
        put_back = run.unscrub(masked.read_text())
        Path(session).write_text(put_back)
        sent_before = len(_bodies(run))
        codes = run.run_each(tool.name, [tool.resume(session)], env, "resume-output.txt")
    failed += [] if codes == [0] else [f"the resumed turn exited {codes[0]}"]
    bodies = _bodies(run)[sent_before:]
    failed += [f"a request after the resume holds {s}" for s in SECRETS if any(s in json.dumps(b) for b in bodies)]
    turn = [b for b in bodies if TURN_RESUMED in json.dumps(b.get("body")) and tool.history_key in (b["body"] or {})]
    if not turn:
        failed.append("no request of the resumed turn")
    else:
        failed += [f"the resumed turn's request lacks {m}" for m in MASKS if m not in json.dumps(turn[-1])]
        items = turn[-1]["body"][tool.history_key]
        first = next(i for i, item in enumerate(items) if TURN_READ in json.dumps(item))  # the instructions before
        history = {"path": turn[-1]["path"], tool.history_key: items[first:]}
        text = run.scrub(json.dumps(history, indent=1, ensure_ascii=False)) + "\n"
        (out / f"{tool.name}.resumed-request.json").write_text(text)
    resumed = Path(session).read_text()
    if not resumed.startswith(put_back) or len(resumed) == len(put_back):
        failed.append("the tool did not append its new turn to the masked file")
    run.copy_scrubbed(session, out / f"{tool.name}.resumed.{tool.ext}")
    run.finish(keep or bool(failed))
    return failed


def _bodies(run: TempRun) -> list[dict[str, Any]]:
    """The requests the mock recorded so far (``bodies.jsonl`` in the temp HOME)."""
    path = Path(run.home, "bodies.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def main() -> None:
    """Play each chosen tool and exit 1 when one was not resumed as it should be."""
    ap = arg_parser("inspector")
    ap.set_defaults(out=str(DEFAULT_OUT / "masked"))
    ap.add_argument("--only", default="codex,gemini,claude", help="comma-separated: codex, gemini, claude")
    for flag in ("codex", "gemini", "claude"):
        ap.add_argument(f"--{flag}")
    args = ap.parse_args()
    inspector = args.inspector or shutil.which("inspector")
    if not inspector:
        sys.exit("inspector not found: activate the project's venv or pass --inspector")
    out = out_dir(args.out)
    tools = {
        "codex": lambda: codex_tool(
            find_binary("codex", args.codex, "@openai/codex", [str(NPM_TOOLS / "codex/node_modules/.bin/codex")])
        ),
        "gemini": lambda: gemini_tool(
            find_binary(
                "gemini", args.gemini, "@google/gemini-cli", [str(NPM_TOOLS / "gemini/node_modules/.bin/gemini")]
            )
        ),
        "claude": lambda: claude_tool(
            find_binary(
                "claude",
                args.claude,
                "@anthropic-ai/claude-code",
                [str(NPM_TOOLS / "claude/node_modules/@anthropic-ai/claude-code-linux-x64/claude")],
            )
        ),
    }
    failures = 0
    for name in args.only.split(","):
        failed = play(tools[name](), inspector, out, args.keep)
        print(f"{name}: " + ("resumed the masked session" if not failed else "; ".join(failed)))
        failures += bool(failed)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
