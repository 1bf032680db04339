"""What a site is to the reader: it recognises its files, cuts them into hands, reads a hand.

Every site of `razz.parser.sites` is one `Site`: a small module with one job per method. The
reader decodes a file's bytes (UTF-8 or UTF-16, any line ends) and asks the registry which
site writes it; that site cuts the text into `RawHand`s and reads each into events. A site
the project recognises but does not read yet skips each hand with its game and why
(`HeaderOnly`), so a Razz file of it is never reported as unreadable.

>>> lines = [("a\\n", False), ("\\n", False), ("b\\n", False), ("#2\\n", False)]
>>> [raw.text for raw in text_cut(lines, "x", lambda line: line.startswith("#"))]
['a\\n', 'b\\n', '#2\\n']
"""

from __future__ import annotations

import os
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, Protocol

from razz.parser.events import ParseResult, SkippedHand


def _setting(name: str, default: int) -> int:
    """A bound on what one input may cost: the environment variable `name` when it holds a
    positive whole number, else `default` (see `razz.store.sources.Limits` for the others)."""
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else default


MAX_LINE = _setting("RAZZ_MAX_LINE_CHARS", 64 * 1024)  # characters; real lines are under 200
MAX_HAND_LINES = _setting("RAZZ_MAX_HAND_LINES", 5000)  # real hands have under 200 lines
LINE_TOO_LONG = f"line longer than {MAX_LINE:,} characters (RAZZ_MAX_LINE_CHARS)"
"""Why a hand with an over-long line is not read: one line, naming the setting."""
HAND_TOO_LONG = f"hand longer than {MAX_HAND_LINES:,} lines (RAZZ_MAX_HAND_LINES)"
"""Why a hand with too many lines is not read: one line, naming the setting."""


@dataclass(frozen=True, slots=True)
class RawHand:
    """The text of one hand, cut from a file, not yet read."""

    source: str
    first_line: int
    text: str  # LF line ends, ends with "\n"
    problem: str | None = None  # why the text cannot be a hand (a line or the hand too long)
    problem_line: int = 0


class SeatSummary(StrEnum):
    """Which seats the summary gives a result line to."""

    EVERY = "every"  # one line per seat (PokerStars, Full Tilt)
    WINNERS = "winners"  # the winners only (Winamax)
    NONE = "none"  # no result lines to check against the hand (KingsClub's stacks, PHH)


@dataclass(frozen=True, slots=True)
class Dialect:
    """What a site's log format promises to write beyond the events that make the hand: the
    consistency lines the LOG- and summary checks hold a hand to. A check of a line the
    format does not promise never fires. Everything PokerStars writes is the default; a site
    turns off what its format lacks, each with its evidence (FORMATS.md).

    >>> Dialect().cap_line, Dialect(cap_line=False).cap_line
    (True, False)
    """

    cap_line: bool = True  # `Betting is capped` when a round reaches the cap (STRUCT-CAP)
    all_in_marked: bool = True  # every all-in line says so, `and is all-in` (LOG-STACK)
    uncalled_line: bool = True  # a bet nobody called is returned on a line (ACT-UNCALLED)
    summary: bool = True  # a `*** SUMMARY ***` section ends the hand (LOG-SUMMARY)
    total_pot: bool = True  # the summary gives the total pot and the rake (POT-RAKE)
    seat_summary: SeatSummary = SeatSummary.EVERY  # the summary's result lines (LOG-SUMMARY)
    didnt_bet: bool = True  # `(didn't bet)` after a 3rd-street fold with only the ante in
    lo_description: bool = True  # a shown hand is described `Lo: 8,6,4,3,2` (LOG-DESC)
    raise_increments: bool = True  # a raise writes its increment, `raises 35 to 50`
    repeats_cards: bool = True  # a later `Dealt` line repeats the earlier cards (LOG-CARDS)
    uncalled_in_pot: bool = False  # a bet nobody called stays in the pot the winner collects
    total_after_rake: bool = False  # `Total pot` is what is left after the rake
    payouts: bool = True  # every hand states the pots paid (POT-, WIN- checks of the payment)
    # When the log may show a player's down cards other than the file owner's (DEAL-7TH):
    # "never" (Stars: the river line is the owner's only), "all-in" (once the betting is over
    # because all but one are all in, Full Tilt and Winamax write every hand whole), "always"
    # (PHH knows every hand).
    others_down_cards: Literal["never", "all-in", "always"] = "never"


POKERSTARS_DIALECT = Dialect()
"""Every consistency line PokerStars writes: today's checks, all of them."""

NO_LOG_LINES = Dialect(
    cap_line=False,
    all_in_marked=False,
    uncalled_line=False,
    summary=False,
    total_pot=False,
    seat_summary=SeatSummary.NONE,
    didnt_bet=False,
    lo_description=False,
    raise_increments=False,
    repeats_cards=False,
)
"""A record of the actions alone (PHH, XML): none of the lines a text log adds."""


class HandReader(Protocol):
    """Reads one hand at a time; one reader per file, so it may remember the lines it read."""

    def read(self, raw: RawHand) -> ParseResult:
        """The hand's events (`Hand`), why it is skipped (`SkippedHand`) or what is wrong
        (`ParseError`); never raises on bad input."""
        ...


class Site(ABC):
    """One site's hand histories: how to recognise, cut and read them."""

    name: str
    """The registry's name, and the `site` of every hand read (hand keys are `site:hand_id`)."""
    title: str
    """The site as people name it, in messages: "Full Tilt Poker"."""
    suffixes: tuple[str, ...] = (".txt",)
    """File name endings searched for in folders and archives (a file named on the command
    line is read whatever its name)."""
    header_bytes: tuple[bytes, ...] = ()
    """How the first line of a hand begins, in UTF-8: where a large file may be cut into
    pieces between hands. None given: the file is read whole."""
    dialect: Dialect = POKERSTARS_DIALECT
    """What the format promises to write, for the LOG- and summary checks."""
    ruleset: str = "pokerstars"
    """The rules its hands are audited against unless the user names others (`--ruleset`)."""

    @abstractmethod
    def recognises(self, line: str) -> bool:
        """Whether a hand history of this site starts with `line` (its first non-blank line)."""

    def starts_hand(self, line: str) -> bool:
        """Whether `line` opens a new hand even without an empty line before it."""
        return self.recognises(line)

    def cut(self, lines: Iterable[tuple[str, bool]], source: str) -> Iterator[RawHand]:
        """The hands of a file's lines (`(line, too_long)`, LF ends), in file order."""
        prefixes = tuple(b.decode("utf-8") for b in self.header_bytes)
        return text_cut(lines, source, self.starts_hand, prefixes)

    @abstractmethod
    def reader(self) -> HandReader:
        """A reader for the hands of one file."""

    @abstractmethod
    def complete(self, text: str) -> bool:
        """Whether a hand's text ends the way this site ends a hand (not cut off while the
        site was still writing it)."""

    def __repr__(self) -> str:
        return f"<site {self.name}>"


PADDING = " \t\r\n\x00\x0b\x0c\ufeff"
"""What a line holding nothing else is empty of: blanks, and the NUL bytes a client that
pre-allocates its file leaves after the last hand."""


def detect_encoding(head: bytes) -> tuple[str, int]:
    """(codec, bytes of BOM to skip) of a file from its first bytes: UTF-8 with or without a
    BOM, UTF-16 LE or BE with a BOM or, without one, told by where the zero bytes fall.

    >>> detect_encoding("Po".encode("utf-16-be")), detect_encoding(b"\\xff\\xfeP\\x00")
    (('utf-16-be', 0), ('utf-16', 0))
    """
    if head.startswith(b"\xef\xbb\xbf"):
        return "utf-8", 3
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16", 0  # the codec reads the BOM itself
    sample = head[:64].rstrip(b"\x00")  # NUL padding is no sign of UTF-16
    sample = sample[: len(sample) // 2 * 2]
    if len(sample) >= 4:
        even = sample[0::2].count(0)
        odd = sample[1::2].count(0)
        pairs = len(sample) // 2
        if odd >= 0.75 * pairs and even == 0:
            return "utf-16-le", 0
        if even >= 0.75 * pairs and odd == 0:
            return "utf-16-be", 0
    return "utf-8", 0


def text_cut(
    lines: Iterable[tuple[str, bool]],
    source: str,
    starts_hand: Callable[[str], bool],
    prefixes: tuple[str, ...] = (),
) -> Iterator[RawHand]:
    """Group lines into hands: empty lines separate hands, and so does a line opening one
    (only a line beginning with one of `prefixes` can, when they are given)."""
    block: list[str] = []
    first = 0
    problem: str | None = None
    problem_line = 0
    number = 0

    def flush() -> RawHand:
        text = "".join(block)
        if not text.endswith("\n"):
            text += "\n"
        return RawHand(source, first, text, problem, problem_line)

    for number, (line, too_long) in enumerate(lines, start=1):
        # A line is blank only if it starts with padding: most lines are not stripped.
        if line[:1] in PADDING and not line.strip(PADDING):
            if block:
                yield flush()
                block, problem = [], None
            continue
        if block and (not prefixes or line.startswith(prefixes)) and starts_hand(line):
            yield flush()
            block, problem = [], None
        if not block:
            first = number
        if too_long and problem is None:
            problem, problem_line = LINE_TOO_LONG, number
        if len(block) >= MAX_HAND_LINES:
            if problem is None:
                problem, problem_line = HAND_TOO_LONG, number
            continue  # keep memory flat: the hand is reported, its extra lines dropped
        block.append(line)
    if block:
        yield flush()



def action_tail(token: object, prefix: int, all_in: str) -> tuple[str, bool]:
    """The amount text after `prefix` characters of an action line, and whether it ends with
    the site's all-in words (`all_in`).

    >>> action_tail("Bob: bets $0.08 and is all-in", 10, " and is all-in")
    ('$0.08', True)
    """
    rest = str(token)[prefix:].rstrip()
    if rest.endswith(all_in):
        return rest[: -len(all_in)], True
    return rest, False

# ----------------------------------------------------------- recognised, not read yet


RAZZ = "Razz"


def skip_reason(game: str, site: Site) -> str:
    """Why a hand of `game` at `site` is not read, when `site` is recognised but not read yet.

    >>> from razz.parser.sites.fulltilt import SITE
    >>> skip_reason("Razz", SITE), skip_reason("Stud Hi", SITE)
    ('Razz from Full Tilt Poker: not supported yet', 'Stud Hi is not Razz')
    """
    if game == RAZZ:
        return f"Razz from {site.title}: not supported yet"
    return f"{game} is not Razz"


class HeaderOnly:
    """The reader of a site that is recognised but not read yet: each hand is skipped with its
    game, read from the header alone (`header(text)` gives the hand id and the game, "Razz"
    for Razz; None where the header does not say)."""

    def __init__(
        self, site: Site, header: Callable[[str], tuple[str | None, str | None]]
    ) -> None:
        self.site = site
        self.header = header

    def read(self, raw: RawHand) -> ParseResult:
        hand_id, game = self.header(raw.text)
        if game is None:
            game = self.site.title
            reason = f"{self.site.title} hand histories are not supported yet"
        else:
            reason = skip_reason(game, self.site)
        return SkippedHand(raw.source, raw.first_line, hand_id, game, reason)


def first_line(text: str) -> str:
    """The first line of a hand's text, without its line end (not `split`: that copies the
    rest of the hand too)."""
    end = text.find("\n")
    return text if end < 0 else text[:end]


def header_game(
    pattern: re.Pattern[str], razz: Callable[[str], bool] = lambda g: g.lower() == "razz"
) -> Callable[[str], tuple[str | None, str | None]]:
    """A `HeaderOnly` header reader from a pattern with groups `id` and `game` on line one."""

    def read(text: str) -> tuple[str | None, str | None]:
        m = pattern.search(first_line(text))
        if m is None:
            return None, None
        game = m.group("game").strip()
        return m.group("id"), RAZZ if razz(game) else game

    return read
