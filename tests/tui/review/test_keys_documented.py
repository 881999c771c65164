"""The key table of `docs/keys.md` and the review screen's keys (what its help lists) agree: every key the
help lists is in the table, and every key the table names is bound."""

from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path

from inspector.tui.app import InspectorApp
from inspector.tui.commands import help_rows
from inspector.tui.review.turn_list import TurnList
from tests.helpers.samples import DOCS, SESSIONS

KEYS_PAGE = DOCS / "keys.md"


def documented_keys() -> set[str]:
    """The keys the table of the review screen's keys names (its first column, each in backticks,
    or written as ctrl+X)."""
    text = KEYS_PAGE.read_text(encoding="utf-8")
    table = text[text.index("| key | does |") :]
    table = table[: table.index("\n\n")]
    keys: set[str] = set()
    for row in table.splitlines()[2:]:
        first = row.split(" | ")[0]
        keys |= set(re.findall(r"`([^`]+)`", first)) | set(re.findall(r"ctrl\+[a-z]", first))
    return {key if len(key) == 1 else key.lower() for key in keys}  # `Esc` as the help names it


def help_keys(tmp_path: Path) -> set[str]:
    """The keys the review screen's help lists, as the keys page writes them."""
    app = InspectorApp(Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "m.openai.json")))
    keys: set[str] = set()

    async def main() -> None:
        async with app.run_test(size=(120, 40)):
            for shown, _ in help_rows(app.screen):  # several keys of one action are shown joined by /
                each = [shown] if shown == "/" else shown.split("/")
                keys.update(key if len(key) == 1 else key.replace("^", "ctrl+").lower() for key in each)

    asyncio.run(main())
    return keys


def test_the_documented_key_table_lists_the_keys_of_the_help(tmp_path: Path):
    listed, bound = documented_keys(), help_keys(tmp_path)
    assert bound - {"esc"} <= listed  # Esc is in the table's words (search, back)
    turn_list = {key for binding in TurnList.BINDINGS for key in binding.key.split(",")}
    assert listed <= bound | turn_list


def test_the_help_names_each_key_of_an_action_once(tmp_path: Path):
    """Previous flagged turn is bound to `N` and to `shift+n` (what a terminal reporting modifiers
    sends), both shown `N`: the help shows `N`, where it showed `N/N`."""
    app = InspectorApp(Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "m.openai.json")))
    shown: dict[str, str] = {}

    async def main() -> None:
        async with app.run_test(size=(120, 40)):
            shown.update((description, keys) for keys, description in help_rows(app.screen))

    asyncio.run(main())
    assert shown["Previous flagged turn (previous match while searching)"] == "N"
    for keys in shown.values():
        parts = [keys] if keys == "/" else keys.split("/")
        assert len(parts) == len(set(parts)), keys
