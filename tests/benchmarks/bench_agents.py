"""Benchmark: `inspector scan --json` on large coding-agent sessions against decoding their records.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_agents.py [--format qwen-code] [--events 100000] [--runs 3] [--keep]

For each format (or the one named), a child process writes a deterministic file of about N records
by repeating the records of the sample the real tool wrote (`sessions/`), each copy's ids made
fresh: the record ids (`uuid`, `id`) and their references get the copy's number, and call ids
`call_mock_` become `call_<copy>_`. In a chained log (Qwen Code, Copilot CLI, Factory Droid) each
copy's first record hangs from the copy before it, so the file is one long session; Pi's header
line is written once and its entries repeated under it with fresh 8-hex ids, one branch. The text
logs of Aider are repeated whole (a copy is one run of the tool; a record is one of its messages).
The OpenCode database gets one session of N parts (the sample's messages and parts again and
again), the Cursor CLI store one root naming N message blobs. Each copy holds the sample's planted
problems.

The baseline decodes the same records in one process: with `json.loads`, the JSON file whole, a
JSON-lines file line by line, every `data` column of the OpenCode database's messages and parts,
every JSON blob of the Cursor CLI store. A text log has no JSON to decode: its records are its
messages, so its baseline cuts it into them as a fast reader would, by one regular expression in C
for each piece, and makes each the dict a JSON record would decode to (`BASELINES`: the chat's runs
of `#### ` lines, of notices and of reply lines; the LLM log's blocks cut at their headers, their
messages at their `-------` lines, the role taken off each line). A text log's baseline once
decoded a companion file holding as many JSON strings as the log has messages, which costs nothing
like reading the log (JSON strings decode in C at memory speed; a line's role taken off is work any
reader of the log does): the Aider chat's two baselines cost about the same (0.39 s and 0.26 s of CPU
on 48 MB), the LLM log's do not (3.1 s and 0.6 s on 197 MB: every line of it is prefixed by its role).

Then, several times each and interleaved, the baseline and `python -m inspector scan --json FILE`
run each in its own process; it prints the best wall time and the peak memory (the child's own
`ru_maxrss`) of each, their ratios against the targets (time at most 3.0x, memory at most 2.5x the
baseline) and the findings reported against the sample's findings times the copies (and those
each join of two copies adds: `AT_EACH_JOIN`). It exits 0
whatever the numbers (a report, not a test) unless a child crashes.

Figures on a 2-core machine shared with other work (heavily loaded: a baseline's time moved by up to
2.5x between the two columns' runs, so a ratio is worth about +-0.5x), 100,000 records each, best of
3 runs, the text logs against the baselines above; "before" is the code before the secret search's
gate was narrowed and tool-markup's blocks shared, "after" with them:

    format               time before  time after  memory before  memory after  baseline (after)
    factory-droid        5.94x        1.98x       1.54x          1.55x         3.1 s, 263 MB
    copilot-cli-history  5.38x        5.19x       1.27x          1.32x         0.5 s, 148 MB
    aider                9.89x        8.00x       1.62x          1.69x         0.7 s, 123 MB
    aider-llm-history    1.67x        1.55x       1.13x          1.13x         5.4 s, 526 MB

The scan's own CPU time, the code before and after run back to back on the same files (two runs
each): factory-droid 6.6-7.2 s -> 3.4-3.5 s; copilot-cli-history 2.8-3.2 s -> 2.8-3.0 s; aider
3.6-3.8 s -> 3.9-4.1 s (noise); the Claude Code benchmark's file (`bench_claude_code.py`, 100,000
lines) 1.9 s -> 1.9-2.0 s. The reports are byte-identical before and after on each of these files
and on every sample of `sessions/` and `inspector/samples/`.

factory-droid's time went to the secret search on each copy's 10 KB message of system reminders:
the gate pointed at it for holding `:` and a key word anywhere ("keywords", "tokens"), and every
rule then searched it whole. The gate now asks for a key named like a secret ending right before its
`:` or `=`, the keyed rule runs only there, and the token pattern only on a text holding a run of 32
token characters. copilot-cli-history and aider stay over the target: their scans' time is the
reading of every message and the detectors' work on the findings each copy plants (result-prefix
and tool-markup parse a leaked call or result in every copy: 10,000 and 16,667 findings of each),
not a search that a cheaper first pass could skip. With the baselines of before (the Aider logs
against JSON strings) aider measured 13.6x (memory 3.0x) and aider-llm-history 9.4x (2.65x).

copilot-cli-history and aider were then worked on alone, on the same machine more loaded still (load
average 4.5 to 6.8 on its 2 cores: a baseline's best time moved by up to 2x between runs, and a scan's
wall time was 1.5 to 2.5 times its CPU time, so a time ratio is worth about +-2x); 100,000 records,
best of 3, "before" the code with the changes above, "after" with those below; the CPU seconds (user
+ system) of `scan --json --no-cache`, the two run back to back three times each, and of the baseline:

    format               time before  time after  memory before  memory after  scan CPU before -> after  baseline CPU
    copilot-cli-history  8.37x        7.35x       1.32x          1.32x         2.45-2.50 s -> 2.31-2.35 s  0.39 s
    aider                7.62x        5.95x       1.70x          1.69x         3.15-3.27 s -> 2.42-2.50 s  0.43 s

Counted in CPU time, the steadier figure, the ratios went from 6.3-6.4x to 5.9-6.0x (copilot-cli-history)
and from 7.3-7.6x to 5.6-5.8x (aider). Aider's chat is read a message at a time by one search instead
of a Python step a line (building the turns 0.40 s -> 0.32 s of CPU, `scan_stages.py`), a plain code
fence with nothing a call needs in the reply (every edit Aider shows) is no longer read for calls
(tool-markup 0.85 s -> 0.57 s), fake-result-block looks for code spans only once a start marker is
found (0.24 s -> 0.11 s; copilot-cli-history 0.09 s -> 0.06 s), and the report is built with the
cyclic collector paused (half its time went to collections over its own dicts: 0.32 s -> 0.16 s;
0.13 s -> 0.09 s). Both formats stay over the target: what is left is spread over many small steps a
finding and a message (tool-markup some 15 us to read a leaked `<tool_call>` and 13 us to make its
finding, result-prefix some 19 us a fake result, 5 us of it parsing the object with unquoted keys),
the reading of the OpenAI-shaped messages (copilot-cli-history, 0.16 s), the secret and claim
detectors (copilot-cli-history: secret 0.38 s, claimed-execution 0.22 s, claimed-success 0.17 s) and
the interpreter's start and imports (0.16 s), not in a search a cheaper first pass could skip. The
reports are byte-identical before and after on these files and on every sample of `sessions/` and
`inspector/samples/`.

The other formats, measured before these changes (best of 1 to 3; the code unchanged since):

    format              time         memory        baseline
    qwen-code           1.24x        0.94x         2.4 s, 364 MB
    copilot-cli         2.44x        1.07x         2.8 s, 537 MB
    continue-cli        1.84x        1.23x         2.2 s, 265 MB
    cline               2.54x        1.18x         1.3 s, 204 MB
    cline-task          2.99x        1.51x         1.4 s, 212 MB
    mini-swe-agent      2.99x        1.32x         2.2 s, 364 MB
    swe-agent           2.89x        1.53x         1.0 s, 148 MB
    opencode            1.71x        0.66x         1.7 s, 234 MB
    pi                  1.41x        1.08x         2.1 s, 270 MB
    cursor-cli          2.05x        1.63x         1.6 s, 176 MB
    kimi-code           0.67x        1.22x         3.1 s, 423 MB   (added later; best of 3, quiet machine)

The Cursor CLI store's baseline decodes every JSON blob of its `blobs` table; reading the blob tree
first took 2.99x (a query per 500 children, and the listing reading every message too), 2.05x with
the messages read in one pass over the table and the listing counting ids only.

Later, with tool-markup ruling out most replies by five one-character searches and judging each
reply once in a pass it shares with result-prefix, and claimed-success reading results with less
Python (`bench_scan.py`), the four detectors that work on these findings were timed alone in scan
order, before and after, two runs each on a machine too loaded for a steady figure (load average 2
to 2.7; CPU seconds, best of 2 in each run): copilot-cli-history result-prefix + tool-markup
1.50-1.76 s -> 1.04-1.49 s, claimed-success 0.36 s -> 0.25-0.28 s, narrated-action 0.15-0.17 s ->
0.14-0.18 s; aider result-prefix + tool-markup 1.89-2.46 s -> 2.13-2.30 s (no change the noise lets
one see: its replies each hold a block or a fake result, read as before). The per-finding costs
above are unchanged.

Every format again on a quiet machine (load average under 1.1), best of 3: over the target,
copilot-cli-history 6.95x, swe-agent 4.96x, cline-task 4.08x, aider 3.90x and cline 3.27x; under
it, mini-swe-agent 2.84x, cursor-cli 2.77x, copilot-cli 2.64x, continue-cli 2.52x, pi 1.67x,
factory-droid 1.65x, opencode 1.54x, aider-llm-history 1.10x, qwen-code 1.00x, kimi-code 0.57x.
The tables above, taken while other work lengthened the baselines, flattered cline-task and
swe-agent. Then claimed-success ruled out most short results by one RE2 search before cutting
them into lines (its CPU on swe-agent 0.43 -> 0.17 s, on cline-task 0.47-0.80 -> 0.16 s), and the
Cline and mini-swe-agent readers built each turn once instead of copying it with
`dataclasses.replace` (their turns 0.50 -> 0.42 s and 0.38 -> 0.28 s of CPU): the whole scan, paired
with the code before (farm-bench, median of 7 pairs), 0.90x on swe-agent and 0.89x on cline-task;
best of 3 after, swe-agent 4.33x, cline-task 4.00x, cline 2.40x (a ratio moved by up to 0.5x between
runs of the same code here).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from agent_files import FORMATS, expected_findings, generate, sample_findings
from bench_runner import ROOT, measure

TIME_TARGET, MEMORY_TARGET, RUNS = 3.0, 2.5, 3
SUMMARY = "import json, sys\nprint(json.dumps(json.load(open(sys.argv[1]))['summary']['by_kind']))"
BASELINES = {
    "json": "import json, sys\nvalue = json.load(open(sys.argv[1], encoding='utf-8'))",
    "lines": "import json, sys\nrecords = [json.loads(line) for line in open(sys.argv[1], encoding='utf-8')]",
    "opencode": (
        "import json, sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\n"
        "records = [json.loads(d) for (d,) in db.execute('SELECT data FROM message')]\n"
        "records += [json.loads(d) for (d,) in db.execute('SELECT data FROM part')]"
    ),
    "cursor": (
        "import json, sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\n"
        "records = [json.loads(d) for (d,) in db.execute('SELECT data FROM blobs') if d[:1] == b'{']"
    ),
    # A text log's records are its messages: cut out by one regular expression each, in C, as a
    # fast reader would, each made the dict a JSON record would decode to (the chat's runs of
    # `#### ` lines, of `> ` notices, of skipped `# ` lines and of reply lines)...
    "aider": (
        "import re, sys\nMESSAGES = re.compile(r'(?m)(?:^#### .*\\n)+|(?:^> .*\\n)+|(?:^# .*\\n)+|(?:^(?!#### |> |# ).*\\n)+')\n"
        "records = []\nfor match in MESSAGES.finditer(open(sys.argv[1], encoding='utf-8').read()):\n"
        "    block = match.group()\n"
        "    if block.startswith('#### '):\n        records.append({'role': 'user', 'content': block.replace('#### ', '')})\n"
        "    elif not block.startswith(('> ', '# ')):\n        records.append({'role': 'assistant', 'content': block})"
    ),
    # ... (the LLM log's blocks cut at their headers, their messages at their `-------` lines, each
    # line's role taken off)
    "aider-llm-history": (
        "import re, sys\nHEADER = re.compile(r'(?m)^(?:TO LLM|LLM RESPONSE) \\S+\\n')\nROLE = re.compile(r'(?m)^[A-Z]+ ?')\n"
        "records = []\nfor block in HEADER.split(open(sys.argv[1], encoding='utf-8').read()):\n"
        "    for message in block.split('-------\\n'):\n"
        "        if message:\n"
        "            records.append({'role': message[: message.find(' ')], 'content': ROLE.sub('', message)})"
    ),
}


def baseline(name: str, path: Path) -> list[str]:
    """The command that decodes the records of the generated file with `json.loads`."""
    shape = FORMATS[name][1]
    if shape == "text":
        return [sys.executable, "-c", BASELINES[name], str(path)]
    kind = {"chain": "lines", "tree": "lines", "log": "lines", "opencode": "opencode", "cursor": "cursor"}.get(
        shape, "json"
    )
    return [sys.executable, "-c", BASELINES[kind], str(path)]


def findings(scan: list[str], report: Path) -> dict[str, int]:
    """The findings of `scan` by kind, its report decoded in a child: the measuring process must stay
    small (on Linux a child's `ru_maxrss` starts from its parent's size)."""
    with report.open("wb") as output:
        subprocess.run(scan, stdout=output, cwd=ROOT, check=False)
    summary = subprocess.run([sys.executable, "-c", SUMMARY, str(report)], capture_output=True, text=True, check=True)
    return json.loads(summary.stdout)


def bench(name: str, events: int, runs: int, keep: bool) -> None:
    """Generate, measure and print one format's figures."""
    suffix = Path(FORMATS[name][0]).name.split(".", 1)[1]
    path = Path(tempfile.mkdtemp(prefix="inspector-bench-")) / f"bench.{suffix}"
    try:
        made = subprocess.run(
            [sys.executable, __file__, "--format", name, "--events", str(events), "--generate-only", str(path)],
            capture_output=True,
            text=True,
            check=True,
        )
        copies = int(made.stdout)
        print(f"\n{name}: {events:,} records, {copies:,} copies of the sample, {path.stat().st_size / 1e6:.1f} MB")
        scan = [sys.executable, "-m", "inspector", "scan", "--json", "--no-cache", str(path)]
        measured: dict[str, list] = {"json.loads": [], "scan --json": []}
        for _ in range(runs):  # interleaved, so drift in the machine's load hits both alike
            measured["json.loads"].append(measure(baseline(name, path), (0,)))
            measured["scan --json"].append(measure(scan, (0, 1)))
        best = {label: (min(t for t, _, _ in m), max(mb for _, _, mb in m)) for label, m in measured.items()}
        for label, (seconds, megabytes) in best.items():
            print(f"  {label:12}{seconds:>8.2f} s{megabytes:>8.0f} MB   (best of {runs})")
        for label, index, target in (("time", 0, TIME_TARGET), ("memory", 1, MEMORY_TARGET)):
            ratio = best["scan --json"][index] / best["json.loads"][index]
            print(
                f"  scan {label + ':':8}{ratio:.2f}x json.loads (target <= {target}x) "
                f"{'ok' if ratio <= target else 'OVER TARGET'}"
            )
        found = findings(scan, path.parent / "report.json")
        expected = expected_findings(name, sample_findings(name), copies)
        for kind in sorted(expected.keys() | found.keys()):
            print(
                f"  {kind + ':':21}{found.get(kind, 0):,} reported, {expected.get(kind, 0):,} planted"
                f"{'' if found.get(kind, 0) == expected.get(kind, 0) else '  MISMATCH'}"
            )
    finally:
        if keep:
            print(f"  kept {path}")
        else:
            shutil.rmtree(path.parent, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", choices=sorted(FORMATS), help="only this format (default: all in turn)")
    parser.add_argument("--events", type=int, default=100_000, help="records in each generated file")
    parser.add_argument("--keep", action="store_true", help="keep the generated files and print where")
    parser.add_argument("--runs", type=int, default=RUNS, help="interleaved runs of each command (best is compared)")
    parser.add_argument("--generate-only", metavar="PATH", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.generate_only:  # the child that writes the file
        print(generate(options.format, Path(options.generate_only), options.events))
        return
    for name in [options.format] if options.format else list(FORMATS):
        bench(name, options.events, options.runs, options.keep)


if __name__ == "__main__":
    main()
