"""A person's review of the findings: decisions, edits, the review file, and exporting what was approved."""
