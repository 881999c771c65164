"""Tool *results* written as markup in an assistant's own text: where each block is, its family,
and the tool it names.

A model trained on transcripts where a tool's answer follows its call in the same stream
sometimes writes that answer itself: Hermes / Qwen `<tool_response>`, `<tool_result>`,
Anthropic-style `<function_results>`, `<function_response>`, `<tool_output>` (each needs its
closing tag), Gemini's ```` ```tool_outputs ```` fence, Mistral `[TOOL_RESULTS]`, Cohere
`<|START_TOOL_RESULT|>`, DeepSeek `<｜tool▁output(s)▁begin｜>`, Gemma 4 `<|tool_response>`,
FunctionGemma `<start_function_response>`; a tool turn's header (Llama 3 `ipython`, ChatML
`<|im_start|>tool`, gpt-oss Harmony `<|start|>functions.NAME to=assistant`, Granite
`tool_response`) with its body up to the end of the turn, taking along the end-of-turn token
before it and the assistant header after it (the invented turn's scaffolding); and ReAct's
`Observation:` after an `Action:` line or a leaked call in the same reply.

Not results: markup inside a code fence or inline code (an example), an empty block, a tag left
open, `Observation:` with no call before it. One pass over the text: each start marker is read
once, and each closing marker is looked up from an index that only moves forward.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import NamedTuple

from inspector.detect.markup.fences import find_fences
from inspector.support.lazy_pattern import lazy_pattern

# Closed tags: `<tag ...>` ... `</tag>`.
_TAGS = r"tool_responses?|tool_results?|function_results?|function_responses?|tool_outputs?"
# Special tokens that open a result, each with its closing token.
_TOKENS: dict[str, str] = {
    "[TOOL_RESULTS]": "[/TOOL_RESULTS]",
    "<|START_TOOL_RESULT|>": "<|END_TOOL_RESULT|>",
    "<｜tool▁outputs▁begin｜>": "<｜tool▁outputs▁end｜>",
    "<｜tool▁output▁begin｜>": "<｜tool▁output▁end｜>",
    "<|tool_response>": "<tool_response|>",
    "<start_function_response>": "<end_function_response>",
}
_TOKEN_FAMILIES: dict[str, str] = {
    "[TOOL_RESULTS]": "mistral",
    "<|START_TOOL_RESULT|>": "cohere",
    "<｜tool▁outputs▁begin｜>": "deepseek",
    "<｜tool▁output▁begin｜>": "deepseek",
    "<|tool_response>": "gemma",
    "<start_function_response>": "functiongemma",
}
# A tool turn's header, by family: what ends its body (consumed), and what starts the next turn (kept).
_HEADERS: dict[str, tuple[tuple[str, ...], str]] = {
    "llama": (("<|eot_id|>", "<|eom_id|>"), "<|start_header_id|>"),
    "chatml": (("<|im_end|>",), "<|im_start|>"),
    "harmony": (("<|end|>",), "<|start|>"),
    "granite": (("<|end_of_text|>",), "<|start_of_role|>"),
}
# The first characters of the markers that may start anywhere (tags, tokens, turn headers): the
# lookahead below lets the regular expression engine try those markers only where one stands,
# instead of trying each alternative at every character of the reply (over twice as fast).
_MARKER_FIRSTS = re.escape("".join(sorted({"<", *(token[0] for token in _TOKENS)})))
_START = lazy_pattern(
    rf"(?=[{_MARKER_FIRSTS}])(?:<(?P<tag>{_TAGS})(?:\s[^<>\n]{{0,200}})?>"
    r"|(?P<token>" + "|".join(map(re.escape, _TOKENS)) + ")"
    r"|(?P<llama><\|start_header_id\|>[ \t]*ipython[ \t]*<\|end_header_id\|>)"
    r"|(?P<chatml><\|im_start\|>[ \t]*(?:tool|ipython|function)\b)"
    r"|(?P<harmony><\|start\|>[ \t]*functions\.(?P<function>[\w.\-]+)[^<\n]{0,80}(?:<\|channel\|>[^<\n]{0,80})?<\|message\|>)"
    r"|(?P<granite><\|start_of_role\|>[ \t]*tool_response[ \t]*<\|end_of_role\|>))"
    r"|^(?:(?P<fence>[ \t]*```[ \t]*(?:tool_outputs?|tool_results?|tool_responses?)[ \t]*\n)"
    r"|(?P<react>[ \t]*Observation:))",
    re.M,
)
# What shows a leaked call came before an `Observation:`: a ReAct action line or a call marker.
_ACTION = lazy_pattern(
    r"^[ \t]*Action(?: Input)?[ \t]*:|<tool_call>|<\|python_tag\|>|\[TOOL_CALLS\]|<function_calls>"
    r"|<invoke\s",
    re.M,
)
_REACT_END = lazy_pattern(r"\n[ \t]*\n|\n(?=[ \t]*(?:Thought|Action(?: Input)?|Observation|Final Answer)[ \t]*:)")
_FENCE_END = lazy_pattern(r"^[ \t]*```[ \t]*$", re.M)
_END_OF_TURN = ("<|eom_id|>", "<|eot_id|>", "<|im_end|>", "<|end|>", "<|end_of_text|>")
_ASSISTANT_HEADER = lazy_pattern(
    r"\s*(?:<\|start_header_id\|>[ \t]*assistant[ \t]*<\|end_header_id\|>|<\|im_start\|>[ \t]*assistant\b"
    r"|<\|start\|>[ \t]*assistant[ \t]*<\|channel\|>[ \t]*final[ \t]*<\|message\|>"
    r"|<\|start_of_role\|>[ \t]*assistant[ \t]*<\|end_of_role\|>)"
)
_INLINE_CODE = lazy_pattern(r"(?<!`)`[^`\n]+`(?!`)")
_NAMED = lazy_pattern(
    r"[\"'](?:name|tool|tool_name)[\"']\s*:\s*[\"'](?P<json>[\w.\-]+)[\"']"
    r"|<tool_name>\s*(?P<xml>[\w.\-]+)\s*</tool_name>"
)
_ATTRIBUTE_NAME = lazy_pattern(r"\bname\s*=\s*[\"'](?P<name>[\w.\-]+)[\"']")
_ACTION_NAME = lazy_pattern(r"^[ \t]*Action[ \t]*:[ \t]*`?([A-Za-z_][\w.\-]*)`?[ \t]*$", re.M)


class ResultBlock(NamedTuple):
    """A tool result written in the text: `[start, end)` with its scaffolding, its family (a tag's
    name, or the model family of its tokens), the tool it names (or None) and where its body is."""

    start: int
    end: int
    family: str
    tool: str | None
    body: tuple[int, int]


class _Ahead:
    """Searches of one text from starts that only grow: each literal's or pattern's last answer is
    kept and reused while it lies ahead, so a text full of open markers is still read once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._found: dict[str | re.Pattern[str], tuple[int, int, int]] = {}  # -> (searched from, start, end)

    def find(self, literal: str, start: int) -> int:
        """Where `literal` next occurs at or after `start`, or -1."""
        return self._next(literal, start)[0]

    def search(self, pattern: re.Pattern[str], start: int) -> tuple[int, int] | None:
        """Where `pattern` next matches at or after `start` (its start and end), or None."""
        found = self._next(pattern, start)
        return None if found[0] < 0 else found

    def _next(self, what: str | re.Pattern[str], start: int) -> tuple[int, int]:
        known = self._found.get(what)
        if known is not None and known[0] <= start and (known[1] < 0 or known[1] >= start):
            return known[1], known[2]
        if isinstance(what, str):
            at = self.text.find(what, start)
            found = (at, at + len(what)) if at >= 0 else (-1, -1)
        else:
            match = what.search(self.text, start)
            found = match.span() if match else (-1, -1)
        self._found[what] = (start, *found)
        return found


def find_result_blocks(text: str, limit: int) -> list[ResultBlock]:
    """The tool-result blocks written in `text`, in order: at most `limit` + 1 (a bound against
    hostile text; one more than `limit` says that there are more)."""
    match = _START.search(text)
    if match is None:  # the common case: nothing else is looked for
        return []
    examples = _examples(text)
    ahead = _Ahead(text)
    first_action = _ACTION.search(text) if "Observation:" in text else None
    blocks: list[ResultBlock] = []
    while len(blocks) <= limit and match is not None:
        block = None
        if not _in(examples, match.start()):
            block = _read(text, match, ahead, first_action.start() if first_action else None)
        position = match.end() if block is None else block.end
        if block is not None:
            previous_end = blocks[-1].end if blocks else 0
            blocks.append(block._replace(start=max(block.start, previous_end)))
        match = _START.search(text, position)
    return blocks


_KINDS = ("tag", "token", "llama", "chatml", "harmony", "granite", "fence", "react")


def _read(text: str, match: re.Match[str], ahead: _Ahead, first_action: int | None) -> ResultBlock | None:
    """The block a start marker opens, or None when it opens none (left open, empty, no call before)."""
    kind = next(name for name in _KINDS if match.group(name) is not None)
    if kind == "tag":
        tag = match.group("tag")
        return _closed(text, match, f"</{tag}>", tag, ahead)
    if kind == "token":
        token = match.group("token")
        return _closed(text, match, _TOKENS[token], _TOKEN_FAMILIES[token], ahead)
    if kind == "fence":
        close = ahead.search(_FENCE_END, match.end())
        if close is None or not text[match.end() : close[0]].strip():
            return None
        return _block(text, match.start(), close[1], "gemini-tool-outputs", (match.end(), close[0]))
    if kind == "react":
        return _observation(text, match, ahead, first_action)
    return _turn(text, match, kind, ahead)


def _closed(text: str, match: re.Match[str], close: str, family: str, ahead: _Ahead) -> ResultBlock | None:
    """A block from its start marker to `close`; None when it is never closed or holds nothing."""
    found = ahead.find(close, match.end())
    if found < 0 or not text[match.end() : found].strip():
        return None
    named = _ATTRIBUTE_NAME.search(match.group())
    return _block(text, match.start(), found + len(close), family, (match.end(), found), named and named.group("name"))


def _observation(text: str, match: re.Match[str], ahead: _Ahead, first_action: int | None) -> ResultBlock | None:
    """A ReAct observation after a call: up to the next ReAct line or a blank line."""
    if first_action is None or first_action > match.start():
        return None
    end = ahead.search(_REACT_END, match.end())
    body_end = end[0] if end else len(text)
    if not text[match.end() : body_end].strip():
        return None
    return _block(text, match.start(), body_end, "react", (match.end(), body_end), _react_tool(text, match.start()))


def _turn(text: str, match: re.Match[str], family: str, ahead: _Ahead) -> ResultBlock | None:
    """A tool turn from its header to the end of the turn (or the next turn's header, or the end
    of the text), with the end-of-turn token before it and the assistant header after it."""
    closes, next_header = _HEADERS[family]
    body_start = match.end()
    ends = [(found, found + len(close)) for close in closes if (found := ahead.find(close, body_start)) >= 0]
    following = ahead.find(next_header, body_start)
    if following >= 0:
        ends.append((following, following))
    body_end, end = min(ends) if ends else (len(text), len(text))
    if not text[body_start:body_end].strip():
        return None
    header = _ASSISTANT_HEADER.match(text, end)
    end = header.end() if header else end
    return _block(
        text, _before_end_of_turn(text, match.start()), end, family, (body_start, body_end), match.group("function")
    )


def _before_end_of_turn(text: str, start: int) -> int:
    """`start` moved back over an end-of-turn token just before it (white space between), if any."""
    window = max(0, start - 40)
    before = text[window:start].rstrip()
    token = next((token for token in _END_OF_TURN if before.endswith(token)), None)
    return window + len(before) - len(token) if token else start


def _block(text: str, start: int, end: int, family: str, body: tuple[int, int], tool: str | None = None) -> ResultBlock:
    """The block, with the tool its body names when no marker named one."""
    if tool is None:
        named = _NAMED.search(text, body[0], body[1])
        tool = (named.group("json") or named.group("xml")) if named else None
    return ResultBlock(start, end, family, tool, body)


def _react_tool(text: str, observation: int) -> str | None:
    """The tool of the last `Action: NAME` line close before an observation (a bounded look back)."""
    names = _ACTION_NAME.findall(text, max(0, observation - 500), observation)
    return names[-1] if names else None


def _examples(text: str) -> list[tuple[int, int]]:
    """The code fences (other than tool-output fences) and inline code spans of `text`, in order."""
    spans: list[tuple[int, int]] = []
    if "```" in text:
        spans = [
            (f.start, f.end)
            for f in find_fences(text)
            if not f.lang.startswith(("tool_output", "tool_result", "tool_response"))
        ]
    if "`" in text:
        inline = [m.span() for m in _INLINE_CODE.finditer(text) if not _in(spans, m.start())]
        spans = sorted(spans + inline)
    return spans


def _in(spans: list[tuple[int, int]], position: int) -> bool:
    """Whether `position` lies inside one of `spans` (in order, apart)."""
    index = bisect_right(spans, position, key=lambda span: span[0]) - 1
    return index >= 0 and position < spans[index][1]
