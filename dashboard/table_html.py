"""The replayer's pictures as HTML: the table at one step, and the hand's text beside it.

Cards are drawn as cards in the four-colour deck (♠ black, ♥ red, ♦ blue, ♣ green); a card
whose back is all that the log shows is drawn face down; a down card that the log shows (the
hero's own, or one shown down) is drawn face up on a tinted background and marked "down".

Every string that comes from a log (names, cards, chat, the hand's text) goes through
`html.escape`; the only markup is the fixed markup written here, with styles scoped under
`.rzt` so that they touch nothing else on the page.

>>> "&lt;img" in seat_name("<img src=x>") and "<img" not in seat_name("<img src=x>")
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from html import escape

from razz.dashboard.hand_steps import STREET_NAMES, Card, Seat, Step

SUITS = {"s": ("♠", "spades"), "h": ("♥", "hearts"), "d": ("♦", "diamonds"),
         "c": ("♣", "clubs")}
RANKS = {"T": "10"}
RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}
_RANK_CHARS = set("23456789TJQKA")

STYLE = """
.rzt { font-family: "Source Sans 3", "Source Sans Pro", system-ui, sans-serif; color: #1d1d1f; }
.rzt .felt { position: relative; height: 500px; margin: 4px 0 8px; }
.rzt .felt::before { content: ""; position: absolute; inset: 9% 7%; border-radius: 50%;
  background: radial-gradient(ellipse at center, #2f8a55 0%, #1d6b3f 70%, #155432 100%);
  border: 10px solid #6b4a2b; box-shadow: inset 0 0 24px rgba(0,0,0,.45); }
.rzt .center { position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%);
  text-align: center; color: #fff; text-shadow: 0 1px 2px rgba(0,0,0,.6); }
.rzt .center .street { font-size: 14px; opacity: .9; }
.rzt .center .pot { font-size: 22px; font-weight: 700; }
.rzt .center .community { margin-top: 6px; font-size: 12px; }
.rzt .seat { position: absolute; transform: translate(-50%, -50%); width: 176px;
  background: #fff; border: 1px solid #c9c9cf; border-radius: 10px; padding: 4px 6px 5px;
  box-shadow: 0 2px 6px rgba(0,0,0,.25); font-size: 13px; line-height: 1.25; }
.rzt .seat.acting { border: 2px solid #f2b705; box-shadow: 0 0 0 3px rgba(242,183,5,.45); }
.rzt .seat.folded { background: #ececee; color: #777; }
.rzt .seat.folded .cards { opacity: .45; }
.rzt .seat .name { font-weight: 700; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; }
.rzt .seat .tag { font-size: 10px; font-weight: 700; color: #fff; background: #5b6fd6;
  border-radius: 4px; padding: 0 4px; margin-left: 4px; vertical-align: 1px; }
.rzt .seat .stack { color: #333; font-variant-numeric: tabular-nums; }
.rzt .seat .act { font-size: 12px; color: #444; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; min-height: 15px; }
.rzt .seat .won { color: #137333; font-weight: 700; }
.rzt .seat .eq { display: flex; align-items: center; gap: 5px; font-size: 12px;
  font-variant-numeric: tabular-nums; color: #1d1d1f; }
.rzt .seat .eq .bar { flex: 1; height: 6px; background: #e3e3e8; border-radius: 3px;
  overflow: hidden; }
.rzt .seat .eq .bar span { display: block; height: 100%; background: #5b6fd6; }
.rzt .cards { display: flex; gap: 2px; margin: 3px 0 2px; min-height: 32px; }
.rzt .card { width: 22px; height: 32px; border-radius: 4px; border: 1px solid #9a9aa2;
  background: #fff; display: flex; flex-direction: column; align-items: center;
  justify-content: center; font-weight: 700; font-size: 12px; line-height: 1.05;
  box-sizing: border-box; }
.rzt .card.down { background: #e3e9f7; border-style: dashed; border-color: #5b6fd6; }
.rzt .card.back { border: 1px solid #7d1f2a; background-color: #a32638;
  background-image: repeating-linear-gradient(45deg, rgba(255,255,255,.18) 0 2px,
  transparent 2px 5px); }
.rzt .s-s { color: #111; } .rzt .s-h { color: #d0021b; } .rzt .s-d { color: #0b5cd5; }
.rzt .s-c { color: #108a2f; }
.rzt .bet { position: absolute; transform: translate(-50%, -50%); background: #fff8d6;
  border: 1px solid #c9a227; border-radius: 12px; padding: 1px 8px; font-size: 12px;
  font-weight: 700; white-space: nowrap; }
.rzt .now { border-left: 4px solid #5b6fd6; background: #f3f5fd; padding: 6px 10px;
  border-radius: 4px; font-size: 15px; }
.rzt .now .where { color: #555; font-size: 13px; }
.rzt .finding { margin-top: 6px; padding: 6px 10px; border-radius: 4px; font-size: 14px; }
.rzt .finding.error { background: #fde2e1; border-left: 4px solid #c62828; }
.rzt .finding.warning { background: #fff1d6; border-left: 4px solid #e08600; }
.rzt .finding .rule { font-weight: 700; }
.rzt .note { color: #555; font-size: 13px; margin-top: 4px; }
.rzt .legend { color: #666; font-size: 12px; margin-top: 6px; }
.rzt .legend .card { display: inline-flex; vertical-align: middle; width: 16px; height: 22px;
  font-size: 9px; }
.rzt .history { font-family: "Source Code Pro", ui-monospace, monospace; font-size: 12.5px;
  line-height: 1.45; border: 1px solid #e3e3e8; border-radius: 6px; background: #fafafa; }
.rzt .history .ln { display: grid; grid-template-columns: 3.6em 1.2em 1fr; padding: 0 6px; }
.rzt .history .ln .n { color: #8a8a92; text-align: right; padding-right: 6px; }
.rzt .history .ln .t { white-space: pre-wrap; overflow-wrap: anywhere; }
.rzt .history .ln.cur { background: #fff3b0; }
.rzt .history .ln.flag .m { color: #c62828; font-weight: 700; }
.rzt .history .ln.flag .t { color: #9b1c1c; }
"""


def card(c: Card) -> str:
    """One card: its face, or its back when the log does not show it.

    >>> card(Card("Td", down=False))
    '<span class="card s-d" title="10 of diamonds">10<span>♦</span></span>'
    >>> card(Card("", down=True))
    '<span class="card back" title="a down card"></span>'
    """
    if not c.code:
        return '<span class="card back" title="a down card"></span>'
    rank, suit = c.code[:-1], c.code[-1:]
    if suit not in SUITS or rank not in _RANK_CHARS:  # not a card code: shown as text
        return f'<span class="card">{escape(c.code)}</span>'
    symbol, name = SUITS[suit]
    shown = RANKS.get(rank, rank)
    what = f"{RANK_NAMES.get(rank, rank)} of {name}" + (", dealt face down" if c.down else "")
    css = f"card s-{suit}" + (" down" if c.down else "")
    return f'<span class="{css}" title="{what}">{shown}<span>{symbol}</span></span>'


def seat_name(player: str, hero: bool = False) -> str:
    """A player's name as text (never markup), whole in its tooltip."""
    tag = '<span class="tag">hero</span>' if hero else ""
    return (f'<div class="name" title="{escape(player, quote=True)}">{escape(player)}{tag}'
            "</div>")


def positions(seats: Sequence[int], max_seats: int, anchor: int | None
              ) -> dict[int, tuple[float, float]]:
    """Each seat's centre (x %, y %) around an oval table, clockwise, `anchor` at the bottom.

    >>> positions([1, 5], 8, anchor=1)[1]
    (50.0, 89.0)
    """
    count = max(max_seats, max(seats, default=1))
    bottom = anchor if anchor is not None else min(seats, default=1)
    found = {}
    for seat in seats:
        angle = math.radians(180 + (seat - bottom) * 360 / count)
        x = 50 + 41 * math.sin(angle)
        y = 50 - 39 * math.cos(angle)
        found[seat] = (round(min(86.0, max(14.0, x)), 1), round(y, 1))
    return found


def table(step: Step, max_seats: int, money: Callable[[int], str],
          findings: Iterable[tuple[str, str, int, str]] = (),
          final_lows: dict[str, str] | None = None,
          totals: tuple[int, int] | None = None,
          equity: dict[str, tuple[float, str]] | None = None) -> str:
    """The table at a step, the step's text and its findings (rule, severity, line, message).

    At the summary, each seat shows its best low (`final_lows`, as the auditor computed it)
    and the centre the hand's total pot and rake (`totals`). `equity` gives a player's share
    of the pot at this step (0 to 1) and what it means (its tooltip), drawn as a number and
    a bar in the seat.
    """
    hero = next((s.seat for s in step.seats if s.hero), None)
    where = positions([s.seat for s in step.seats], max_seats, hero)
    parts = [f"<style>{STYLE}</style>", '<div class="rzt"><div class="felt">']
    street = STREET_NAMES.get(step.street or "", {"seats": "Before the deal",
                                                  "antes": "Antes",
                                                  "showdown": "Showdown",
                                                  "summary": "Summary"}.get(step.phase, ""))
    community = ""
    if step.community:
        community = ('<div class="community">community card<br>'
                     f'{card(Card(step.community, down=False))}</div>')
    pot = f"Pot {money(step.pot)}"
    if step.phase == "summary" and totals is not None:
        pot = f"Total pot {money(totals[0])}"
        community += f'<div class="street">rake {escape(money(totals[1]))}</div>'
    parts.append(f'<div class="center"><div class="street">{escape(street)}</div>'
                 f'<div class="pot">{escape(pot)}</div>{community}</div>')
    for seat in step.seats:
        x, y = where[seat.seat]
        parts.append(_seat(seat, x, y, money, (final_lows or {}).get(seat.player, "")
                           if step.phase == "summary" else "",
                           (equity or {}).get(seat.player)))
        if seat.bet:
            bx, by = 50 + 0.5 * (x - 50), 50 + 0.52 * (y - 50)
            parts.append(f'<div class="bet" style="left:{bx:.1f}%;top:{by:.1f}%" '
                         f'title="put in on this street">{escape(money(seat.bet))}</div>')
    parts.append("</div>")
    lines = ", ".join(str(n) for n in step.lines[:1])
    parts.append(f'<div class="now"><span class="where">Line {lines} · '
                 f"{escape(street)}</span><br>{escape(step.text)}</div>")
    for note in step.notes:
        parts.append(f'<div class="note">{escape(note)}</div>')
    for rule, severity, line, message in findings:
        sev = "warning" if severity == "warning" else "error"
        parts.append(f'<div class="finding {sev}"><span class="rule">{escape(rule)}</span> '
                     f"({escape(severity)}, line {int(line)}): {escape(message)}</div>")
    parts.append('<div class="legend">'
                 f'{card(Card("As", down=True))} a down card the log shows (the hero\'s, or '
                 f'one shown down) · {card(Card("", down=True))} a down card not shown · '
                 "the yellow frame marks who acts.</div></div>")
    return "".join(parts)


def equity_bar(share: float, meaning: str) -> str:
    """A player's equity as a number and a bar, what it means in its tooltip.

    >>> equity_bar(0.4213, "hero's view, exact")
    '<div class="eq" title="hero&#x27;s view, exact">Equity 42.1%<span class="bar"><span style="width:42.1%"></span></span></div>'
    """
    percent = f"{100 * min(max(share, 0.0), 1.0):.1f}%"
    return (f'<div class="eq" title="{escape(meaning, quote=True)}">Equity {percent}'
            f'<span class="bar"><span style="width:{percent}"></span></span></div>')


def _seat(seat: Seat, x: float, y: float, money: Callable[[int], str], low: str,
          equity: tuple[float, str] | None = None) -> str:
    css = "seat" + (" acting" if seat.acting else "") + (" folded" if seat.folded else "")
    stack = f"Stack {money(seat.stack)}" + (" · all-in" if seat.all_in else "")
    cards = "".join(card(c) for c in seat.cards)
    act = escape(seat.action)
    if low:  # the summary: what the hand was worth, rather than the last action
        act = escape(f"best low {low}")
    if seat.collected:
        act = f'<span class="won">wins {escape(money(seat.collected))}</span>' + (
            f" · {escape(low)}" if low else "")
    return (f'<div class="{css}" style="left:{x:.1f}%;top:{y:.1f}%">'
            f"{seat_name(seat.player, seat.hero)}"
            f'<div class="stack">Seat {seat.seat} · {escape(stack)}</div>'
            f'<div class="cards">{cards}</div><div class="act">{act}</div>'
            f"{equity_bar(*equity) if equity is not None else ''}</div>")


def history(text: str, first_line: int, current: Iterable[int], flagged: Iterable[int]
            ) -> str:
    """The hand's text with the file's line numbers; the step's lines highlighted, lines with
    a finding marked `!`. Long lines wrap: nothing is ever cut off.

    >>> "<b>" in history("<b>x</b>", 3, [], [])
    False
    """
    now, marks = set(current), set(flagged)
    rows = []
    for i, line in enumerate(text.splitlines()):
        number = first_line + i
        css = "ln" + (" cur" if number in now else "") + (" flag" if number in marks else "")
        rows.append(f'<div class="{css}"><span class="n">{number}</span>'
                    f'<span class="m">{"!" if number in marks else ""}</span>'
                    f'<span class="t">{escape(line) or " "}</span></div>')
    return f'<style>{STYLE}</style><div class="rzt"><div class="history">{"".join(rows)}</div></div>'
