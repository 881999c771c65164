"""Full-text search across every session the inspector can read, with its findings as facets.

The index (`index_file`) is one SQLite database in the inspector's state folder: each turn's
text, calls, results and thinking in an FTS5 table, redacted (`documents`); each session's agent,
format, project, models and date; and each finding's kind, severity, tool and model. It covers
the person's own sessions and any paths given (`targets`), and is kept up to date incrementally
(`indexer`). `search` finds turns by words and facets (`queries`, `filters`, `query_words`);
`facet_counts` counts findings by kind, tool, model and agent over what a search matches.
"""

from __future__ import annotations

from inspector.search.filters import SearchFilter
from inspector.search.index_file import SCHEMA_VERSION, index_path, open_index
from inspector.search.indexer import IndexUpdate, update_index
from inspector.search.queries import FACETS, Hit, facet_counts, search
from inspector.search.query_words import fts_query
from inspector.search.targets import Target, index_targets

__all__ = [
    "FACETS",
    "SCHEMA_VERSION",
    "Hit",
    "IndexUpdate",
    "SearchFilter",
    "Target",
    "facet_counts",
    "fts_query",
    "index_path",
    "index_targets",
    "open_index",
    "search",
    "update_index",
]
