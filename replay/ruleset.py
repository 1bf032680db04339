"""What rooms do differently, as data: a frozen `Ruleset` per room, PokerStars by default.

The engine never asks which room it is replaying; it reads these fields. A room whose rules
differ gets a new `Ruleset`, not a new branch in the engine.

Every parameter of a ruleset carries its `Evidence`: the rule of RAZZ_RULES.md, the room's
rule page or the real log line (file of ../shared/corpus/ and the line, verbatim) that
settles it. A log that deviates from a settled parameter breaks the rule (an error); a
parameter the room's rules and logs leave open is marked unsettled, and a deviation from it
is only a warning. The stakes table gives the ante and the bring-in per stake level, each
with the log line or format note that shows it, so that one hand is enough to find a wrong
amount.

>>> POKERSTARS.max_raises, POKERSTARS.cap_heads_up
(3, True)
>>> get_ruleset("cardroom").cap_heads_up
False
>>> POKERSTARS.settles("cap_heads_up"), POKERSTARS.settles("short_all_in_counts_to_cap")
(True, False)
>>> s = POKERSTARS.stakes_for(Unit.CHIP, 50, 100)
>>> (s.ante, s.bring_in)
(10, 15)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from razz.parser.events import Unit


class TieBreak(StrEnum):
    """Who acts first on 4th street and later when the best exposed boards are equal."""

    EARLIEST_SEAT = "earliest_seat"  # the lowest seat number (seat 1 first)
    LATEST_SEAT = "latest_seat"  # the highest seat number


class AllInOpener(StrEnum):
    """Who opens a later street when the best board belongs to a player who is all-in."""

    NEXT_CLOCKWISE = "next_clockwise"  # the next player clockwise from the best board who can act
    BEST_ACTIVE = "best_active"  # the best board among the players who can still act


class ShortAllIn(StrEnum):
    """When an all-in for less than a full bet, completion or raise counts as a full one."""

    NEVER = "never"  # a short all-in never reopens the betting
    HALF_OR_MORE = "half_or_more"  # half a full increment or more is treated as a full one


class OddChip(StrEnum):
    """Who gets the chips left over when a pot is split."""

    EARLIEST_SEAT = "earliest_seat"  # one chip each to the tied winners in seat order
    LOWEST_CARD = "lowest_card"  # first to the winner holding the lowest card by rank, then suit


@dataclass(frozen=True, slots=True)
class Evidence:
    """Why a ruleset parameter has its value, and whether that settles it.

    `source` names where the value comes from (`RAZZ_RULES.md STRUCT-CAP`, a real log:
    `corpus pokerstars/<file>`, or the room's own rule page: `room page: <its title>`);
    `quote` is the rule's words or the log line(s), verbatim.
    An unsettled parameter (`settled=False`) is the auditor's best reading where the room's
    rules and logs say nothing: a deviation from it is a warning, and `quote` says why.
    """

    source: str
    quote: str
    settled: bool = True


@dataclass(frozen=True, slots=True)
class Stakes:
    """The ante and bring-in a room sets for one stake level (None: not stated), and why."""

    unit: Unit
    small_bet: int
    big_bet: int
    ante: int | None
    bring_in: int | None
    evidence: Evidence | None = None
    tournament: bool | None = None  # None: cash games and tournaments alike


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The rules a room chooses where Razz rooms disagree."""

    name: str
    title: str
    # STRUCT-CAP: raises allowed after the bet or completion (None: no cap).
    max_raises: int | None = 3
    # STRUCT-CAP: whether the cap still applies when only two players are left in the hand.
    cap_heads_up: bool = True
    # STRUCT-ANTE, STRUCT-BRINGIN-SIZE: amounts per stakes; missing stakes are inferred from logs.
    stakes: tuple[Stakes, ...] = ()
    # ORDER-TIE
    tie_break: TieBreak = TieBreak.EARLIEST_SEAT
    # ORDER-ALLIN
    all_in_opener: AllInOpener = AllInOpener.NEXT_CLOCKWISE
    # ACT-ALLIN-SHORT: when a short all-in counts as full (it then reopens and counts to the cap).
    short_all_in: ShortAllIn = ShortAllIn.NEVER
    # ACT-ALLIN-SHORT: whether a short all-in that is not full still counts toward the cap.
    short_all_in_counts_to_cap: bool = False
    # ACT-ALLIN-SHORT: whether a full raise after a short all-in is one unit over the short
    # amount (True) or over the last full bet (False).
    raise_over_short_all_in: bool = True
    # WIN-SPLIT
    odd_chip: OddChip = OddChip.EARLIEST_SEAT
    # STRUCT-BRINGIN-SIZE: whether the bring-in must be more than the ante (False: it may
    # equal it, as in WSOP stud structures).
    bring_in_over_ante: bool = True
    # POT-RAKE: the largest rake the room takes, in percent of the total pot (None: unknown).
    # Not a finding of its own: it tells a misstated rake from a wrong payment when the
    # collections and the pot less the rake disagree (a rake above it is the wrong line).
    max_rake_percent: int | None = None
    # POT-RAKE: whether the room takes no rake from a hand that ends on 3rd street (before any
    # 4th-street card is dealt), as "no flop, no drop" in flop games.
    no_rake_on_third_street: bool = False
    # Why each parameter above has its value: (parameter name, evidence) pairs.
    evidence: tuple[tuple[str, Evidence], ...] = ()

    def evidence_for(self, parameter: str) -> Evidence | None:
        """The evidence for one parameter (by field name), if the ruleset gives any."""
        for name, found in self.evidence:
            if name == parameter:
                return found
        return None

    def settles(self, parameter: str) -> bool:
        """Whether the room's rules or logs settle this parameter: a deviation is an error.

        A parameter without evidence, or with evidence marked unsettled, does not.
        """
        found = self.evidence_for(parameter)
        return found is not None and found.settled

    def stakes_for(
        self, unit: Unit, small_bet: int, big_bet: int, tournament: bool | None = None
    ) -> Stakes | None:
        """The room's stated ante and bring-in for these stakes, if it states them.

        `tournament` None matches cash and tournament entries alike.

        >>> POKERSTARS.stakes_for(Unit.CENT, 4, 8).bring_in
        2
        >>> POKERSTARS.stakes_for(Unit.CHIP, 50, 100, tournament=False) is None
        True
        """
        for s in self.stakes:
            if s.small_bet != small_bet or s.big_bet != big_bet or s.unit != unit:
                continue
            if tournament is None or s.tournament is None or s.tournament == tournament:
                return s
        return None


_RAZZ_CASH = "corpus pokerstars/Razz-USD-0.04-0.08-200911.txt"


def _stars_level(small_bet: int, ante: int, bring_in: int, source: str, quote: str) -> Stakes:
    """A PokerStars tournament level (chips): ante a fifth, bring-in 3/10 of the small bet."""
    return Stakes(
        Unit.CHIP,
        small_bet,
        2 * small_bet,
        ante,
        bring_in,
        Evidence(source, quote),
        tournament=True,
    )


# The ante and bring-in per stake level that real PokerStars logs show. Stars prints neither in
# the header, so each entry is taken from the ante and bring-in lines of a real hand. The stud
# games of a Stars tournament (HORSE, 8-Game, Triple Stud) share one structure per level, so
# Stud and Stud Hi/Lo hands show the amounts of Razz at the same level too: every level below,
# Razz or not, is ante = small bet / 5 and bring-in = 3 × small bet / 10.
POKERSTARS_STAKES: tuple[Stakes, ...] = (
    Stakes(
        Unit.CENT,
        4,
        8,
        ante=1,
        bring_in=2,
        evidence=Evidence(
            f"{_RAZZ_CASH}:8,19",
            "kobreli: posts the ante $0.01\nkobreli: brings in for $0.02",
        ),
        tournament=False,
    ),
    _stars_level(
        30,
        6,
        9,
        "FORMATS.md 1.4",
        "HG 30/60 has ante 6 and bring-in 9",
    ),
    _stars_level(
        50,
        10,
        15,
        "FORMATS.md 1.4",
        "MTT Level IV 50/100 has ante 10 and bring-in 15",
    ),
    _stars_level(
        200,
        40,
        60,
        "corpus pokerstars/7-StudHL-USD-0.98-0.12-202302.allin.ante.txt:11,28",
        "Player0: posts the ante 40\nPlayer5: brings in for 60",
    ),
    _stars_level(
        250,
        50,
        75,
        "corpus pokerstars/Triple-Stud-USD-2.00-0.20-MTT-201301.txt:11,25",
        "Player0: posts the ante 50\nPlayer1: brings in for 75",
    ),
)

POKERSTARS = Ruleset(
    name="pokerstars",
    title="PokerStars",
    max_raises=3,
    cap_heads_up=True,
    stakes=POKERSTARS_STAKES,
    tie_break=TieBreak.EARLIEST_SEAT,
    all_in_opener=AllInOpener.NEXT_CLOCKWISE,
    short_all_in=ShortAllIn.NEVER,
    short_all_in_counts_to_cap=False,
    raise_over_short_all_in=True,
    odd_chip=OddChip.EARLIEST_SEAT,
    max_rake_percent=5,
    no_rake_on_third_street=True,
    evidence=(
        (
            "max_raises",
            # a bet and three raises, then the room closes the round
            Evidence(
                f"{_RAZZ_CASH}:485,486,487,488,489",
                "kobreli: bets $0.08\nSilkZone: raises $0.08 to $0.16\n"
                "kobreli: raises $0.08 to $0.24\nSilkZone: raises $0.08 to $0.32\n"
                "Betting is capped",
            ),
        ),
        (
            "cap_heads_up",
            # the capped river above is heads-up: the third player folded on 5th street
            Evidence(
                f"{_RAZZ_CASH}:477,484,488,489",
                "Hero: folds\n*** RIVER ***\nSilkZone: raises $0.08 to $0.32\nBetting is capped",
            ),
        ),
        (
            "stakes",
            Evidence(
                "FORMATS.md 1.4",
                "The ante and the bring-in never appear in the header.",
            ),
        ),
        (
            "tie_break",
            Evidence(
                "RAZZ_RULES.md ORDER-TIE",
                "If two exposed boards are exactly equal in rank, the player in the earlier seat"
                " (seat order, from seat 1) acts first.",
            ),
        ),
        (
            "all_in_opener",
            Evidence(
                "RAZZ_RULES.md ORDER-ALLIN",
                "If the player with the best board is all-in, the action starts with the next"
                " player clockwise who can still act.",
            ),
        ),
        (
            "short_all_in",
            Evidence(
                "RAZZ_RULES.md ACT-ALLIN-SHORT",
                "An all-in for less than a full bet, completion or raise does not reopen the"
                " betting to players who have already acted",
            ),
        ),
        (
            "short_all_in_counts_to_cap",
            Evidence(
                "RAZZ_RULES.md ACT-ALLIN-SHORT",
                "whether a short all-in counts toward the cap, are ruleset parameters.",
                settled=False,  # no Stars rule page or log in the corpus shows it
            ),
        ),
        (
            "raise_over_short_all_in",
            Evidence(
                "RAZZ_RULES.md ACT-ALLIN-SHORT",
                "whether the following raise is counted from the short amount",
                settled=False,  # no Stars rule page or log in the corpus shows it
            ),
        ),
        (
            "bring_in_over_ante",
            # the bring-in ($0.02) is twice the ante ($0.01) in every real Stars Razz hand
            Evidence(
                f"{_RAZZ_CASH}:8,19",
                "kobreli: posts the ante $0.01\nkobreli: brings in for $0.02",
            ),
        ),
        (
            "max_rake_percent",
            # every cash hand of the corpus (20 of them) takes at most 5% of its total pot,
            # and tournament hands take none
            Evidence(
                f"{_RAZZ_CASH}:51,113,186",
                "Total pot $0.41 | Rake $0.02\nTotal pot $0.48 | Rake $0.02\n"
                "Total pot $0.71 | Rake $0.03",
                settled=False,  # the room's rake schedule itself is not in the corpus
            ),
        ),
        (
            "no_rake_on_third_street",
            Evidence(
                "room page: PokerStars help, 'Leader Boards - Rake required for winning hands'",
                "We don't charge the rake for hands ending on the first betting round (before"
                " the flop in Hold'em or Omaha, before Fourth Street in Stud variants, or before"
                " the Draw in Draw variants).",
            ),
        ),
        (
            "odd_chip",
            Evidence(
                "RAZZ_RULES.md WIN-SPLIT",
                "Odd chips follow the room's odd-chip rule (ruleset parameter; e.g. to the"
                " earliest seat).",
            ),
        ),
    ),
)

CARDROOM = Ruleset(
    name="cardroom",
    title="Card room (Robert's Rules of Poker style)",
    # Live card rooms commonly lift the cap when the pot is heads-up.
    max_raises=3,
    cap_heads_up=False,
    # Two of the amounts quoted in RAZZ_RULES.md: ante $0.15 at $1/$2, bring-in $1 at $2/$4.
    stakes=(
        Stakes(Unit.CENT, 100, 200, ante=15, bring_in=None),
        Stakes(Unit.CENT, 200, 400, ante=None, bring_in=100),
    ),
    tie_break=TieBreak.EARLIEST_SEAT,
    # The other reading of ORDER-ALLIN: the best board among the players who can act.
    all_in_opener=AllInOpener.BEST_ACTIVE,
    # The limit-poker "half-bet rule": an all-in of half a bet or more is a full bet or raise.
    short_all_in=ShortAllIn.HALF_OR_MORE,
    short_all_in_counts_to_cap=False,
    raise_over_short_all_in=True,
    # Stud custom: the odd chip goes to the lowest card by suit in a low game.
    odd_chip=OddChip.LOWEST_CARD,
)

PHH = Ruleset(
    name="phh",
    title="PHH (WSOP live rules)",
    # The PHH standard asks annotators to follow the WSOP rules (../docs/phh-std/spec.rst,
    # "Rules"); its only Razz hands are the 2023 WSOP $50,000 PPC final table, transcribed
    # and checked against the broadcast's stack overlays (validation.rst). Where they show a
    # parameter, it is set from them; the rest is PokerStars' (they show nothing else).
    max_raises=3,
    cap_heads_up=True,  # no hand of the corpus reaches a cap: PokerStars' until one does
    # `antes = [50000, …]`, `bring_in = 50000` at 200,000/400,000 and 100,000 / 100,000 at
    # 300,000/600,000 (wsop-2023-43-5-20.phh, -83.phh): the WSOP bring-in equals the ante.
    bring_in_over_ante=False,
    stakes=(),
    tie_break=TieBreak.EARLIEST_SEAT,
    all_in_opener=AllInOpener.NEXT_CLOCKWISE,
    short_all_in=ShortAllIn.NEVER,
    short_all_in_counts_to_cap=False,
    raise_over_short_all_in=True,
    odd_chip=OddChip.EARLIEST_SEAT,
)

MERGE = Ruleset(
    name="merge",
    title="Merge Network",
    # Five real Razz hands (../corpus/merge) and no published rule page: they complete,
    # raise and go all-in as PokerStars does; no hand reaches a cap, splits a pot or ties
    # on a board, so those parameters are PokerStars' until a Merge hand shows otherwise.
    max_raises=3,
    cap_heads_up=True,
    stakes=(),
    tie_break=TieBreak.EARLIEST_SEAT,
    all_in_opener=AllInOpener.NEXT_CLOCKWISE,
    short_all_in=ShortAllIn.NEVER,
    short_all_in_counts_to_cap=False,
    raise_over_short_all_in=True,
    odd_chip=OddChip.EARLIEST_SEAT,
)

# The rooms of FORMATS.md §2, §3, §5. Each differs from PokerStars only where a parameter is
# written down below with its evidence. Where a room's practice cannot be known from its logs
# (the rooms are closed or wrote few Razz hands), the PokerStars value is kept and the engine
# reports the disputed readings as warnings, not errors: a raise past the cap heads-up
# (STRUCT-CAP), an all-in of half a bet or more treated as full (ACT-ALLIN-SHORT), the other
# reading of who opens after an all-in board (ORDER-ALLIN), an odd chip split (WIN-SPLIT).

FULLTILT = replace(
    POKERSTARS,
    name="fulltilt",
    evidence=(),  # PokerStars' evidence is not this room's: nothing is settled here
    title="Full Tilt Poker",
    # The ante and the bring-in need no inference: the header states the ante
    # (`$0.10/$0.20 Ante $0.02`, FORMATS.md §2) and the engine takes it from there; the
    # bring-in is the one real logs post (`Player5 brings in for $0.03`). Full Tilt wrote no
    # `Betting is capped` line and no capped Razz round is in the corpus: the cap (a bet and
    # three raises) and whether it holds heads-up cannot be known from its logs, so they stay
    # PokerStars' and a raise past the cap heads-up is only a warning (see above).
    stakes=(),
)

WINAMAX = replace(
    POKERSTARS,
    name="winamax",
    evidence=(),  # PokerStars' evidence is not this room's: nothing is settled here
    title="Winamax",
    # The header states the ante with the bets: `Razz fixed limit (5€/25€/50€)` (FORMATS.md
    # §3), and the engine takes it from there. The bring-in is read from the hand (`Hero
    # brings in 10€`): one real hand is too little to state it per stakes. One real Razz
    # hand, with no cap reached, no tie and no all-in: every other parameter cannot be known
    # from Winamax's logs and stays PokerStars' (warnings, see above).
    stakes=(),
)

KINGSCLUB = replace(
    POKERSTARS,
    name="kingsclub",
    evidence=(),  # PokerStars' evidence is not this room's: nothing is settled here
    title="KingsClub",
    # Neither the ante nor the bring-in is in the header (`#39969356: Limit Razz - 40/80`):
    # both are read from the hand (`Player0: posts ante 10`, `Player0 brings in for 10`;
    # FORMATS.md §5). Every real KingsClub Razz hand brings in for exactly the ante, at both
    # stakes the logs show (`posts ante 10` / `brings in for 10` at 40/80; `posts ante 125` /
    # `brings in for 125` at 500/1,000): that is the room's structure, as it is the WSOP's,
    # so a bring-in equal to the ante is not a violation here (one smaller still is).
    # No capped round, tie or all-in board opener in the real hands: the rest cannot be known
    # and stays PokerStars' (warnings, see above).
    bring_in_over_ante=False,
    stakes=(),
)

RULESETS: dict[str, Ruleset] = {
    r.name: r for r in (POKERSTARS, CARDROOM, PHH, MERGE, FULLTILT, WINAMAX, KINGSCLUB)
}


def get_ruleset(name: str) -> Ruleset:
    """The ruleset with this name (case-insensitive); KeyError lists the known names.

    >>> get_ruleset("PokerStars").title
    'PokerStars'
    """
    try:
        return RULESETS[name.lower()]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}; known: {', '.join(RULESETS)}") from None


def site_ruleset(site: str) -> Ruleset:
    """The rules of a hand's site (the fallback site's for a site not registered).

    >>> site_ruleset("PokerStars").name
    'pokerstars'
    """
    from razz.parser import sites  # the sites name their rulesets: imported when asked

    try:
        name = sites.by_name(site).ruleset
    except KeyError:
        name = sites.FALLBACK.ruleset
    return get_ruleset(name)
