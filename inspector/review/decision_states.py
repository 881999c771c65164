"""The states of a decision on a finding, as the review file names them: a module of its own so
that what only shows a review's status (the picker's column) reads them without loading the
review file's reader."""

PENDING, APPROVED, EDITED, SKIPPED = "pending", "approved", "edited", "skipped"
DECIDED = (APPROVED, EDITED, SKIPPED)
