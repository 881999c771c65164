"""Benchmark: `inspector scan --json` on a large Inspect AI log, the legacy `.json` and the `.eval`
zip, against decoding the same JSON with `json.load` (for `.eval`: reading and decompressing its
members with `zipfile` + Zstandard, then `json.loads`).

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_inspect_ai.py [--events 100000] [--runs 3] [--eval]

A child process writes a deterministic log in the shape inspect-ai 0.3.285 writes (see
`sessions/inspect-ai.log.json`): samples of about 100 messages, user turns
answered by zero to two assistant messages with a `read_file` call and their tool messages, then a
reply. About 2% of the replies start with a fake JS-style result; about 4% of the calls did not
parse (`arguments: {}`, a `parse_error`, a `parsing` tool error). With `--eval` the log is a zip
whose members are Zstandard-compressed; `zipfile` cannot write method 93 before Python 3.14, so
the member is stored with the compressed bytes and the central directory is given the method,
size and CRC the reader checks (the local header still says "stored"; the reader does not use it).
The report is that of `bench_sharegpt.run`.
"""

from __future__ import annotations

import json
import os
import random
import sys
import zipfile
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_runner import WORDS
from bench_sharegpt import run

from inspector.support.zstandard_module import zstd

EVAL = "--eval" in sys.argv or os.environ.get("BENCH_INSPECT_EVAL") == "1"
if EVAL:  # the child that writes the file runs without the flag: it is told by the environment
    sys.argv = [arg for arg in sys.argv if arg != "--eval"]
    os.environ["BENCH_INSPECT_EVAL"] = "1"
BASELINE_JSON = "import json, sys\nvalue = json.load(open(sys.argv[1], encoding='utf-8'))"
BASELINE_EVAL = (
    "import json, sys, zipfile\nfrom inspector.support.zstandard_module import zstd\narchive = open(sys.argv[1], 'rb').read()\n"
    "z = zipfile.ZipFile(sys.argv[1])\nvalues = []\nfor info in z.infolist():\n"
    "    start = info.header_offset + 30 + len(info.filename)\n"
    "    data = zstd.decompress(archive[start:start + info.compress_size])\n"
    "    values.append(json.loads(data))"
)
TOOLS = [
    {
        "name": "read_file",
        "description": "Read a file.",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    }
]


def sample(rng: random.Random, pool: list[str], number: int, planted: dict[str, int]) -> dict:
    """One sample of about 100 messages."""
    messages = [{"id": f"s{number}-0", "role": "system", "content": "You read notes."}]
    while len(messages) < 100:
        messages.append({"id": f"s{number}-{len(messages)}", "role": "user", "content": rng.choice(pool)})
        failed = False
        for _ in range(rng.choice((0, 1, 1, 2))):
            call_id = f"call_{number}_{len(messages)}"
            call = {
                "id": call_id,
                "function": "read_file",
                "arguments": {"path": f"{rng.choice(WORDS)}.txt"},
                "type": "function",
            }
            tool = {
                "id": f"s{number}-{len(messages) + 1}",
                "role": "tool",
                "tool_call_id": call_id,
                "function": "read_file",
                "content": "\n".join(rng.sample(pool, 4)),
            }
            if rng.random() < 0.04:
                error = 'Error parsing the following tool call arguments:\n\n{"path": "a.txt"}}}\n\nError details: Extra data'
                call.update(arguments={}, parse_error=error)
                tool.update(content="", error={"type": "parsing", "message": error})
                planted["malformed-arguments"] += 1
                planted["tool-error"] += 1
                failed = True
            messages.append(
                {
                    "id": f"s{number}-{len(messages)}",
                    "role": "assistant",
                    "content": "Reading.",
                    "tool_calls": [call],
                    "model": "mockllm/model",
                }
            )
            messages.append(tool)
        reply = " ".join(rng.sample(pool, rng.randint(1, 6)))  # (drawn even when unused: the file stays as it was)
        if failed:  # said plainly: random words may read as a success claim
            reply = "That call failed: its arguments could not be parsed."
        if rng.random() < 0.02:
            reply = f"{{success: true, content: {json.dumps(rng.choice(pool))}}}" + reply
            planted["result-prefix"] += 1
        messages.append(
            {"id": f"s{number}-{len(messages)}", "role": "assistant", "content": reply, "model": "mockllm/model"}
        )
    events = [{"event": "model", "model": "mockllm/model", "tools": TOOLS}] if number == 0 else []
    return {
        "id": f"sample-{number}",
        "epoch": 1,
        "input": messages[1]["content"],
        "target": "",
        "messages": messages,
        "events": events,
        "attachments": {},
    }


def generate(path: Path, count: int) -> dict[str, int]:
    """Write a log of about `count` messages to `path`; return the problems planted by kind."""
    rng = random.Random(17)
    pool = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 22))).capitalize() + "." for _ in range(4000)]
    planted = {"result-prefix": 0, "malformed-arguments": 0, "tool-error": 0}
    samples = [sample(rng, pool, number, planted) for number in range(max(1, count // 100))]
    header = {"version": 2, "status": "success", "eval": {"task": "bench", "model": "mockllm/model"}, "plan": {}}
    if not EVAL:
        path.write_text(json.dumps({**header, "samples": samples}, indent=2), encoding="utf-8")
        return planted
    with zipfile.ZipFile(path, "w") as archive:
        for name, value in [(f"samples/{s['id']}_epoch_1.json", s) for s in samples] + [("header.json", header)]:
            raw = json.dumps(value).encode()
            archive.writestr(name, zstd.compress(raw))
            info = archive.infolist()[-1]
            info.compress_type, info.file_size, info.CRC = 93, len(raw), zlib.crc32(raw)
    return planted


if __name__ == "__main__":
    run(
        __file__,
        generate,
        "inspect-bench.eval" if EVAL else "inspect-bench.json",
        BASELINE_EVAL if EVAL else BASELINE_JSON,
    )
