"""The web app's layout holds (docs/architecture.md): each feature package imports only the
shared layer and itself, the shared layer imports no feature, and no module imports
itself back through others. Read from the source: every import counts, those inside
functions and under ``TYPE_CHECKING`` too."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

TRAINER = Path(__file__).resolve().parents[2] / "trainer"
FEATURES = ("accounts", "counting", "drills", "home", "live", "practice", "progress", "rules")


def module_name(path: Path) -> str:
    parts = path.relative_to(TRAINER.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for path in TRAINER.rglob("*.py")
        if "migrations" not in path.parts and path.name != "gunicorn.conf.py"
    }


def imported(path: Path, known: set[str]) -> Iterator[str]:
    """The trainer modules ``path`` imports (a name imported from a package counts as its
    module when it is one)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        for name in names:
            if name in known:
                yield name


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: set(imported(path, known)) - {name} for name, path in found.items()}


def feature_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in FEATURES else None


def test_the_features_and_the_shared_layer_are_packages() -> None:
    for package in (*FEATURES, "shared"):
        assert (TRAINER / package / "__init__.py").exists(), package


@pytest.mark.parametrize("feature", FEATURES)
def test_a_feature_imports_no_other_feature(feature: str) -> None:
    crossing = {
        (module, target)
        for module, targets in graph().items()
        if feature_of(module) == feature
        for target in targets
        if feature_of(target) not in (None, feature)
    }
    assert crossing == set()


def test_the_shared_layer_imports_no_feature() -> None:
    crossing = {
        (module, target)
        for module, targets in graph().items()
        if module.startswith("trainer.shared")
        for target in targets
        if feature_of(target) is not None
    }
    assert crossing == set()


def test_no_module_imports_itself_back() -> None:
    edges = graph()
    circles: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        for target in sorted(edges[module]):
            if target == path[0]:
                circles.append([*path, target])
            elif target not in path and target > path[0]:  # each circle once, from its least
                visit(target, [*path, target])

    for start in sorted(edges):
        visit(start, [start])
    assert circles == []
