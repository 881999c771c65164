"""The coding agents' benchmark files (`bench_agents.py`): each format's sample the real tool wrote
(`sessions/`) repeated to about N records, each copy's ids its own, and the findings such a file
holds (the sample's times the copies, and those each join of two copies adds)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from bench_runner import ROOT

SAMPLES = ROOT / "sessions"
# format -> (sample, how its records are held: a JSON-lines chain (id key, parent key), a JSON-lines
# tree under one header line (Pi's), a JSON-lines log under one header line (Kimi Code's), a JSON
# list, the list under a key of a JSON object, a text log, or the OpenCode database)
FORMATS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "qwen-code": ("qwen-code.jsonl", "chain", ("uuid", "parentUuid")),
    "copilot-cli": ("copilot-cli.events.jsonl", "chain", ("id", "parentId")),
    "factory-droid": ("factory-droid.jsonl", "chain", ("id", "parentId")),
    "continue-cli": ("continue.session.json", "key", ("history",)),
    "cline": ("cline.messages.json", "key", ("messages",)),
    "cline-task": ("cline.api_conversation_history.json", "list", ()),
    "mini-swe-agent": ("mini-swe-agent.traj.json", "key", ("messages",)),
    "swe-agent": ("swe-agent.traj", "key", ("history",)),
    "aider": ("aider.chat.history.md", "text", ()),
    "aider-llm-history": ("aider.llm-history.txt", "text", ()),
    "opencode": ("opencode.db", "opencode", ()),
    "pi": ("pi.session.jsonl", "tree", ("id", "parentId")),
    "copilot-cli-history": ("copilot-cli.history.json", "key", ("chatMessages",)),
    "cursor-cli": ("cursor-cli.store.db", "cursor", ()),
    "kimi-code": ("kimi-code.wire.jsonl", "log", ()),
}
# Findings each join of two copies adds: Cline's task history ends on a call (`attempt_completion`)
# that the next copy's first message, a new task, does not answer.
AT_EACH_JOIN = {"cline-task": {"orphan-call": 1}}
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def fresh(text: str, ids: list[str], copy: int) -> str:
    """`text` with each id in `ids` and each `call_mock_` call id made the copy's own."""
    if ids:
        pattern = re.compile("|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True)))
        text = pattern.sub(lambda m: f"{m.group()[:-12]}{copy:012x}", text)
    return text.replace("call_mock_", f"call_{copy}_")


def repeated(records: list, count: int, id_key: str | None) -> tuple[list, int]:
    """The sample's records repeated to about `count`, with fresh ids; and how many copies."""
    ids = [r[id_key] for r in records if id_key and isinstance(r.get(id_key), str) and UUID.fullmatch(r[id_key])]
    text = json.dumps(records, ensure_ascii=False)
    out: list = []
    copy = 0
    while len(out) < count:
        out += json.loads(fresh(text, ids, copy))
        copy += 1
    return out, copy


def chained(records: list, count: int, id_key: str, parent_key: str) -> tuple[list, int]:
    """A JSON-lines chain repeated: each copy's root hangs from the last record of the copy before."""
    out: list = []
    copy = 0
    text = json.dumps(records, ensure_ascii=False)
    ids = [r[id_key] for r in records if isinstance(r.get(id_key), str)]  # Droid's run outcomes have none
    while len(out) < count:
        part = json.loads(fresh(text, ids, copy))
        if out:
            last = next(r[id_key] for r in reversed(out) if id_key in r)
            for record in part:
                if record.get(parent_key) is None and id_key in record:
                    record[parent_key] = last
        out += part
        copy += 1
    return out, copy


def logged(records: list, count: int) -> tuple[list, int]:
    """A log's header line, then its other records repeated, each copy's call ids its own (Kimi
    Code's wire file: one conversation, the copies one after another)."""
    header, *entries = records
    out: list = [header]
    copy = 0
    text = json.dumps(entries, ensure_ascii=False)
    while len(out) < count:
        out += json.loads(fresh(text, [], copy))
        copy += 1
    return out, copy


def tree(records: list, count: int, id_key: str, parent_key: str) -> tuple[list, int]:
    """A header line, then its entries repeated: each copy's ids made its own (8 hex, as Pi's) and its
    root hung from the last entry of the copy before, so the file is one branch."""
    header, *entries = records
    out: list = [header]
    copy = 0
    text = json.dumps(entries, ensure_ascii=False)
    pattern = re.compile("|".join(re.escape(e[id_key]) for e in entries))
    index = {e[id_key]: i for i, e in enumerate(entries)}
    while len(out) < count:
        part = json.loads(
            pattern.sub(lambda m: f"{copy:05x}{index[m.group()]:03x}", text).replace("call_mock_", f"call_{copy}_")
        )
        if len(out) > 1:
            part[0][parent_key] = out[-1][id_key]
        out += part
        copy += 1
    return out, copy


def generate_opencode(path: Path, count: int) -> int:
    """Copy the OpenCode sample to `path` and fill its one session with about `count` parts."""
    shutil.copyfile(SAMPLES / "opencode.db", path)
    db = sqlite3.connect(path)
    messages = db.execute("SELECT id, session_id, time_created, time_updated, data FROM message").fetchall()
    parts = db.execute("SELECT id, message_id, session_id, time_created, time_updated, data FROM part").fetchall()
    span = max(m[2] for m in messages) - min(m[2] for m in messages) + 1000
    db.execute("DELETE FROM part")
    db.execute("DELETE FROM message")

    def renamed(text: str, copy: int) -> str:
        text = re.sub(r"\b(msg|prt)_", lambda m: f"{m.group(1)}_{copy:06d}", text)
        return text.replace("call_mock_", f"call_{copy}_")

    copy = 0
    while copy * len(parts) < count:
        shift = copy * span
        db.executemany(
            "INSERT INTO message VALUES (?, ?, ?, ?, ?)",
            [(renamed(i, copy), s, c + shift, u + shift, renamed(d, copy)) for i, s, c, u, d in messages],
        )
        db.executemany(
            "INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)",
            [
                (renamed(i, copy), renamed(m, copy), s, c + shift, u + shift, renamed(d, copy))
                for i, m, s, c, u, d in parts
            ],
        )
        copy += 1
    db.commit()
    db.close()
    return copy


def generate_cursor(path: Path, count: int) -> int:
    """Copy the Cursor CLI sample to `path` with one root naming about `count` message blobs: the
    sample's messages again and again, each copy's its own (its call ids, and its number as the
    message's `id`, so that no two copies share a blob)."""
    shutil.copyfile(SAMPLES / "cursor-cli.store.db", path)
    db = sqlite3.connect(path)
    (value,) = db.execute("SELECT value FROM meta WHERE key = '0'").fetchone()
    meta = json.loads(bytes.fromhex(value))
    (root,) = db.execute("SELECT data FROM blobs WHERE id = ?", [meta["latestRootBlobId"]]).fetchone()
    children, at = [], 0
    while root[at : at + 2] == b"\x0a\x20":  # field 1, 32 bytes: a child's digest
        children.append(root[at + 2 : at + 34].hex())
        at += 34
    messages = [json.loads(db.execute("SELECT data FROM blobs WHERE id = ?", [c]).fetchone()[0]) for c in children]
    db.execute("DELETE FROM blobs")
    digests: list[bytes] = []
    copy = 0
    while len(digests) < count:
        rows = []
        for message in json.loads(fresh(json.dumps(messages), [], copy)):
            data = json.dumps({**message, "id": str(copy)}, separators=(",", ":")).encode()
            digest = hashlib.sha256(data)
            digests.append(digest.digest())
            rows.append((digest.hexdigest(), data))
        db.executemany("INSERT OR IGNORE INTO blobs (id, data) VALUES (?, ?)", rows)
        copy += 1
    tree = b"".join(b"\x0a\x20" + digest for digest in digests)
    tree_id = hashlib.sha256(tree).hexdigest()
    db.execute("INSERT INTO blobs (id, data) VALUES (?, ?)", [tree_id, tree])
    meta["latestRootBlobId"] = tree_id
    db.execute("UPDATE meta SET value = ? WHERE key = '0'", [json.dumps(meta).encode().hex()])
    db.commit()
    db.close()
    return copy


def generate(name: str, path: Path, count: int) -> int:
    """Write about `count` records of format `name` to `path` (and its baseline's file); return the copies."""
    sample, shape, keys = FORMATS[name]
    if shape == "opencode":
        return generate_opencode(path, count)
    if shape == "cursor":
        return generate_cursor(path, count)
    text = (SAMPLES / sample).read_text(encoding="utf-8")
    if shape == "text":  # a record is a message: the log repeated whole, a copy a run of the tool
        copies = -(-count // sample_turns(name))
        path.write_text(text * copies, encoding="utf-8")
        return copies
    if shape in ("chain", "tree", "log"):
        lines = [json.loads(line) for line in text.splitlines()]
        records, copies = (
            logged(lines, count) if shape == "log" else (chained if shape == "chain" else tree)(lines, count, *keys)
        )
        path.write_text(
            "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records),
            encoding="utf-8",
        )
        return copies
    value = json.loads(text)
    if shape == "list":
        records, copies = repeated(value, count, None)
        path.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
        return copies
    records, copies = repeated(value[keys[0]], count, "id")
    path.write_text(json.dumps({**value, keys[0]: records}, ensure_ascii=False, indent=2), encoding="utf-8")
    return copies


def sample_summary(name: str) -> dict:
    """The summary of a scan of the sample itself."""
    report = subprocess.run(
        [sys.executable, "-m", "inspector", "scan", "--json", "--no-cache", str(SAMPLES / FORMATS[name][0])],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(report.stdout)["summary"]


def sample_findings(name: str) -> dict[str, int]:
    """The findings of a scan of the sample itself, by kind."""
    return sample_summary(name)["by_kind"]


def sample_turns(name: str) -> int:
    """How many messages the sample holds."""
    return sample_summary(name)["turns"]


def expected_findings(name: str, per_copy: dict[str, int], copies: int) -> dict[str, int]:
    """The findings, by kind, of a file of `copies` copies of format `name`'s sample, whose own
    findings are `per_copy`."""
    expected = {kind: count * copies for kind, count in per_copy.items()}
    for kind, count in AT_EACH_JOIN.get(name, {}).items():
        expected[kind] = expected.get(kind, 0) + count * (copies - 1)
    return expected
