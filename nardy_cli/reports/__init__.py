"""Study tools: play ranking, opening tables, batch runs, charts, diagrams and reports."""
