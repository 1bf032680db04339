"""Write hands as the Merge Network writes them (FORMATS.md §4): XML, one `<game>` element per
hand, the inverse of the reader beside it (`razz.parser.sites.merge_xml`).

A file starts with `<description type="Razz" stakes="Limit $0.50/$1"/>` (a tournament's:
`stakes="Limit"`, no amounts), then one `<game>`
per hand, an empty line between them (LF line ends, UTF-8). Players are named by seat,
numbered from 0; amounts are decimals (`0.05`, a balance `$2.96`; chips in a tournament,
whose `data` ends in `true`). A game is its rounds: `BLINDS` (the antes), `BRING_IN` (the
bring-in, then the 3rd-street cards), `THIRD_STREET` … `SEVENTH_STREET` (the actions, then
each player's cards so far: `null` for a hidden one, the file owner's as `HOLE` with his low
so far), `SHOWDOWN` (`SHOW` / `MUCK`, the cards `SHOWN` / `MUCKED`) and `END_OF_GAME` (or
`END_OF_FOLDED_GAME`) with a `<winner>` per pot paid and one marked `uncalled` per bet
returned. `COMPLETE` and `RAISE` give the street total, `BET` and `CALL` the chips put in,
`ALL_IN` the chips of a wager that is a player's last. Merge writes no summary, no rake, no
cap and no chat: those events get no line.

>>> _decimal(5), _decimal(296, money=True), _decimal(115, cents=False, money=True)
('0.05', '$2.96', '$115.00')
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from xml.sax.saxutils import quoteattr

from razz.parser.events import (
    UNKNOWN_CARD,
    Bet,
    BringIn,
    Call,
    Check,
    Collect,
    Complete,
    Dealt,
    Event,
    Fold,
    GameKind,
    HandHeader,
    Muck,
    NoShow,
    PostAnte,
    Raise,
    SeatLine,
    Show,
    ShowDown,
    Street,
    StreetStart,
    UncalledBet,
    Unit,
)
from razz.parser.sites.room_writer import (
    HandLines,
    WrittenFile,
    completions,
    join_hands,
    unmatched_pot,
)
from razz.replay.lowhand import lo_text

_ROUND = {
    Street.THIRD: "THIRD_STREET",
    Street.FOURTH: "FOURTH_STREET",
    Street.FIFTH: "FIFTH_STREET",
    Street.SIXTH: "SIXTH_STREET",
    Street.SEVENTH: "SEVENTH_STREET",
}


def _decimal(units: int, *, cents: bool = True, money: bool = False) -> str:
    value = f"{units // 100}.{units % 100:02d}" if cents else f"{units}.00"
    return f"${value}" if money else value


def _table_id(header: HandHeader) -> str:
    return header.tournament_id or str(zlib.crc32(header.table.encode("utf-8")) % 100_000_000)


def game_id(header: HandHeader, number: int) -> str:
    """`43618199-14`: the table's (or tournament's) number, then the hand's at it."""
    return f"{_table_id(header)}-{number}"


class _Game:
    """The elements of one `<game>`, each with the line of the event it writes."""

    def __init__(self, header: HandHeader, number: int) -> None:
        self.header = header
        self.cents = header.unit is Unit.CENT
        self.out = HandLines()
        self.sequence = 0
        self.rounds = 0
        self.stamp = int(header.started_at.timestamp() * 1000)
        self.seat: dict[str, int] = {}
        self.open_round: str | None = None
        self.id = game_id(header, number)

    def amount(self, units: int) -> str:
        return _decimal(units, cents=self.cents)

    def round(self, name: str, source: int | None = None) -> None:
        self.close()
        self.rounds += 1
        self.out.add(f'\t<round id="{name}" sequence="{self.rounds}">', source)
        self.open_round = name

    def close(self) -> None:
        if self.open_round is not None:
            self.out.add("\t</round>")
            self.open_round = None

    def event(self, kind: str, player: str, source: int | None, amount: int | None = None) -> None:
        self.sequence += 1
        self.stamp += 1500
        tail = f' amount="{self.amount(amount)}"' if amount is not None else ""
        self.out.add(
            f'\t\t<event sequence="{self.sequence}" type="{kind}" timestamp="{self.stamp}" '
            f'player="{self.seat[player]}"{tail}/>',
            source,
        )

    def cards(self, kind: str, player: str, cards: Sequence[str], source: int | None) -> None:
        shown = ",".join("null" if c == UNKNOWN_CARD else c for c in cards)
        low = ""
        if kind == "HOLE":
            low = f' hand="{lo_text(cards).replace(",", "-")}"'
        self.out.add(
            f'\t\t<cards type="{kind}" cards="{shown}" player="{self.seat[player]}"{low}/>',
            source,
        )


def hand_lines(header: HandHeader, events: Sequence[Event], number: int) -> HandLines:
    """One `<game>` element's lines, each with the line of the event it writes."""
    g = _Game(header, number)
    tournament = header.kind is GameKind.TOURNAMENT
    day = f"{header.started_at:%Y%m%d}"
    data = f"{day}|{header.table} ({_table_id(header)})|{_table_id(header)}|{g.id}|" + (
        "true" if tournament else "false"
    )
    g.out.add(
        f'<game id="{g.id}" starttime="{header.started_at:%Y%m%d%H%M%S}" numholecards="7" '
        f'gametype="47" realmoney="true" data={quoteattr(data)}>',
        header.first_line,
    )
    seats = [e for e in events if isinstance(e, SeatLine)]
    g.out.add(f'\t<players dealer="{seats[-1].seat - 1}">')
    for s in seats:
        g.seat[s.player] = s.seat - 1
        balance = _decimal(s.stack, cents=g.cents, money=True)
        g.out.add(
            f'\t\t<player seat="{s.seat - 1}" nickname={quoteattr(s.player)} '
            f'balance="{balance}" dealtin="true" />',
            s.line,
        )
    g.out.add("\t</players>")
    completing = completions(events, header.small_bet)
    street_put: dict[str, int] = {}
    held: dict[str, list[str]] = {}  # the cards of each player still in
    all_cards: dict[str, list[str]] = {}
    deals: list[tuple[Dealt, tuple[str, ...]]] = []  # this street's, with the cards so far
    river: list[str] = []  # opponents dealt a face-down river card
    hero: str | None = None
    street: Street | None = None
    showdown = any(isinstance(e, ShowDown) for e in events)
    winners: list[tuple[Collect | UncalledBet, bool]] = []  # each with: returned, not won
    mucks: list[NoShow] = []
    unmatched = unmatched_pot(events)

    def flush_deals() -> None:
        """A street's cards, after its actions (before them on 3rd street)."""
        for d, cards in deals:
            g.cards("HOLE" if d.hero else "DRAW_DRAWN_CARDS", d.player, cards, d.line)
        # An opponent's river card is face down: `…,null`.
        for name in river:
            g.cards("DRAW_DRAWN_CARDS", name, (*held.get(name, all_cards[name]), UNKNOWN_CARD), None)
        deals.clear()
        river.clear()

    for e in events:
        if isinstance(e, PostAnte):
            if g.open_round is None:
                g.round("BLINDS")
            g.event("ANTE", e.player, e.line, e.amount)
        elif isinstance(e, StreetStart):
            flush_deals()
            if e.street is Street.THIRD:
                g.round("BRING_IN", e.line)
            else:
                g.round(_ROUND[e.street], e.line)
            street, street_put = e.street, {}
            if street is Street.SEVENTH and e.community is None:
                river.extend(n for n in held if n != hero)
        elif isinstance(e, Dealt):
            if e.hero:
                hero = e.player
            held.setdefault(e.player, []).extend(e.new)
            all_cards[e.player] = held[e.player]
            deals.append((e, tuple(held[e.player])))
            if e.player in river:
                river.remove(e.player)
        elif isinstance(e, BringIn):
            g.event("BRING_IN", e.player, e.line, e.amount or 0)
            street_put[e.player] = e.amount or 0
            flush_deals()
            g.round("THIRD_STREET")
        elif isinstance(e, Bet | Raise | Complete | Call):
            if street is Street.THIRD and g.open_round == "BRING_IN":
                flush_deals()  # nobody brought in: the deal, then 3rd street's actions
                g.round("THIRD_STREET")
            before = street_put.get(e.player, 0)
            to = e.to if isinstance(e, Raise | Complete) else before + (e.amount or 0)
            level = max(street_put.values(), default=0)
            street_put[e.player] = to
            size = header.big_bet if street and street.is_big_bet else header.small_bet
            full = (
                to == level
                if isinstance(e, Call)
                else to == header.small_bet
                if e.line in completing or isinstance(e, Complete)
                else to - level == size
            )
            # `ALL_IN` for a player's last chips that make no full wager; a full one all-in
            # keeps its type (the file states no stakes: the full ones tell the reader them).
            if e.all_in and not full:
                g.event("ALL_IN", e.player, e.line, to - before)
            elif isinstance(e, Call):
                g.event("CALL", e.player, e.line, to - before)
            elif e.line in completing or isinstance(e, Complete):
                g.event("COMPLETE", e.player, e.line, to)
            elif isinstance(e, Bet):
                g.event("BET", e.player, e.line, to - before)
            else:
                g.event("RAISE", e.player, e.line, to)
        elif isinstance(e, Check | Fold):
            if street is Street.THIRD and g.open_round == "BRING_IN":
                flush_deals()
                g.round("THIRD_STREET")
            if isinstance(e, Fold):
                held.pop(e.player, None)
            g.event("CHECK" if isinstance(e, Check) else "FOLD", e.player, e.line)
        elif isinstance(e, ShowDown):
            flush_deals()
            g.round("SHOWDOWN")
            shows = [x for x in events if isinstance(x, Show | Muck) and x.line > e.line]
            if unmatched is not None:  # one pot, nobody bet last: the earliest seat first
                shows.sort(key=lambda x: g.seat[x.player])
            for x in shows:
                g.event("SHOW" if isinstance(x, Show) else "MUCK", x.player, x.line)
            for x in shows:
                cards = x.cards if isinstance(x, Show) else tuple(held.get(x.player, ()))
                g.cards("SHOWN" if isinstance(x, Show) else "MUCKED", x.player, cards, None)
        elif isinstance(e, UncalledBet):
            winners.append((e, True))
        elif isinstance(e, Collect):
            # Chips nobody could match go back (the replay returns them): no pot here.
            winners.append((e, e is unmatched))
        elif isinstance(e, NoShow) and not showdown:
            mucks.append(e)
    flush_deals()
    g.round("END_OF_GAME" if showdown else "END_OF_FOLDED_GAME")
    for m in mucks:
        g.event("MUCK", m.player, m.line)
    for w, back in sorted(winners, key=lambda x: not x[1]):  # the bets returned first
        number = 1 if isinstance(w, UncalledBet) or back or w.side is None else w.side + 1
        how = "true" if back else "false"
        g.out.add(
            f'\t\t<winner amount="{g.amount(w.amount)}" uncalled="{how}" potnumber="{number}" '
            f'player="{g.seat[w.player]}" pottype="n"/>',
            w.line,
        )
    g.close()
    g.out.add("</game>")
    return g.out


def write_file(
    name: str, hands: Sequence[tuple[HandHeader, Sequence[Event]]]
) -> list[WrittenFile]:
    """A table's hands as one Merge XML file (`NAME.xml`): its description, then a `<game>`
    per hand. A cash table's description states its stakes (`stakes="Limit $0.50/$1"`), once
    for every game of the file; a tournament's, whose levels rise, only `stakes="Limit"`
    (FORMATS.md §4, the real files)."""
    first = hands[0][0]
    cents = first.unit is Unit.CENT
    stakes = f"Limit {_money(first.small_bet, cents)}/{_money(first.big_bet, cents)}"
    if first.kind is GameKind.TOURNAMENT:
        stakes = "Limit"
    kind = "Razz Tournament" if first.kind is GameKind.TOURNAMENT else "Razz"
    games = [(game_id(h, k), hand_lines(h, ev, k)) for k, (h, ev) in enumerate(hands, start=1)]
    first_game = games[0][1]  # the description is the file's first line, before the game
    first_game.texts.insert(0, f'<description type="{kind}" stakes="{stakes}"/>')
    first_game.origin = {src: i + 1 for src, i in first_game.origin.items()}
    text, written = join_hands(games, newline="\n", gap=1, end=1)
    data = text.encode("utf-8")
    return [WrittenFile(name.removesuffix(".txt") + ".xml", data, tuple(written))]


def _money(units: int, cents: bool) -> str:
    if not cents:
        return str(units)
    whole, part = divmod(units, 100)
    return f"${whole}.{part:02d}" if part else f"${whole}"

