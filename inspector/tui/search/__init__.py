"""The search screen over every session (`screen`), opened from a list of sessions: words typed
are searched in the search index (`inspector.search`) as they are typed, in a thread, and the
hits, each with its session, turn and snippet (`hit_text`), are narrowed by the facets of their
findings (`facets`, `facet_list`); Enter opens a hit's session on its turn (`opening`)."""
