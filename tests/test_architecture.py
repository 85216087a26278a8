"""Hold the import rules of STYLE.md: imports point down, no module imports itself through
others (inside a package too), each library lives in one place and every dependency in
pyproject.toml has its place. Imports are read with `ast`, relative ones resolved, those under
TYPE_CHECKING or inside functions included."""

from __future__ import annotations

import ast
import re
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "grill"

# layer of each top-level module or package; a module may import only from lower layers or its own
LAYERS = {
    "cli": 5,
    "ui": 4,
    "report": 4,
    "export": 4,
    "calibration": 5,  # a tool at the top like cli: it drives the plan as a person would
    "ceiling": 4,  # the calibration's yardstick: replays a log through the simulator's memories
    "session": 3,
    "mock": 3,
    "readiness": 3,
    "personal": 3,
    "memory": 2,
    "simulate": 3,
    "plan": 2,
    "queue": 2,
    "odds": 2,
    "grader": 2,
    "scheduler": 2,
    "store": 2,
    "answers": 1,
    "deck": 2,
    "config": 2,
    "files": 1,
    "model": 1,
    "errors": 0,
    "clock": 1,
    "paths": 0,
}
# third-party libraries and the only places allowed to import them
OWNERS = {
    "typer": {"cli"},
    "fsrs": {"scheduler"},
    "sqlite3": {"store"},
    "yaml": {"deck"},
    "rich": {"cli", "ui", "report"},
    "prompt_toolkit": {"ui"},
    "genanki": {"export"},
    "fsrs_rs_python": {"memory"},
    "rapidfuzz": {"grader"},
    "spellchecker": {"grader"},  # its English word list: no real word is read as a typo
    "platformdirs": {"paths"},
    "numpy": {"memory", "odds"},  # the numeric leaves: memory fitting, score distributions
}


def _modules() -> list[tuple[str, Path]]:
    out = []
    for path in SRC.rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[0] in ("__init__", "__main__"):
            continue
        out.append((parts[0], path))
    return out


def _name(path: Path) -> str:
    """The dotted name of the module in `path`: `grill.mock.engine`, `grill.mock` for its
    `__init__.py`."""
    parts = ("grill", *path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(path): path for path in SRC.rglob("*.py")}


def _from(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    """The module an `from ... import` names, a relative one resolved against `importer`."""
    if node.level == 0:
        return node.module or ""
    base = importer.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _imports(path: Path) -> set[str]:
    """Every module `path` imports, anywhere in it (under TYPE_CHECKING and inside functions
    too): relative imports resolved, and `from grill import personal` read as grill.personal."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    importer, names = _name(path), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = _from(node, importer, path.name == "__init__.py")
            subs = {f"{module}.{a.name}" for a in node.names} & set(MODULES)
            names.update(subs or {module})
            if len(subs) < len(node.names):
                names.add(module)
    return names


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles among `edges` (Tarjan's strongly connected components of two or
    more modules, or a module importing itself), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in edges.get(node, ()):
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def _dependencies() -> list[str]:
    """The distribution names of grill's runtime dependencies, from pyproject.toml."""
    project = tomllib.loads((SRC.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    return [
        re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", d)[0] for d in project["project"]["dependencies"]
    ]  # type: ignore[index]


def _normal(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


def test_every_module_has_a_known_layer() -> None:
    unknown = {top for top, _ in _modules()} - set(LAYERS)
    assert not unknown, f"add these to LAYERS in tests/test_architecture.py: {unknown}"


def test_imports_point_down() -> None:
    problems = []
    for top, path in _modules():
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] != "grill" or len(parts) < 2 or parts[1] == top:
                continue
            if parts[1] in LAYERS and LAYERS[parts[1]] >= LAYERS[top]:
                problems.append(f"{path.relative_to(SRC)} imports {name}")
    assert not problems, problems


def test_each_library_is_imported_in_one_place() -> None:
    problems = []
    for top, path in _modules():
        for name in _imports(path):
            lib = name.split(".")[0]
            if lib in OWNERS and top not in OWNERS[lib]:
                problems.append(f"{path.relative_to(SRC)} imports {lib}")
    assert not problems, problems


def test_every_module_states_its_contract_and_public_surface() -> None:
    for _, path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"{path} has no module docstring"
        names = {
            t.id
            for n in tree.body
            for t in (n.targets if isinstance(n, ast.Assign) else [getattr(n, "target", None)])
            if isinstance(t, ast.Name)
        }
        assert "__all__" in names, f"{path} has no __all__"


def test_no_module_imports_itself_through_others() -> None:
    """Inside packages too: engine -> score -> engine is a cycle even when one side hides
    behind TYPE_CHECKING or in a function, and so is a submodule importing its package's
    facade (`grill.mock.engine` from `grill.mock`, whose __init__ imports the engine)."""
    edges = {name: _imports(path) & set(MODULES) for name, path in MODULES.items()}
    assert not _cycles(edges), _cycles(edges)


def test_every_dependency_has_its_owners() -> None:
    """Each library grill depends on (pyproject.toml) names the modules allowed to import it."""
    modules_of: dict[str, set[str]] = {}
    for module, distributions in packages_distributions().items():
        for distribution in distributions:
            modules_of.setdefault(_normal(distribution), set()).add(module)
    missing = {}
    for dependency in _dependencies():
        public = {m for m in modules_of.get(_normal(dependency), set()) if not m.startswith("_")}
        assert public, f"{dependency} is not installed, or provides no module"
        if public - set(OWNERS):
            missing[dependency] = public - set(OWNERS)
    assert not missing, f"add these to OWNERS in tests/test_architecture.py: {missing}"


def test_the_cycle_finder_finds_cycles() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}, "e": {"a"}}
    assert _cycles(edges) == [["a", "b", "c"], ["d"]]
