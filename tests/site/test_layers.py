"""The layering holds (docs/DESIGN.md, "Layers"): every module sits in a layer of the one
contract in pyproject.toml; no import cycle among the project's modules, counting the imports
written inside functions; no import inside a function but those Django requires
(scripts/layers_report.py's allow-list, each with its reason); nothing in games/ imports
tournaments; the engine imports only the standard library; the house keeps its size limits.
Read with ``ast``, so a cycle hidden in a function body is seen too (import-linter, run by
``make check``, checks the same contract's direction)."""

from __future__ import annotations

import ast
import importlib.util
import sys

from tests.paths import ROOT_DIR

ROOT = ROOT_DIR
_spec = importlib.util.spec_from_file_location("layers_report", ROOT / "scripts/layers_report.py")
assert _spec is not None and _spec.loader is not None
layers = importlib.util.module_from_spec(_spec)
sys.modules["layers_report"] = layers
_spec.loader.exec_module(layers)


def test_no_import_cycle_counting_imports_inside_functions() -> None:
    known = layers.project_modules()
    assert "tournaments.tables.submission" in known and "tournaments.standings" in known
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


def test_every_module_sits_in_a_layer_of_the_one_contract() -> None:
    assert layers.unplaced(layers.project_modules()) == []


def test_a_module_outside_every_layer_is_found() -> None:
    assert layers.layer_of("tournaments.notify.sms") is None
    assert layers.layer_of("tournaments.standings.teams") == layers.layer_of(
        "tournaments.standings"
    )


def test_the_layers_go_from_the_engine_up_to_the_doors() -> None:
    rows = layers.layers()
    assert rows[0] == ["games.engine"]
    assert "tournaments.web" in rows[-1] and "tournaments.api" in rows[-1]
    below = [package for row in rows[:-1] for package in row]
    # the event's services sit above the games' own modules, never below them
    assert below.index("games.steps") < below.index("tournaments.tables")


def test_nothing_in_games_imports_tournaments() -> None:
    known = layers.project_modules()
    edges = layers.graph(known)
    upward = sorted(
        f"{module} -> {target}"
        for module, targets in edges.items()
        if module.split(".")[0] == "games"
        for target in targets
        if target.split(".")[0] == "tournaments"
    )
    assert upward == []


def test_the_house_keeps_its_size_limits() -> None:
    # At most 15 modules in a folder of app code, 600 lines in a module and 80 in a function
    # (the engine keeps its long parsers; migrations and commands are not counted as modules).
    assert layers.limits_passed(layers.project_modules()) == []


def test_the_limits_see_a_long_function(tmp_path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(90))
    path = tmp_path / "long.py"
    path.write_text(f"def long() -> None:\n{body}\n")
    problems = layers.limits_passed({"tournaments.long": path}, root=tmp_path)
    assert problems == ["long.py:1: long has 91 lines (at most 80)"]
