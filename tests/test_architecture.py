"""Hold the import rules of STYLE.md: imports point down, each library lives in one place."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "grill"

# layer of each top-level module or package; a module may import only from lower layers or its own
LAYERS = {
    "cli": 5,
    "ui": 4,
    "report": 4,
    "export": 4,
    "calibration": 4,
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
}


def _modules() -> list[tuple[str, Path]]:
    out = []
    for path in SRC.rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[0] in ("__init__", "__main__"):
            continue
        out.append((parts[0], path))
    return out


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


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
