"""The CPU's bit instructions for the kernels: count the set bits, find the lowest one.

numba has no function for either; the bit tricks that stood in for them took
a dozen shifts and masks each (LLVM may recognise some of them).  LLVM's
`ctpop` and `cttz` compile to one instruction each (`popcnt`, `tzcnt`) where
the CPU has them, and to such tricks where it lacks them.  The features'
mobility and blocks, the points a play changed and the enumerator's walk over
the mover's points use them.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a non-negative int64."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


@intrinsic
def trailing_zeros(typingctx, x):
    """Index of the lowest set bit of a non-zero int64."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.int64(types.int64), codegen
