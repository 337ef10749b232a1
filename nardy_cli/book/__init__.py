"""The opening book: the opening's decisions judged, with their provenance (docs/openings.md).

`read.load_book()` reads it; `build.build_book()` builds or deepens it; `lessons` counts what it
says for the study guide.
"""
