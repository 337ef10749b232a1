"""Kernels compile without numba's Python wrapper (kernels/jit.py), yet Python may call any of them.

A `kernel` is compiled for other kernels only; called from Python it runs its
twin, the same code compiled with the wrapper and cached under its own name.
"""

from __future__ import annotations

import importlib
import pkgutil

import numpy as np
from numba.core.registry import CPUDispatcher

import nardy_cli.kernels
from nardy_cli.kernels.board import flip, on_board, opp_on_board
from nardy_cli.kernels.jit import KernelDispatcher
from nardy_cli.kernels.runs import play_chunk


def start_board() -> np.ndarray:
    """Mover's 15 checkers on its point 1 (index 0), the opponent's 15 on index 12."""
    board = np.zeros(24, dtype=np.int8)
    board[0], board[12] = 15, -15
    return board


def test_a_kernel_called_from_python_gives_the_compiled_result():
    """Would catch a wrapper-less kernel called from Python (numba would call a null pointer: the
    process dies) or a twin that is not the kernel's code."""
    #  index:  0 ........ 11 | 12 ....... 23
    #  mover:  15            |
    #  opp:                  | 15
    board = start_board()
    board[0], board[5] = 13, 2          # two of the mover's checkers moved to index 5
    out = np.zeros(24, dtype=np.int8)
    flip(board, out)
    assert out[0] == 15 and out[12] == -13 and out[17] == -2 and np.count_nonzero(out) == 3
    assert on_board(board) == 15 and opp_on_board(board) == 15


def test_a_twin_is_cached_under_its_own_name_and_entries_keep_numbas_dispatcher():
    """Would catch a twin cached under the kernel's own name (numba would then load the
    wrapper-less code for a Python call) and an entry point compiled without its wrapper."""
    assert type(flip) is KernelDispatcher
    twin = flip.python_twin()
    assert twin is flip.python_twin()                       # made once per process
    assert twin.py_func.__qualname__ == "flip_from_python"
    assert twin.py_func.__code__ is flip.py_func.__code__   # the same code, not a copy of it
    assert not twin.targetoptions.get("no_cpython_wrapper")
    assert flip.targetoptions["no_cpython_wrapper"] and flip.targetoptions["_nrt"] is False
    assert type(play_chunk) is CPUDispatcher
    assert not play_chunk.targetoptions.get("no_cpython_wrapper")


def test_every_kernel_is_made_by_the_jit_module():
    """Would catch a kernel decorated with a plain `njit(cache=True)`: it compiles both wrappers
    (a C callback no one uses, and the Python one) into every cold command that needs it."""
    plain = []
    for info in pkgutil.iter_modules(nardy_cli.kernels.__path__):
        module = importlib.import_module(f"nardy_cli.kernels.{info.name}")
        for name, obj in vars(module).items():
            if isinstance(obj, CPUDispatcher) and obj.__module__ == module.__name__:
                if not obj.targetoptions.get("no_cfunc_wrapper"):
                    plain.append(f"{info.name}.{name}")
    assert plain == []
