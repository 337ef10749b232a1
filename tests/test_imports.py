"""Import hygiene: importing the library changes no global setting, and modules import in one
direction."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "nardy_cli"

# The layers of docs/architecture.md, bottom first: each is a folder of nardy_cli (a tuple: sibling
# folders on one floor).  A module imports only from its own folder and the floors below; siblings
# do not import each other.  Only the package face (`__init__`, `__main__`) stands outside a folder.
LAYERS = ("kernels", "core", "policies", "match", "records", "games", "analysis",
          ("review", "benchmark", "training", "book"), "library", "reports", "serve",
          "commands")
FACE = {"nardy_cli", "nardy_cli.__main__"}


def test_importing_every_module_changes_no_matplotlib_setting_and_runs_no_kernel():
    """Catches `matplotlib.use(...)` or an rcParams change at import (it would switch a notebook's
    backend), and a compiled kernel called at import (e.g. validating `START`), which costs every
    command its start-up."""
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
    """The nardy_cli modules `module` imports anywhere in its file (top level or inside
    functions)."""
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
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(
            ".__init__")
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


def test_only_the_command_line_imports_click():
    """Catches the library importing click (the command line is the top layer; the library never
    prints)."""
    for path in PACKAGE.rglob("*.py"):
        if "commands" not in path.parts and path.name != "__main__.py":
            imported = _imports(path, "nardy_cli.x")
            assert ("click" not in imported
                    and not any(m.startswith("click.") for m in imported)), path


def _floor(module: str) -> int | None:
    """The floor of a module's folder (None for the package face)."""
    if module in FACE:
        return None
    folder = module.split(".")[1]
    for level, names in enumerate(LAYERS):
        if folder in ((names,) if isinstance(names, str) else names):
            return level
    raise AssertionError(f"{module} stands in no layer: put it in a folder of LAYERS")


def test_every_module_stands_in_a_layer_folder():
    """Catches a module left directly under nardy_cli/ or a new folder missing from LAYERS (it
    would go unchecked)."""
    loose = [m for m in _import_graph() if m not in FACE and m.count(".") < 1]
    assert loose == []
    for module in _import_graph():
        _floor(module)


def test_each_folder_imports_only_from_the_floors_below():
    """Catches an upward import (e.g. the games layer importing `analysis.rollout`, or `core`
    importing a report module), an import between sibling folders, and any import of the command
    line from the library; a lazy import inside a function counts."""
    wrong = []
    for module, deps in _import_graph().items():
        here = _floor(module)
        for dep in deps:
            if dep == "nardy_cli":           # the package face: `from .. import __version__`
                continue
            there = _floor(dep)
            same = module.split(".")[1] == dep.split(".")[1]
            if here is not None and there is not None and not same and there >= here:
                wrong.append(f"{module} imports {dep}")
    assert wrong == []


def test_the_layer_test_sees_a_lazy_upward_import(tmp_path):
    """Catches a layer check that skips imports inside functions."""
    module = tmp_path / "x.py"
    module.write_text("def f():\n    from ..analysis.rollout import rollout\n")
    assert "nardy_cli.analysis.rollout" in _imports(module, "nardy_cli.core.x")
