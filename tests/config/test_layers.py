"""Imports point one way: an app may import the apps below it, never one above it.

    lib <- laws <- trees <- clubs <- rulings <- scores <- archive <- training, transfer

``config`` wires everything together and may import any app. A lazy model reference in a
string (``"training.TrainingCase"`` on ``Ruling``) is not an import and is allowed; it is the
one place the database points upward (docs/DEVELOPING.md says why). Migrations are left out:
Django writes their dependencies.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS: list[set[str]] = [
    {"lib"},
    {"laws"},
    {"trees"},
    {"clubs"},
    {"rulings"},
    {"scores"},
    {"archive"},
    {"training", "transfer"},
]
RANK = {app: rank for rank, apps in enumerate(LAYERS) for app in apps}


def imported_apps(path: Path) -> set[tuple[str, int]]:
    """Every project app that ``path`` imports, with the line of the import."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[tuple[str, int]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found.update(
            (name.split(".")[0], node.lineno) for name in names if name.split(".")[0] in RANK
        )
    return found


def app_modules() -> list[Path]:
    return sorted(
        path
        for app in RANK
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts
    )


def upward_imports(path: Path) -> list[str]:
    own = path.relative_to(ROOT).parts[0]
    return [
        f"{path.relative_to(ROOT)}:{line} imports {app} (layer {RANK[app]} > {RANK[own]})"
        for app, line in sorted(imported_apps(path))
        if RANK[app] > RANK[own] or (RANK[app] == RANK[own] and app != own)
    ]


@pytest.mark.parametrize("path", app_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_imports_an_app_above_it(path: Path):
    assert upward_imports(path) == []


def test_the_check_sees_an_upward_import(tmp_path, monkeypatch):
    """The rule itself: a module of ``laws`` importing ``rulings`` is reported, a module of
    ``rulings`` importing ``laws`` is not, and siblings on one layer may not import each
    other."""
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    for app, source in {
        "laws": "from rulings.models import Ruling\nimport lib.text\n",
        "rulings": "from laws import keys\n",
        "training": "import transfer.bundles\n",
    }.items():
        (tmp_path / app).mkdir()
        (tmp_path / app / "x.py").write_text(source)
    assert upward_imports(tmp_path / "laws" / "x.py") == [
        "laws/x.py:1 imports rulings (layer 4 > 1)"
    ]
    assert upward_imports(tmp_path / "rulings" / "x.py") == []
    assert upward_imports(tmp_path / "training" / "x.py") == [
        "training/x.py:1 imports transfer (layer 7 > 7)"
    ]


@pytest.mark.parametrize("path", app_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_application_module_is_over_500_lines(path: Path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= 500, f"{path.relative_to(ROOT)} has {lines} lines: split it along its seams"
