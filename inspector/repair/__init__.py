"""Repairing: applying fixes, running recovered calls, and writing the repaired sessions with their audit."""
