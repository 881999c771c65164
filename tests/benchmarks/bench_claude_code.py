"""Benchmark: `inspector scan --json` on a large Claude Code session against decoding its lines.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_claude_code.py [--events 100000] [--runs 3] [--fix] [--keep]

It writes a deterministic Claude Code session of N lines (about 60 MB for the default 100,000) to a
temporary directory, shaped as Claude Code 2.1 writes one: queue operations, prompts, attachments
and file-history snapshots between the messages, each API response spread over one assistant event
per content block (thinking, text, tool_use) sharing `message.id`, each result a user event with its
`toolUseResult`. About 25% of the replies make real calls (`Read`, `Bash`, an MCP `save_memory`),
4% of which have extra closing braces and are stored as `__unparsedToolInput` answered by an
`InputValidationError`; about 2% start with a fake JS-style `save_memory` result; about 1% leak a
`Read` call as Hermes `<tool_call>` markup. Then it runs, interleaved and each in its own process,
a baseline that only `json.loads` every line and `python -m inspector scan --json FILE`, and prints
the best wall time and peak memory of each, their ratios against the targets (time at most 3.0x,
memory at most 2.5x), and the findings reported against those planted. `--fix` also times
`inspector fix --accept all -o` (written to the temporary directory) against decoding every line and
writing it again with `json` (`REWRITE`), target 1.3x: on 2 shared cores (load average 1 to 3), best
of 3, 1.82 s against 1.15 s, 1.58x (peak 343 MB), where it was 1.90 s, 1.67x (450 MB) while the kept
lines were decoded and encoded again to be written; the scan alone is 1.48 s of it (`scan --json`).
Since the turns are built in one pass over each message's blocks ("build turns" of `scan_stages.py`
0.52 s -> 0.38 s of CPU, best of 5; 0.73 s -> 0.50 s in a first run), one run of each tree on the
same machine (load average 2 to 3, so only the ratios compare) gave scan 2.31 s -> 2.00 s (1.48x ->
1.45x json.loads) and fix 3.09 s -> 2.22 s (1.64x -> 1.27x json rewrite), peak memory unchanged.
Those rewrites streamed the file a line at a time; the rewrite now loads the session whole first, as
`fix` does (its memory is what `fix`'s is measured against): best of 3 (load average about 1.8), scan
2.47 s against 2.00 s (1.23x json.loads, memory 1.04x), fix 3.14 s against the rewrite's 3.62 s
(0.87x, memory 1.27x). With the patterns compiled at their first use (each process compiled all
170; a Claude Code scan uses about 36), farm-bench, median of 9 pairs of `scan --json` and the
baseline on the default file: 1.10x json.loads (pairs 0.82x-1.28x; 1.22x the session before), memory
1.04x. It exits 0 whatever the numbers, unless a child crashes.

Then the command ended at once once its report was out, without freeing the session one object at
a time (`support/quick_exit.py`), the secret search's quick look read each id and record field once
a batch (a record's uuid is its turn's id, its own and the next record's parent: the look's CPU
0.31 s -> 0.27 s), and a scan loaded only what it uses (the SQL schemas, the search index): farm-bench,
median of 11 pairs, the scan against the code before the first 0.89x (1.47 s against 1.61 s), and
against `json.loads` 1.23x-1.26x before the three (two runs of 7 and 9 pairs, a more loaded hour)
and 1.17x-1.18x after (two of 11), memory 1.02x.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_runner
from bench_runner import WORDS

SESSION = "5e55a0f1-b3c4-4d5e-8f90-123456789abc"
ENVELOPE = {
    "userType": "external",
    "entrypoint": "cli",
    "cwd": "/home/dev/project",
    "sessionId": SESSION,
    "version": "2.1.197",
    "gitBranch": "main",
}
SAVE = "mcp__memory__save_memory"


def generate(path: Path, count: int, seed: int = 7, session: str = SESSION) -> dict[str, int]:
    """Write a session of `count` lines to `path` (its words drawn from `seed`, its id `session`);
    return how many problems of each kind it holds."""
    rng = random.Random(seed)
    envelope = {**ENVELOPE, "sessionId": session}
    pool = bench_runner.word_pool(rng)
    lines: list[str] = []
    state = {"parent": None, "n": 0}
    planted = {"result-prefix": 0, "malformed-arguments": 0, "tool-error": 0, "tool-markup": 0}

    def prose(low: int, high: int) -> str:
        return " ".join(rng.sample(pool, rng.randint(low, high)))

    def emit(record: dict) -> None:
        lines.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))

    def event(body: dict, **extra) -> str:
        state["n"] += 1
        uid = f"{state['n']:08x}-0000-4000-8000-{rng.getrandbits(48):012x}"
        stamp = f"2026-11-24T{state['n'] // 3600 % 24:02d}:{state['n'] // 60 % 60:02d}:{state['n'] % 60:02d}.000Z"
        emit(
            {
                "parentUuid": state["parent"],
                "isSidechain": False,
                **body,
                "uuid": uid,
                "timestamp": stamp,
                **extra,
                **envelope,
            }
        )
        state["parent"] = uid
        return uid

    def assistant(message_id: str, block: dict, stop: str) -> str:
        message = {
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [block],
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": rng.randint(100, 9000), "output_tokens": rng.randint(10, 900)},
        }
        return event({"message": message, "requestId": "req_" + message_id[4:], "type": "assistant"})

    def call() -> tuple[dict, str, object]:
        name = rng.choice(("Read", "Bash", SAVE))
        if name == "Read":
            args = {"file_path": f"/home/dev/project/src/{rng.choice(WORDS)}.py"}
            out = "\n".join(f"{i}\t{rng.choice(pool)}" for i in range(1, rng.randint(3, 30)))
            copy: object = {"type": "text", "file": {"filePath": args["file_path"], "content": out}}
        elif name == "Bash":
            args = {"command": f"echo {rng.choice(WORDS)}", "description": "Print a word"}
            out = args["command"][5:]
            copy = {"stdout": out, "stderr": "", "interrupted": False, "isImage": False}
        else:  # always "fact": never the same call as a planted fake
            args = {"memory_type": "fact", "content": rng.choice(pool)}
            out = json.dumps({"success": True, **args})
            copy = out
        return {"name": name, "args": args}, out, copy

    while len(lines) < count:
        prompt = prose(1, 3)
        emit(
            {
                "type": "queue-operation",
                "operation": "enqueue",
                "timestamp": "2026-11-24T00:00:00.000Z",
                "sessionId": session,
                "content": prompt,
            }
        )
        emit(
            {
                "type": "queue-operation",
                "operation": "dequeue",
                "timestamp": "2026-11-24T00:00:00.000Z",
                "sessionId": session,
            }
        )
        prompt_id = event({"type": "user", "message": {"role": "user", "content": prompt}}, promptId="p")
        if rng.random() < 0.1:
            emit(
                {
                    "type": "file-history-snapshot",
                    "messageId": prompt_id,
                    "snapshot": {"messageId": prompt_id, "trackedFileBackups": {}, "timestamp": "2026-11-24T00:00:00Z"},
                }
            )
        if rng.random() < 0.2:
            event({"attachment": {"type": "todo_reminder", "content": [], "itemCount": 0}, "type": "attachment"})
        message_id = f"msg_{state['n']:024d}"
        if rng.random() < 0.3:
            assistant(message_id, {"type": "thinking", "thinking": prose(1, 4), "signature": "c2ln"}, None)
        roll = rng.random()
        if roll < 0.25:  # real calls, each answered by its result, then a reply
            assistant(message_id, {"type": "text", "text": prose(1, 2)}, None)
            made = [call() for _ in range(rng.choice((1, 1, 2)))]
            sources = []
            for number, (spec, _, _) in enumerate(made):
                broken = rng.random() < 0.04  # stored as Claude Code stores input it could not parse
                raw = json.dumps(spec["args"]) + "}}}"
                stored = {"__unparsedToolInput": {"raw": raw, "len": len(raw)}} if broken else spec["args"]
                planted["malformed-arguments"] += broken
                planted["tool-error"] += broken
                block = {
                    "type": "tool_use",
                    "id": f"toolu_{state['n']:020d}_{number}",
                    "name": spec["name"],
                    "input": stored,
                }
                sources.append((block["id"], assistant(message_id, block, "tool_use"), broken))
            for (tool_id, source, broken), (spec, out, copy) in zip(sources, made):
                if broken:
                    out = f"<tool_use_error>InputValidationError: {spec['name']} was called with input that could not be parsed as JSON.</tool_use_error>"
                    copy = "InputValidationError: JSON parse failed"
                block = {
                    "tool_use_id": tool_id,
                    "type": "tool_result",
                    "content": out,
                    **({"is_error": True} if broken else {}),
                }
                event(
                    {"type": "user", "message": {"role": "user", "content": [block]}},
                    toolUseResult=copy,
                    sourceToolAssistantUUID=source,
                )
            reply = prose(1, 5)  # (drawn even when unused: the rest of the file stays as it was)
            if any(broken for _, _, broken in sources):  # said plainly: random words may read as a claim
                reply = "That call failed: its input could not be parsed."
            assistant(f"msg_{state['n']:024d}", {"type": "text", "text": reply}, "end_turn")
        elif roll < 0.27:  # a fake result the model wrote itself: no call ran
            fake = json.dumps(rng.choice(pool), ensure_ascii=False)
            prefix = f'{{success: true, memory_type: "{rng.choice(("journal", "core"))}", content: {fake}}}'
            assistant(
                message_id, {"type": "text", "text": prefix + rng.choice(("", " ", "\n\n")) + prose(1, 6)}, "end_turn"
            )
            planted["result-prefix"] += 1
        elif roll < 0.28:  # a call leaked as markup in the reply: nothing ran
            markup = '<tool_call>{"name": "Read", "arguments": {"file_path": "notes.txt"}}</tool_call>'
            assistant(message_id, {"type": "text", "text": prose(1, 3) + "\n" + markup}, "end_turn")
            planted["tool-markup"] += 1
        else:
            assistant(message_id, {"type": "text", "text": prose(1, 7)}, "end_turn")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return planted


def report(options, path: Path, planted: dict[str, int]) -> None:
    """Measure the baseline and the scan on the generated file at `path` and print the figures."""
    print(
        f"session: {bench_runner.line_count(path):,} lines, {path.stat().st_size / 1e6:.1f} MB, planted: "
        + bench_runner.planted_text(planted)
    )
    baseline = [
        sys.executable,
        "-c",
        "import json,sys; [json.loads(l) for l in open(sys.argv[1], encoding='utf-8')]",
        str(path),
    ]
    extra = bench_runner.fix_commands(path, REWRITE, ".jsonl") if options.fix else {}
    measured = bench_runner.compare(path, planted, options.runs, "json.loads", baseline, extra=extra, note="")
    if options.fix:
        bench_runner.print_fix_target(measured)


# The session loaded whole (every line decoded, as an editor of it holds it), then each line encoded
# again as Claude Code writes one (compact, UTF-8 as it is): what `fix` does, whose memory it is
# measured against (a rewrite streaming one line at a time would hold almost nothing).
REWRITE = (
    "import json,sys\n"
    "with open(sys.argv[1], encoding='utf-8') as lines:\n"
    "    records = [json.loads(l) for l in lines]\n"
    "with open(sys.argv[2], 'w', encoding='utf-8') as out:\n"
    "    out.writelines(json.dumps(r, ensure_ascii=False, separators=(',', ':')) + '\\n' for r in records)"
)


def main() -> None:
    parser = bench_runner.arguments(__doc__, "--events", 100_000, "lines in the generated session (about)")
    parser.add_argument("--fix", action="store_true", help="also time `inspector fix --accept all`")
    bench_runner.run(parser, __file__, generate, "bench.claude-code.jsonl", report)


if __name__ == "__main__":
    main()
