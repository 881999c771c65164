"""LongCat-Flash: `<longcat_tool_call>` holding call JSON (as vLLM reads it, Hermes' layout) or the
tool's name then `<longcat_arg_key>` / `<longcat_arg_value>` pairs (as Ollama reads them, GLM's
layout with LongCat's own tags), up to `</longcat_tool_call>`.
"""

from __future__ import annotations

from inspector.catalogue import Catalogue
from inspector.detect.markup.blocks import Block, Reader
from inspector.detect.markup.glm import LONGCAT, glm_block
from inspector.detect.markup.json_tags import json_body
from inspector.support.leading_space import SPACE, always_matching

_JOINT = always_matching(r"\s*,?\s*")  # between call objects in one block: a comma, white space or nothing


def _longcat(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """The calls of a `<longcat_tool_call>` block: JSON, or a name then key/value pairs."""
    position = SPACE.match(text, after).end()
    if text.startswith(("{", "["), position) or position == len(text):
        return json_body(text, start, after, "longcat", "</longcat_tool_call>", _JOINT)
    return glm_block(text, start, position, catalogue, LONGCAT)


READERS: dict[str, Reader] = {"<longcat_tool_call>": _longcat}
