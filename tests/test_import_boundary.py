"""The layers: nothing under engine/ (but engine/view/) or rules/ imports
panda3d or direct, and rules/ never imports engine. Parsed with ast, so a
mention in a comment or a string does not count; an import inside a
function does."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VIEW_ONLY = ("panda3d", "direct")


def imported_modules(source: str) -> list[tuple[int, str]]:
    """(line, module) of every import in the source, at any depth."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) in (
                "import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            out.append((node.lineno, node.args[0].value))
    return out


def top(module: str) -> str:
    return module.split(".")[0]


def files(folder: str, skip: tuple[str, ...] = ()) -> list[Path]:
    base = ROOT / folder
    return sorted(p for p in base.rglob("*.py")
                  if not any(p.is_relative_to(base / s) for s in skip))


def violations(paths, forbidden) -> list[str]:
    bad = []
    for p in paths:
        for line, mod in imported_modules(p.read_text(encoding="utf-8")):
            if top(mod) in forbidden:
                bad.append(f"{p.relative_to(ROOT)}:{line}: imports {mod}")
    return bad


def test_the_checker_sees_imports_and_ignores_comments():
    src = ("# import panda3d\n'''from direct.showbase import ShowBase'''\nimport numpy\n"
           "def f():\n    from direct.showbase.ShowBase import ShowBase\n"
           "    import panda3d.core as p3d\n    importlib.import_module('panda3d.core')\n")
    mods = imported_modules(src)
    assert sorted(mods) == [(3, "numpy"), (5, "direct.showbase.ShowBase"), (6, "panda3d.core"), (7, "panda3d.core")]


def test_there_is_something_to_check():
    assert len(files("engine", skip=("view",))) >= 5
    assert len(files("rules")) >= 3


def test_engine_outside_view_never_imports_panda3d():
    assert violations(files("engine", skip=("view",)), VIEW_ONLY) == []


def test_rules_never_import_panda3d_or_engine():
    assert violations(files("rules"), VIEW_ONLY + ("engine",)) == []


@pytest.mark.parametrize("module", ["engine.scene", "engine.profiles", "engine.validate", "tools.cmd_check"])
def test_scene_modules_load_nothing_heavy(module):
    """Importing the loader pulls in neither panda3d nor trimesh (check budget)."""
    import subprocess
    import sys
    code = (f"import sys, {module}; bad = [m for m in ('panda3d', 'direct', 'trimesh') if m in sys.modules];"
            "print(bad); sys.exit(1 if bad else 0)")
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stdout + res.stderr
