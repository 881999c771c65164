"""StepFun Step3: special-token sections around `<steptml:invoke>` elements.

`<｜tool_calls_begin｜>` (full-width bars U+FF5C, underscores: not DeepSeek's `▁`) opens a section
of calls, each `<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="NAME">` then
`<steptml:parameter name="k">v</steptml:parameter>` elements, `</steptml:invoke><｜tool_call_end｜>`;
`<｜tool_calls_end｜>` closes the section. A lone `<｜tool_call_begin｜>` call is read too. Values
are text, typed when the call is recovered by the tool's schema (`schema_values`); a string value
keeps the white space around it, as vLLM keeps it (the value sits inline between the tags, so that
white space is data: an edit tool's `old_string` must match exactly); typed values (numbers,
booleans) are read without it.
"""

from __future__ import annotations

from inspector.catalogue import Catalogue
from inspector.detect.markup.blocks import Block, Reader, end_of
from inspector.detect.markup.xml_tags import invoke_block, invoke_syntax

SECTION_BEGIN, SECTION_END = "<｜tool_calls_begin｜>", "<｜tool_calls_end｜>"
CALL_BEGIN, CALL_END = "<｜tool_call_begin｜>", "<｜tool_call_end｜>"
_STEPTML = invoke_syntax("steptml:", lambda match, written: written, text_values=True)


def _reader(close: str, opener: str) -> Reader:
    """A reader of the `<steptml:invoke>` calls between a marker and `close` (a body never runs
    past the next `opener`)."""

    def read(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
        return invoke_block(text, start, after, end_of(text, close, after, opener), _STEPTML, "step3")

    return read


READERS: dict[str, Reader] = {
    SECTION_BEGIN: _reader(SECTION_END, SECTION_BEGIN),
    CALL_BEGIN: _reader(CALL_END, CALL_BEGIN),
}
