"""The Lark grammars of the hand-history formats: one `.lark` file per site, and `common.lark`
with what they share (imported with `%import .common (…)`)."""

from importlib.resources import files

PACKAGE = __name__


def grammar_text(name: str) -> str:
    """The text of `grammar/<name>.lark`."""
    return files(__name__).joinpath(f"{name}.lark").read_text(encoding="utf-8")
