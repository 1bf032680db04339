"""The examples in the docstrings of the package run and give what they say."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

# The dashboard's pages run Streamlit code on import, so they are left out.
PACKAGES = (
    "razz", "razz.commands", "razz.grammar", "razz.parser", "razz.parser.sites", "razz.replay",
    "razz.simulate", "razz.store", "razz.analysis",
)


def modules() -> list[str]:
    names = set()
    for package in PACKAGES:
        names.add(package)
        path = importlib.import_module(package).__path__
        for info in pkgutil.iter_modules(path, package + "."):
            if not info.ispkg and not info.name.endswith("__main__"):
                names.add(info.name)
    return sorted(names)


def test_every_subpackage_is_found() -> None:
    found = {name.split(".")[1] for name in modules() if "." in name}
    assert {"parser", "replay", "store", "commands"} <= found


@pytest.mark.parametrize("name", modules())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
