"""Writing one session file's rows into the index (`indexer`), in the open transaction: a file
read whole replaces what the index held of it (`write_file`, after `index_file.forget_file`); a
file read after lines were appended to it (`write_appended`) keeps its row, its sessions' rows
and the rows of the turns whose digest is the one indexed (`documents.SessionRows.kept`), and
has the rest written anew: its fingerprint, summaries, findings, and the turns new or changed.

A turn whose fields are those of a row of words already indexed (found by their digest) names
that row rather than adding one: an agent's instructions repeated in each session are indexed once.
"""

from __future__ import annotations

import sqlite3

from inspector.search.detection_key import detection_key
from inspector.search.documents import SessionRows
from inspector.search.fingerprint import Fingerprint
from inspector.search.index_file import forget_unused_words
from inspector.search.reading import FileRows
from inspector.search.targets import Target


def write_file(connection: sqlite3.Connection, path: str, target: Target, rows: FileRows, taken: Fingerprint) -> None:
    """Write `rows`, read from the file at `path` (which had the fingerprint `taken`), the index holding none of it."""
    file_id = connection.execute(
        "INSERT INTO files(path, size, mtime_ns, digest, error, detection, texts) VALUES (?, ?, ?, ?, ?, ?, 1)",
        (path, taken.size, taken.mtime_ns, taken.digest, rows.error or None, detection_key()),
    ).lastrowid
    assert file_id is not None
    _write_summaries(connection, file_id, path, rows)
    _write_sessions(connection, file_id, target, rows, taken, {})


def write_appended(
    connection: sqlite3.Connection, path: str, target: Target, rows: FileRows, taken: Fingerprint
) -> None:
    """Write `rows`, read from the file at `path` after lines were appended to it, keeping the
    rows of its sessions and of their turns `kept`."""
    file_id = connection.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchone()[0]
    connection.execute(
        "UPDATE files SET size = ?, mtime_ns = ?, digest = ?, error = NULL, detection = ?, texts = 1 WHERE id = ?",
        (taken.size, taken.mtime_ns, taken.digest, detection_key(), file_id),
    )
    connection.execute("DELETE FROM summaries WHERE file = ?", (file_id,))
    _write_summaries(connection, file_id, path, rows)
    kept = {session.number: session.kept for session in rows.sessions}
    sessions = dict(connection.execute("SELECT number, id FROM sessions WHERE file = ?", (file_id,)).fetchall())
    gone = [
        (row_id, words)
        for row_id, words, session, number in connection.execute(
            "SELECT turns.id, turns.words, sessions.number, turns.number FROM turns "
            "JOIN sessions ON turns.session = sessions.id WHERE sessions.file = ?",
            (file_id,),
        ).fetchall()
        if number not in kept.get(session, ())
    ]
    connection.executemany("DELETE FROM turns WHERE id = ?", [(row_id,) for row_id, _ in gone])
    connection.execute("DELETE FROM findings WHERE session IN (SELECT id FROM sessions WHERE file = ?)", (file_id,))
    connection.executemany(  # (a session the reader no longer finds: none of its turns is kept)
        "DELETE FROM sessions WHERE id = ?", [(row_id,) for number, row_id in sessions.items() if number not in kept]
    )
    _write_sessions(connection, file_id, target, rows, taken, sessions)
    forget_unused_words(connection, [(words,) for words in {words for _, words in gone}])


def _write_summaries(connection: sqlite3.Connection, file_id: int, path: str, rows: FileRows) -> None:
    if rows.summaries is not None and not rows.error:
        connection.execute(
            "INSERT INTO summaries(file, read_as, data, anchors) VALUES (?, ?, ?, ?)",
            (file_id, path, rows.summaries, rows.anchors),
        )


def _write_sessions(
    connection: sqlite3.Connection,
    file_id: int,
    target: Target,
    rows: FileRows,
    taken: Fingerprint,
    kept: dict[int, int],
) -> None:
    """Write each session of `rows`, its new turns and its findings: those whose rows are `kept`
    (their ids, by number) updated, the others inserted."""
    date = taken.mtime_ns / 1e9
    next_turn = connection.execute("SELECT coalesce(max(id), 0) + 1 FROM turns").fetchone()[0]
    updated = []
    for session in rows.sessions:
        values = (
            session.session_id,
            session.format,
            target.agent,
            target.project,
            session.models,
            date,
            session.turn_count,
        )
        session_id = kept.get(session.number)
        if session_id is None:
            session_id = connection.execute(
                "INSERT INTO sessions(file, number, session_id, format, agent, project, models, date, turns) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (file_id, session.number, *values),
            ).lastrowid
            assert session_id is not None
        else:
            updated.append((*values, session_id))
        next_turn = _write_turns(connection, session_id, session, next_turn)
    connection.executemany(
        "UPDATE sessions SET session_id = ?, format = ?, agent = ?, project = ?, models = ?, date = ?, turns = ? "
        "WHERE id = ?",
        updated,
    )


def _write_turns(connection: sqlite3.Connection, session_id: int, session: SessionRows, next_turn: int) -> int:
    """Write the session's turns and findings, its turns numbered from `next_turn`; the next number."""
    ids = range(next_turn, next_turn + len(session.turns))
    words = _words_rows(connection, session)
    connection.executemany(
        "INSERT INTO turns(id, session, number, role, model, tools, digest, words) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (row_id, session_id, t.number, t.role, t.model, t.tools, t.digest, words[t.words])
            for row_id, t in zip(ids, session.turns)
        ],
    )
    connection.executemany(
        "INSERT INTO findings(session, turn, role, kind, severity, tool, model) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(session_id, *finding) for finding in session.findings],
    )
    return next_turn + len(session.turns)


_LOOKED_UP = 500  # digests looked up in one statement, at most (SQLite's limit of parameters is higher)


def _words_rows(connection: sqlite3.Connection, session: SessionRows) -> dict[int, int]:
    """The row of words of each of the session's turns, by its fields' digest: the row indexed
    when there is one, else one added."""
    digests = list(dict.fromkeys(turn.words for turn in session.turns))
    rows: dict[int, int] = {}
    for start in range(0, len(digests), _LOOKED_UP):
        chunk = digests[start : start + _LOOKED_UP]
        marks = ", ".join("?" * len(chunk))
        rows.update(connection.execute(f"SELECT digest, id FROM word_rows WHERE digest IN ({marks})", chunk))
    for turn in session.turns:
        if turn.words not in rows:
            row_id = connection.execute(
                "INSERT INTO turn_text(text, calls, results, thinking) VALUES (?, ?, ?, ?)",
                (turn.text, turn.calls, turn.results, turn.thinking),
            ).lastrowid
            assert row_id is not None
            connection.execute("INSERT INTO word_rows(id, digest) VALUES (?, ?)", (row_id, turn.words))
            rows[turn.words] = row_id
    return rows
