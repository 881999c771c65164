"""Tests of detector `fake-result-block`: tool results a model wrote as markup in its own reply."""
