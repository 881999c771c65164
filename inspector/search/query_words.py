"""What a person types to search, as an FTS5 query that SQLite always accepts.

Words are matched whole (`error`), a word ending with `*` by its start (`config*`), words in
double quotes as a phrase (`"tool call"`, a phrase followed by `*` by its last word's start);
every term must match, `OR` between two terms takes either. Each term is quoted for FTS5, so
nothing a person types (an unbalanced quote, a bare operator, a parenthesis, a column name)
reaches FTS5 as syntax; a term with no letter or digit is dropped (it holds no word to match).
One pass over the query: linear time in its length.
"""

from __future__ import annotations

from inspector.support.lazy_pattern import lazy_pattern

_TERMS = lazy_pattern(r'"([^"]*)"?(\*?)|(\S+)')
_OPERATORS = frozenset(("OR",))


def fts_query(typed: str) -> str:
    """The FTS5 query for `typed` ('' when it holds no word to search for)."""
    parts: list[str] = []
    operator = ""
    for match in _TERMS.finditer(typed):
        phrase, star, word = match.group(1), match.group(2), match.group(3)
        if word is not None and word in _OPERATORS:
            operator = word if parts else ""
            continue
        if word is not None:
            phrase, star = word.rstrip("*"), "*" if word.endswith("*") else ""
        if not any(character.isalnum() for character in phrase):
            continue
        if operator:
            parts.append(operator)
            operator = ""
        parts.append('"' + phrase.replace('"', '""') + '"' + (" *" if star else ""))
    return " ".join(parts)
