"""The registry of sites: which site writes a file, and each site's reader.

`SITES` lists every site the reader knows, in the order they are asked whether they
recognise a file's first line (KingsClub's `#39969356: Limit Razz` before PHH's `#` comment).
Adding a site is its grammar (or XML/TOML reader), its module here, its tests, and one line
in `SITES`. `razz parse`, `razz audit` and `razz import` ask the registry and name no site.

>>> recognise("PokerStars Hand #1: Razz Limit").name, recognise("Winamax Poker - x").name
('PokerStars', 'Winamax')
>>> recognise("hello") is None
True
"""

from __future__ import annotations

from functools import cache

from razz.parser.sites import fulltilt, kingsclub, merge, others, phh, pokerstars, winamax
from razz.parser.sites.base import HandReader, RawHand, Site

SITES: tuple[Site, ...] = (
    pokerstars.SITE,
    fulltilt.SITE,
    winamax.SITE,
    kingsclub.SITE,
    merge.SITE,
    phh.SITE,
    *others.SITES,
)

FALLBACK: Site = pokerstars.SITE
"""Reads the text no site recognises, so that its grammar says what is wrong with it."""

__all__ = [
    "FALLBACK", "SITES", "HandReader", "RawHand", "Site", "by_name", "recognise", "title_of",
]


def recognise(line: str) -> Site | None:
    """The site whose hand histories start with `line`, if any."""
    for site in SITES:
        if site.recognises(line):
            return site
    return None


@cache
def by_name(name: str) -> Site:
    """The site of a hand (`HandHeader.site`); KeyError for a name no site has.

    >>> by_name("PokerStars").title
    'PokerStars'
    """
    for site in SITES:
        if site.name == name:
            return site
    raise KeyError(name)


def title_of(name: str) -> str:
    """The room of a hand as people name it (its site's title), from `HandHeader.site`; a
    name no site has is kept as it is.

    >>> title_of("PokerStars"), title_of("Full Tilt Poker"), title_of("Unknown")
    ('PokerStars', 'Full Tilt Poker', 'Unknown')
    """
    try:
        return by_name(name).title
    except KeyError:  # a hand of a site the registry no longer has: keep its name
        return name


def suffixes() -> tuple[str, ...]:
    """Every file name ending some site writes (for folders and archives), each once."""
    return tuple(dict.fromkeys(s for site in SITES for s in site.suffixes))


def header_bytes() -> tuple[bytes, ...]:
    """How a hand's first line starts at every site that can be cut into pieces, in UTF-8."""
    return tuple(prefix for site in SITES for prefix in site.header_bytes)
