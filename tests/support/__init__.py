"""Tests of `inspector.support`: the helpers every stage shares."""
