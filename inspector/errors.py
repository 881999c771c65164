"""The one exception the command line turns into a one-line message and exit code 2."""


class InspectorError(Exception):
    """A problem with the user's input or files, worded to be shown as it is, on one line."""
