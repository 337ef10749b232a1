"""Bots the tests name as `module:attribute` policies (`tests.bots.<module>:<name>`).

They are importable from the project root, which pytest puts on `sys.path`;
subprocess tests pass it on through PYTHONPATH (`tests.cases.subprocess_env`).
"""
