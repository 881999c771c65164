"""The picker: the list of sessions (of some files, of a history's conversations, or of the
person's own sessions) that the app opens on, and its pieces: the table, its rows, columns and
view (sort, filters, search), the rates line, and each session's review status."""
