"""What the Gemini CLI tests share: the 0.61 JSON Lines sample the real CLI wrote, the 0.20 JSON
document made by hand from its conversation, the replies and tools they hold, the records of a log
and their writers, and a repair written and read back."""

from __future__ import annotations

import json

from inspector.repair.apply import apply_fixes
from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions, render_sessions
from inspector.support.tools_file import load_tools_file
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "gemini-cli.session.jsonl"
FAKE = (
    '{success: true, memory_type: "journal", content: "I lost track of the refactor again."}'
    "You saw right through me. I saved that to your journal, and honestly: the refactor needs a smaller first step."
)
HERMES = 'Let me read it.\n<tool_call>{"name":"read_file","arguments":{"file_path":"notes.txt"}}</tool_call>'
TOOLS = [
    {
        "functionDeclarations": [
            {
                "name": "read_file",
                "parameters": {
                    "type": "object",
                    "properties": {"file_path": {"type": "string"}, "start_line": {"type": "number"}},
                    "required": ["file_path"],
                },
            },
            {
                "name": "list_directory",
                "parameters": {
                    "type": "object",
                    "properties": {"dir_path": {"type": "string"}},
                    "required": ["dir_path"],
                },
            },
        ]
    }
]


def call_record(call_id, name, args, response, status="success"):
    """A Gemini CLI tool call `name` with its `args` and its result `response`, as a message holds it."""
    return {
        "id": call_id,
        "name": name,
        "args": args,
        "status": status,
        "timestamp": "2025-10-02T09:00:05.000Z",
        "result": [{"functionResponse": {"id": call_id, "name": name, "response": response}}],
        "resultDisplay": "",
        "displayName": name,
        "description": "",
        "renderOutputAsMarkdown": True,
    }


def message_record(message_id, kind, content, **extra):
    """A Gemini CLI message of type `kind` (user, gemini, info, error) saying `content`, with `extra` keys."""
    return {"id": message_id, "timestamp": "2025-10-02T09:00:00.000Z", "type": kind, "content": content, **extra}


# Made by hand in the shape Gemini CLI 0.20 wrote (one JSON document, string contents, no repeat
# of results as user messages, `info`/`error` notices), from the conversation of the 0.61 sample.
DOCUMENT = {
    "sessionId": "3f2a9c1e-0d4b-4e8a-9b1c-2d3e4f5a6b7c",
    "projectHash": "c343574f054fe414",
    "startTime": "2025-10-02T09:00:00.000Z",
    "lastUpdated": "2025-10-02T09:01:00.000Z",
    "messages": [
        message_record("u1", "user", "Please save a journal memory: I lost track of the refactor again."),
        message_record(
            "g1",
            "gemini",
            FAKE,
            thoughts=[],
            tokens={"input": 500, "output": 40, "total": 540},
            model="gemini-2.5-flash",
        ),
        message_record("u2", "user", "Read notes.txt and tell me what it says."),
        message_record("g2", "gemini", HERMES, thoughts=[{"subject": "Reading", "description": "the notes"}]),
        message_record("i1", "info", "Switched to fallback model."),
        message_record("u3", "user", "That was only text, nothing ran. Use the real read_file tool on notes.txt."),
        message_record(
            "g3",
            "gemini",
            "Reading notes.txt with the real tool.",
            toolCalls=[
                call_record(
                    "read_file-1",
                    "read_file",
                    {"path": "notes.txt"},
                    {"error": "params must have required property 'file_path'"},
                    "error",
                )
            ],
        ),
        message_record(
            "g4",
            "gemini",
            "",
            toolCalls=[
                call_record(
                    "read_file-2", "read_file", {"file_path": "notes.txt"}, {"output": "Meeting moved to Thursday.\n"}
                )
            ],
        ),
        message_record(
            "g5",
            "gemini",
            "",
            toolCalls=[
                call_record("list_directory-3", "list_directory", {"dir_path": "."}, {"output": "notes.txt (44 bytes)"})
            ],
        ),
        message_record("e1", "error", "[API Error: quota exceeded]"),
        message_record("g6", "gemini", "notes.txt says the meeting moved to Thursday."),
    ],
}


def write_document(path, value, indent=2):
    """Write `value` as a JSON document (non-ASCII kept, indented by `indent`) to `path`; the path."""
    path.write_text(json.dumps(value, indent=indent, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def write_log(path, records):
    """Write `records` as compact JSON Lines (non-ASCII kept), as the CLI writes them, to `path`; the path."""
    path.write_text(
        "".join(json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "\n" for r in records), encoding="utf-8"
    )
    return path


def turn_shapes(turns):
    """What a turn says, for comparing a repaired session with the one read back from its file."""

    def said(content):
        return content.get("output", content.get("error", content)) if isinstance(content, dict) else content

    return [
        (
            t.role,
            t.text,
            [(c.id, c.name, c.arguments) for c in t.tool_calls],
            [(r.call_id, r.name, said(r.content), r.is_error) for r in t.tool_results],
        )
        for t in turns
    ]


def repair_and_reload(path, out, tools=()):
    """Apply every fix a scan proposes, write the file, and read it back: (repaired, reloaded)."""
    (result,) = scan_file(path, extra_tools=tools)
    repaired, applied = apply_fixes(result.session, result.findings)
    assert applied
    out.write_text(render_sessions([repaired]), encoding="utf-8")
    (reloaded,) = load_sessions(out)
    return repaired, reloaded


def tool_specs(tmp_path):
    """The tools of `TOOLS`, as `--tools` reads them from a file written in `tmp_path`."""
    return load_tools_file(write_document(tmp_path / "tools.json", TOOLS))


def log_records(*messages, metadata=None):
    """A Gemini CLI log: its metadata line (`metadata`, or a plain one) and then `messages`."""
    head = metadata or {"sessionId": "s-1", "projectHash": "p", "startTime": "t", "lastUpdated": "t", "kind": "main"}
    return [head, *messages]
