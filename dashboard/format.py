"""Text for people: money with its unit, cards with suits, rates, and escaped untrusted text.

>>> money(123, "cent", "USD")
'$1.23'
>>> money(-1230, "chip", None)
'-1,230'
>>> card("Ah")
'A♥'
>>> markdown_literal("**bold**")
'\\\\*\\\\*bold\\\\*\\\\*'
"""

from __future__ import annotations

import math
import re

from razz.parser.amounts import CURRENCY_SYMBOLS

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
_CARD = re.compile(r"^[2-9TJQKA][shdc]$")

# Every character that Streamlit's Markdown gives a meaning to: CommonMark punctuation,
# Streamlit's `:color[…]` / `:material/…:` directives, `$` for LaTeX and `<` for HTML.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|:$~=&\"'^%@/])")


def markdown_literal(text: object) -> str:
    """Escape text so that Markdown (st.markdown, labels, captions) shows it as written."""
    escaped = _MARKDOWN_SPECIAL.sub(r"\\\1", str(text))
    # A newline would start a new Markdown block (a heading, a list…): keep one line.
    return escaped.replace("\r", " ").replace("\n", " ")


def currency_symbol(unit: str, currency: str | None) -> str:
    """The prefix of an amount: `$` for US cents, empty for chips."""
    if unit != "cent":
        return ""
    return CURRENCY_SYMBOLS.get(currency or "", "")


def money(amount: float | int | None, unit: str, currency: str | None) -> str:
    """An amount in the hand's smallest unit as people write it: `$1.23`, `€0.50`, `1,230`."""
    if amount is None or (isinstance(amount, float) and math.isnan(amount)):
        return ""
    sign = "-" if amount < 0 else ""
    value = abs(amount)
    if unit == "cent":
        symbol = currency_symbol(unit, currency)
        text = f"{value / 100:,.2f}"
        if symbol:
            return f"{sign}{symbol}{text}"
        return f"{sign}{text} {currency}" if currency else f"{sign}{text}"
    return f"{sign}{round(value):,}"


def ledger_label(unit: str, currency: str | None) -> str:
    """How a set of comparable amounts is named: `USD`, `EUR`, `chips`."""
    if unit == "cent":
        return currency or "cents"
    return "chips"


def big_bets(value: float | None) -> str:
    """A result in big bets, signed: `+2.50 BB`."""
    if value is None or math.isnan(value):
        return ""
    return f"{value:+,.2f} BB"


def rate(numerator: int, denominator: int) -> str:
    """A rate with the counts behind it: `23.5% (47/200)`; a dash when there is no chance."""
    if denominator == 0:
        return "– (0/0)" if numerator == 0 else f"– ({numerator}/0)"
    return f"{100 * numerator / denominator:.1f}% ({numerator}/{denominator})"


def ratio(numerator: int, denominator: int) -> str:
    """A ratio that may exceed one (aggression factor) with its counts: `1.80 (45/25)`."""
    if denominator == 0:
        return f"∞ ({numerator}/0)" if numerator else "– (0/0)"
    return f"{numerator / denominator:.2f} ({numerator}/{denominator})"


def percent(numerator: int, denominator: int) -> str:
    """A share without its counts: `66.7%`; a dash when there was no chance.

    >>> percent(2, 3), percent(0, 0)
    ('66.7%', '–')
    """
    return "–" if denominator == 0 else f"{100 * numerator / denominator:.1f}%"


def factor(numerator: int, denominator: int) -> str:
    """A ratio without its counts (aggression factor): `2.35`, `∞` with no call, `–` with none.

    >>> factor(47, 20), factor(3, 0), factor(0, 0)
    ('2.35', '∞', '–')
    """
    if denominator == 0:
        return "∞" if numerator else "–"
    return f"{numerator / denominator:.2f}"


def card(code: str) -> str:
    """A card code as people read it: `Ah` → `A♥`; anything unexpected is returned as is."""
    if not _CARD.match(code):
        return code
    return code[0] + SUIT_SYMBOLS[code[1]]


def cards(codes: list[str] | tuple[str, ...]) -> str:
    """Several cards separated by spaces."""
    return " ".join(card(c) for c in codes)


def card_markdown(code: str) -> str:
    """A card as Markdown, red for hearts and diamonds; unknown text is escaped, never styled."""
    if not _CARD.match(code):
        return markdown_literal(code)
    text = card(code)
    return f":red[{text}]" if code[1] in "hd" else f"**{text}**"


def duration(seconds: float) -> str:
    """A session length: `1 h 05 min`, `12 min`."""
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"


def started(at: object, text: object) -> str:
    """When a hand started, in UTC, and as its log writes it when that says something else.

    Rooms write the time their own way (`20:02:11 ET - 2023/04/13`, Merge's `20230414000211`);
    the stored UTC time is the one every room shares.

    >>> from datetime import datetime
    >>> started(datetime(2023, 4, 14, 0, 2, 11), "20230414000211")
    '2023-04-14 00:02:11 UTC (the log: 20230414000211)'
    >>> started(datetime(2023, 4, 14, 0, 2, 11), "2023-04-14 00:02:11")
    '2023-04-14 00:02:11 UTC'
    >>> started(None, "2023/04/13 20:02:11 ET")
    '2023/04/13 20:02:11 ET'
    """
    written = "" if text is None or (isinstance(text, float) and math.isnan(text)) else str(text)
    strftime = getattr(at, "strftime", None)
    if strftime is None or (isinstance(at, float) and math.isnan(at)) or str(at) == "NaT":
        return written
    utc = strftime("%Y-%m-%d %H:%M:%S")
    if not written or written == utc or written == f"{utc} UTC":
        return f"{utc} UTC"
    return f"{utc} UTC (the log: {written})"
