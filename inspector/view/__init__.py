"""One view of a repaired turn, shown by the app and by the shared report alike: what the turn
was, what it becomes with fixes, and the changes between them (`repaired_turn`), with the one
word diff both mark text with (`word_diff`) and the diff of call arguments (`arguments_diff`).

It sits between the decisions and the repair: it applies fixes only through
`inspector.repair.apply`, knows nothing of a person's decisions (the app passes the approved
fixes, the report every proposed one), and never imports Textual. `review/`, `report/` and `tui/`
may import it; it imports none of them.
"""
