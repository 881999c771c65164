"""LangSmith run exports: a JSON list of runs (as `client.list_runs` gives them, or under `runs`),
`{id, trace_id, run_type: llm | chain | tool | ..., name, start_time, inputs, outputs, extra,
session_id, ...}`, or one run per line.

An `llm` run of a chat model is one model call: `inputs.messages` the messages sent (a batch:
a list holding one list of LangChain `dumpd` messages), `outputs.generations` the reply
(`[[{message: <dumpd AIMessage>, text, ...}]]`). The llm runs of one trace are read as one
session (`repeated_history`), the messages by `langchain_messages`, so each problem is reported
once, at its turn. Other runs (chains, tools, retrievers) and an llm run given text prompts
instead of messages are counted in the problems.

An export is read-only (the format has no writer).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from inspector.errors import InspectorError
from inspector.model import Session
from inspector.sources.files.document import Document, records_with_errors
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.langchain_messages import MessageReader
from inspector.sources.messages.langchain_serialized import unwrap
from inspector.sources.messages.repeated_history import ModelCall, conversation, grouped
from inspector.sources.messages.turn_models import with_models
from inspector.support.counted_words import counted
from inspector.support.safe_text import shown_name

NAME = "langsmith"

RUN_TYPES = ("llm", "chain", "tool", "retriever", "embedding", "prompt", "parser")


def claims(document: Document) -> bool:
    """Records most of which are runs: a known `run_type` with `inputs` and `outputs`."""
    dicts = [r for r in _runs(document)[:50] if type(r) is dict]
    return sum(r.get("run_type") in RUN_TYPES and "inputs" in r and "outputs" in r for r in dicts) * 2 > len(dicts) > 0


def read(document: Document) -> list[Session]:
    """One session per trace, in the order the traces first appear."""
    runs = _runs(document)
    calls = []
    skipped: Counter[str] = Counter()
    models: dict[int, Any] = {}  # id of a reply message -> the model of its run
    for number, run in enumerate(runs):
        if type(run) is not dict:
            continue
        messages = _input_messages(run.get("inputs")) if run.get("run_type") == "llm" else None
        if messages is None:
            skipped[str(run.get("run_type")) if run.get("run_type") != "llm" else "llm without messages"] += 1
            continue
        trace = run.get("trace_id")
        if type(trace) is not str:
            trace = ""
        start = run.get("start_time")
        outputs = _outputs(run.get("outputs"))
        models.update((id(message), _model(run)) for message in outputs)
        calls.append(
            ModelCall(
                trace,
                start if type(start) is str else "",
                messages,
                outputs,
                f"run {run.get('id', number)}",
            )
        )
    unread = records_with_errors(runs) + [
        counted(count, f"run of type {kind!r} not read as turns", f"runs of type {kind!r} not read as turns")
        for kind, count in skipped.items()
    ]
    sessions = []
    for index, (trace, trace_calls) in enumerate(grouped(calls).items()):
        messages, problems = conversation(trace_calls, _kind)
        reader = MessageReader()
        for position, message in enumerate(messages):
            kind, fields = unwrap(message)
            if kind is None:
                reader.skip(*fields)
            else:
                reader.read(position, kind, fields, message)
        sessions.append(
            Session(
                NAME,
                document.path,
                tuple(with_models(reader.turns, lambda turn: models.get(id(turn.raw)))),
                (),
                document,
                index,
                trace,
                tuple((unread if index == 0 else []) + problems + reader.problems()),
            )
        )
    if not sessions:
        raise InspectorError(f"{shown_name(document.path)}: a LangSmith export without an llm run holding messages")
    return sessions


def _runs(document: Document) -> list[Any]:
    value = document.value
    runs = value.get("runs") if type(value) is dict else value
    return runs if isinstance(runs, list) else []


def _input_messages(inputs: Any) -> list[Any] | None:
    """The messages of an llm run's first (only) batch."""
    batches = inputs.get("messages") if type(inputs) is dict else None
    if isinstance(batches, list) and batches and isinstance(batches[0], list):
        return batches[0]
    return None


def _outputs(outputs: Any) -> list[Any]:
    """The message of the first generation of the first batch, if any."""
    generations = outputs.get("generations") if type(outputs) is dict else None
    batch = generations[0] if isinstance(generations, list) and generations and isinstance(generations[0], list) else []
    first = batch[0] if batch and type(batch[0]) is dict else {}
    return [first["message"]] if type(first.get("message")) is dict else []


def _model(run: dict[str, Any]) -> Any:
    """The model a run names: LangChain's `ls_model_name` in its metadata, else the `model` (or
    `model_name`) of its invocation parameters."""
    extra = run.get("extra")
    if type(extra) is not dict:
        return None
    metadata, parameters = extra.get("metadata"), extra.get("invocation_params")
    if type(metadata) is dict and metadata.get("ls_model_name"):
        return metadata["ls_model_name"]
    if type(parameters) is dict:
        return parameters.get("model") or parameters.get("model_name")
    return None


def _kind(message: Any) -> Any:
    """A message's class, to check a repeated history against the conversation."""
    return unwrap(message)[0]


FORMAT = FileFormat(NAME, claims, read)
