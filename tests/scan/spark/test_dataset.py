"""`inspector scan DATASET --engine spark`: a dataset scanned on Spark's executors (local mode,
two of them) gives the report a scan in one process gives of the same files; a Parquet table of
messages reads as the same table in SQLite; `--findings-out` writes the findings and the rates as
Parquet. One Spark session serves the whole module (starting one takes seconds)."""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from inspector.cli.main import main
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES
from tests.helpers.tools import SAVE_MEMORY

pytestmark = pytest.mark.slow  # starts Spark (once: `--dist loadfile` keeps a module on one worker)

pyspark = pytest.importorskip("pyspark", reason="PySpark is not installed: pip install -e '.[test,spark]' runs these")
if shutil.which("java") is None:
    pytest.skip(
        "Spark needs Java 17 or later (.ci/run installs Debian's openjdk-17-jre-headless)", allow_module_level=True
    )


@pytest.fixture(scope="module")
def spark():
    """One local Spark session with two executor threads; the CLI finds it running and uses it."""
    from pyspark.sql import SparkSession

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYSPARK_PYTHON", sys.executable)
        patch.setenv("SPARK_LOCAL_IP", "127.0.0.1")
        session = (
            SparkSession.builder.master("local[2]")
            .appName("inspector tests")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.default.parallelism", "2")
            .getOrCreate()
        )
        session.sparkContext.setLogLevel("ERROR")
        yield session
        session.stop()


def _scan(capsys, *arguments: str) -> tuple[int, str, str]:
    code = main(["scan", *arguments])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _dataset(root: Path) -> Path:
    """Every JSON and JSON Lines sample (OpenAI fine-tuning lines, Chat Completions, Claude Code,
    Codex and the rest), one under a name a URI would escape, a file that is not JSON, and what a
    scan leaves out: an audit log and a session in a subdirectory."""
    dataset = root / "dataset"
    dataset.mkdir()
    for sample in sorted(SESSIONS.glob("*.json")) + sorted(SESSIONS.glob("*.jsonl")):
        shutil.copy(sample, dataset / sample.name)
    (dataset / "cut-off.json").write_text('{"messages": [{"role": "user", "content": "hi"')
    shutil.copy(SESSIONS / "memory-agent.openai.json", dataset / "a copy #2 of 100%41.json")  # Spark names it as is
    (dataset / "fixed.json.audit.ndjson").write_text(json.dumps({"turn": 1, "kind": "result-prefix"}) + "\n")
    (dataset / "older").mkdir()
    shutil.copy(SESSIONS / "memory-agent.openai.json", dataset / "older" / "memory-agent.openai.json")
    return dataset


def test_a_dataset_on_spark_gets_the_report_of_a_scan_in_one_process(spark, tmp_path, capsys):
    dataset = _dataset(tmp_path)
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([SAVE_MEMORY]))
    alone = _scan(capsys, "--json", "--tools", str(tools), str(dataset))
    spread = _scan(capsys, "--json", "--tools", str(tools), "--engine", "spark", str(dataset))
    assert spread == alone
    code, out, err = spread
    report = json.loads(out)
    formats = {session["format"] for session in report["sessions"]}
    assert {"openai", "claude-code", "codex"} <= formats and len(formats) >= 15
    assert report["summary"]["findings"] > 10 and report["rates"]["total"]["calls"] > 10
    assert code == 2 and err.count("\n") == 1 and "cut-off.json" in err and report["errors"]
    assert not any("older" in session["path"] or "audit" in session["path"] for session in report["sessions"])


def _with_companions(folder: Path) -> list[str]:
    """A folder of agents' sessions with the files each keeps beside them (a Claude Code subagent's
    metadata, Continue CLI's list of its sessions, a VS Code task's metadata and chat view, a
    Factory Droid session's settings), as the real tools wrote them; the sessions' names."""
    folder.mkdir()
    subagent = next((TOOL_SAMPLES / "claude-code-subagent").glob("*/subagents/agent-*.jsonl"))
    shutil.copy(subagent, folder / subagent.name)
    shutil.copy(subagent.with_name(subagent.stem + ".meta.json"), folder / (subagent.stem + ".meta.json"))
    session_id = json.loads((TOOL_SAMPLES / "continue.session.json").read_text(encoding="utf-8"))["sessionId"]
    shutil.copy(TOOL_SAMPLES / "continue.session.json", folder / f"{session_id}.json")
    (folder / "sessions.json").write_text(json.dumps([{"sessionId": session_id, "title": "notes"}]))
    shutil.copy(TOOL_SAMPLES / "cline.api_conversation_history.json", folder / "api_conversation_history.json")
    (folder / "task_metadata.json").write_text(json.dumps({"files_in_context": []}))
    (folder / "ui_messages.json").write_text(json.dumps([{"ts": 1, "type": "say", "say": "text", "text": "hi"}]))
    shutil.copy(TOOL_SAMPLES / "factory-droid.jsonl", folder / "5f0c.jsonl")
    (folder / "5f0c.settings.json").write_text(json.dumps({"model": "custom:mock", "autonomyLevel": "high"}))
    return sorted([subagent.name, f"{session_id}.json", "api_conversation_history.json", "5f0c.jsonl"])


def test_the_files_agents_keep_beside_their_sessions_are_left_out_on_spark_too(spark, tmp_path, capsys):
    sessions = _with_companions(tmp_path / "agents")
    alone = _scan(capsys, "--json", "--no-cache", str(tmp_path / "agents"))
    spread = _scan(capsys, "--json", "--engine", "spark", str(tmp_path / "agents"))
    report = json.loads(spread[1])
    assert (spread[0], spread[2], report["errors"]) == (1, "", [])
    assert sorted(Path(session["path"]).name for session in report["sessions"]) == sessions
    assert report == json.loads(alone[1])


def test_a_glob_on_spark_reads_what_it_matches_and_the_text_report_is_the_same(spark, tmp_path, capsys):
    dataset = _dataset(tmp_path)
    matched = sorted(str(path) for path in dataset.glob("*.jsonl") if not path.name.endswith(".audit.ndjson"))
    alone = _scan(capsys, *matched)
    spread = _scan(capsys, "--engine", "spark", str(dataset / "*.jsonl"))
    assert spread == alone
    assert spread[0] == 1 and "notes-agent.claude-code.jsonl" in spread[1] and "shell-agent.codex.jsonl" in spread[1]


def test_findings_out_writes_a_row_per_finding_and_the_rates_as_parquet(spark, tmp_path, capsys):
    dataset = _dataset(tmp_path)
    (dataset / "cut-off.json").unlink()
    report = json.loads(_scan(capsys, "--json", str(dataset))[1])
    out = tmp_path / "warehouse"
    code, printed, err = _scan(capsys, "--engine", "spark", "--findings-out", str(out), str(dataset))
    summary = report["summary"]
    assert (code, err) == (1, "")
    assert (
        printed.startswith(
            f"{summary['sessions']:,} sessions, {summary['turns']:,} turns, {summary['findings']:,} findings ("
        )
        and printed.count("\n") == 1
    )
    rows = spark.read.parquet(str(out / "findings")).collect()
    assert sorted((r.file, r.session, r.turn, r.kind, r.severity, r.tool, r.message) for r in rows) == sorted(
        (s["path"], s["session_id"], f["turn"], f["kind"], f["severity"], f["tool"], f["message"])
        for s in report["sessions"]
        for f in s["findings"]
    )
    rates = spark.read.parquet(str(out / "rates")).collect()
    assert sum(r.calls for r in rates) == report["rates"]["total"]["calls"]
    for kind, counted in report["rates"]["total"]["kinds"].items():
        assert sum(r.kinds[kind] for r in rates) == counted["count"]
    again = _scan(capsys, "--engine", "spark", "--findings-out", str(out), str(dataset))
    assert again == (2, "", f"inspector: error: {out}/findings: exists already; nothing was written\n")


MESSAGES = [  # (id, chat, position, speaker, body): rows of two chats, stored out of order
    (7, "b", 2, "assistant", '{success: true, memory_type: "journal", content: "Ran 5k"}You saw right through me.'),
    (1, "a", 1, "user", "Find flights to Lisbon."),
    (6, "b", 1, "human", "Save this to my journal: ran 5k."),
    (2, "a", 2, "ai", '<tool_call>\n{"name": "search_flights", "arguments": {"to": "LIS"}}\n</tool_call>'),
    (3, "a", 3, "narrator", "(a role no schema knows)"),
    (8, "c", 1, "user", "Hello"),
    (9, "c", 2, "assistant", "Hi! How can I help?"),
]
MAP = "role=speaker,content=body,id=msg_id,session=chat,order=position"


def test_a_parquet_table_of_messages_reads_as_the_same_table_in_sqlite(spark, tmp_path, capsys):
    database = tmp_path / "chats.db"
    with sqlite3.connect(database) as connection:
        connection.execute(
            "CREATE TABLE messages (msg_id INTEGER, chat TEXT, position INTEGER, speaker TEXT, body TEXT)"
        )
        connection.executemany("INSERT INTO messages VALUES (?, ?, ?, ?, ?)", MESSAGES)
    connection.close()
    table = tmp_path / "messages.parquet"
    frame = spark.createDataFrame(MESSAGES, "msg_id long, chat string, position int, speaker string, body string")
    frame.repartition(2).write.parquet(str(table))
    alone = _scan(capsys, "--json", "--table", "messages", "--map", MAP, str(database))
    spread = _scan(capsys, "--json", "--engine", "spark", "--map", MAP, str(table))
    assert (spread[0], spread[2]) == (alone[0], alone[2]) == (1, "")
    assert spread[1].replace(str(table), str(database)) == alone[1]
    sessions = json.loads(spread[1])["sessions"]
    assert [(s["session_id"], s["turns"], [f["kind"] for f in s["findings"]]) for s in sessions] == [
        ("a", 2, ["tool-markup"]),
        ("b", 2, ["result-prefix"]),
        ("c", 2, []),
    ]
    assert sessions[0]["problems"] == ["row 3: role 'narrator' is not one this tool knows, skipped"]
    code, out, err = _scan(capsys, "--engine", "spark", "--map", "role=speaker,content=text", str(table))
    assert (code, out) == (2, "") and err == (
        f"inspector: error: {table}: the table has no column text (columns: body, chat, msg_id, position, speaker)\n"
    )


def test_a_url_goes_to_spark_as_typed(spark, capsys):
    code, out, err = _scan(capsys, "--engine", "spark", "s3a://inspector-test-bucket/logs/")
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("inspector: error: s3a://inspector-test-bucket/logs/: spark: ") and "s3a" in err[60:]
