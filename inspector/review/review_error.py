"""The error of a review action that cannot be done (approving a finding with no fix, an export
onto its own input), worded to be shown as it is: a module of its own, as every part of a review
raises it and the app catches it."""

from __future__ import annotations

from inspector.errors import InspectorError


class ReviewError(InspectorError):
    """A review action that cannot be done, worded to be shown as it is."""
