"""Repairing: applying fixes, running recovered calls, and writing the repaired sessions with their audit."""

# How long a recovered call may run (`execute`); here so that the command line's help can say it
# without loading the executor.
DEFAULT_TIMEOUT = 30.0
