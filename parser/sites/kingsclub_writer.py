"""Write hands as KingsClub writes them (FORMATS.md §5): the inverse of the reader beside it
(`razz.parser.sites.kingsclub`).

One hand per file, UTF-8, CRLF line ends and no line end after the last line. The header is
`#39969356: Limit Razz - 40/80`, then the time (`2021-01-02 15:48:40`, no zone) and `Table
'8 Game Mix'`. Amounts have thousands commas and cents only when there are some (`1,060.38`,
`65,150`), no currency. A colon follows the name in `posts ante` and `Dealt to NAME: [..]`
only. Opponents' hidden cards are `X`; later streets show the new card only (an opponent's
river card `[X]`). Street labels: hands before 2022 deal 3rd street with no marker and label
every later street one too low (`*** 3RD STREET ***` is 4th street, `*** 6TH STREET ***` the
river), as the 2021 files do; later hands label them as they are, as the 2022 files do. The
completion is `bets`, a raise `raises to` (the street total), a call gives the caller's
street total; `, and is all in`. No uncalled-bet line (the bet goes back silently), no SHOW
DOWN, no muck (a hand at the showdown is shown), no description, no chat. The summary gives
each seat's final stack and net, then the rake (when there is one), then the pots paid:
`Hero wins pot (99)`, `wins main pot (X)`, `wins side pot 1 (X)`.

>>> _amount(106038), _amount(6515000), _amount(0)
('1,060.38', '65,150', '0')
"""

from __future__ import annotations

from collections.abc import Sequence

from razz.parser.events import (
    UNKNOWN_CARD,
    Bet,
    BringIn,
    Call,
    Check,
    Collect,
    Dealt,
    Event,
    Fold,
    HandHeader,
    Muck,
    PostAnte,
    Raise,
    SeatLine,
    SeatResult,
    Show,
    ShowDown,
    Street,
    StreetStart,
    Summary,
    TotalPot,
    UncalledBet,
)
from razz.parser.sites.room_writer import (
    HandLines,
    WrittenFile,
    committed,
    completions,
    join_hands,
)

_ALL_IN = ", and is all in"
_LABEL = {3: "3RD", 4: "4TH", 5: "5TH", 6: "6TH", 7: "7TH"}


def _amount(cents: int) -> str:
    whole, part = divmod(abs(cents), 100)
    sign = "-" if cents < 0 else ""
    return f"{sign}{whole:,}.{part:02d}" if part else f"{sign}{whole:,}"


def _cards(cards: Sequence[str]) -> str:
    return "[" + " ".join("X" if c == UNKNOWN_CARD else c for c in cards) + "]"


def shifted_labels(header: HandHeader) -> bool:
    """Whether a hand's streets are labelled as the 2021 files label them (one street low);
    from 2022 on, as they are (FORMATS.md §5: the room fixed it then)."""
    return header.started_at.year < 2022


def hand_id(header: HandHeader) -> str:
    """KingsClub's hand numbers have seven or eight digits."""
    return str(int(header.hand_id) % 100_000_000) if header.hand_id.isdigit() else header.hand_id


def hand_lines(header: HandHeader, events: Sequence[Event]) -> HandLines:
    """One hand's lines, each with the line of the event it writes."""
    a = _amount
    out = HandLines()
    out.add(
        f"#{hand_id(header)}: Limit Razz - {a(header.small_bet)}/{a(header.big_bet)}",
        header.first_line,
    )
    out.add(f"{header.started_at:%Y-%m-%d %H:%M:%S}")
    out.add(f"Table '{header.table}'")
    shifted = shifted_labels(header)
    completing = completions(events, header.small_bet)
    put, _, _ = committed(events)
    back = {e.player: e.amount for e in events if isinstance(e, UncalledBet)}
    collects = [e for e in events if isinstance(e, Collect)]
    won: dict[str, int] = {}
    for c in collects:
        won[c.player] = won.get(c.player, 0) + c.amount
    stacks = {e.player: e.stack for e in events if isinstance(e, SeatLine)}
    street_put: dict[str, int] = {}
    holding: set[str] = set()
    hero: str | None = None
    river: set[str] | None = None
    rake_line: tuple[str, int] | None = None
    for e in events:
        if river is not None and not isinstance(e, Dealt):
            for name in sorted(river, key=list(stacks).index):
                out.add(f"Dealt to {name}: [X]")
            river = None
        if isinstance(e, SeatLine):
            out.add(f"Seat {e.seat}: {e.player} ({a(e.stack)})", e.line)
        elif isinstance(e, PostAnte):
            tail = _ALL_IN if e.all_in else ""
            out.add(f"{e.player}: posts ante {a(e.amount)}{tail}", e.line)
        elif isinstance(e, StreetStart):
            street_put = {}
            number = e.street.number - (1 if shifted else 0)
            if number >= 3:
                out.add(f"*** {_LABEL[number]} STREET ***", e.line)
            if e.street is Street.SEVENTH:
                river = {p for p in holding if p != hero}
        elif isinstance(e, Dealt):
            if e.street is Street.THIRD:
                holding.add(e.player)
                if e.hero:
                    hero = e.player
            if river is not None:
                river.discard(e.player)
            cards = e.new if e.street is Street.THIRD else e.new[-1:]
            out.add(f"Dealt to {e.player}: {_cards(cards)}", e.line)
        elif isinstance(e, BringIn):
            street_put[e.player] = e.amount or 0
            tail = _ALL_IN if e.all_in else ""
            out.add(f"{e.player} brings in for {a(e.amount or 0)}{tail}", e.line)
        elif isinstance(e, Bet | Raise):
            to = e.to if isinstance(e, Raise) else street_put.get(e.player, 0) + e.amount
            street_put[e.player] = to
            tail = _ALL_IN if e.all_in else ""
            if isinstance(e, Bet) or e.line in completing:
                out.add(f"{e.player} bets {a(to)}{tail}", e.line)
            else:
                out.add(f"{e.player} raises to {a(to)}{tail}", e.line)
        elif isinstance(e, Call):
            to = street_put.get(e.player, 0) + (e.amount or 0)
            street_put[e.player] = to
            tail = _ALL_IN if e.all_in else ""
            out.add(f"{e.player} calls {a(to)}{tail}", e.line)
        elif isinstance(e, Check):
            out.add(f"{e.player} checks", e.line)
        elif isinstance(e, Fold):
            holding.discard(e.player)
            out.add(f"{e.player} folds", e.line)
        elif isinstance(e, Show | Muck) and any(isinstance(x, ShowDown) for x in events):
            cards = e.cards if isinstance(e, Show) else _cards_of(events, e.player)
            out.add(f"{e.player} shows {_cards(cards)}", e.line)
        elif isinstance(e, Summary):
            out.add("*** SUMMARY ***", e.line)
        elif isinstance(e, TotalPot):
            if e.rake:
                rake_line = (f"Rake {a(e.rake)}", e.line)
        elif isinstance(e, SeatResult):
            net = won.get(e.player, 0) + back.get(e.player, 0) - put.get(e.player, 0)
            final = stacks.get(e.player, 0) + net
            sign = "+" if net > 0 else ""
            out.add(f"Seat {e.seat}: {e.player} ({a(final)}) {sign}{a(net)}", e.line)
    if rake_line is not None:
        out.add(*rake_line)
    # `wins pot (X)`; with side pots, the regex forms fpdb reads (`wins side pot 1 (X)`):
    # the real side-pot hand's one `wins pot` for every pot leaves the pots unnamed.
    for c in collects:
        label = c.pot_label if c.pot_label == "pot" else (
            "main pot" if c.side is None else f"side pot {c.side}"
        )
        out.add(f"{c.player} wins {label} ({a(c.amount)})", c.line)
    return out


def _cards_of(events: Sequence[Event], player: str) -> tuple[str, ...]:
    """A player's cards as the summary of the hand shows them (a muck at the showdown)."""
    for e in events:
        if isinstance(e, SeatResult) and e.player == player and e.cards:
            return e.cards
    return ()


def write_file(
    name: str, hands: Sequence[tuple[HandHeader, Sequence[Event]]]
) -> list[WrittenFile]:
    """A table's hands as KingsClub files: one hand each (`NAME-<hand>.txt`), UTF-8, CRLF,
    no line end after the last line."""
    stem = name.removesuffix(".txt")
    files = []
    for h, events in hands:
        text, written = join_hands(
            [(hand_id(h), hand_lines(h, events))], newline="\r\n", gap=0, end=0
        )
        files.append(WrittenFile(f"{stem}-{hand_id(h)}.txt", text.encode("utf-8"), tuple(written)))
    return files
