"""Sessions kept as plain files (JSON, JSON Lines, an Inspect AI archive): reading one into a
`Document`, the file as a `Source`, and writing it back in the layout it had. Which format a
document is, and how its records become sessions, is `inspector.sources.formats`'s."""
