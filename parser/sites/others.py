"""Sites whose hand histories are recognised but hold no Razz the project knows of (FORMATS.md
§6): their hands are skipped with that reason, never reported as unreadable.

>>> [site.name for site in SITES if site.recognises("***** Hand History for Game 1 *****")]
['PartyPoker']
"""

from __future__ import annotations

import re

from razz.parser.sites.base import HeaderOnly, Site


class Foreign(Site):
    """A site recognised by its first line, whose hands are skipped whole."""

    def __init__(self, name: str, pattern: str) -> None:
        self.name = self.title = name
        self._pattern = re.compile(pattern)

    def recognises(self, line: str) -> bool:
        return self._pattern.match(line) is not None

    def reader(self) -> HeaderOnly:
        return HeaderOnly(self, lambda text: (None, None))

    def complete(self, text: str) -> bool:
        return text.endswith("\n")


SITES = (
    Foreign("PartyPoker", r"(?:\*{5} Hand History|#Game No)"),
    Foreign("Everleaf", r"(?:Everleaf|Game #\d+ starts\.)"),
    Foreign("iPoker", r"(?:iPoker|GAME #\d+:)"),
)
