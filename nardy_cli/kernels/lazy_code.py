"""Machine code only for what is called: numba's code libraries emit on demand.

numba makes each compiled function a code library.  At the end of its compile
it links in its callees' libraries, optimizes the whole and emits machine code
for all of it, whether or not anything will ever call that code.  A kernel
(jit.py) has no wrapper, so nothing outside compiled code calls it: only its
callers use its library, and they use the LLVM module, never the machine code.
So every level of the game loop (play_chunk, play_one_game, take_turn, the
picker, turn_scores) emitted the code of all the levels below it once more,
and every kernel cached that code besides the module its callers link.

`LazyCodeLibrary` emits when machine code is first needed: the address of a
function the library defines (an entry's Python wrapper, a `cfunc`) or its
object code for the cache.  A kernel that nothing has called is cached as its
linkable module only (`LINK_ONLY`), which is all a later caller reads from it.
The code that runs is unchanged: each entry's library is optimized and emitted
exactly as before.  The environment pointers numba sets when a function is
compiled or loaded are set when its code is emitted instead.

A library is also finalized (linked and optimized) only when something links,
caches or calls it: numba compiles an inlined overload (the pickers) whole and
never uses its library.  And a library links its callees that are *stages*
(`jit.kernel(stage=True)`) after its own optimization, not before, so LLVM does
not optimize a stage's code again in every caller.

This subclasses numba's internals, so it is installed only on the numba versions
it was written and tested for (`TESTED`); on others numba compiles as it always did.
"""

from __future__ import annotations

import weakref

from llvmlite import binding as ll
from numba.core import codegen
from numba.core.environment import lookup_environment

TESTED = ("0.68",)              # numba versions (major.minor) whose internals this follows
INSTALLED = False               # whether `install` put the lazy libraries in place
STAGES: set[str] = set()        # libraries (kernels' qualnames) linked into callers as they are
LINK_ONLY = "nardy-link-only"   # a cached library's kind: its linkable module, no machine code
_ENV_PREFIX = "_ZN08NumbaEnv"


class LazyCodeLibrary(codegen.JITCodeLibrary):
    """A JIT code library that emits its machine code only when something needs it."""

    _emitted = False
    _from_object = False    # rebuilt from cached object code: `_shared_module` holds its functions

    def finalize(self):
        """Link the callees, optimize, then link the stages (already optimized) as they are."""
        codegen.require_global_compiler_lock()
        self._codegen._check_llvm_bugs()
        self._raise_if_finalized()
        seen, stages = set(), []
        for library in self._linking_libraries:
            if library in seen:
                continue
            seen.add(library)
            self._reload_init.update(library._reload_init)
            if library.name in STAGES:
                stages.append(library)
            else:
                self._final_module.link_in(library._get_module_for_linking(), preserve=True)
        self._optimize_final_module()
        for library in stages:
            self._final_module.link_in(library._get_module_for_linking(), preserve=True)
        self._final_module.verify()
        self._finalize_final_module()

    def _finalize_final_module(self):
        """Make the module linkable (finalized) without emitting machine code."""
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._final_module._CPUCodeLibrary__library = weakref.proxy(self)   # numba's cache hooks
        self._finalized = True

    def _defined_module(self):
        """The module holding this library's functions (a cached one's is its linkable module)."""
        return self._shared_module if self._from_object else self._final_module

    def _emit(self):
        """Emit the machine code now (once), then point its environments at their objects."""
        if self._emitted:
            return
        self._emitted = True
        cleanup = self._codegen._add_module(self._final_module)
        if cleanup:
            weakref.finalize(self, cleanup)
        self._finalize_specific()
        module = self._defined_module()
        if self._from_object:
            self._codegen._engine._load_defined_symbols(module)
        for gv in module.global_variables:
            env = lookup_environment(gv.name) if gv.name.startswith(_ENV_PREFIX) else None
            if env is not None:
                self._codegen.set_env(gv.name, env)

    def get_pointer_to_function(self, name):
        """The address of `name`, finalizing and emitting first; 0 (and neither) if this library
        does not define it (a kernel's absent wrapper)."""
        if not _defines(self._defined_module(), name):
            return 0
        self._ensure_finalized()
        self._emit()
        return self._codegen._engine.get_function_address(name)

    def _get_compiled_object(self):
        """The object code (emitting it first if need be)."""
        self._emit()
        return super()._get_compiled_object()

    def serialize_using_object_code(self):
        """The cached form: object code if emitted, else the linkable module alone."""
        self._ensure_finalized()
        if not self._emitted:
            return (self.name, LINK_ONLY, self._get_module_for_linking().as_bitcode())
        return super().serialize_using_object_code()

    @classmethod
    def _unserialize(cls, codegen_, state):
        """Rebuild a cached library, unemitted until its code is needed."""
        name, kind, data = state
        if kind not in (LINK_ONLY, "object"):
            return super()._unserialize(codegen_, state)
        self = codegen_.create_library(name)
        self.enable_object_caching()
        if kind == "object":
            object_code, data = data
            self._set_compiled_object(object_code)
            self._from_object = True
            self._shared_module = ll.parse_bitcode(data)
        else:
            self._final_module = self._shared_module = ll.parse_bitcode(data)
        self._finalize_final_module()
        return self


def _defines(module, name: str) -> bool:
    """True if `module` holds a definition (not a declaration) of function `name`."""
    try:
        return not module.get_function(name).is_declaration
    except NameError:
        return False


class LazyJITCodegen(codegen.JITCPUCodegen):
    """numba's JIT codegen whose environment pointers wait for their code to be emitted."""

    def set_env(self, env_name, env):
        """Point `env_name` at `env` if its code is emitted (else `LazyCodeLibrary._emit` will)."""
        if self._engine.get_global_value_address(env_name):
            super().set_env(env_name, env)


def install() -> None:
    """Make numba's CPU target create lazy libraries, on a `TESTED` numba (idempotent); sets
    `INSTALLED`."""
    global INSTALLED
    import numba
    from numba.core.registry import cpu_target
    if ".".join(numba.__version__.split(".")[:2]) not in TESTED:
        return
    gen = cpu_target.target_context.codegen()
    if type(gen) is codegen.JITCPUCodegen:
        gen.__class__ = LazyJITCodegen
    gen._library_class = LazyCodeLibrary
    INSTALLED = True
