"""Tests of `inspector.detect`: each detector on real session files, and the detector contract."""
