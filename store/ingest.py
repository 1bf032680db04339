"""The ingest pipeline that razz parse, razz audit and razz import share.

Its steps: find the files (`razz.store.sources.discover`), cut them into pieces of whole hands
(`read_pieces`), read each piece's hands with the site registry, audit each Razz hand against
its rules and check the hands of a table across hands.
"""

from __future__ import annotations

from razz.parser import sites
from razz.parser.events import Hand
from razz.replay.ruleset import Ruleset, get_ruleset


def ruleset_for(hand: Hand, name: str | None = None) -> Ruleset:
    """The rules a hand is audited against: the one named, else its site's.

    >>> from razz.parser import read_text
    >>> from razz.replay.audit import EXAMPLE
    >>> hand = next(iter(read_text(EXAMPLE)))
    >>> ruleset_for(hand).name, ruleset_for(hand, "cardroom").name
    ('pokerstars', 'cardroom')
    """
    if name is None:
        try:
            name = sites.by_name(hand.header.site).ruleset
        except KeyError:
            name = sites.FALLBACK.ruleset
    return get_ruleset(name)
