"""What a session holds reaches the search screen as plain text: terminal escapes, invisible
characters and Rich markup in a turn (or a file's name) are shown as they are written, escaped,
never obeyed. The files of a directory the app lists are searched besides the person's own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.text import Text
from textual.pilot import Pilot

from inspector.tui.app import InspectorApp
from inspector.tui.search.hit_list import HitList
from inspector.tui.search.hit_text import MATCHED
from tests.helpers.pilot import play
from tests.tui.search.helpers import open_search, type_words

pytestmark = pytest.mark.slow  # drives the app with Pilot

HOSTILE = "find the zebracorn [bold red]loud[/][@click=app.quit]q[/] \x1b]52;c;cHduZWQ=\x07 \x1b[2J \u202eevil"


def test_hostile_text_in_a_listed_session_is_shown_as_plain_text(tmp_path: Path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    (folder / "[b]hostile.json").write_text(
        json.dumps({"messages": [{"role": "user", "content": HOSTILE}, {"role": "assistant", "content": "done"}]}),
        encoding="utf-8",
    )

    async def scenario(pilot: Pilot) -> None:
        screen = await open_search(pilot)
        await type_words(pilot, screen, "zebracorn")
        hits = screen.query_one(HitList)
        assert [hit.path for hit in hits.hits] == [str(folder / "[b]hostile.json")]
        shown = hits.get_option_at_index(0).prompt
        assert isinstance(shown, Text)
        assert shown.plain.startswith("openai · [b]hostile.json · ")
        assert "\\x1b]52;c;cHduZWQ=\\x07" in shown.plain and "\\x1b[2J" in shown.plain
        assert "[bold red]loud[/][@click=app.quit]q[/]" in shown.plain and "\\u202eevil" in shown.plain
        assert not {"\x1b", "\x07", "\u202e"} & set(shown.plain)
        assert shown.style == "" and {str(span.style) for span in shown.spans} <= {
            "bold",
            MATCHED,
        }  # none of the session's

    play(InspectorApp(folder), scenario, settled=True)
