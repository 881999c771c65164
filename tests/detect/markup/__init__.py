"""Tests of `inspector.detect.markup`: the leaked-call families `tool-markup` reads."""
