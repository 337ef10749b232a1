"""A player's library: reviewed games in an SQLite database, ratings of play, progress, quizzes.

`schema` opens, checks and migrates the database file; `ingest` reads and reviews a record file
into rows; `store.Library` adds, lists, removes and exports; `stats` rates play (error rates,
the PR-style figure, intervals); `bands` holds the grade bands and the reference bots' figures;
`quiz` picks a player's costliest distinct mistakes (docs/library.md).
"""
