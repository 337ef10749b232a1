"""Import hygiene: importing the library changes no global setting, and modules import in one direction."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "nardy_cli"


def test_importing_every_module_changes_no_matplotlib_setting_and_runs_no_kernel():
    """Catches `matplotlib.use(...)` or an rcParams change at import (it would switch a notebook's backend),
    and a compiled kernel called at import (e.g. validating `START`), which costs every command its start-up."""
    code = """
import importlib, pkgutil, sys
import matplotlib
def snapshot():
    return {k: dict.__getitem__(matplotlib.rcParams, k) for k in matplotlib.rcParams}
before = snapshot()
import nardy_cli
for info in pkgutil.walk_packages(nardy_cli.__path__, "nardy_cli."):
    if info.name != "nardy_cli.__main__":
        importlib.import_module(info.name)
changed = sorted(k for k, v in snapshot().items() if before.get(k) != v)
from numba.core.dispatcher import Dispatcher
ran = sorted(f"{m}.{k}" for m, mod in list(sys.modules.items()) if m.startswith("nardy_cli")
             for k, v in vars(mod).items() if isinstance(v, Dispatcher) and v.signatures)
print(changed, "matplotlib.pyplot" in sys.modules, ran)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[] False []"


def _imports(path: Path, module: str) -> set[str]:
    """The nardy_cli modules `module` imports anywhere in its file (top level or inside functions)."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = module.split(".")[: None if is_package else -1]
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            found.update(f"{base}.{alias.name}" for alias in node.names)
            found.add(base)
    return found


def _import_graph() -> dict[str, set[str]]:
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        modules[name] = path
    return {name: {m for m in _imports(path, name) if m in modules and m != name}
            for name, path in modules.items()}


def _circles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """Groups of modules that reach each other through imports (strongly connected components)."""
    reach = {m: set() for m in graph}
    for start in graph:
        todo = list(graph[start])
        while todo:
            m = todo.pop()
            if m not in reach[start]:
                reach[start].add(m)
                todo.extend(graph[m])
    return {frozenset([m, *(o for o in reach[m] if m in reach[o])]) for m in graph if m in reach[m]}


def test_no_import_circles():
    """Catches two modules that import each other, even through a function-level import
    (`position` importing `notation` inside `__str__` while `notation` imports `position`)."""
    assert _circles(_import_graph()) == set()


def test_every_public_name_of_the_package_loads():
    """Catches a lazily exported name (`nardy_cli.parse_position`) mapped to the wrong module."""
    import nardy_cli
    for name in nardy_cli.__all__:
        assert getattr(nardy_cli, name) is not None, name


def test_layers_import_downwards():
    """Catches a kernel importing Python-side modules (kernels are the bottom layer), or the library
    importing click or a command module (the command line is the top layer; the library never prints)."""
    graph = _import_graph()
    for module, deps in graph.items():
        if module.startswith("nardy_cli.kernels"):
            assert all(d.startswith("nardy_cli.kernels") for d in deps), (module, deps)
        if not module.startswith(("nardy_cli.commands", "nardy_cli.cli", "nardy_cli.__main__")):
            assert not any(d.startswith(("nardy_cli.commands", "nardy_cli.cli")) for d in deps), (module, deps)
    for path in PACKAGE.rglob("*.py"):
        if "commands" not in path.parts and path.name not in ("cli.py", "__main__.py"):
            imported = _imports(path, "nardy_cli.x")
            assert "click" not in imported and not any(m.startswith("click.") for m in imported), path
