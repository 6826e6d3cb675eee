"""The change log names a step taken back (``entry.undo``) and a take-back asked for
(``entry.undo_asked``) in people's words, as every other action the code records, including
the ones given to audit_record through a variable."""

from __future__ import annotations

import ast

import pytest
from django.utils import translation

from tests.paths import ROOT_DIR
from tournaments.core.labels import AUDIT_ACTIONS, action_label


def _actions_through_a_variable() -> set[str]:
    """The dotted names assigned to ``action`` in a function that calls audit_record with
    ``action=action``."""
    found: set[str] = set()
    for path in [*(ROOT_DIR / "games").rglob("*.py"), *(ROOT_DIR / "tournaments").rglob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            passes = any(
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == "audit_record"
                and any(k.arg == "action" and isinstance(k.value, ast.Name) for k in node.keywords)
                for node in ast.walk(function)
            )
            if not passes:
                continue
            for node in ast.walk(function):
                if (
                    isinstance(node, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "action" for t in node.targets)
                    and isinstance(node.value, ast.Constant)
                    and isinstance(node.value.value, str)
                ):
                    found.add(node.value.value)
    return found


def test_the_undo_actions_are_found_by_the_scan() -> None:
    assert {"entry.undo", "entry.undo_asked"} <= _actions_through_a_variable()


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_actions_given_through_a_variable_have_labels(language: str) -> None:
    for action in sorted(_actions_through_a_variable()):
        assert action in AUDIT_ACTIONS, f"{action} has no label"
        with translation.override(language):
            assert action_label(action) != action
