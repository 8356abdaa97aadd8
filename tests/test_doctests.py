"""The doctests of every module, run by the module's installed name.

pytest's --doctest-modules would import server/x.py as ``server.x``, a second
copy of the code beside ``boardroom.server.x``. Here each module of
``boardroom.shared``, ``boardroom.server`` and ``boardroom.client`` whose source
has an example is imported by its real name and its examples run, with the
flags pytest's doctests ran with (ELLIPSIS, pytest's default).

The examples of the engine and of its benchmarks search (``search``, ``solve``,
``analyse_game``, a bench's match): their modules ask for the compiled solver
ready first (``compiled_solver_ready``), as the engine's own tests do, so that
they stand alone, whatever ran before them; the others never load it.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

PACKAGES = ("boardroom.shared", "boardroom.server", "boardroom.client")
SEARCHING = ("boardroom.shared.engine", "boardroom.client.bench")
"""The packages whose examples run the compiled solver (as a name or its prefix)."""


def runs_the_solver(name: str) -> bool:
    """Whether module ``name``'s examples may search, and so want the solver ready."""
    return any(name == package or name.startswith(package + ".") for package in SEARCHING)


def modules_with_examples() -> list[str]:
    """Every module of the packages whose source holds ``>>>``, by name (the
    packages are imported to find their sub-packages; no other module is)."""
    found = []
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        names = [package_name] + [
            info.name
            for info in pkgutil.walk_packages(package.__path__, package_name + ".")
            if not info.name.endswith(".__main__")
        ]
        for name in names:
            spec = importlib.util.find_spec(name)
            if spec is not None and spec.origin and spec.origin.endswith(".py"):
                with open(spec.origin, encoding="utf-8") as source:
                    if ">>>" in source.read():
                        found.append(name)
    return found


@pytest.mark.parametrize("name", modules_with_examples())
def test_the_examples_in_the_docstrings_hold(name: str, request: pytest.FixtureRequest) -> None:
    if runs_the_solver(name):
        request.getfixturevalue("compiled_solver_ready")
    module = importlib.import_module(name)
    tests = [t for t in doctest.DocTestFinder().find(module, name) if t.examples]
    assert tests, f"{name} has >>> in its source but no example doctest finds"
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
