"""Cross-cutting checks: hostile input, fuzzing, import hygiene, the bundled samples, write safety, the benchmark scripts."""
