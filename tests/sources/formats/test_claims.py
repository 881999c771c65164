"""Recognising a file never guesses: a file two specific formats claim is refused with a line
naming both, and the general OpenAI format reads only what no specific format claims."""

import json

import pytest

from inspector.cli.main import main
from inspector.errors import InspectorError
from inspector.sources import load_sessions, open_source
from inspector.sources.files.document import read_document
from inspector.sources.files.opencode_storage import is_storage_session, read_storage_session
from inspector.sources.files.openhands_conversation import is_conversation_state, read_conversation
from inspector.sources.formats import SPECIFIC
from tests.helpers.samples import FILE_SUFFIXES, TOOL_SAMPLES


def test_a_file_two_formats_claim_is_refused_naming_both(tmp_path, capsys):
    both = {
        "session_id": "s1",
        "entries": [{"role": "user", "content": "hi"}],
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
    }
    path = tmp_path / "both.json"
    path.write_text(json.dumps(both))
    with pytest.raises(
        InspectorError, match="has the shape of session-dump and gemini at once; name one with --format"
    ):
        load_sessions(path)
    assert main(["scan", str(path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["scan", str(path), "--format", "gemini"]) == 0


def test_a_plain_message_list_is_read_as_openai_only_when_no_specific_format_claims_it(tmp_path):
    path = tmp_path / "chat.json"
    path.write_text(
        json.dumps({"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]})
    )
    assert [session.format for session in load_sessions(path)] == ["openai"]


# What wrote each file under sessions/ (the real tools, sessions/generate/README.md): a new sample
# is added here with the format that must read it, so a look-alike read by the wrong format fails.
WRITTEN_IN = {
    "ag2.chat_history.json": "ag2",
    "aider.chat.history.md": "aider",
    "aider.llm-history.txt": "aider-llm-history",
    "agents-sdk.items.json": "openai-responses",
    "agents-sdk.session.db": "agents-sdk",
    "ai-sdk.model-messages.json": "ai-sdk-model",
    "ai-sdk.ui-messages.json": "ai-sdk-ui",
    "autogen.messages.json": "autogen",
    "autogen.state.json": "autogen",
    "claude-code.jsonl": "claude-code",
    "claude-code.v2.1.332.jsonl": "claude-code",
    "clean.qwen-code.resumed.jsonl": "qwen-code",
    "cline.api_conversation_history.json": "cline-task",
    "clean.cline.resumed.messages.json": "cline",
    "cline.messages.json": "cline",
    "cline.native.api_conversation_history.json": "cline-task",
    "codex.rollout.jsonl": "codex",
    "continue.resumed.session.json": "continue-cli",
    "continue.session.json": "continue-cli",
    "amp.thread.json": "amp",
    "kimi-cli.context.jsonl": "kimi-cli",
    "kimi-code.wire.jsonl": "kimi-code",
    "kimi-code.subagent.wire.jsonl": "kimi-code",
    "kimi-code.delegating.wire.jsonl": "kimi-code",
    "copilot-cli.events.jsonl": "copilot-cli",
    "copilot-cli.history.json": "copilot-cli-history",
    "clean.copilot-cli.history.resumed.json": "copilot-cli-history",
    "copilot-cli.resumed.events.jsonl": "copilot-cli",
    "crush.db": "crush",
    "cursor-cli.store.db": "cursor-cli",
    "dspy.history.json": "dspy",
    "factory-droid.jsonl": "factory-droid",
    "clean.factory-droid.resumed.jsonl": "factory-droid",
    "gemini-cli.session.jsonl": "gemini-cli",
    "goose.db": "goose",
    "haystack.messages.json": "haystack",
    "inspect-ai.log.eval": "inspect-ai",
    "kilo-code.api_conversation_history.json": "cline-task",
    "inspect-ai.log.json": "inspect-ai",
    "kilo.db": "opencode",
    "kilo.repaired.db": "opencode",
    "langchain.dumpd.json": "langchain-dumpd",
    "langchain.messages.json": "langchain",
    "langchain.sql.db": "langchain-sql",
    "langfuse.observations.json": "langfuse",
    "langsmith.runs.json": "langsmith",
    "litellm.no-trace-id.jsonl": "litellm",
    "litellm.standard-logging.jsonl": "litellm",
    "openhands-conversation/base_state.json": "openhands",
    "openinference.trace.json": "otel",
    "opencode.db": "opencode",
    "opencode.repaired.db": "opencode",
    "opencode.subagent.db": "opencode",
    "kilo.subagent.db": "opencode",
    "opencode-storage/session/global/ses_ddf1b63fdffeOYSmew4lIfLk5j.json": "opencode-storage",
    "opencode-storage-repaired/session/global/ses_ddf1b63fdffeOYSmew4lIfLk5j.json": "opencode-storage",
    "otel-genai.trace.json": "otel",
    "claude-code-subagent/96771fa5-273c-4ee7-9ace-b7f1e823acb7.jsonl": "claude-code",
    "claude-code-subagent/96771fa5-273c-4ee7-9ace-b7f1e823acb7/subagents/agent-a2e34ec84a76856d1.jsonl": "claude-code",
    **{
        f"claude-code-side-chains/{path.name}": "claude-code"
        for path in (TOOL_SAMPLES / "claude-code-side-chains").glob("*.jsonl")
    },
    "gemini-cli-subagent/session-2026-11-29T08-38-e4c7a54b.jsonl": "gemini-cli",
    "gemini-cli-subagent/e4c7a54b-476e-4c5a-b934-a831f24fd6d3/01becc21-3b3f-4d42-b2a3-7d87991d46ff.jsonl": "gemini-cli",
    "pi.resumed.session.jsonl": "pi",
    "pi.session.jsonl": "pi",
    "pydantic-ai-1.messages.json": "pydantic-ai",
    "pydantic-ai.messages.json": "pydantic-ai",
    "qwen-code.jsonl": "qwen-code",
    "qwen-code-subagent/chats/e9fb8225-76b3-413e-a70a-894689cbfd63.jsonl": "qwen-code",
    "qwen-code-subagent/subagents/e9fb8225-76b3-413e-a70a-894689cbfd63/agent-general-purpose-call_mock_delegate.jsonl": (
        "qwen-code"
    ),
    "roo-code.api_conversation_history.json": "cline-task",
    "sharegpt.hermes.jsonl": "sharegpt",
    "mini-swe-agent.traj.json": "mini-swe-agent",
    "smolagents.steps.json": "smolagents",
    "swe-agent.traj": "swe-agent",
}


def test_every_file_a_real_tool_wrote_is_claimed_by_its_own_format_alone():
    samples = sorted(path.name for path in TOOL_SAMPLES.iterdir() if path.is_file())
    samples = sorted(
        [
            *samples,
            *(f"{path.parent.name}/{path.name}" for path in TOOL_SAMPLES.glob("*/base_state.json")),
            *(str(path.relative_to(TOOL_SAMPLES)) for path in TOOL_SAMPLES.glob("*/session/*/ses_*.json")),
            *(str(path.relative_to(TOOL_SAMPLES)) for path in TOOL_SAMPLES.glob("*-subagent/**/*.jsonl")),
            *(str(path.relative_to(TOOL_SAMPLES)) for path in TOOL_SAMPLES.glob("claude-code-side-chains/*.jsonl")),
        ]
    )
    assert samples == sorted(WRITTEN_IN)
    for name, expected in WRITTEN_IN.items():
        path = TOOL_SAMPLES / name
        if path.suffix in FILE_SUFFIXES:
            if is_conversation_state(path):
                document = read_conversation(path)
            elif is_storage_session(path):
                document = read_storage_session(path)
            else:
                document = read_document(path)
            assert [each.name for each in SPECIFIC if each.claims(document)] == [expected], name
        assert open_source(path).format == expected, name
