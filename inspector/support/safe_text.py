"""Make text from a session or a file name safe to show: terminal escape sequences, control
characters, invisible and direction-changing characters, and lone surrogates (which no terminal
and no UTF-8 output can hold) are shown as visible escapes, never sent to the terminal; and make
JSON text with lone surrogates writable as UTF-8."""

import json
import re

from inspector.support.lazy_pattern import lazy_pattern

# C0 controls but newline and tab, DEL and C1 controls (ESC, CSI and OSC included); the characters
# that change the direction of what follows (bidirectional marks, embeddings, overrides and
# isolates); zero-width and invisible characters (spaces, joiners, the word joiner, invisible
# operators, the BOM); and lone surrogates, which a string decoded from JSON may hold.
_HIDDEN = lazy_pattern(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ud800-\udfff]"
)
_SURROGATE = lazy_pattern("[\ud800-\udfff]")
PREVIEW_SCAN = 64 * 1024  # characters of a text a preview looks at, at most


def neutralise(text: str) -> str:
    """Return `text` with every character that could act on a terminal or hide itself shown as an
    escape: `\\xNN` for control characters (ESC included), `\\uNNNN` for the rest.

    Newlines and tabs are kept; everything else below 0x20, DEL and the C1 range are escaped so
    that nothing the model wrote can move the cursor, change colours, retitle the terminal or write
    to the clipboard; bidirectional overrides and zero-width characters are escaped so that no
    text reads differently from what it holds; lone surrogates so that the text can be printed.
    The result holds none of these characters, so neutralising it again changes nothing.
    """
    return _HIDDEN.sub(_escape, text)


def one_line(text: str) -> str:
    """`neutralise`d `text` with its newlines and tabs escaped too (`\\n`, `\\t`): a line that
    no file name or session value can break in two."""
    return neutralise(text).replace("\n", "\\n").replace("\t", "\\t")


def shown_name(name: object) -> str:
    """A file's name or path (or a session's name) for a line of output: as it is when it holds no
    character `one_line` escapes; else in double quotes, with `\\` and `"` escaped and every such
    character shown as its escape. Either way it is one line, and a name that holds a newline, a
    tab, a terminal escape or a direction override cannot pass for other lines or other words of
    the output: the quotes show where it starts and ends."""
    text = str(name)
    shown = one_line(text)
    if shown == text:
        return text
    return '"' + one_line(text.replace("\\", "\\\\").replace('"', '\\"')) + '"'


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def surrogates_escaped(json_text: str) -> str:
    """JSON text with each lone surrogate written as its JSON escape (`\\ud800`), so that it can be
    written as UTF-8 and reads back as the same value. In JSON text a surrogate can only be inside
    a string, where its escape means the same character."""
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", json_text)


def utf8_bytes(json_text: str) -> bytes:
    """`json_text` as UTF-8 with each lone surrogate written as its JSON escape
    (`surrogates_escaped`): encoded at once when it holds none (most texts), far quicker than
    looking for them first."""
    try:
        return json_text.encode("utf-8")
    except UnicodeEncodeError:
        return surrogates_escaped(json_text).encode("utf-8")


def preview_value(value: object, width: int = 80) -> str:
    """`preview` of any value: a string as it is, anything else as compact JSON (of which only the
    first `PREVIEW_SCAN` characters or so are ever written out)."""
    if isinstance(value, str):
        return preview(value, width)
    pieces, length = [], 0
    for piece in json.JSONEncoder(ensure_ascii=False, default=str).iterencode(value):
        pieces.append(piece)
        length += len(piece)
        if length > PREVIEW_SCAN:  # enough to show (and to end with `…`): the rest is never written out
            break
    return preview("".join(pieces), width)


def preview(text: str, width: int = 80, start: int = 0, end: int | None = None) -> str:
    """One line of at most `width` characters of `text[start:end]`: white space folded, escapes
    neutralised. Only the first `PREVIEW_SCAN` characters of that part are looked at (a turn may be
    hundreds of megabytes): when more follow, the line ends with `…`."""
    end = len(text) if end is None else min(end, len(text))
    stop = min(end, start + PREVIEW_SCAN)
    flat = " ".join(neutralise(text[start:stop]).split())
    if len(flat) <= width and stop == end:
        return flat
    return flat[: width - 1] + "…"
