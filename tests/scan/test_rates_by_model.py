"""The rates "by model" name the model each format records for its replies: on the files the real
tools and libraries wrote (`sessions/`) and on the bundled samples, no call is counted for an
`unknown` model when the file names the model that made it."""

import json

import pytest

from inspector.report.rates import compute_rates
from inspector.scan.scanner import scan_file
from inspector.scan.summary import summarise
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES

MODELS = [  # a file of each format that records its model, and the calls of each model it holds
    (TOOL_SAMPLES / "claude-code.jsonl", {"claude-sonnet-4-5": 5}),  # each assistant event's message.model
    (SESSIONS / "notes-agent.claude-code.jsonl", {"claude-sonnet-4-5": 5}),
    (TOOL_SAMPLES / "codex.rollout.jsonl", {"gpt-5-codex": 5}),  # the turn_context line before the items
    (SESSIONS / "shell-agent.codex.jsonl", {"gpt-5-codex": 5}),
    (TOOL_SAMPLES / "langfuse.observations.json", {"gpt-4o-mini": 4}),  # each generation's model
    (SESSIONS / "notes-agent.langfuse.json", {"gpt-4o-mini": 4}),
    (TOOL_SAMPLES / "otel-genai.trace.json", {"scripted-notes": 4}),  # gen_ai.response.model
    (TOOL_SAMPLES / "openinference.trace.json", {"scripted-notes": 4}),  # llm.model_name
    (SESSIONS / "notes-agent.otel.json", {"scripted-notes": 4}),
    (TOOL_SAMPLES / "pydantic-ai.messages.json", {"scripted-notes": 4}),  # each response's model_name
    (TOOL_SAMPLES / "pydantic-ai-1.messages.json", {"scripted-notes": 4}),
    (TOOL_SAMPLES / "gemini-cli.session.jsonl", {"gemini-2.5-flash": 4}),  # also in a history set again
    (SESSIONS / "notes-reader.gemini-cli.jsonl", {"gemini-2.5-flash": 4}),
    (TOOL_SAMPLES / "litellm.standard-logging.jsonl", {"gpt-4o-mini": 4}),
    (TOOL_SAMPLES / "inspect-ai.log.json", {"mockllm/model": 3}),
    (SESSIONS / "support-agent.anthropic.json", {"claude-sonnet-4-5": 4}),
    (SESSIONS / "rails-chat.rubyllm.db", {"gemini-2.5-flash": 5}),
]


@pytest.mark.parametrize(("path", "models"), MODELS, ids=lambda value: getattr(value, "name", ""))
def test_the_rates_by_model_name_the_model_the_file_records(path, models):
    rates = compute_rates([summarise(result) for result in scan_file(path)])["total"]
    assert {model: entry["calls"] for model, entry in rates["by_model"].items()} == models


def test_the_rates_by_model_of_a_langsmith_export_name_each_run_s_model(tmp_path):
    """LangChain names a real chat model's runs in their metadata (`ls_model_name`); the fake
    model the committed export was written with names none, so each run is given one here."""
    runs = json.loads((TOOL_SAMPLES / "langsmith.runs.json").read_text(encoding="utf-8"))
    for run in runs:
        if run["run_type"] == "llm":
            run["extra"]["metadata"]["ls_model_name"] = "gpt-4o-mini"
    path = tmp_path / "langsmith.runs.json"
    path.write_text(json.dumps(runs), encoding="utf-8")
    rates = compute_rates([summarise(result) for result in scan_file(path)])["total"]
    assert {model: entry["calls"] for model, entry in rates["by_model"].items()} == {"gpt-4o-mini": 4}
