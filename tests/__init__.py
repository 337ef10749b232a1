"""The nardy test suite: a package, so its helpers import as `tests.<module>` without a sys.path
hack."""
