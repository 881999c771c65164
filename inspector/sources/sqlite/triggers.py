"""The database's own triggers, kept from running on what the inspector writes to an SQLite
history (`fix`, `undo`): a trigger could change the rows written behind the audit's back, or
cascade into others. Unless allowed, an authorizer denies any statement that would run one, and
the writer rolls back with one line naming the triggers the write would have run; it keeps the
untrusted connection's own rule on functions (`database.only_pure_functions`)."""

from __future__ import annotations

import sqlite3

from inspector.errors import InspectorError
from inspector.sources.sqlite.database import only_pure_functions
from inspector.support.safe_text import shown_name


class TriggerGuard:
    """The triggers of the database open on `conn`, refused from now on unless `allowed`; the
    ones a statement would have run are kept in `refused`."""

    def __init__(self, conn: sqlite3.Connection, allowed: bool) -> None:
        self._triggers: dict[str, str] = dict(
            conn.execute("SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger'")
        )
        self.refused: set[str] = set()
        if self._triggers and not allowed:
            conn.set_authorizer(self._authorize)

    def _authorize(
        self, action: int, first: str | None, second: str | None, database: str | None, source: str | None
    ) -> int:
        """SQLite's authorizer: deny whatever one of the database's triggers would do, and any
        function the untrusted connection denies."""
        if source in self._triggers:
            self.refused.add(source)
            return sqlite3.SQLITE_DENY
        return only_pure_functions(action, first, second, database, source)

    def refusal(self, place: object, written: str, unchanged: str) -> InspectorError:
        """The one line refusing to run the triggers refused: `place` (the database), the rows
        `written` ("this fix writes"), and what rolling back left (`unchanged`)."""
        named = ", ".join(f"{name} (on {self._triggers[name]})" for name in sorted(self.refused))
        several = len(self.refused) != 1
        return InspectorError(
            f"{shown_name(place)}: the database's own trigger{'s' if several else ''} {named} would run on "
            f"the rows {written}, and could change them; rolled back, {unchanged} "
            f"(--allow-triggers lets {'them' if several else 'it'} run)"
        )
