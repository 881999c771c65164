"""Detector `secret`: a secret the session holds (an API key, a token, a password, a private key),
in any turn: its text (thinking included), its calls' arguments, its results; and, by the named
patterns and the keys named like secrets only (an id is random by nature), its ids, its calls'
and results' ids and the text fields of the record it was read from (a path, a working folder).

What counts as one is `secret_search`'s: the patterns `report --redact` masks (e-mail addresses
aside), the value of a key named like a secret, a random-looking token. One finding per secret
and turn (at most `MAX_PER_TURN`), placed where it is first seen; its message names the kind of
secret and where it is, never the secret itself. The fix masks it: `[REDACTED:name]` takes its
place in the turn and, written back, everywhere the session's file holds it (`Fix.masks`).

Only the turns a quick look at many turns at once points at are searched (`secret_gate`): the
others hold nothing the search would find, and most turns of a long session are of them.
"""

from __future__ import annotations

from collections.abc import Iterator

from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.detect.secret_gate import turns_to_search
from inspector.detect.secret_search import KEYED, RANDOM, may_hold_a_named_secret, secrets_in_text, secrets_in_value
from inspector.model import WARNING, Finding, Fix, Span, Turn
from inspector.support.secret_patterns import mask

KIND = "secret"
MAX_PER_TURN = 100

_WHAT = {
    "private-key": "A private key",
    "anthropic-key": "An Anthropic API key",
    "openai-key": "An OpenAI API key",
    "github-token": "A GitHub token",
    "slack-token": "A Slack token",
    "aws-access-key": "An AWS access key id",
    "google-api-key": "A Google API key",
    "jwt": "A JSON Web Token",
    "bearer-token": "A bearer token",
    KEYED: "A secret value (under a key named like one)",
    RANDOM: "A random-looking token",
}


def detect(context: ScanContext) -> Iterator[Finding]:
    """A finding for each distinct secret of each turn, with the fix that masks it."""
    turns = context.session.turns
    for turn in (turns[index] for index in turns_to_search(turns)):
        seen: set[str] = set()
        for name, secret, where, tool, span in _secrets(turn, context):
            if secret in seen:
                continue
            seen.add(secret)
            shown = mask(name)
            message = f"{_WHAT[name]} ({len(secret)} characters) in {where}: whoever reads the session can use it."
            fix = Fix(masks=((secret, shown),), summary=f"Replace it with {shown} wherever the session holds it")
            yield Finding.at(turn, KIND, WARNING, message, span, tool=tool, fix=fix)
            if len(seen) >= MAX_PER_TURN:
                break


def _secrets(turn: Turn, context: ScanContext) -> Iterator[tuple[str, str, str, str | None, Span | None]]:
    """(name, secret, where, tool, span in the text) of each secret of the turn: its text's (unless
    it only repeats a result, as a tool message's does), its calls', its results'."""
    if not any(result.content == turn.text for result in turn.tool_results):
        for found in secrets_in_text(turn.text):
            yield found.name, turn.text[found.start : found.end], "the turn's text", None, (found.start, found.end)
    for call in turn.tool_calls:
        arguments = call.arguments if call.arguments is not None else call.arguments_raw
        for name, secret in secrets_in_value(arguments):
            yield name, secret, f"the arguments of a {call.name} call", call.name, None
    for result in turn.tool_results:
        tool = result.name or (context.call_names_by_id.get(result.call_id) if result.call_id else None)
        for name, secret in secrets_in_value(result.content):
            yield name, secret, f"the result of {tool or 'a call'}", tool, None
    fields = _ids_and_fields(turn)
    if may_hold_a_named_secret(fields):
        for name, secret in secrets_in_value(fields, random=False):
            yield name, secret, "the turn's ids or its record's fields", None, None


def _ids_and_fields(turn: Turn) -> dict[str, object]:
    """The turn's ids, its calls' and results' ids, and the text fields at the top of the records
    it was read from but the turn's text (which, as a nested field, a message's content, is looked
    at above), by their keys."""
    records = turn.raw if isinstance(turn.raw, (list, tuple)) else [turn.raw]
    fields: dict[str, object] = {
        key: value
        for record in records
        if isinstance(record, dict)
        for key, value in record.items()
        if isinstance(key, str) and isinstance(value, str) and value != turn.text
    }
    if turn.id:
        fields["turn ids"] = [turn.id]
    if calls := [call.id for call in turn.tool_calls if call.id]:
        fields["call ids"] = calls
    if results := [result.call_id for result in turn.tool_results if result.call_id]:
        fields["result ids"] = results
    return fields


DETECTOR = Detector(KIND, WARNING, detect)
