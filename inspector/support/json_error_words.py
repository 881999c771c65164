"""What `json` says is wrong with a text, worded for a message that gives the place apart."""

from __future__ import annotations

import json


def what_is_wrong(error: json.JSONDecodeError) -> str:
    """`json`'s message without the "starting at" or "at" some of them end with, which its own
    text follows with the place: "Unterminated string", "Expecting value"."""
    return error.msg.removesuffix(" at").removesuffix(" starting")
