"""PokerStars hand histories (FORMATS.md §1): `grammar/pokerstars.lark` compiled, its tree
turned into events, and the site's entry in the registry (`SITE`).

`PokerStarsParser.parse(text, source, first_line)` reads the text of one hand and returns a
`Hand`, a `SkippedHand` (another game) or a `ParseError`; it never raises on bad input.
The transformer runs inside the LALR parser (no tree is built) and only converts: tokens to
typed events with their file line, amounts to integers in the hand's smallest unit.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from typing import Any

from lark import Lark, Transformer
from lark.exceptions import LarkError
from lark.grammar import Rule
from lark.load_grammar import FromPackageLoader, PackageResource

from razz.grammar import PACKAGE, grammar_text
from razz.parser import events as ev
from razz.parser.amounts import CURRENCY_BY_SYMBOL, AmountError, currency_symbol, to_units
from razz.parser.errors import describe_error, descriptions, literal_terminals
from razz.parser.events import UNKNOWN_CARD
from razz.parser.lexer import PyNameLexer, cython_lexer_class
from razz.parser.records import constructor
from razz.parser.sites.base import RawHand, Site
from razz.parser.timestamps import to_utc, zone_of

NAME = "PokerStars"
_GAME_LIMIT = re.compile(r"(?i)^(.*?) ((?:no |pot |fixed |cap )?limit)$")
_STREET_BY_TOKEN = {
    "STREET_3RD": ev.Street.THIRD,
    "STREET_4TH": ev.Street.FOURTH,
    "STREET_5TH": ev.Street.FIFTH,
    "STREET_6TH": ev.Street.SIXTH,
    "STREET_RIVER": ev.Street.SEVENTH,
}
_SUMMARY_STREET = {
    "3rd Street": ev.Street.THIRD,
    "4th Street": ev.Street.FOURTH,
    "5th Street": ev.Street.FIFTH,
    "6th Street": ev.Street.SIXTH,
    "River": ev.Street.SEVENTH,
}
_NOISE_KIND = {
    "SAID": ev.NoiseKind.CHAT,
    "JOINS": ev.NoiseKind.JOINS,
    "LEAVES": ev.NoiseKind.LEAVES,
    "IS_CONNECTED": ev.NoiseKind.CONNECTED,
    "IS_DISCONNECTED": ev.NoiseKind.DISCONNECTED,
    "IS_SITTING_OUT": ev.NoiseKind.SITTING_OUT,
    "COLON_SITTING_OUT": ev.NoiseKind.SITTING_OUT,
    "SITS_OUT": ev.NoiseKind.SITS_OUT,
    "TIMED_OUT": ev.NoiseKind.TIMED_OUT,
    "RETURNED": ev.NoiseKind.RETURNED,
    "REMOVED": ev.NoiseKind.REMOVED,
    "ALLOWED_TO_PLAY": ev.NoiseKind.OTHER,
}
_A = r"((?:[$€£₹]|Rs\. ?)?\d[\d,]*(?:\.\d+)?)"
_OTHER_NOISE = re.compile(
    r"(.+?)(?: said, \"(?:.*)\"| joins the table at seat #\d+| leaves the table| is (dis)?connected"
    r"| is sitting out|: is sitting out|: sits out| has timed out.*| has returned"
    r"| was removed from the table for failing to post| will be allowed to play after the button)$"
)
_OTHER_NOISE_KIND = (
    (' said, "', ev.NoiseKind.CHAT),
    (" joins the table", ev.NoiseKind.JOINS),
    (" leaves the table", ev.NoiseKind.LEAVES),
    (" is disconnected", ev.NoiseKind.DISCONNECTED),
    (" is connected", ev.NoiseKind.CONNECTED),
    ("is sitting out", ev.NoiseKind.SITTING_OUT),
    (": sits out", ev.NoiseKind.SITS_OUT),
    (" has timed out", ev.NoiseKind.TIMED_OUT),
    (" has returned", ev.NoiseKind.RETURNED),
    (" was removed from the table", ev.NoiseKind.REMOVED),
)
_HAND_ID = re.compile(r"^\S.*? #(\d+):")
_PLACE = re.compile(r" finished the tournament in (\d+)\w\w place(?: and received (.*)\.)?$")
_STACK = re.compile(r" \(" + _A + r" in chips(?:, (.*) bounty)?\)( is sitting out| out of hand)?")
_BRACKETS = re.compile(r"\[([^\]]*)\]")
_SHOWS = re.compile(r": shows \[([^\]]*)\](?: \((.*)\))?")
_TOTAL = re.compile(r"Total pot " + _A + r"(.*?) \| Rake " + _A)
_POT_PART = re.compile(r"(Main pot|Side pot(?:-\d+)?|STP) " + _A)
_FOLDED = re.compile(
    r"(?: \([^)]*\))? folded on the (3rd Street|4th Street|5th Street|6th Street"
    r"|River)( \(didn't bet\))?"
)
_COLLECTED_SUM = re.compile(r"(?: \([^)]*\))? collected \(" + _A + r"\)")
_SHOWED = re.compile(
    r"(?: \([^)]*\))? showed \[([^\]]*)\] and (?:won \(" + _A + r"\)|lost)(?: with (.*))?"
)
_ALL_IN = " and is all-in"


# Fast constructors of the events built for every hand (see parser/records.py).
_SeatLine = constructor(ev.SeatLine)
_PostAnte = constructor(ev.PostAnte)
_BringIn = constructor(ev.BringIn)
_Bet = constructor(ev.Bet)
_Call = constructor(ev.Call)
_Raise = constructor(ev.Raise)
_Check = constructor(ev.Check)
_Fold = constructor(ev.Fold)
_Dealt = constructor(ev.Dealt)
_StreetStart = constructor(ev.StreetStart)
_SeatResult = constructor(ev.SeatResult)
_Noise = constructor(ev.Noise)
_Collect = constructor(ev.Collect)
_Show = constructor(ev.Show)


def _cards(text: str) -> tuple[str, ...]:
    """ "Ah 2c" as ("Ah", "2c")."""
    return tuple(text.split(" "))


def _tail(token: Any, prefix: int) -> tuple[str, bool]:
    """The amount text after `prefix` characters of an action token, and the all-in flag."""
    rest = str(token)[prefix:].rstrip()
    if rest.endswith(_ALL_IN):
        return rest[: -len(_ALL_IN)], True
    return rest, False


class _ToEvents(Transformer[Any, Any]):
    """Tokens to events; runs inline in the LALR parser, one hand at a time."""

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
        self.offset = 0  # file line of the hand's first line, minus one
        self.scale = 1  # 100 for cents, 1 for chips
        self._amounts: dict[tuple[str, int], int] = {}  # amount texts already converted

    # ----------------------------------------------------------------- helpers
    def _at(self, token: Any) -> int:
        return int(self.offset + token.line)

    def _units(self, text: str, token: Any) -> int:
        key = (text, self.scale)
        try:
            return self._amounts[key]
        except KeyError:
            pass
        try:
            value = self._amounts[key] = to_units(text, self.scale)
        except AmountError as exc:
            exc.line, exc.column = token.line, token.column
            raise
        if len(self._amounts) > 4096:  # a table uses a few dozen amounts: keep it small
            self._amounts.clear()
        return value

    # ------------------------------------------------------------------ header
    def plain_cash(self, c: list[Any]) -> dict[str, Any]:
        return {"game_limit": str(c[0]), "stakes": str(c[2]), "mixed": None, "tournament": None}

    def mixed_cash(self, c: list[Any]) -> dict[str, Any]:
        return {
            "game_limit": str(c[1]),
            "stakes": str(c[3]),
            "mixed": str(c[0])[:-2],
            "tournament": None,
        }

    def plain_tournament(self, c: list[Any]) -> dict[str, Any]:
        return {"game_limit": str(c[2]), "mixed": None, "tournament": (c[0], c[1], c[3])}

    def mixed_tournament(self, c: list[Any]) -> dict[str, Any]:
        return {"game_limit": str(c[3]), "mixed": str(c[2])[:-2], "tournament": (c[0], c[1], c[4])}

    def header_line(self, c: list[Any]) -> dict[str, Any]:
        _, hand_id, _, club, game, when, when_et = c
        m = _GAME_LIMIT.match(game["game_limit"])
        name, limit = (m.group(1), m.group(2)) if m else (game["game_limit"], "Limit")
        if name.isupper():  # old PT2 exports write "7 CARD STUD HI/LO LIMIT"
            name = name.title()
        header: dict[str, Any] = {
            "hand_id": str(hand_id),
            "club": str(club).strip()[1:-1] if club else None,
            "game": name,
            "limit": limit.title(),
            "mixed": game["mixed"],
            "started_text": str(when) + (str(when_et) if when_et else ""),
        }
        # The ET datetime in brackets, when present, is the server clock: prefer it.
        stamp = str(when_et).strip()[1:-1] if when_et else str(when)
        header["started_at"] = to_utc(stamp)
        header["time_zone"] = zone_of(str(when))
        tournament = game["tournament"]
        if tournament is None:
            small, _, big = str(game["stakes"]).partition("/")
            big, _, iso = big.partition(" ")
            symbol = currency_symbol(small)
            currency = iso or (CURRENCY_BY_SYMBOL.get(symbol) if symbol else None)
            self.scale = 100 if currency else 1
            header.update(
                kind=ev.GameKind.CASH,
                currency=currency,
                play_money=currency is None,
                tournament_id=None,
                buy_in=(),
                level=None,
                match_round=None,
                small_bet=to_units(small, self.scale),
                big_bet=to_units(big, self.scale),
                unit=ev.Unit.CENT if currency else ev.Unit.CHIP,
            )
        else:
            number, buy_in, level = (str(t) for t in tournament)
            parts, _, iso = buy_in.strip().partition(" ")
            symbol = currency_symbol(parts)
            currency = iso or (CURRENCY_BY_SYMBOL.get(symbol) if symbol else None)
            buy_scale = 100 if currency else 1
            amounts = (
                ()
                if not parts[:1].isdigit() and symbol is None
                else tuple(to_units(p, buy_scale) for p in parts.split("+"))
            )
            lv = re.search(
                r"(?:(?i:match round) ([IVXLCDM\d]+), )?(?i:level) ([IVXLCDM\d]+) "
                r"\((\d[\d,]*)/(\d[\d,]*)\)",
                level,
            )
            assert lv is not None  # the LEVEL terminal has this shape
            self.scale = 1
            header.update(
                kind=ev.GameKind.TOURNAMENT,
                currency=currency,
                play_money=False,
                tournament_id=number.split("#")[1].rstrip(", "),
                buy_in=amounts,
                level=lv.group(2),
                match_round=lv.group(1),
                small_bet=to_units(lv.group(3), 1),
                big_bet=to_units(lv.group(4), 1),
                unit=ev.Unit.CHIP,
            )
        return header

    def table_line(self, c: list[Any]) -> dict[str, Any]:
        name, max_seats, play_money, _ = c
        return {
            "table": str(name)[7:-1],
            "max_seats": int(str(max_seats).strip()[:-4]) if max_seats else None,
            "play_money_table": play_money is not None,
        }

    def seat_line(self, c: list[Any]) -> ev.SeatLine:
        seat_name, stack = c
        seat_no, _, name = str(seat_name).partition(": ")
        m = _STACK.match(str(stack))
        assert m is not None  # SEAT_STACK has this shape
        status = m.group(3) or ""
        return _SeatLine(
            self._at(seat_name),
            name,
            int(seat_no[5:]),
            self._units(m.group(1), stack),
            status == " is sitting out",
            status == " out of hand",
            m.group(2),
        )

    # ----------------------------------------------------------------- actions
    def ante(self, c: list[Any]) -> ev.PostAnte:
        amount, all_in = _tail(c[1], 17)  # ": posts the ante "
        return _PostAnte(self._at(c[0]), str(c[0]), self._units(amount, c[1]), all_in)

    def bring_in(self, c: list[Any]) -> ev.BringIn:
        amount, all_in = _tail(c[1], 16)  # ": brings in for "
        return _BringIn(self._at(c[0]), str(c[0]), self._units(amount, c[1]), all_in)

    def bet(self, c: list[Any]) -> ev.Bet:
        amount, all_in = _tail(c[1], 7)  # ": bets "
        return _Bet(self._at(c[0]), str(c[0]), self._units(amount, c[1]), all_in)

    def call(self, c: list[Any]) -> ev.Call:
        amount, all_in = _tail(c[1], 8)  # ": calls "
        return _Call(self._at(c[0]), str(c[0]), self._units(amount, c[1]), all_in)

    def raise_to(self, c: list[Any]) -> ev.Raise:
        amounts, all_in = _tail(c[1], 9)  # ": raises "
        by, _, to = amounts.partition(" to ")
        return _Raise(
            self._at(c[0]), str(c[0]), self._units(to, c[1]), self._units(by, c[1]), all_in
        )

    def check(self, c: list[Any]) -> ev.Check:
        return _Check(self._at(c[0]), str(c[0]))

    def fold(self, c: list[Any]) -> ev.Fold:
        return _Fold(self._at(c[0]), str(c[0]))

    def capped(self, c: list[Any]) -> ev.BettingCapped:
        return ev.BettingCapped(self._at(c[0]))

    def uncalled(self, c: list[Any]) -> ev.UncalledBet:
        amount = str(c[0])[14:-14]  # "Uncalled bet (" … ") returned to "
        return ev.UncalledBet(self._at(c[0]), str(c[1]), self._units(amount, c[0]))

    def collected(self, c: list[Any]) -> ev.Collect:
        amount, _, label = str(c[1])[11:].rstrip().partition(" from ")  # " collected "
        side = None
        if label.startswith("side pot"):
            side = int(label[9:]) if label.startswith("side pot-") else 1
        return _Collect(self._at(c[0]), str(c[0]), self._units(amount, c[1]), label, side, None)

    def shows(self, c: list[Any]) -> ev.Show:
        m = _SHOWS.match(str(c[1]).rstrip())
        assert m is not None  # SHOWS has this shape
        return _Show(self._at(c[0]), str(c[0]), _cards(m.group(1)), m.group(2))

    def mucks(self, c: list[Any]) -> ev.Muck:
        return ev.Muck(self._at(c[0]), str(c[0]))

    def no_show(self, c: list[Any]) -> ev.NoShow:
        return ev.NoShow(self._at(c[0]), str(c[0]))

    def finished(self, c: list[Any]) -> ev.TournamentFinish:
        m = _PLACE.match(str(c[1]).rstrip())
        assert m is not None  # FINISHED has this shape
        return ev.TournamentFinish(self._at(c[0]), str(c[0]), int(m.group(1)), m.group(2))

    def won_tournament(self, c: list[Any]) -> ev.TournamentWin:
        text = str(c[1]).rstrip()
        prize = text[len(" wins the tournament and receives ") : -len(" - congratulations!")]
        return ev.TournamentWin(self._at(c[0]), str(c[0]), prize)

    # ------------------------------------------------------------------ streets
    def _street(self, c: list[Any]) -> list[ev.Event]:
        marker = c[0]
        street = _STREET_BY_TOKEN[marker.type]
        card = _BRACKETS.search(str(marker)) if street is ev.Street.SEVENTH else None
        out: list[ev.Event] = [
            _StreetStart(self._at(marker), street, card.group(1) if card else None)
        ]
        out.extend(c[1:])
        return out

    street3 = street4 = street5 = street6 = river = _street

    def showdown(self, c: list[Any]) -> list[ev.Event]:
        return [ev.ShowDown(self._at(c[0])), *c[1:]]

    def cancelled(self, c: list[Any]) -> list[ev.Event]:
        return [ev.HandCancelled(self._at(c[0])), *c[1:]]

    def _dealt(self, street: ev.Street, number: int, c: list[Any]) -> ev.Dealt:
        name = c[0]
        # " [Qc]\n", " [3s 4d 2c]\n" or " [Qc 8s] [3d]\n": one or two bracketed groups
        groups = str(c[1]).split("]")
        if len(groups) == 2:  # 3rd street: one bracket
            previous: tuple[str, ...] = ()
            new = tuple(groups[0][2:].split(" "))
        else:
            previous = tuple(groups[0][2:].split(" "))
            new = tuple(groups[1][2:].split(" "))
        # The file owner's lines show every card; everyone else's only the up cards, after
        # two down cards the log does not show.
        hero = len(previous) + len(new) == number
        if not hero:
            if previous:
                previous = (UNKNOWN_CARD, UNKNOWN_CARD, *previous)
            else:
                new = (UNKNOWN_CARD, UNKNOWN_CARD, *new)
        return _Dealt(self._at(name), str(name)[9:], street, previous, new, hero)

    def dealt3(self, c: list[Any]) -> ev.Dealt:
        return self._dealt(ev.Street.THIRD, 3, c)

    def dealt4(self, c: list[Any]) -> ev.Dealt:
        return self._dealt(ev.Street.FOURTH, 4, c)

    def dealt5(self, c: list[Any]) -> ev.Dealt:
        return self._dealt(ev.Street.FIFTH, 5, c)

    def dealt6(self, c: list[Any]) -> ev.Dealt:
        return self._dealt(ev.Street.SIXTH, 6, c)

    def dealt7(self, c: list[Any]) -> ev.Dealt:
        return self._dealt(ev.Street.SEVENTH, 7, c)

    # ------------------------------------------------------------------ summary
    def summary(self, c: list[Any]) -> list[ev.Event]:
        return [ev.Summary(self._at(c[0])), *(x for x in c[1:] if x is not None)]

    def total_pot(self, c: list[Any]) -> ev.TotalPot:
        token = c[0]
        m = _TOTAL.match(str(token))
        assert m is not None  # TOTAL_POT has this shape
        parts = _POT_PART.findall(m.group(2))
        main = next((self._units(a, token) for label, a in parts if label == "Main pot"), None)
        sides = tuple(self._units(a, token) for label, a in parts if label.startswith("Side"))
        return ev.TotalPot(
            self._at(token),
            self._units(m.group(1), token),
            self._units(m.group(3), token),
            main,
            sides,
        )

    def board(self, c: list[Any]) -> ev.Board:
        m = _BRACKETS.search(str(c[0]))
        assert m is not None  # BOARD has this shape
        return ev.Board(self._at(c[0]), _cards(m.group(1)))

    def _seat(self, c: list[Any]) -> tuple[int, str, int]:
        seat, _, name = str(c[0]).partition(": ")  # RESULT_NAME is "Seat N: NAME"
        return self._at(c[0]), name, int(seat[5:])

    def folded_result(self, c: list[Any]) -> ev.SeatResult:
        m = _FOLDED.match(str(c[1]))
        assert m is not None  # FOLDED_ON has this shape
        line, name, seat = self._seat(c)
        return _SeatResult(
            line,
            name,
            seat,
            ev.Outcome.FOLDED,
            _SUMMARY_STREET[m.group(1)],
            m.group(2) is not None,
            (),
            None,
            None,
            False,
            None,
            None,
        )

    def collected_result(self, c: list[Any]) -> ev.SeatResult:
        m = _COLLECTED_SUM.match(str(c[1]))
        assert m is not None  # COLLECTED_SUM has this shape
        line, name, seat = self._seat(c)
        amount = self._units(m.group(1), c[1])
        return _SeatResult(
            line, name, seat, ev.Outcome.COLLECTED, None, False, (), amount, None, False, None, None
        )

    def won_result(self, c: list[Any]) -> ev.SeatResult:
        m = _SHOWED.match(str(c[1]).rstrip())
        assert m is not None  # SHOWED_WON has this shape
        line, name, seat = self._seat(c)
        return _SeatResult(
            line,
            name,
            seat,
            ev.Outcome.SHOWED_WON,
            None,
            False,
            _cards(m.group(1)),
            self._units(m.group(2), c[1]),
            m.group(3),
            False,
            None,
            None,
        )

    def lost_result(self, c: list[Any]) -> ev.SeatResult:
        m = _SHOWED.match(str(c[1]).rstrip())
        assert m is not None  # SHOWED_LOST has this shape
        line, name, seat = self._seat(c)
        return _SeatResult(
            line,
            name,
            seat,
            ev.Outcome.SHOWED_LOST,
            None,
            False,
            _cards(m.group(1)),
            None,
            m.group(3),
            False,
            None,
            None,
        )

    def mucked_result(self, c: list[Any]) -> ev.SeatResult:
        m = _BRACKETS.search(str(c[1]))
        assert m is not None  # MUCKED has this shape
        line, name, seat = self._seat(c)
        return _SeatResult(
            line,
            name,
            seat,
            ev.Outcome.MUCKED,
            None,
            False,
            _cards(m.group(1)),
            None,
            None,
            False,
            None,
            None,
        )

    # -------------------------------------------------------------------- noise
    def noise(self, c: list[Any]) -> ev.Noise:
        name, what = c
        return _Noise(
            self._at(name), _NOISE_KIND[what.type], str(name), (str(name) + str(what)).rstrip()
        )

    def other_noise(self, c: list[Any]) -> ev.Noise:
        token = c[0]
        text = str(token).rstrip()
        if token.type == "DOUBLE_BET_NOISE":
            return _Noise(self._at(token), ev.NoiseKind.OTHER, None, text)
        m = _OTHER_NOISE.match(text)
        player = m.group(1) if m else None
        kind = next(
            (k for key, k in _OTHER_NOISE_KIND if key in text[len(player or "") :]),
            ev.NoiseKind.OTHER,
        )
        if player and player.endswith(":"):
            player = player[:-1]
        return _Noise(self._at(token), kind, player, text)

    # --------------------------------------------------------------------- hand
    def hand(self, c: list[Any]) -> tuple[dict[str, Any], dict[str, Any], list[ev.Event]]:
        header, table = c[0], c[1]
        out: list[ev.Event] = []
        for item in c[2:]:
            if isinstance(item, list):
                out.extend(item)
            else:
                out.append(item)
        return header, table, out


# Generic patterns for the declared name terminals, for the fast first pass (see
# `PokerStarsParser`): a name is the shortest text followed by what can follow a name.
_GENERIC_NAMES = r"""
NAME.-2: /[^\n]+?(?=[: \t\n])(?=: (?:posts the ante|brings in|bets|calls|raises|checks|folds|shows|mucks hand|doesn't show|is sitting out|sits out)| collected | said, "| joins the table| leaves the table| is (?:dis)?connected| is sitting out| has timed out| has returned| was removed from| will be allowed| finished the tournament| wins the tournament|[ \t]*\n)/
RESULT_NAME: /Seat \d+: [^\n]+?(?= )(?= \((?:button|small blind|big blind)\)| folded on the | collected \(| showed \[| mucked \[)/
"""
_DEALT = re.compile(r"DEALT_NAME (DEALT_\w+)")


def _generic_grammar(text: str, exact: Lark) -> str:
    """The grammar with generic patterns for the declared name terminals (the fast pass).

    `Dealt to NAME` gets one terminal per street: the shortest name after which the rest of
    the line is that street's cards, so `Dealt to PC [Mittel] [5c]` reads `PC [Mittel]` on
    3rd street.
    """
    dealt = []
    for street in sorted(set(_DEALT.findall(text))):
        tail = (
            exact.get_terminal(street).pattern.to_regexp().replace("\n", "\\n").replace("/", "\\/")
        )
        dealt.append(f"DEALT_NAME_{street}: /Dealt to [^\\n]+?(?= \\[)(?={tail})/")
    text = _DEALT.sub(r"DEALT_NAME_\1 \1", text)
    text = text.replace("%declare NAME DEALT_NAME RESULT_NAME", _GENERIC_NAMES + "\n".join(dealt))
    # NAME reads the noise lines of unseated players too, so PLAYER_NOISE goes last.
    return text.replace("PLAYER_NOISE.-1:", "PLAYER_NOISE.-3:")


class _Seq:
    """The children of a repetition (`x*`, `x+`), gathered in place."""

    __slots__ = ("children",)

    def __init__(self, children: list[Any]) -> None:
        self.children = children


def _repetition_callback(rule: Any) -> Any:
    """A cheap callback for Lark's `__x_star_N` / `__x_plus_N` helper rules, or None.

    Lark builds a tree node per repeated item and copies children; here each item is
    appended to one list. Items that are inlined rules (`_name`) are spliced in, as Lark does.
    """
    exp = rule.expansion
    inline = [not s.is_term and s.name.startswith("_") for s in exp]
    if len(exp) == 1:
        if inline[0]:
            return lambda c: _Seq(list(c[0].children))
        return lambda c: _Seq([c[0]])
    if len(exp) == 2 and exp[0] == rule.origin:
        if inline[1]:

            def extend(c: list[Any]) -> Any:
                c[0].children.extend(c[1].children)
                return c[0]

            return extend

        def append(c: list[Any]) -> Any:
            c[0].children.append(c[1])
            return c[0]

        return append
    return None


class _BuiltRule(Rule):
    """A rule of a built parser: compared and hashed by identity, in C.

    The LALR loop compares every reduced rule with the end state (`arg != end_state`) and
    looks its callback up by rule: with Lark's Python `__eq__` and `__hash__` these two calls
    ran on every reduction. Once the parser is built, identity is what equality means.
    """

    __slots__ = ()
    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__


def _tune(parser: Lark) -> Lark:
    """Speed-ups that change no result: plain-str rule names, identity rules, cheap callbacks.

    Rule names read from the grammar are `Token`s, a str subclass whose Python `__eq__` runs
    on every goto lookup of the LALR loop. The callbacks dict is the one the parser uses, so
    it is rebuilt in place once the rules hash by identity.
    """
    callbacks = parser._callbacks
    for rule in parser.rules:
        rule.origin.name = str(rule.origin.name)
        name = rule.origin.name
        if name.startswith("__") and ("_star_" in name or "_plus_" in name):
            fast = _repetition_callback(rule)
            if fast is not None:
                callbacks[rule] = fast
    entries = list(callbacks.items())
    for rule, _ in entries:
        if type(rule) is Rule:
            rule.__class__ = _BuiltRule
    callbacks.clear()
    callbacks.update(entries)
    return parser


def _build(grammar: str, start: list[str], lexer: type | None, cython: bool) -> Lark:
    plugins: dict[str, Any] = {}
    if cython:
        import lark_cython

        plugins.update(lark_cython.plugins)
    if lexer is not None:
        plugins["ContextualLexer"] = lexer
    return _tune(
        Lark(
            grammar,
            # `%import .common (…)` is read from the grammar package, beside this grammar.
            source_path=PackageResource(PACKAGE, "pokerstars.lark"),
            import_paths=[FromPackageLoader(PACKAGE)],
            parser="lalr",
            lexer="contextual",
            start=start,
            transformer=_ToEvents(),
            maybe_placeholders=True,
            _plugins=plugins,
        )
    )


_NAMED = frozenset(
    t
    for t in vars(ev).values()
    if isinstance(t, type) and issubclass(t, ev.PlayerEvent) and t not in (ev.SeatLine, ev.Noise)
)


def _seated_names_are_safe(events: list[ev.Event], text: str) -> bool:
    """True when the seat-list lexer would have read every name exactly as the fast pass did.

    Every name the fast pass read must be a seated player. And where one seated name begins
    another (`Hero`, `Hero2`), a line that starts with the longer one where the fast pass read
    the shorter one is ambiguous for the fast pass: such hands go to the exact pass.
    """
    seated: set[str] = set()
    named = _NAMED
    e: Any
    for e in events:
        kind = type(e)
        if kind is ev.SeatLine:
            seated.add(e.player)
        elif kind in named and e.player not in seated:
            return False
    names = sorted(seated)
    if not any(b.startswith(a) for a, b in itertools.pairwise(names)):
        return True
    longer = {a: [b for b in seated if b != a and b.startswith(a)] for a in seated}
    lines = text.split("\n")
    first = events[0].line - 2  # events[0] is the first seat line, line 3 of the hand
    for e in events:
        if not isinstance(e, ev.PlayerEvent) or not longer.get(e.player):
            continue
        if isinstance(e, ev.UncalledBet):
            continue  # the name is the rest of the line: no ambiguity
        line = lines[e.line - first]
        if isinstance(e, ev.Dealt):
            start = len("Dealt to ")
        elif isinstance(e, ev.SeatLine | ev.SeatResult):
            start = line.index(": ") + 2
        else:
            start = 0
        if any(line.startswith(b, start) for b in longer[e.player]):
            return False
    return True


def _run(parser: Lark, text: str, start: str, first_line: int) -> Any:
    """Parse `text` from rule `start`, numbering lines from `first_line`."""
    transformer: _ToEvents = parser.options.transformer  # type: ignore[assignment]
    transformer.offset, transformer.scale = first_line - 1, 1
    return parser.parse(text, start=start)


class PokerStarsParser:
    """Reads one PokerStars hand at a time; never raises on bad input.

    Two passes share the grammar. The exact pass reads names with the seat-list lexer of
    parser/lexer.py. The fast pass, tried first, replaces the three declared name terminals
    with generic patterns and runs entirely in Lark's compiled lexer; its result is kept only
    when every name it read is a seated player and no seated name is a prefix of another
    (then both passes read the same names). Anything else goes through the exact pass, which
    is also the one that reports errors.
    """

    def __init__(self, *, pure_python: bool = False, fast: bool = True) -> None:
        cython_lexer = None if pure_python else cython_lexer_class()
        cython = cython_lexer is not None
        text = grammar_text("pokerstars")
        starts = ["hand", "header_line"]
        self._exact = _build(text, starts, cython_lexer or PyNameLexer, cython)
        self._fast: Lark | None = None
        if fast:
            self._fast = _build(_generic_grammar(text, self._exact), ["hand"], None, cython)
        self._lexer = self._exact.parser.lexer
        self._literals = literal_terminals(self._exact.terminals)
        self._words = descriptions(text)
        self.backend = "cython" if cython else "pure-python"

    def parse(self, text: str, source: str, first_line: int) -> ev.ParseResult:
        """Parse the text of one hand (LF line ends, ending with a newline).

        The game is decided from the header before the body is read: a hand of another game
        is skipped with that reason, whatever its body holds.
        """
        other = self._other_game(text, source, first_line)
        if other is not None:
            return other
        if self._fast is not None:
            try:
                header, table, events = _run(self._fast, text, "hand", first_line)
            except (LarkError, ValueError):
                pass
            else:
                if _seated_names_are_safe(events, text):
                    return self._hand(header, table, events, text, source, first_line)
        return self.parse_exact(text, source, first_line)

    def parse_exact(self, text: str, source: str, first_line: int) -> ev.ParseResult:
        """Parse with the seat-list lexer only (the reference for the fast pass)."""
        self._lexer.begin_hand()
        try:
            header, table, events = _run(self._exact, text, "hand", first_line)
        except (LarkError, ValueError) as exc:
            return self._failed(text, source, first_line, exc)
        return self._hand(header, table, events, text, source, first_line)

    def _other_game(self, text: str, source: str, first_line: int) -> ev.SkippedHand | None:
        """The hand skipped, when its header reads and names another game than Razz."""
        self._lexer.begin_hand()
        try:
            header = _run(self._exact, text[: text.find("\n") + 1], "header_line", first_line)
        except (LarkError, ValueError):
            return None  # the whole hand is read, and the error said where
        game = header["game"]
        if game.lower() == "razz":
            return None
        return ev.SkippedHand(source, first_line, header["hand_id"], game, f"{game} is not Razz")

    def _hand(
        self,
        header: dict[str, Any],
        table: dict[str, Any],
        events: list[ev.Event],
        text: str,
        source: str,
        first_line: int,
    ) -> ev.ParseResult:
        play_money = header.pop("play_money") or table["play_money_table"]
        head = ev.HandHeader(
            site=NAME,
            is_razz=True,
            ante=None,  # PokerStars headers never state the ante or the bring-in
            bring_in=None,
            table=table["table"],
            max_seats=table["max_seats"],
            play_money=play_money,
            source=source,
            first_line=first_line,
            **header,
        )
        return ev.Hand(head, tuple(events), text)

    def _failed(self, text: str, source: str, first_line: int, exc: Exception) -> ev.ParseError:
        """A `ParseError` saying what went wrong, where (the hand is Razz, or its header
        does not read)."""
        first = text.split("\n", 1)[0] + "\n"
        names = list(self._lexer.names)
        self._lexer.begin_hand()
        try:
            header = _run(self._exact, first, "header_line", first_line)
        except (LarkError, ValueError):
            header = None
        if header is not None:
            hand_id: str | None = header["hand_id"]
        else:
            m = _HAND_ID.search(first)
            hand_id = m.group(1) if m else None
        return describe_error(
            exc, text, source, first_line, hand_id, self._literals, names, self._words
        )


# ------------------------------------------------------------------ the registry's entry

_HEADER = re.compile(r"PokerStars (?:Home Game |Zoom )?(?:Hand|Game) #")
_SEAT = re.compile(r"^Seat \d+: ", re.M)
# How a summary seat line ends: `mucked [..]`, `collected ($0.39)`, `(didn't bet)`, `folded on
# the 4th Street`, `on the River`, `with Lo: 8,6,4,3,2` (five ranks; fewer is a line cut short).
_WHOLE_RESULT = re.compile(r"(?:[\])]|Street|River|Lo: [2-9TJQKA](?:,[2-9TJQKA]){4})[ \t]*\Z")


@lru_cache(maxsize=1)
def default_parser() -> PokerStarsParser:
    """One parser per process: building the LALR tables takes a moment."""
    return PokerStarsParser()


class _Reader:
    """Reads the hands of one file with the process's parser."""

    def __init__(self, parser: PokerStarsParser) -> None:
        self.parser = parser

    def read(self, raw: RawHand) -> ev.ParseResult:
        return self.parser.parse(raw.text, raw.source, raw.first_line)


class PokerStars(Site):
    """PokerStars, and the rooms that write its format (Home Games, Zoom)."""

    name = NAME
    title = "PokerStars"
    header_bytes = (b"PokerStars ",)

    def recognises(self, line: str) -> bool:
        """`PokerStars Hand #…`, `PokerStars Game #…`, `PokerStars Home Game Hand #…`.

        >>> SITE.recognises("PokerStars Game #35874566077:  Razz Limit ($0.04/$0.08 USD)")
        True
        """
        return _HEADER.match(line) is not None

    def reader(self) -> _Reader:
        return _Reader(default_parser())

    def complete(self, text: str) -> bool:
        """The summary lists every seat of the hand (a cancelled hand: at least one), and its
        last line is whole: ended, or ending as a seat's summary line ends (a file may lack
        its final line end).

        >>> SITE.complete("PokerStars Hand #1: …\\nSeat 1: a (5 in chips)\\n*** SUMMARY ***\\n"
        ...               "Seat 1: a collected (5)\\n")
        True
        """
        head, marker, summary = text.partition("*** SUMMARY ***")
        if not marker or not (text.endswith("\n") or _WHOLE_RESULT.search(text)):
            return False
        seats, listed = len(_SEAT.findall(head)), len(_SEAT.findall(summary))
        return listed >= 1 if "\nHand cancelled" in head else listed >= seats > 0


SITE = PokerStars()
