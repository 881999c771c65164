"""Gemini CLI chat sessions: the 0.61 JSON Lines log the real CLI wrote (replayed), and the 0.20
JSON document; detected, read into turns, scanned, and written back unchanged or repaired in
the same container."""
