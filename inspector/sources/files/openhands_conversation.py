"""An OpenHands conversation, kept as a folder, read as one `Document`.

OpenHands (its SDK's `ConversationState`) keeps each conversation in a folder of its own:
`base_state.json` (the agent, its model, the run's state) and `events/`, one JSON file per event,
`event-<index, five digits or more>-<event id>.json`. The conversation is opened by its
`base_state.json` (a scan of the folder finds that file; the event files sit one level below):
the document's `value` is `{"base_state": ..., "events": [...]}`, the events in the order of
their index. A file of `events/` named otherwise is not an event and is left alone; an event file
that is not JSON is one `InspectorError` line naming it. Nothing is written back (the format is
read-only), so the document is never rendered to the folder.
"""

from __future__ import annotations

from pathlib import Path

from inspector.errors import InspectorError
from inspector.sources.files.document import Document, read_document
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.safe_text import shown_name

BASE_STATE = "base_state.json"
EVENTS = "events"
EVENT_NAME = lazy_pattern(r"event-(\d{5,})-[0-9a-fA-F-]{8,}\.json")


def is_conversation_state(path: Path) -> bool:
    """Whether `path` is the `base_state.json` of an OpenHands conversation (an `events/` folder
    beside it)."""
    path = Path(path)
    return path.name == BASE_STATE and (path.parent / EVENTS).is_dir()


def read_conversation(path: Path) -> Document:
    """The conversation whose `base_state.json` is `path`, with its events in order."""
    path = Path(path)
    base_state = read_document(path)
    if base_state.is_jsonl or base_state.is_text:
        raise InspectorError(f"{shown_name(path)}: not one JSON object, not an OpenHands conversation's state")
    try:
        names = [entry.name for entry in (path.parent / EVENTS).iterdir() if entry.is_file()]
    except OSError as exc:
        raise InspectorError(f"{shown_name(path.parent / EVENTS)}: cannot list ({exc.strerror or exc})") from None
    numbered = sorted((int(match.group(1)), name) for name in names if (match := EVENT_NAME.fullmatch(name)))
    events = [_event(path.parent / EVENTS / name) for _, name in numbered]
    return Document(path, {"base_state": base_state.value, "events": events})


def _event(path: Path) -> object:
    """One event file's JSON value."""
    document = read_document(path)
    if document.is_jsonl or document.is_text:
        raise InspectorError(f"{shown_name(path)}: not one JSON value, not an OpenHands event")
    return document.value
