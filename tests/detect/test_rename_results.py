"""An `unknown-tool` rename reaches the results answering the renamed call: wherever a format
records a result's tool name (Gemini's `functionResponse`, OpenAI's `function` messages and named
`tool` messages, session dumps, `llm` 0.31's `tool_results`), `fix` writes the new name there too,
results of other calls keep theirs, the input is left as it was and the audit has the rename once.
Each test starts from a bundled sample session with one tool misnamed in a call and its result."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.review.review import Review
from inspector.scan.scanner import scan_file
from inspector.sources import open_source
from inspector.support.tools_file import load_tools_file
from tests.helpers.databases import fetch_all
from tests.helpers.rubyllm import MISNAMED_CHAT, build_rubyllm
from tests.helpers.samples import SESSIONS
from tests.helpers.sqlite_histories import build_llm_legacy
from tests.helpers.tools import tools_file

SET_STATE = {
    "name": "set_state",
    "description": "Store a value of the cascade's state.",
    "parameters": {
        "type": "object",
        "properties": {"key": {"type": "string"}, "value": {"type": "string"}},
        "required": ["key", "value"],
    },
}
RUN_CODE = {
    "name": "run_code",
    "description": "Run Python code.",
    "parameters": {"type": "object", "properties": {"code": {"type": "string"}}, "required": ["code"]},
}


def _sample(tmp_path: Path, name: str, edit) -> tuple[Path, bytes]:
    """A copy of the bundled sample `name`, changed by `edit(document)`, and its bytes."""
    document = json.loads((SESSIONS / name).read_text())
    edit(document)
    path = tmp_path / name
    path.write_text(json.dumps(document, indent=2))
    return path, path.read_bytes()


def _fix(path: Path, out: Path, *options: str) -> list[dict]:
    """`inspector fix --accept unknown-tool` into `out`; the audit lines."""
    assert main(["fix", str(path), *options, "--accept", "unknown-tool", "-o", str(out)]) == 1
    return [json.loads(line) for line in out.with_name(out.name + ".audit.ndjson").read_text().splitlines()]


def _unknown_tools(path: Path, tools: Path | None = None) -> list:
    (result,) = scan_file(path, None, load_tools_file(tools) if tools else ())
    return [f for f in result.findings if f.kind == "unknown-tool"]


def _gemini_with_ids(document: dict, porto_response_id: bool = True) -> None:
    """The travel agent's two weather calls with ids (as Gemini's API gives them), the Porto call
    and its response misnamed `get_wether`."""
    contents = document["contents"]
    for call_at, call_id in ((1, "fc_lisbon"), (5, "fc_porto")):
        call, response = (
            contents[call_at]["parts"][0]["functionCall"],
            contents[call_at + 1]["parts"][0]["functionResponse"],
        )
        contents[call_at]["parts"][0]["functionCall"] = {"id": call_id, **call}
        if call_id == "fc_lisbon" or porto_response_id:
            contents[call_at + 1]["parts"][0]["functionResponse"] = {"id": call_id, **response}
    contents[5]["parts"][0]["functionCall"]["name"] = "get_wether"
    contents[6]["parts"][0]["functionResponse"]["name"] = "get_wether"


def test_gemini_response_takes_the_new_name_of_its_call(tmp_path, capsys):
    path, before = _sample(tmp_path, "travel-agent.gemini.json", _gemini_with_ids)
    (finding,) = _unknown_tools(path)
    assert finding.fix.rename_calls == ((0, "get_weather"),)
    out = tmp_path / "fixed.json"
    (entry,) = _fix(path, out)
    assert entry["kind"] == "unknown-tool" and entry["rename_calls"] == [{"call": 0, "name": "get_weather"}]
    contents, original = json.loads(out.read_text())["contents"], json.loads(before)["contents"]
    assert contents[5]["parts"][0]["functionCall"] == {
        "id": "fc_porto",
        "name": "get_weather",
        "args": {"city": "Porto", "unit": "fahrenheit"},
    }
    response = contents[6]["parts"][0]["functionResponse"]
    assert (response["id"], response["name"]) == ("fc_porto", "get_weather")
    assert response["response"] == original[6]["parts"][0]["functionResponse"]["response"]
    assert [c for i, c in enumerate(contents) if i not in (5, 6)] == [
        c for i, c in enumerate(original) if i not in (5, 6)
    ]
    assert path.read_bytes() == before
    assert _unknown_tools(out) == []


def test_gemini_response_without_id_follows_its_call_by_name_and_order(tmp_path, capsys):
    path, before = _sample(tmp_path, "travel-agent.gemini.json", lambda d: _gemini_with_ids(d, porto_response_id=False))
    out = tmp_path / "fixed.json"
    assert len(_fix(path, out)) == 1
    contents = json.loads(out.read_text())["contents"]
    assert contents[6]["parts"][0]["functionResponse"]["name"] == "get_weather"
    assert "id" not in contents[6]["parts"][0]["functionResponse"]
    assert contents[2]["parts"][0]["functionResponse"]["name"] == "get_weather"  # Lisbon's, as it was
    assert path.read_bytes() == before


def _openai_named_results(document: dict) -> None:
    """The analyst's send_mail result names its tool, as is allowed; so does send_email's."""
    messages = document["messages"]
    messages[15] = {"role": "tool", "tool_call_id": "call_e1", "name": "send_mail", "content": messages[15]["content"]}
    messages[17] = {"role": "tool", "tool_call_id": "call_e2", "name": "send_email", "content": messages[17]["content"]}


def test_openai_tool_message_naming_its_tool_takes_the_new_name(tmp_path, capsys):
    path, before = _sample(tmp_path, "analyst-agent.openai.json", _openai_named_results)
    out = tmp_path / "fixed.json"
    (entry,) = _fix(path, out)
    assert entry["tool"] == "send_mail"
    messages, original = json.loads(out.read_text())["messages"], json.loads(before)["messages"]
    assert messages[14]["tool_calls"][0]["function"]["name"] == "send_email"
    assert messages[15] == {**original[15], "name": "send_email"}  # same id and content
    assert messages[17] == original[17]
    assert [m for i, m in enumerate(messages) if i not in (14, 15)] == [
        m for i, m in enumerate(original) if i not in (14, 15)
    ]
    assert path.read_bytes() == before
    assert _unknown_tools(out) == []


def test_openai_legacy_function_message_follows_its_call_by_name(tmp_path, capsys):
    def legacy(document: dict) -> None:
        document["messages"][15] = {"role": "function", "name": "send_mail", "content": '{"error": "unknown function"}'}

    path, before = _sample(tmp_path, "analyst-agent.openai.json", legacy)
    out = tmp_path / "fixed.json"
    _fix(path, out)
    messages = json.loads(out.read_text())["messages"]
    assert messages[15] == {"role": "function", "name": "send_email", "content": '{"error": "unknown function"}'}
    assert path.read_bytes() == before


def test_openai_tool_message_without_a_name_is_left_as_it_was(tmp_path, capsys):
    path, before = _sample(tmp_path, "analyst-agent.openai.json", lambda document: None)
    out = tmp_path / "fixed.json"
    _fix(path, out)
    messages, original = json.loads(out.read_text())["messages"], json.loads(before)["messages"]
    assert messages[14]["tool_calls"][0]["function"]["name"] == "send_email"
    assert messages[15] == original[15] and "name" not in messages[15]


def _dump_misnamed(key: str):
    def edit(document: dict) -> None:
        entries = document["entries"]
        entries[3]["tool_calls"][0]["function"]["name"] = "set_states"
        entries[4].pop("name")
        entries[4][key] = "set_states"

    return edit


def test_session_dump_result_entry_takes_the_new_name(tmp_path, capsys):
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([SET_STATE, RUN_CODE]))
    for key in ("name", "tool_name"):
        path, before = _sample(tmp_path, "coding-agent.dump.json", _dump_misnamed(key))
        out = tmp_path / f"fixed-{key}.json"
        (entry,) = _fix(path, out, "--tools", str(tools))
        assert entry["rename_calls"] == [{"call": 0, "name": "set_state"}]
        entries, original = json.loads(out.read_text())["entries"], json.loads(before)["entries"]
        assert entries[3]["tool_calls"][0]["function"]["name"] == "set_state"
        assert entries[4] == {**original[4], key: "set_state"}  # timestamps, trace ids, metadata kept
        assert entries[5:] == original[5:]
        assert path.read_bytes() == before
        assert _unknown_tools(out, tools) == []


def test_anthropic_result_blocks_name_no_tool_and_stay_as_they_were(tmp_path, capsys):
    def misname(document: dict) -> None:
        for message in document["messages"]:
            for block in message["content"] if isinstance(message["content"], list) else ():
                if block.get("type") == "tool_use" and block["name"] == "lookup_order":
                    block["name"] = "lookup_orders"

    path, before = _sample(tmp_path, "support-agent.anthropic.json", misname)
    renames = [f for f in _unknown_tools(path) if f.fix is not None]
    assert renames
    out = tmp_path / "fixed.json"
    assert len(_fix(path, out)) == len(renames)
    messages, original = json.loads(out.read_text())["messages"], json.loads(before)["messages"]
    changed = [i for i, (new, old) in enumerate(zip(messages, original)) if new != old]
    assert changed == [f.turn for f in renames]  # the calls' messages only, not the results'
    assert path.read_bytes() == before


@pytest.mark.parametrize("call_id", ["tc1", None])  # llm stores no id for a model that gave none
def test_llm_before_0_32_tool_results_row_takes_the_new_name(tmp_path, capsys, call_id):
    source, out = build_llm_legacy(tmp_path / "logs.db"), tmp_path / "fixed.db"
    with sqlite3.connect(source) as conn:
        conn.execute("UPDATE tool_calls SET name = 'save_memories', tool_call_id = ?", [call_id])
        conn.execute("UPDATE tool_results SET name = 'save_memories', tool_call_id = ?", [call_id])
    conn.close()
    assert main(["fix", str(source), "--accept", "unknown-tool", "-o", str(out)]) == 1
    assert fetch_all(out, "SELECT name, tool_call_id FROM tool_calls") == [("save_memory", call_id)]
    assert fetch_all(out, "SELECT name, output, tool_call_id FROM tool_results") == [("save_memory", "saved", call_id)]
    assert fetch_all(out, "SELECT response FROM responses ORDER BY id") == fetch_all(
        source, "SELECT response FROM responses ORDER BY id"
    )
    assert fetch_all(out, "SELECT kind FROM inspector_fixes") == [("unknown-tool",)]
    assert fetch_all(source, "SELECT name FROM tool_results") == [("save_memories",)]


def test_rubyllm_tool_message_row_is_not_rewritten(tmp_path, capsys):
    source, out = build_rubyllm(tmp_path / "app.db", [MISNAMED_CHAT]), tmp_path / "fixed.db"
    tools = tools_file(tmp_path)
    assert main(["fix", str(source), "--tools", str(tools), "--accept", "unknown-tool", "-o", str(out)]) == 0
    assert fetch_all(out, "SELECT * FROM messages WHERE role = 'tool'") == fetch_all(
        source, "SELECT * FROM messages WHERE role = 'tool'"
    )
    (result,) = open_source(out).session("1").turns[2].tool_results
    assert (result.call_id, result.name) == ("call_tea", "save_memory")  # named by its call's row


def test_the_app_export_writes_the_new_name_of_a_gemini_response(tmp_path):
    path, before = _sample(tmp_path, "travel-agent.gemini.json", _gemini_with_ids)
    results = scan_file(path)
    review = Review.open(open_source(path), results)
    (index,) = [i for i, f in enumerate(review.findings(0)) if f.kind == "unknown-tool"]
    review.approve(0, index)
    outcome = review.export(tmp_path / "exported.json")
    contents = json.loads(outcome.out.read_text())["contents"]
    assert contents[5]["parts"][0]["functionCall"]["name"] == "get_weather"
    assert contents[6]["parts"][0]["functionResponse"]["name"] == "get_weather"
    assert len(outcome.audit.read_text().splitlines()) == 1
    assert path.read_bytes() == before


def test_openai_rename_reaches_its_call_past_an_entry_without_a_function_name(tmp_path, capsys):
    def nameless_first(document: dict) -> None:  # an entry the reader skips, before the misnamed call
        document["messages"][14]["tool_calls"].insert(
            0, {"id": "call_e0", "type": "function", "function": {"arguments": "{}"}}
        )

    path, before = _sample(tmp_path, "analyst-agent.openai.json", nameless_first)
    out = tmp_path / "fixed.json"
    _fix(path, out)
    stored, original = (
        json.loads(out.read_text())["messages"][14]["tool_calls"],
        json.loads(before)["messages"][14]["tool_calls"],
    )
    assert stored[0] == original[0]
    assert stored[1] == {**original[1], "function": {**original[1]["function"], "name": "send_email"}}
    assert _unknown_tools(out) == []
