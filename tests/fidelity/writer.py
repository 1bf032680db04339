"""Write played hands as PokerStars text (FORMATS.md §1), one tagged `Line` per line.

Injectors edit the lines (their text and tags) and `render` joins them; each line keeps the
event it came from, so an edit knows which line it touched and where that line ends up.

>>> money(4, "cent"), money(100, "cent"), money(0, "cent"), money(1500, "chip")
('$0.04', '$1', '$0', '1500')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .game import Ev, Played, SeatResult

STREET_MARK = {3: "3rd STREET", 4: "4th STREET", 5: "5th STREET", 6: "6th STREET", 7: "RIVER"}
STREET_NAME = {3: "3rd Street", 4: "4th Street", 5: "5th Street", 6: "6th Street", 7: "River"}
ROMAN = {"III": 3, "IV": 4, "VI": 6}


@dataclass
class Line:
    """One line of a hand history, with what it says in structured form."""

    text: str
    kind: str  # header, table, seat, ante, street, dealt, bringin, bet, raise, call, check,
    # fold, capped, uncalled, showdown, show, muck, collect, noshow, finish, summary, total,
    # board, result
    player: str | None = None
    street: int = 0  # the street the line belongs to (0 before 3rd street, 8 after the river)
    ev: Ev | None = None
    result: SeatResult | None = None
    data: dict[str, object] = field(default_factory=dict)

    @property
    def mark(self) -> bool:
        return self.ev is not None and self.ev.mark


def money(amount: int, unit: str) -> str:
    """An amount as PokerStars writes it: `$0.04`, `$1`, `$0` in cash games, `1500` in chips."""
    if unit == "chip":
        return str(amount)
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    if amount % 100 == 0:
        return f"{sign}${amount // 100}"
    return f"{sign}${amount // 100}.{amount % 100:02d}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def header_lines(played: Played) -> list[Line]:
    spec = played.spec
    st = spec.stakes
    m = lambda a: money(a, st.unit)  # noqa: E731
    t = spec.started
    when = f"{t.year}/{t.month:02d}/{t.day:02d} {t.hour}:{t.minute:02d}:{t.second:02d} ET"
    if spec.kind == "cash":
        head = (
            f"PokerStars Hand #{spec.hand_id}:  Razz Limit ({m(st.small)}/{m(st.big)} USD) - {when}"
        )
        table = f"Table '{spec.table}' {spec.max_seats}-max"
    else:
        head = (
            f"PokerStars Hand #{spec.hand_id}: Tournament #{spec.tournament_id}, {spec.buy_in}"
            f" Razz Limit - Level {st.level} ({st.small}/{st.big}) - {when}"
        )
        table = f"Table '{spec.tournament_id} {spec.table}' {spec.max_seats}-max"
    lines = [Line(head, "header"), Line(table, "table")]
    for s in spec.seats:
        lines.append(
            Line(
                f"Seat {s.seat}: {s.name} ({m(s.stack)} in chips) ",
                "seat",
                s.name,
                data={"stack": s.stack},
            )
        )
    return lines


def event_line(e: Ev, unit: str, street: int) -> Line:
    m = lambda a: money(a, unit)  # noqa: E731
    allin = " and is all-in" if e.all_in else ""
    name = e.player
    k = e.kind
    if k == "ante":
        text = f"{name}: posts the ante {m(e.amount)}{allin}"
    elif k == "street":
        text = f"*** {STREET_MARK[e.street]} ***" + (f" [{e.new[0]}]" if e.new else "")
    elif k == "dealt":
        if e.old:
            text = f"Dealt to {name} [{' '.join(e.old)}] [{' '.join(e.new)}]"
        else:
            text = f"Dealt to {name} [{' '.join(e.new)}]"
    elif k == "bringin":
        text = f"{name}: brings in for {m(e.amount)}{allin}"
    elif k == "bet":
        text = f"{name}: bets {m(e.amount)}{allin}"
    elif k == "raise":
        text = f"{name}: raises {m(e.amount)} to {m(e.to)}{allin}"
    elif k == "call":
        text = f"{name}: calls {m(e.amount)}{allin}"
    elif k == "check":
        text = f"{name}: checks "
    elif k == "fold":
        text = f"{name}: folds "
    elif k == "capped":
        text = "Betting is capped"
    elif k == "uncalled":
        text = f"Uncalled bet ({m(e.amount)}) returned to {name}"
    elif k == "showdown":
        text = "*** SHOW DOWN ***"
    elif k == "show":
        text = f"{name}: shows [{' '.join(e.new)}] (Lo: {e.description})"
    elif k == "muck":
        text = f"{name}: mucks hand "
    elif k == "collect":
        space = " " if e.label.startswith("side pot-") else ""
        text = f"{name} collected {m(e.amount)} from {e.label}{space}"
    elif k == "noshow":
        text = f"{name}: doesn't show hand "
    elif k == "finish":
        text = f"{name} finished the tournament in {ordinal(e.amount)} place"
    else:
        raise ValueError(k)
    return Line(text, k, name, street=e.street if k == "street" else street, ev=e)


def result_line(r: SeatResult, unit: str) -> Line:
    m = lambda a: money(a, unit)  # noqa: E731
    cards = " ".join(r.cards)
    head = f"Seat {r.seat}: {r.name}"
    if r.outcome == "folded":
        text = f"{head} folded on the {STREET_NAME[r.street]}" + (
            " (didn't bet)" if r.didnt_bet else ""
        )
    elif r.outcome == "collected":
        text = f"{head} collected ({m(r.amount)})"
    elif r.outcome == "won":
        text = f"{head} showed [{cards}] and won ({m(r.amount)}) with Lo: {r.description}"
    elif r.outcome == "lost":
        text = f"{head} showed [{cards}] and lost with Lo: {r.description}"
    else:
        text = f"{head} mucked [{cards}]"
    return Line(text, "result", r.name, street=8, result=r)


def total_text(played: Played, total: int | None = None, rake: int | None = None) -> str:
    unit = played.spec.stakes.unit
    m = lambda a: money(a, unit)  # noqa: E731
    total = played.total if total is None else total
    rake = played.rake if rake is None else rake
    pots = ""
    if len(played.pots) == 2:
        pots = f" Main pot {m(played.pots[0].net)}. Side pot {m(played.pots[1].net)}."
    elif len(played.pots) > 2:
        pots = f" Main pot {m(played.pots[0].net)}." + "".join(
            f" Side pot-{k} {m(p.net)}." for k, p in enumerate(played.pots[1:], start=1)
        )
    return f"Total pot {m(total)}{pots} | Rake {m(rake)} "


def hand_lines(played: Played) -> list[Line]:
    """The hand as PokerStars writes it, one tagged line per line (no blank lines)."""
    unit = played.spec.stakes.unit
    lines = header_lines(played)
    street = 0
    for e in played.events:
        if e.kind == "street":
            street = e.street
        elif e.kind == "showdown":
            street = 8
        lines.append(event_line(e, unit, street))
    lines.append(Line("*** SUMMARY ***", "summary", street=8))
    lines.append(Line(total_text(played), "total", street=8))
    if played.board:
        lines.append(Line(f"Board [{played.board}]", "board", street=8))
    lines.extend(result_line(r, unit) for r in played.results)
    return lines


def render(hands: list[list[Line]]) -> str:
    """Hands as one file: three empty lines after each hand, as PokerStars writes them."""
    return "".join("\n".join(line.text for line in hand) + "\n\n\n\n" for hand in hands)


def line_numbers(hands: list[list[Line]]) -> list[int]:
    """The 1-based file line of each hand's first line."""
    out, n = [], 1
    for hand in hands:
        out.append(n)
        n += len(hand) + 3
    return out
