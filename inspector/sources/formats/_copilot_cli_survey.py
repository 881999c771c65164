"""What the Copilot CLI reader does not know in an event log (`scan --unknowns`): event types its
schema (1.0.102) does not list, keys an event carries beside `type`, `data`, `id`, `timestamp`,
`parentId`, `ephemeral` and `agentId`, and keys of the messages, results and tool requests it
reads that the schema does not list, each under the `copilotVersion` of the `session.start` before
it."""

from __future__ import annotations

from typing import Any

from inspector.sources.files.document import Document
from inspector.sources.formats._copilot_cli_events import KNOWN_TYPES, RESULT, ROLES, START
from inspector.sources.unread_records import Unread, UnreadTally

ENVELOPE = frozenset({"type", "data", "id", "timestamp", "parentId", "ephemeral", "agentId"})
REQUEST = "assistant.message toolRequest"  # a tool request's keys are counted under "<REQUEST> data"
# The data keys of the events read as turns, and of a tool request, as the schema lists them.
DATA_KEYS = {
    "user.message": "content responsesReasoning messageId transformedContent attachments "
    "supportedNativeDocumentMimeTypes nativeDocumentPathFallbackPaths source delivery agentMode "
    "isAutopilotContinuation interactionId turnId parentAgentTaskId",
    "system.message": "content contentBlocks interactionId role name metadata",
    "assistant.message": "messageId originatingMessageId model providerId content toolRequests reasoningOpaque "
    "reasoningText reasoningWireField encryptedContent phase chunkIndex chunkCount outputTokens interactionId "
    "requestId clientRequestId serviceRequestId rte apiCallId serverTools reasoningBlocks turnId "
    "parentToolCallId citations fusion",
    RESULT: "toolCallId success model toolUsage mcpMeta interactionId rte isUserRequested result error "
    "toolTelemetry turnId toolDescription sandboxed shellExecution fileEdits parentToolCallId fusion",
    REQUEST: "toolCallId name arguments type toolTitle mcpServerName mcpToolName intentionSummary caller",
}
READ_TYPES = frozenset(ROLES) | {RESULT}


def survey(document: Document) -> tuple[Unread, ...]:
    """The unknown event types and keys of the log, by the version that wrote them."""
    known = dict.fromkeys(KNOWN_TYPES | READ_TYPES, ENVELOPE)
    known.update({f"{kind} data": frozenset(keys.split()) for kind, keys in DATA_KEYS.items()})
    tally = UnreadTally(known)
    version = None
    for record in document.value:
        if type(record) is not dict:
            continue
        kind, data = record.get("type"), record.get("data")
        if kind == START and type(data) is dict and type(data.get("copilotVersion")) is str:
            version = data["copilotVersion"]
        if kind not in KNOWN_TYPES and kind not in READ_TYPES:
            tally.unknown_type(kind, version)
            continue
        tally.keys(kind, record, version)
        if kind in READ_TYPES and type(data) is dict:
            tally.keys(f"{kind} data", data, version)
            for request in _requests(data):
                tally.keys(f"{REQUEST} data", request, version)
    return tally.unread()


def _requests(data: dict[str, Any]) -> list[dict[str, Any]]:
    requests = data.get("toolRequests")
    return [r for r in requests if type(r) is dict] if type(requests) is list else []
