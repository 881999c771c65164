"""The review screen and its pieces: the turn list above the selected turn's detail, loading,
moving and searching, the decisions and their bulk form, the fix editor, the raw record, copying,
exporting and running recovered calls; each piece owned by the screen, none importing it."""
