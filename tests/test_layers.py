"""The layering holds (docs/DESIGN.md, "Layers"): no import cycle among the project's modules,
counting the imports written inside functions; no import inside a function but those Django
requires (scripts/layers_report.py's allow-list, each with its reason); the engine imports only
the standard library. Read with ``ast``, so a cycle hidden in a function body is seen too
(import-linter's contracts, run by ``make check``, say the same of the layers)."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("layers_report", ROOT / "scripts/layers_report.py")
assert _spec is not None and _spec.loader is not None
layers = importlib.util.module_from_spec(_spec)
sys.modules["layers_report"] = layers
_spec.loader.exec_module(layers)


def test_no_import_cycle_counting_imports_inside_functions() -> None:
    known = layers.project_modules()
    assert "games.services" in known and "tournaments.standings" in known
    assert layers.cycles(layers.graph(known)) == []


def test_the_cycle_finder_sees_a_cycle_hidden_in_a_function() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert layers.cycles(edges) == [["a", "b", "c"]]


def test_no_import_inside_a_function_but_those_django_requires() -> None:
    assert layers.refused_inside_functions(layers.project_modules()) == []


def test_every_allowed_import_inside_a_function_says_why() -> None:
    for reason in layers.ALLOWED_INSIDE_FUNCTIONS.values():
        assert len(reason) > 10


def test_the_engine_imports_only_the_standard_library() -> None:
    found = set()
    for path in sorted((ROOT / "games/engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    outside = {name for name in found if name not in sys.stdlib_module_names}
    # `games.engine` imports itself by its absolute name in places; nothing else of games.
    assert outside <= {"games"}, outside
    for path in sorted((ROOT / "games/engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("games"):
                assert node.module.startswith("games.engine"), (path, node.module)
