"""Exact amounts: the text of an amount to an integer in the hand's smallest unit.

>>> to_units("$0.04", 100)
4
>>> to_units("$51125.64", 100)
5112564
>>> to_units("1,145", 1)
1145
"""

from __future__ import annotations

from razz.parser.events import Unit

CURRENCY_BY_SYMBOL = {"$": "USD", "€": "EUR", "£": "GBP", "₹": "INR", "Rs.": "INR"}
CURRENCY_SYMBOLS: dict[str, str] = {"USD": "$", "EUR": "€", "GBP": "£", "INR": "₹", "CAD": "C$"}


class AmountError(ValueError):
    """An amount that cannot be written exactly in the hand's unit."""

    line: int | None = None  # line and column in the hand's text, when known
    column: int | None = None


def currency_symbol(text: str) -> str | None:
    """The currency symbol an amount starts with, if any."""
    if text.startswith("Rs."):
        return "Rs."
    if text and text[0] in "$€£₹":
        return text[0]
    return None


def to_units(text: str, scale: int) -> int:
    """`text` (e.g. "$0.04", "1,145") as an integer number of 1/`scale` of its unit."""
    digits = text
    for i, ch in enumerate(text):
        if ch.isdigit():
            digits = text[i:]
            break
    else:
        raise AmountError(f"no digits in amount {text!r}")
    digits = digits.replace(",", "")
    whole, _, frac = digits.partition(".")
    places = len(str(scale)) - 1
    if len(frac) > places and frac[places:].strip("0"):
        unit = "a cent" if scale == 100 else "a chip"
        raise AmountError(f"amount {text!r} is finer than {unit}")
    frac = frac[:places].ljust(places, "0")
    return int(whole) * scale + (int(frac) if frac else 0)


def format_cents(amount: int, symbol: str) -> str:
    """An amount of cents as PokerStars prints it: whole units lose their decimals.

    >>> format_cents(4, "$"), format_cents(133, "$"), format_cents(200, "$"), format_cents(0, "$")
    ('$0.04', '$1.33', '$2', '$0')
    """
    sign = "-" if amount < 0 else ""
    whole, cents = divmod(abs(amount), 100)
    if cents:
        return f"{sign}{symbol}{whole}.{cents:02d}"
    return f"{sign}{symbol}{whole}"


def amount_text(amount: int, unit: Unit, currency: str | None) -> str:
    """An amount in a hand's unit as a header prints it: `$0.04`, `$2`, `150`.

    >>> amount_text(4, Unit.CENT, "USD"), amount_text(200, Unit.CENT, "EUR")
    ('$0.04', '€2')
    >>> amount_text(50, Unit.CHIP, None)
    '50'

    Amounts in cents of no known currency (KingsClub's, whose header writes `500/1,000`) are
    still written in whole units, not in cents:

    >>> amount_text(50000, Unit.CENT, None), amount_text(12550, Unit.CENT, None)
    ('500', '125.50')
    """
    if unit is not Unit.CENT:
        return str(amount)
    return format_cents(amount, CURRENCY_SYMBOLS.get(currency, "") if currency else "")
