"""Reading the shared reports back in tests: the HTML page's flagged turns with the text inside
each kind of mark on each side, and the Markdown's fenced blocks and tables."""

from __future__ import annotations

import re
from html.parser import HTMLParser


class _Tags(HTMLParser):
    """Every element tag of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.add(tag)


def element_tags(page: str) -> set[str]:
    """The names of the elements a page holds (what a browser would build, model text aside)."""
    parser = _Tags()
    parser.feed(page)
    parser.close()
    return parser.tags


def flagged_turns(page: str) -> list[tuple[str, int]]:
    """(conversation section id, turn) of each flagged turn, in order."""
    found = []
    for section in re.finditer(r'<section class="conversation" id="([^"]+)">(.*?)</section>\n', page, re.S):
        found += [
            (section.group(1), int(turn))
            for turn in re.findall(
                r'<article class="turn" id="[^"]*" '
                r'data-turn="(\d+)">',
                section.group(2),
            )
        ]
    return found


def side_text(page: str, position: int, side: str, conversation: str = "c1") -> str:
    """The text the blocks of one side of a flagged turn show, marks and all, as a browser shows it."""
    parser = _Marked()
    parser.feed(_side(page, position, side, conversation))
    return "".join(text for text, _ in parser.chunks)


def marked_runs(page: str, position: int, side: str, mark: str, conversation: str = "c1") -> list[str]:
    """The runs of text with one mark (`removed`: inside a del, `added`: an ins, `fault`: a mark,
    `redacted`: a span of that class) on one side of a flagged turn; runs that touch are one."""
    parser = _Marked()
    parser.feed(_side(page, position, side, conversation))
    runs, previous = [], False
    for text, marks in parser.chunks:
        inside = mark in marks
        if inside and previous:
            runs[-1] += text
        elif inside:
            runs.append(text)
        previous = inside
    return runs


def _side(page: str, position: int, side: str, conversation: str) -> str:
    section = re.search(rf'<section class="conversation" id="{conversation}">(.*?)</section>\n', page, re.S)
    assert section, f"no conversation {conversation}"
    article = re.search(
        rf'<article class="turn" id="[^"]*" data-turn="{position}">(.*?)</article>', section.group(1), re.S
    )
    assert article, f"no flagged turn {position}"
    found = re.search(rf'<section class="side {side}">(.*?)</section>', article.group(1), re.S)
    assert found, f"no {side} side"
    return found.group(1)


class _Marked(HTMLParser):
    """The text of the blocks (`pre` elements), in chunks, each with the marks around it."""

    _MARKS = {"del": "removed", "ins": "added", "mark": "fault"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[tuple[str, frozenset[str]]] = []
        self._open: list[str] = []  # the mark of each open element ("" for none)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "pre":
            self.chunks.append(("", frozenset()))  # a new block: no run goes on across it
        self._open.append("pre" if tag == "pre" else "redacted" if "redacted" in classes else self._MARKS.get(tag, ""))

    def handle_endtag(self, tag: str) -> None:
        if self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        if "pre" in self._open:
            self.chunks.append((data, frozenset(self._open)))


def fences(markdown: str) -> list[str]:
    """The bodies of the fenced code blocks, each closed by a fence as long as its opening one;
    fails on a fence left open."""
    bodies, lines, index = [], markdown.split("\n"), 0
    while index < len(lines):
        opening = re.match(r"^(`{3,})(\w*)$", lines[index])
        index += 1
        if not opening:
            continue
        fence, body = opening.group(1), []
        while index < len(lines) and not re.match(rf"^`{{{len(fence)},}}\s*$", lines[index]):
            body.append(lines[index])
            index += 1
        assert index < len(lines), "a fenced block is never closed"
        assert lines[index].strip() == fence, "a block is closed by a longer fence than it opened with"
        index += 1
        bodies.append("\n".join(body))
    return bodies


def outside_fences(markdown: str) -> str:
    """The Markdown with its fenced blocks taken out."""
    kept, fence = [], None
    for line in markdown.split("\n"):
        if fence is None:
            opening = re.match(r"^(`{3,})\w*$", line)
            if opening:
                fence = opening.group(1)
                continue
            kept.append(line)
        elif line.strip() == fence:
            fence = None
    return "\n".join(kept)


def table_cells(row: str) -> list[str]:
    """A Markdown table row's cells, split at the pipes that are not escaped."""
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", row.strip())[1:-1]]
