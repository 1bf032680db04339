"""The catalog of Razz rules the auditor enforces, as data: ID, section and text.

IDs and texts are those of `RAZZ_RULES.md` (a test keeps them in step); the texts keep the
document's Markdown, which the dashboard renders. `PARSE` is a pseudo-rule for hands that
could not be read at all.

>>> rule(RuleId.ORDER_TIE).section
'Who acts, and when'
>>> rule("BRINGIN-SUIT").plain.split(":")[0]
'If two or more door cards share the highest rank, suit decides'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

_MARKUP = re.compile(r"\*\*|`")


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of the catalog."""

    id: RuleId
    section: str
    text: str  # Markdown, verbatim from RAZZ_RULES.md

    @property
    def plain(self) -> str:
        """The text without Markdown emphasis and code marks."""
        return _MARKUP.sub("", self.text)


class RuleId(StrEnum):
    """The stable ID of a rule, exactly as `RAZZ_RULES.md` writes it."""

    STRUCT_LIMIT = "STRUCT-LIMIT"
    STRUCT_ANTE = "STRUCT-ANTE"
    STRUCT_BRINGIN_SIZE = "STRUCT-BRINGIN-SIZE"
    STRUCT_SMALL = "STRUCT-SMALL"
    STRUCT_BIG = "STRUCT-BIG"
    STRUCT_NO_DOUBLE = "STRUCT-NO-DOUBLE"
    STRUCT_CAP = "STRUCT-CAP"
    DEAL_3RD = "DEAL-3RD"
    DEAL_UP = "DEAL-UP"
    DEAL_7TH = "DEAL-7TH"
    DEAL_COMMUNITY = "DEAL-COMMUNITY"
    DEAL_UNIQUE = "DEAL-UNIQUE"
    DEAL_COUNT = "DEAL-COUNT"
    BRINGIN_WHO = "BRINGIN-WHO"
    BRINGIN_SUIT = "BRINGIN-SUIT"
    BRINGIN_ALLIN = "BRINGIN-ALLIN"
    BRINGIN_CHOICE = "BRINGIN-CHOICE"
    ORDER_3RD = "ORDER-3RD"
    ORDER_LATER = "ORDER-LATER"
    ORDER_TIE = "ORDER-TIE"
    ORDER_ALLIN = "ORDER-ALLIN"
    ORDER_CLOCKWISE = "ORDER-CLOCKWISE"
    ACT_CHOICES = "ACT-CHOICES"
    ACT_CHECK = "ACT-CHECK"
    ACT_CALL = "ACT-CALL"
    ACT_COMPLETE = "ACT-COMPLETE"
    ACT_RAISE_SIZE = "ACT-RAISE-SIZE"
    ACT_ALLIN_SHORT = "ACT-ALLIN-SHORT"
    ACT_TURN = "ACT-TURN"
    ACT_UNCALLED = "ACT-UNCALLED"
    SHOW_ORDER = "SHOW-ORDER"
    HAND_LOW = "HAND-LOW"
    HAND_PAIRS = "HAND-PAIRS"
    HAND_COMPARE = "HAND-COMPARE"
    WIN_NOQUAL = "WIN-NOQUAL"
    WIN_SPLIT = "WIN-SPLIT"
    POT_SIDE = "POT-SIDE"
    POT_RAKE = "POT-RAKE"
    LOG_STACK = "LOG-STACK"
    LOG_CONTINUITY = "LOG-CONTINUITY"
    LOG_DESC = "LOG-DESC"
    LOG_SUMMARY = "LOG-SUMMARY"
    LOG_CARDS = "LOG-CARDS"
    PARSE = "PARSE"  # not a rule of the game: the hand could not be read


RULES: tuple[Rule, ...] = (
    Rule(
        RuleId.STRUCT_LIMIT,
        "Betting structure",
        (
            "Razz is fixed-limit. A game has a small bet and a big bet; the big bet is twice the "
            "small bet (e.g. `$0.04/$0.08`, `$1/$2`, tournament level `50/100`)."
        ),
    ),
    Rule(
        RuleId.STRUCT_ANTE,
        "Betting structure",
        (
            "Every player dealt in posts the ante before any card is dealt. The ante is a fixed "
            "fraction of the small bet, set per game (PokerStars `$0.04/$0.08` → ante `$0.01`; "
            "one room quotes ante `$0.15` in a `$1/$2` game; another says the big bet is usually "
            "ten times the ante). A player whose stack is smaller than the ante posts it all-in."
        ),
    ),
    Rule(
        RuleId.STRUCT_BRINGIN_SIZE,
        "Betting structure",
        (
            "The bring-in is a forced bet of a fixed nominal amount, larger than the ante and "
            "smaller than the small bet (about half the small bet: `$2/$4` → bring-in `$1`; "
            "PokerStars `$0.04/$0.08` → `$0.02`; tournament `50/100` with ante 10 → bring-in 15)."
        ),
    ),
    Rule(
        RuleId.STRUCT_SMALL,
        "Betting structure",
        "On 3rd and 4th street every bet and raise is one small bet.",
    ),
    Rule(
        RuleId.STRUCT_BIG,
        "Betting structure",
        "On 5th, 6th and 7th street every bet and raise is one big bet.",
    ),
    Rule(
        RuleId.STRUCT_NO_DOUBLE,
        "Betting structure",
        (
            'There is no "open pair on 4th street" double bet in Razz (that rule belongs to Seven'
            " Card Stud high). A big bet on 4th street is a violation."
        ),
    ),
    Rule(
        RuleId.STRUCT_CAP,
        "Betting structure",
        (
            "A betting round allows one bet (or completion) plus a fixed number of raises. The "
            "common cap is three raises (four bets in all, PokerStars logs `Betting is capped`); "
            "the bring-in itself is not a bet for this count. Whether the cap is lifted heads-up "
            "is a ruleset parameter; PokerStars keeps it heads-up (its real 2-max limit logs "
            "print `Betting is capped` after three raises between two players)."
        ),
    ),
    Rule(
        RuleId.DEAL_3RD,
        "Dealing",
        (
            "3rd street: each player gets two cards face down (hole cards) and one face up (the "
            "door card)."
        ),
    ),
    Rule(
        RuleId.DEAL_UP,
        "Dealing",
        "4th, 5th and 6th street: one more card face up to every player still in the hand.",
    ),
    Rule(
        RuleId.DEAL_7TH,
        "Dealing",
        "7th street (the river): the last card is dealt face down; only its owner sees it.",
    ),
    Rule(
        RuleId.DEAL_COMMUNITY,
        "Dealing",
        (
            "With eight players and 52 cards the deck can run out. If there are not enough cards "
            "left for every remaining player on 7th street, a single community card is dealt face"
            " up in the middle and is shared by all remaining players."
        ),
    ),
    Rule(
        RuleId.DEAL_UNIQUE,
        "Dealing",
        (
            "A card exists once: no card may appear twice in a hand (across all players, the "
            "community card and the shown cards)."
        ),
    ),
    Rule(
        RuleId.DEAL_COUNT,
        "Dealing",
        (
            "A player still in the hand holds exactly 3, 4, 5, 6, 7 cards after 3rd … 7th street "
            "(2 down + 1 up, … , 2 down + 4 up + 1 down)."
        ),
    ),
    Rule(
        RuleId.BRINGIN_WHO,
        "Who acts, and when",
        (
            "On 3rd street the player with the **highest** door card must bring in. Kings are "
            "highest and aces are always lowest (A is the best, K the worst door card)."
        ),
    ),
    Rule(
        RuleId.BRINGIN_SUIT,
        "Who acts, and when",
        (
            "If two or more door cards share the highest rank, suit decides: spades are highest, "
            "then hearts, then diamonds, then clubs. The highest suit brings in (Q♥ brings in "
            "before Q♦; K♠ is the worst possible door card). Suits are used for nothing else in "
            "Razz."
        ),
    ),
    Rule(
        RuleId.BRINGIN_ALLIN,
        "Who acts, and when",
        (
            "If the player who should bring in is already all-in from the ante, the bring-in "
            "passes clockwise to the next player in the hand, whatever that player's door card."
        ),
    ),
    Rule(
        RuleId.BRINGIN_CHOICE,
        "Who acts, and when",
        ("The bring-in player either posts the bring-in amount or completes to a full small bet."),
    ),
    Rule(
        RuleId.ORDER_3RD,
        "Who acts, and when",
        (
            "On 3rd street, action starts with the bring-in and moves clockwise (increasing seat "
            "number, wrapping around)."
        ),
    ),
    Rule(
        RuleId.ORDER_LATER,
        "Who acts, and when",
        (
            "On 4th, 5th, 6th and 7th street the player whose **exposed** cards form the best "
            "(lowest) poker low acts first: compare exposed cards with the same ace-to-five "
            "ranking as showdown hands, so any unpaired board beats any paired board, a lower "
            "pair beats a higher pair, and unpaired boards compare from their highest card down. "
            "7th street keeps the order of 6th street (the river card is hidden)."
        ),
    ),
    Rule(
        RuleId.ORDER_TIE,
        "Who acts, and when",
        (
            "If two exposed boards are exactly equal in rank, the player in the earlier seat "
            "(seat order, from seat 1) acts first. Ruleset parameter: the tie-break rule."
        ),
    ),
    Rule(
        RuleId.ORDER_ALLIN,
        "Who acts, and when",
        (
            "If the player with the best board is all-in, the action starts with the next player "
            "clockwise who can still act. Ruleset parameter (another reading: the best board "
            "among players who can act)."
        ),
    ),
    Rule(
        RuleId.ORDER_CLOCKWISE,
        "Who acts, and when",
        (
            "After the first player, action moves clockwise among players who have not folded and"
            " are not all-in, until every one has acted and all bets are equal."
        ),
    ),
    Rule(
        RuleId.ACT_CHOICES,
        "Betting actions",
        (
            "Available actions are fold, check, bet, call and raise. With no bet in the round a "
            "player may check or bet (fold is allowed but wasteful); facing a bet a player may "
            "fold, call or raise."
        ),
    ),
    Rule(
        RuleId.ACT_CHECK,
        "Betting actions",
        "A check is only legal when there is no bet to call.",
    ),
    Rule(
        RuleId.ACT_CALL,
        "Betting actions",
        (
            "A call puts in exactly the amount needed to match the current bet (less only when "
            "all-in)."
        ),
    ),
    Rule(
        RuleId.ACT_COMPLETE,
        "Betting actions",
        (
            'When the only wager on 3rd street is the bring-in, the first raise "completes" the '
            "bet to exactly one small bet; later raises are one small bet each."
        ),
    ),
    Rule(
        RuleId.ACT_RAISE_SIZE,
        "Betting actions",
        (
            "Every bet and raise is exactly one betting unit for the street (STRUCT-SMALL / "
            "STRUCT-BIG), except an all-in for less."
        ),
    ),
    Rule(
        RuleId.ACT_ALLIN_SHORT,
        "Betting actions",
        (
            "An all-in for less than a full bet, completion or raise does not reopen the betting "
            "to players who have already acted (ruleset parameter: some rooms treat half a bet or"
            " more as a full raise). The next player may call the short amount or make the full "
            "wager (for example complete to the small bet after a short all-in over the "
            "bring-in); whether the following raise is counted from the short amount, and whether"
            " a short all-in counts toward the cap, are ruleset parameters."
        ),
    ),
    Rule(
        RuleId.ACT_TURN,
        "Betting actions",
        (
            "Nobody acts out of turn; a player who folded never acts again; a player who is "
            "all-in is skipped."
        ),
    ),
    Rule(
        RuleId.ACT_UNCALLED,
        "Betting actions",
        (
            "A bet or raise that nobody calls is returned to its owner, and the hand ends without"
            " showdown when only one player is left."
        ),
    ),
    Rule(
        RuleId.SHOW_ORDER,
        "Showdown and the pot",
        (
            "If more than one player remains after the last betting round, the last player to bet "
            "or raise on that round shows first; a log that shows another hand first breaks the "
            "rule (an error). If there was no bet on the last round, the rule pages of PokerStars "
            "and of another room say the player in the earliest seat shows first (seat 1, then "
            "seat 2, …), the others clockwise from the first. Real PokerStars logs do not always "
            "list the `shows` lines in that order after a checked last round (heads-up hands "
            "where seat 2's `shows` line comes before seat 1's; most multi-way hands do follow "
            "seat order), so in that case the log's order is weak evidence: report a deviation as "
            "a **warning**, never an error. When side pots exist, PokerStars resolves them one at "
            "a time from the last side pot down to the main pot, interleaving `shows` and "
            "`collected` lines."
        ),
    ),
    Rule(
        RuleId.HAND_LOW,
        "Showdown and the pot",
        (
            'Hands are ace-to-five low ("California" low): aces are low, straights and flushes do'
            " not count. Each player makes the best five-card low from seven cards. The best "
            "possible hand is the wheel `5-4-3-2-A`."
        ),
    ),
    Rule(
        RuleId.HAND_PAIRS,
        "Showdown and the pot",
        (
            "Any unpaired hand beats any hand with a pair; one pair beats two pair; two pair beat"
            " three of a kind; then full house, then four of a kind."
        ),
    ),
    Rule(
        RuleId.HAND_COMPARE,
        "Showdown and the pot",
        (
            "Unpaired hands compare from the highest card down: `8-7-6-4-3` beats `9-4-3-2-A` (8 "
            "is lower than 9); `8-5-4-3-2` beats `8-6-3-2-A` (5 < 6); `8-5-4-3-A` beats "
            "`8-5-4-3-2` (the ace is low). Paired hands compare pair rank first: `9-4-3-A-A` "
            "beats `9-4-3-2-2`."
        ),
    ),
    Rule(
        RuleId.WIN_NOQUAL,
        "Showdown and the pot",
        "There is no qualifier: the best low always wins the whole pot.",
    ),
    Rule(
        RuleId.WIN_SPLIT,
        "Showdown and the pot",
        (
            "Hands of equal value split the pot equally. Suits never break a showdown tie. Odd "
            "chips follow the room's odd-chip rule (ruleset parameter; e.g. to the earliest "
            "seat)."
        ),
    ),
    Rule(
        RuleId.POT_SIDE,
        "Showdown and the pot",
        ("When a player is all-in, side pots are formed; each pot goes to the best eligible hand."),
    ),
    Rule(
        RuleId.POT_RAKE,
        "Showdown and the pot",
        (
            "The amount collected by the winners equals the pot minus the rake; the summary's "
            "total pot equals all contributions."
        ),
    ),
    Rule(
        RuleId.LOG_STACK,
        "Consistency of the log itself",
        (
            "No player puts in more chips than the stack they started the hand with; an all-in is"
            " marked as such."
        ),
    ),
    Rule(
        RuleId.LOG_CONTINUITY,
        "Consistency of the log itself",
        (
            "At the same table, a player's starting stack in a hand equals their final stack in "
            "the previous hand they played there. In cash games it may grow between hands "
            "(PokerStars does not log top-ups) but never shrink, unless the player left the table"
            " and came back; in tournaments it must match exactly."
        ),
    ),
    Rule(
        RuleId.LOG_DESC,
        "Consistency of the log itself",
        ("A shown hand's description (`Lo: 8,6,4,2,A`) is the best low that the shown cards make."),
    ),
    Rule(
        RuleId.LOG_SUMMARY,
        "Consistency of the log itself",
        (
            "The summary agrees with the body: every seat's result line matches what happened "
            "(folded on the street where the fold is, collected what was collected, showed what "
            "was shown)."
        ),
    ),
    Rule(
        RuleId.LOG_CARDS,
        "Consistency of the log itself",
        (
            "Each player's cards shown on a later street repeat, unchanged, the cards shown "
            "earlier; a hero's down cards never change."
        ),
    ),
)

PARSE_RULE = Rule(
    RuleId.PARSE,
    "Parsing",
    "The hand must be readable: every line must be a line the site writes. A hand that "
    "cannot be read is reported with the line and column where reading stopped.",
)

RULES_BY_ID: dict[str, Rule] = {r.id.value: r for r in (*RULES, PARSE_RULE)}


def rule(rule_id: str) -> Rule:
    """The rule with this ID (a `RuleId` or its text); KeyError for an unknown ID.

    >>> rule("ACT-CHECK").text
    'A check is only legal when there is no bet to call.'
    """
    return RULES_BY_ID[str(rule_id)]
