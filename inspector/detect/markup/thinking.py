"""Where a reply's text is the model thinking, not its answer: markup there is a draft, not a call.

Servers without a reasoning parser leave the thinking in the text: `<think>...</think>` (DeepSeek
R1, Qwen3, GLM, MiniMax, Kimi K2), `<thinking>...</thinking>`, Seed-OSS `<seed:think>`, Mistral
`[THINK]...[/THINK]`, Kimi VL `◁think▷...◁/think▷`. As vLLM's and SGLang's reasoning parsers read
them: a closing tag with no opening one before it ends thinking that began with the reply (the chat
template put the opening tag in the prompt); an opening tag never closed runs to the end of the
reply (it was cut off while thinking), unless a call section starts in it first (`<tool_call>`,
Kimi's and DeepSeek's call sections: Qwen3.5, GLM 4.5, Kimi K2 and DeepSeek V3.1 may start calling
without closing their thinking), where it ends. A tag in inline code or a code example is not one.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from inspector.detect.markup.blocks import is_example
from inspector.support.lazy_pattern import lazy_pattern

_CLOSING = {
    "<think>": "</think>",
    "<thinking>": "</thinking>",
    "<seed:think>": "</seed:think>",
    "[THINK]": "[/THINK]",
    "◁think▷": "◁/think▷",
}
_TAGS = lazy_pattern("|".join(re.escape(tag) for pair in _CLOSING.items() for tag in pair))
# Call sections that end thinking left open (SGLang's `tool_start_token`s).
_CALLS_START = ("<tool_call>", "<|tool_calls_section_begin|>", "<｜tool▁calls▁begin｜>")
# The literals a text must hold for any thinking to be found: the prefilter.
HINTS = ("think", "THINK")


class Thinking(NamedTuple):
    """A span of thinking, `[start, end)` with its tags, and `[inner_start, inner_end)` without."""

    start: int
    end: int
    inner_start: int
    inner_end: int


def thinking_spans(text: str, examples: list[tuple[int, int]]) -> list[Thinking]:
    """The spans of `text` that are thinking, in order, apart; tags inside `examples` (code fences,
    in order) or inline code are not tags. One pass over the tags."""
    spans: list[Thinking] = []
    closing: str | None = None
    opened = inner = 0
    first = True
    for match in _TAGS.finditer(text):
        if is_example(text, match.start(), examples):
            continue
        tag = match.group()
        if closing is None:
            if tag in _CLOSING:
                closing, opened, inner = _CLOSING[tag], match.start(), match.end()
            elif first:  # a closing tag before any opening one: the opening tag was in the prompt
                spans.append(Thinking(0, match.end(), 0, match.start()))
        elif tag == closing:
            spans.append(Thinking(opened, match.end(), inner, match.start()))
            closing = None
        first = False
    if closing is not None:
        end = min((found for marker in _CALLS_START if (found := text.find(marker, inner)) >= 0), default=len(text))
        spans.append(Thinking(opened, end, inner, end))
    return spans
