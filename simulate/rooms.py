"""Simulated tables written as each room writes them: PokerStars, Full Tilt, Winamax,
KingsClub, Merge XML and PHH (`razz simulate --site NAME`).

The simulator plays every room's tables with the room's ruleset and stakes
(`razz.simulate.simulator.ROOMS`) and records them as events; each room's writer
(`razz.parser.sites.<room>_writer`) turns them into that room's bytes, and says on which line
of its file each event landed, so that an injected violation's line can be given in the
room's file (`room_injections`). Violations whose line the room's format does not write (a
summary line the room never writes, a `Lo:` description it does not print) cannot be injected
there: `UNWRITABLE` lists them with the reason.

>>> from razz.simulate.simulator import simulate
>>> [written] = write_room("fulltilt", simulate(hands=2, seed=1, site="fulltilt"))[0][1]
>>> written.data[:2], written.name.endswith(".txt")
(b'\\xff\\xfe', True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from razz.parser.events import Collect, Event, Hand, HandHeader, SeatLine, UncalledBet
from razz.parser.sites import fulltilt_writer, kingsclub_writer, merge_writer, winamax_writer
from razz.parser.sites.phh_writer import dumps
from razz.parser.sites.phh_writer import fields as phh_fields
from razz.parser.sites.room_writer import HandLines, WrittenFile, committed, join_hands
from razz.simulate.simulator import SimulatedFile, file_text
from razz.simulate.violations import Injection

Writer = Callable[[str, Sequence[tuple[HandHeader, Sequence[Event]]]], list[WrittenFile]]

SITES: tuple[str, ...] = ("pokerstars", "fulltilt", "winamax", "kingsclub", "merge", "phh")
"""Every room `razz simulate --site` writes."""

_COMMUNITY = "no line for a community river card (the room's tables seat seven)"
_PARTLY = "found in some hands, not in others: not explained yet (see the report of issue 11)"

UNWRITABLE: dict[str, dict[str, str]] = {
    "fulltilt": {
        "DEAL-COMMUNITY": _COMMUNITY,
        "LOG-DESC": "Full Tilt describes a shown hand `J,T,6,5,2`, never `Lo: …`",
    },
    "winamax": {
        "DEAL-COMMUNITY": _COMMUNITY,
        "LOG-DESC": "Winamax writes no Razz hand description",
        "LOG-SUMMARY": "Winamax's summary lists the winners only: no fold to misstate",
        "ACT-UNCALLED": "Winamax writes no uncalled-bet line: the bet stays in the pot",
        "DEAL-7TH": "an opponent's river line `[..] [X]` is the writer's: the simulator has none",
        "LOG-STACK": _PARTLY,
        "SHOW-ORDER": "Winamax writes no muck line: a swapped muck is not in the log",
    },
    "kingsclub": {
        "DEAL-COMMUNITY": _COMMUNITY,
        "LOG-DESC": "KingsClub writes no hand description",
        "LOG-SUMMARY": "KingsClub's summary is each seat's stack and net, worked out here",
        "ACT-UNCALLED": "KingsClub writes no uncalled-bet line",
        "POT-RAKE": "KingsClub's summary gives the rake only, no total pot",
        "LOG-CARDS": "KingsClub's later deals show the new card only: nothing to contradict",
        "SHOW-ORDER": "KingsClub writes no muck: every hand at the showdown is shown",
        "DEAL-3RD": "found, but at the street's first deal line, not the line changed",
        "DEAL-7TH": "an opponent's river line `[X]` is the writer's: the simulator has none",
    },
    "merge": {
        "DEAL-COMMUNITY": _COMMUNITY,
        "LOG-DESC": "Merge XML has no hand description",
        "LOG-SUMMARY": "Merge XML has no summary",
        "POT-RAKE": "Merge XML has no total pot or rake",
        "LOG-CARDS": "each `<cards>` element repeats the player's cards: nothing to contradict",
        "DEAL-UP": "a card dealt to a folded player is not read (the reader drops it)",
        "STRUCT-LIMIT": "a Merge file states its stakes once, in its `<description>` (a "
        "tournament's none): one game at other stakes than its file's cannot be written",
        "LOG-STACK": "Merge marks an all-in only by the ALL_IN type, which the writer gives to "
        "short wagers alone (a full one keeps CALL, BET, RAISE), and the reader takes a "
        "player's last chips as all-in whatever the type: most unmarked all-ins are not seen",
    },
    "phh": {
        "LOG-DESC": "PHH has no hand description",
        "LOG-SUMMARY": "PHH has no summary",
        "POT-RAKE": "PHH has no total pot or rake",
        "LOG-CARDS": "PHH deals each card once: nothing to contradict",
        "ACT-UNCALLED": "PHH writes no uncalled bet: its replay returns it",
        "ACT-CHOICES": "PHH's `cc` and `cbr` carry no amount: the wrong one cannot be written",
        "ACT-CALL": "PHH's `cc` carries no amount: a wrong call cannot be written",
        "ACT-CHECK": "PHH's `cc` is a check or a call as the state says",
        "DEAL-3RD": "PHH deals each player's three cards in one action",
        "DEAL-COUNT": "PHH deals each player's cards in one action",
        "DEAL-UP": "the PHH export writes no deal to a folded player",
        "STRUCT-BRINGIN-SIZE": "PHH's `pb` carries no amount: the header's bring-in is posted",
        "LOG-STACK": _PARTLY,
        "SHOW-ORDER": _PARTLY,
        "POT-SIDE": _PARTLY,
    },
}
"""For each room, the rules whose injected violation its format cannot write, and why."""


def _phh_file(name: str, hands: Sequence[tuple[HandHeader, Sequence[Event]]]) -> list[WrittenFile]:
    """A table's hands as one `.phhs` file: a `[k]` table per hand, each action on its own
    line (the standard allows it), so that a finding names the action's line."""
    parts: list[tuple[str, HandLines]] = []
    for k, (header, events) in enumerate(hands, start=1):
        seats = [e for e in events if isinstance(e, SeatLine)]
        out = HandLines()
        out.add(f"[{k}]", header.first_line)
        finals = _final_stacks(events, seats)
        # A hand that pays what it should not (an injected violation) may leave a stack
        # below zero: PHH cannot state it, and the field is optional.
        known = finals if min(finals.values(), default=0) >= 0 else None
        data = phh_fields(Hand(header, tuple(events), ""), known)
        data["_site"] = "razz simulate"
        actions = data.pop("actions")
        for key_line in dumps({k2: v for k2, v in data.items()}).splitlines():
            out.add(key_line)
        out.add("actions = [")
        for action in actions:
            out.add(f"  {dumps({'a': action})[4:].rstrip()},")
        out.add("]")
        parts.append((header.hand_id, out))
    text, written = join_hands(parts, newline="\n", gap=1, end=1)
    return [WrittenFile(name.removesuffix(".txt") + ".phhs", text.encode("utf-8"), tuple(written))]


def _final_stacks(events: Sequence[Event], seats: Sequence[SeatLine]) -> dict[str, int]:
    """What each player has when the hand is over."""
    put, _, _ = committed(events)
    back: dict[str, int] = {}
    for e in events:
        if isinstance(e, Collect | UncalledBet):
            back[e.player] = back.get(e.player, 0) + e.amount
    return {s.player: s.stack - put.get(s.player, 0) + back.get(s.player, 0) for s in seats}


def _pokerstars_file(simulated: SimulatedFile) -> list[WrittenFile]:
    return [
        WrittenFile(
            simulated.name,
            file_text(simulated).encode("utf-8"),
            (),  # PokerStars lines are the events' own
        )
    ]


WRITERS: dict[str, Writer] = {
    "fulltilt": fulltilt_writer.write_file,
    "winamax": winamax_writer.write_file,
    "kingsclub": kingsclub_writer.write_file,
    "merge": merge_writer.write_file,
    "phh": _phh_file,
}


def write_room(
    site: str, files: Iterable[SimulatedFile]
) -> list[tuple[SimulatedFile, list[WrittenFile]]]:
    """Each simulated table as the room writes it (one file, or one per hand)."""
    out = []
    for simulated in files:
        if site == "pokerstars":
            out.append((simulated, _pokerstars_file(simulated)))
            continue
        hands = [(h.header, h.events) for h in simulated.hands]
        out.append((simulated, WRITERS[site](simulated.name, hands)))
    return out


def save(written: Iterable[tuple[SimulatedFile, list[WrittenFile]]], directory: Path) -> list[Path]:
    """Write the files into `directory` (created if needed); return their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for _, files in written:
        for f in files:
            path = directory / f.name
            path.write_bytes(f.data)
            paths.append(path)
    return paths


def hand_places(
    written: Iterable[tuple[SimulatedFile, list[WrittenFile]]],
) -> dict[tuple[str, str], tuple[str, str, dict[int, int]]]:
    """(simulated file, simulated hand id) -> (room's file, room's hand id, event lines)."""
    places = {}
    for simulated, files in written:
        room_hands = [(f.name, h) for f in files for h in f.hands]
        if not room_hands:  # PokerStars: the same file, ids and lines
            for hand in simulated.hands:
                lines = {e.line: e.line for e in hand.events}
                places[simulated.name, hand.header.hand_id] = (
                    simulated.name, hand.header.hand_id, lines
                )
            continue
        for hand, (name, room_hand) in zip(simulated.hands, room_hands, strict=True):
            places[simulated.name, hand.header.hand_id] = (name, room_hand.hand_id, room_hand.lines)
    return places


def write_room_violations(
    site: str,
    files: Iterable[SimulatedFile],
    injections: Iterable[Injection],
    directory: Path,
    *,
    manifest: str = "manifest.jsonl",
) -> list[Injection]:
    """Write the violated copies as the room writes them, and their manifest with each
    injection at its file, hand id and line in the room's files; return those injections.
    A rule the room cannot write (`UNWRITABLE`) keeps its entry, with its reason in the note."""
    written = write_room(site, files)
    save(written, directory)
    places = hand_places(written)
    out = []
    for i in injections:
        name, hand_id, lines = places[i.file, i.hand_id]
        line = lines.get(i.line, 0)
        note = i.note
        reason = UNWRITABLE.get(site, {}).get(i.rule)
        if reason:
            note = f"{note} (not in {site}'s format: {reason})"
        out.append(replace(i, file=name, hand_id=hand_id, line=line, note=note))
    text = "".join(i.to_json() + "\n" for i in out)
    (directory / manifest).write_text(text, encoding="utf-8")
    return out


__all__ = ["SITES", "UNWRITABLE", "WRITERS", "hand_places", "save", "write_room", "write_room_violations"]
