"""Figures and checks of the layering (docs/DESIGN.md, "Layers"): modules and lines per layer,
imports written inside functions, ``Any`` on the Django side, the import cycles among the
project's modules counting imports inside functions, and the size limits of the house.

The layers are written once, in pyproject.toml (the import-linter contract "layers"); this
script and tests/site/test_layers.py read them from there, as `make check`'s lint-imports does.

Usage: ``python scripts/layers_report.py`` prints the figures as JSON; ``--list`` lists the
imports written inside functions; ``--check`` (run by ``make check``) exits 1, saying why, on an
import cycle, an import inside a function that `ALLOWED_INSIDE_FUNCTIONS` does not name, a
module no layer names, or a limit passed (LIMITS). Reads the source with ``ast`` only (imports
nothing of the project), so it runs without Django settings.
"""

from __future__ import annotations

import ast
import json
import sys
import tomllib
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "tournaments", "ddz_site")

# The size limits of the house: modules in one folder of app code (migrations and management
# commands aside), lines in one module and in one function (the engine keeps its long parsers).
LIMITS = {"modules_per_folder": 15, "lines_per_module": 600, "lines_per_function": 80}
LIMITS_EXEMPT = ("games/engine/",)


def _importlinter() -> dict:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)["tool"]["importlinter"]


def _contract(contract_id: str) -> dict:
    for contract in _importlinter()["contracts"]:
        if contract["id"] == contract_id:
            return contract
    raise LookupError(f"pyproject.toml has no import-linter contract {contract_id!r}")


def layers() -> list[list[str]]:
    """The packages of each layer, bottom first, as the contract "layers" writes them."""
    rows = _contract("layers")["layers"]
    split = [[p.strip() for p in row.replace(":", "|").split("|")] for row in rows]
    return list(reversed(split))


# The pure modules: no Django, no database (the contract "pure-no-django").
PURE = tuple(_contract("pure-no-django")["source_modules"])

# The imports a module may write inside a function, by (module, imported module), each with
# the reason Django requires it there. Nothing else is imported inside a function.
ALLOWED_INSIDE_FUNCTIONS = {
    ("tournaments.apps", "tournaments.tasks"): "AppConfig.ready: the tasks import models",
    ("tournaments.apps", "tournaments"): "AppConfig.ready: `from tournaments import tasks`",
    ("tournaments.apps", "tournaments.core.audit"): "AppConfig.ready: audit imports models",
    ("tournaments.apps", "django.db.models.signals"): "AppConfig.ready: the signal is connected",
}


def project_modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            if "migrations" in parts:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def layer_of(module: str) -> str | None:
    """The layer naming `module` or a package holding it (the longest name), as
    "<number> <packages>" counted from the bottom; None when no layer names it."""
    best: tuple[int, str] | None = None
    for number, row in enumerate(layers(), start=1):
        for package in row:
            inside = module == package or module.startswith(package + ".")
            if inside and (best is None or len(package) > best[0]):
                best = (len(package), f"{number:02d} {' | '.join(row)}")
    return best[1] if best else None


def unplaced(known: dict[str, Path]) -> list[str]:
    """The modules of the apps that no layer names (the roots' own __init__ aside)."""
    return sorted(m for m in known if m not in PACKAGES and layer_of(m) is None)


def limits_passed(known: dict[str, Path], root: Path = ROOT) -> list[str]:
    """Every place past LIMITS: a folder of too many modules, a module or function too long."""
    problems = []
    folders: dict[Path, int] = defaultdict(int)
    for path in known.values():
        rel = path.relative_to(root).as_posix()
        if rel.startswith(LIMITS_EXEMPT):
            continue
        if "/management/" not in rel:
            folders[path.parent] += path.name != "__init__.py"
        text = path.read_text()
        lines = len(text.splitlines())
        if lines > LIMITS["lines_per_module"]:
            problems.append(f"{rel}: {lines} lines (at most {LIMITS['lines_per_module']})")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > LIMITS["lines_per_function"]:
                    problems.append(
                        f"{rel}:{node.lineno}: {node.name} has {length} lines"
                        f" (at most {LIMITS['lines_per_function']})"
                    )
    for folder, count in folders.items():
        if count > LIMITS["modules_per_folder"]:
            rel = folder.relative_to(root).as_posix()
            problems.append(f"{rel}/: {count} modules (at most {LIMITS['modules_per_folder']})")
    return sorted(problems)


def _resolve(module: str, node: ast.ImportFrom | ast.Import, known: dict[str, Path]) -> list[str]:
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            is_pkg = known.get(module, Path()).name == "__init__.py"
            pkg = module.split(".") if is_pkg else module.split(".")[:-1]
            pkg = pkg[: len(pkg) - (node.level - 1)]
            base = ".".join(pkg + ([base] if base else []))
        names = [base] + [f"{base}.{alias.name}" for alias in node.names]
    targets = []
    for name in names:
        # the longest project module that the name is, or is inside
        parts = name.split(".")
        while parts and ".".join(parts) not in known:
            parts.pop()
        if parts:
            targets.append(".".join(parts))
    return targets


def _in_type_checking(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If):
            test = node.test
            if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
                isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
            ):
                return True
    return False


def imports_of(module: str, path: Path, known: dict[str, Path]):
    """(target, line, inside_function) for every import of a project module, leaving out those
    under ``if TYPE_CHECKING:`` (they never run)."""
    tree = ast.parse(path.read_text(), str(path))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if _in_type_checking(node, parents):
            continue
        inside, up = False, node
        while up in parents:
            up = parents[up]
            if isinstance(up, ast.FunctionDef | ast.AsyncFunctionDef):
                inside = True
                break
        for target in _resolve(module, node, known):
            if target != module and not module.startswith(target + "."):
                out.append((target, node.lineno, inside))
    return out


def function_level_imports(known: dict[str, Path]) -> list[tuple[str, int, str]]:
    """Every import statement inside a function, project or not: (module, line, statement)."""
    return sorted({(m, line, text) for m, line, text, _target in _inside_functions(known)})


def _inside_functions(known: dict[str, Path]) -> list[tuple[str, int, str, str]]:
    found = []
    for module, path in known.items():
        tree = ast.parse(path.read_text(), str(path))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Import):
                    targets = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom):
                    targets = [("." * node.level) + (node.module or "")]
                else:
                    continue
                for target in targets:
                    found.append((module, node.lineno, ast.unparse(node), target))
    return found


def refused_inside_functions(known: dict[str, Path]) -> list[str]:
    """The imports inside functions that `ALLOWED_INSIDE_FUNCTIONS` does not name."""
    return sorted(
        {
            f"{module}:{line}: {text}"
            for module, line, text, target in _inside_functions(known)
            if (module, target) not in ALLOWED_INSIDE_FUNCTIONS
        }
    )


def graph(known: dict[str, Path]) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = defaultdict(set)
    for module, path in known.items():
        for target, _line, _inside in imports_of(module, path, known):
            edges[module].add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in list(edges):
        if v not in index:
            visit(v)
    return out


def any_count(path: Path) -> tuple[int, int, int]:
    """(``Any`` used as a name, ``actor: Any`` / ``user: Any`` parameters, ``type: ignore``)."""
    text = path.read_text()
    tree = ast.parse(text)
    names = sum(
        1
        for n in ast.walk(tree)
        if (isinstance(n, ast.Name) and n.id == "Any")
        or (isinstance(n, ast.Attribute) and n.attr == "Any")
    )
    actors = sum(
        1
        for n in ast.walk(tree)
        if isinstance(n, ast.arg)
        and n.arg in ("actor", "user", "by")
        and n.annotation is not None
        and "Any" in ast.unparse(n.annotation)
    )
    return names, actors, text.count("type: ignore")


def report(with_cycles: bool = True) -> dict:
    known = project_modules()
    per_layer: dict[str, dict[str, int]] = defaultdict(lambda: {"modules": 0, "lines": 0})
    anys = actors = ignores = 0
    for module, path in known.items():
        layer = per_layer[layer_of(module) or "unplaced"]
        layer["modules"] += 1
        layer["lines"] += len(path.read_text().splitlines())
        if not any(module == p or module.startswith(p + ".") for p in PURE):
            a, b, c = any_count(path)
            anys, actors, ignores = anys + a, actors + b, ignores + c
    inside = function_level_imports(known)
    result = {
        "layers": dict(sorted(per_layer.items())),
        "function_level_imports": len(inside),
        "any_django_side": anys,
        "actor_any": actors,
        "type_ignore_django_side": ignores,
    }
    if with_cycles:
        result["cycles"] = cycles(graph(known))
    return result


if __name__ == "__main__":
    data = report()
    if "--check" in sys.argv:
        problems = [
            f"import inside a function: {x}" for x in refused_inside_functions(project_modules())
        ]
        problems += [f"import cycle: {' -> '.join(c)}" for c in data["cycles"]]
        problems += [f"in no layer of pyproject.toml: {m}" for m in unplaced(project_modules())]
        problems += [f"past a limit: {x}" for x in limits_passed(project_modules())]
        for problem in problems:
            print(problem, file=sys.stderr)
        sys.exit(1 if problems else 0)
    if "--list" in sys.argv:
        for module, line, text in function_level_imports(project_modules()):
            print(f"{module}:{line}: {text}")
    else:
        print(json.dumps(data, indent=1))
