"""The test suite: one folder per package of `inspector`, cross-cutting checks in `system/`, shared helpers in `helpers/`."""
