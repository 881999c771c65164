"""Full-text search across every session the inspector can read, with its findings as facets.

The index (`index_file`) is one SQLite database in the inspector's state folder: each turn's
text, calls, results and thinking in an FTS5 table, redacted (`documents`); each session's agent,
format, project, models and date; and each finding's kind, severity, tool and model. It covers
the person's own sessions and any paths given (`targets`), and is kept up to date incrementally
(`indexer`). `search` finds turns by words and facets (`queries`, `filters`, `query_words`);
`facet_counts` counts findings by kind, tool, model and agent over what a search matches.

The index is also the cache of `scan` and `report` (`scan_cache`): each file's session summaries
are kept beside its rows, under the key of the detection that found them (`detection_key`).
The names below are loaded when first used: a scan that only takes from the cache loads neither
discovery nor the indexer's processes.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from inspector.search.filters import SearchFilter
    from inspector.search.index_file import SCHEMA_VERSION, index_path, open_index
    from inspector.search.indexer import IndexUpdate, update_index
    from inspector.search.queries import FACETS, Hit, facet_counts, search
    from inspector.search.query_words import fts_query
    from inspector.search.targets import Target, index_targets

_MODULE_OF = {
    "SearchFilter": "filters",
    "SCHEMA_VERSION": "index_file",
    "index_path": "index_file",
    "open_index": "index_file",
    "IndexUpdate": "indexer",
    "update_index": "indexer",
    "FACETS": "queries",
    "Hit": "queries",
    "facet_counts": "queries",
    "search": "queries",
    "fts_query": "query_words",
    "Target": "targets",
    "index_targets": "targets",
}

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


def __getattr__(name: str) -> Any:
    """One of `__all__`, from its module, loaded now."""
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_MODULE_OF[name]}"), name)
