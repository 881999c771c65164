"""Make model text safe to print: terminal escape sequences and control characters are shown
as visible escapes, never sent to the terminal."""

import json
import re

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def neutralise(text: str) -> str:
    """Return `text` with control characters (ESC included) replaced by `\\xNN` escapes.

    Newlines and tabs are kept; everything else below 0x20, DEL and the C1 range are escaped so
    that nothing the model wrote can move the cursor, change colours or retitle the terminal.
    """
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def preview_value(value: object, width: int = 80) -> str:
    """`preview` of any value: a string as it is, anything else as compact JSON."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return preview(text, width)


def preview(text: str, width: int = 80) -> str:
    """One line of at most `width` characters: white space folded, escapes neutralised."""
    flat = " ".join(neutralise(text).split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
