"""Compiled (numba) kernels: the one rules engine every Python API wraps.

Boards here are mover-relative: an int8 array of 24 points in the side to move's
numbering (index 0 is its head, point 1), positive counts for the mover's
checkers and negative counts for the opponent's.  The opponent's point `q`
(0-based, its own numbering) is the mover's index `(q + 12) % 24`.
"""
