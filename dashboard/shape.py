"""Pure pandas reshaping between the queries and the pages: sessions, curves, tables, hands.

Nothing here touches Streamlit or the database, so every function is tested on small frames.

>>> starting_hand_label(1, 2, 3)
'(A2)3'
>>> starting_hand_group(2, 4, 7)
'7 high'
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from razz.dashboard import format as fmt

RANKS = "A23456789TJQK"  # Razz order: the ace is the lowest card
STREETS = ("3rd", "4th", "5th", "6th", "7th")

# ------------------------------------------------------------------------------ sessions


def cumulative(hands: pd.DataFrame, max_points: int = 1500) -> pd.DataFrame:
    """Running totals over a player's hands: all, showdown and non-showdown, in money and BB.

    Long format (hand, series, money, bb) for a line chart; thinned to about `max_points`
    points per series, always keeping the last hand so that the final totals are exact.
    """
    if hands.empty:
        return pd.DataFrame(columns=["hand", "series", "money", "bb"])
    showdown = hands["showdown"].astype(bool).to_numpy()
    net = hands["net"].astype("float64").to_numpy()
    net_bb = hands["net_bb"].astype("float64").to_numpy()
    frame = pd.DataFrame({"hand": range(1, len(hands) + 1)})
    parts = {
        "All hands": (net, net_bb),
        "Showdown": (net * showdown, net_bb * showdown),
        "Non-showdown": (net * ~showdown, net_bb * ~showdown),
    }
    step = max(1, -(-len(hands) // max_points))
    keep = list(range(step - 1, len(hands), step))
    if keep[-1] != len(hands) - 1:
        keep.append(len(hands) - 1)
    series = []
    for name, (money, bb) in parts.items():
        part = frame.assign(series=name, money=money.cumsum(), bb=bb.cumsum())
        series.append(part.iloc[keep])
    start = pd.DataFrame({"hand": 0, "series": list(parts), "money": 0.0, "bb": 0.0})
    return pd.concat([start, *series], ignore_index=True)


# ---------------------------------------------------------------------- player statistics


def stat_columns(stats: pd.DataFrame, keys: Iterable[str]) -> pd.DataFrame:
    """Each statistic's value (a share in percent, or a ratio) from its hits and chances."""
    values = {}
    for key in keys:
        hits, chances = stats[f"{key}_hits"], stats[f"{key}_chances"]
        values[key] = (hits / chances.where(chances > 0)).astype("float64")
    return pd.DataFrame(values, index=stats.index)


def stat_sheet(row: pd.Series, stats: Iterable[tuple[str, str, bool, str]]) -> pd.DataFrame:
    """One player's statistics as rows: label, value as text, hits, chances, what it counts."""
    rows = []
    for key, label, is_ratio, note in stats:
        hits, chances = int(row[f"{key}_hits"]), int(row[f"{key}_chances"])
        value = fmt.ratio(hits, chances) if is_ratio else fmt.rate(hits, chances)
        rows.append({"key": key, "statistic": label, "value": value, "hits": hits,
                     "chances": chances, "counts": note})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------ starting hands


def starting_hand_label(low: int, high: int, door: int) -> str:
    """The hole cards in parentheses, low first, then the door card: `(A2)3`, `(24)7`."""
    return f"({RANKS[low - 1]}{RANKS[high - 1]}){RANKS[door - 1]}"


def starting_hand_group(low: int, high: int, door: int) -> str:
    """How Razz players sort three cards: rolled up, a pair, or unpaired by the highest card."""
    if low == high == door:
        return "Rolled up"
    if len({low, high, door}) < 3:
        return "Pair"
    return f"{RANKS[max(low, high, door) - 1]} high"


def group_order(group: str) -> int:
    """Best first: 3 high … K high, then pairs, then rolled up (trips are a poor Razz start)."""
    if group == "Pair":
        return 100
    if group == "Rolled up":
        return 101
    return RANKS.index(group.split()[0])


def starting_hand_table(combos: pd.DataFrame, by_group: bool) -> pd.DataFrame:
    """Starting hands (rows of low, high, door ranks) summed by label or by group, best first."""
    columns = ["hand", "group", "hands", "vpip", "won", "net", "net_bb", "combos",
               "vpip_rate", "win_rate", "bb_per_100"]
    if combos.empty:
        return pd.DataFrame(columns=columns)
    ranks = list(zip(combos["low"].astype(int), combos["high"].astype(int),
                     combos["door"].astype(int), strict=True))
    frame = combos.assign(
        hand=[starting_hand_label(*r) for r in ranks],
        group=[starting_hand_group(*r) for r in ranks],
        combos=[[r] for r in ranks],
    )
    if by_group:
        sums = frame.groupby("group", sort=False)[["hands", "vpip", "won", "net", "net_bb"]].sum()
        sums["combos"] = frame.groupby("group", sort=False)["combos"].sum()
        table = sums.reset_index().assign(hand="")
    else:
        # The query sums by (low, high, door): one row per label already.
        table = frame
    order = [(group_order(g), _hand_sort_key(h))
             for g, h in zip(table["group"], table["hand"], strict=True)]
    table = table.iloc[sorted(range(len(table)), key=order.__getitem__)].reset_index(drop=True)
    table["vpip_rate"] = table["vpip"] / table["hands"]
    table["win_rate"] = table["won"] / table["hands"]
    table["bb_per_100"] = 100 * table["net_bb"] / table["hands"]
    return table[columns]


def _hand_sort_key(label: str) -> tuple[int, ...]:
    """`(24)7` sorts by its ranks from the highest down (7, 4, 2): the lower, the better."""
    return tuple(sorted((RANKS.index(ch) for ch in label if ch in RANKS), reverse=True))


# -------------------------------------------------------------------------- hand replay


def last_street(actions: pd.DataFrame, cards: pd.DataFrame) -> str:
    """The last street the hand reached (dealt or acted on)."""
    seen = set(actions["street"].dropna()) | set(cards["street"].dropna())
    reached = [s for s in STREETS if s in seen]
    return reached[-1] if reached else STREETS[0]


def seat_cards(
    held: pd.DataFrame, through: str, show_down: bool
) -> tuple[list[str], list[str]]:
    """A seat's down and up cards dealt up to a street; unknown or hidden down cards are '?'.

    Up cards are always shown. Down cards are shown when `show_down` (the hero's, or a
    hand revealed at showdown with the toggle on) and the log has them.
    """
    last = STREETS.index(through)
    dealt = held[[STREETS.index(s) <= last for s in held["street"]]].sort_values("position")
    up = [str(c) for c in dealt.loc[dealt["visibility"] == "up", "card"]]
    known_down = [str(c) for c in dealt.loc[dealt["visibility"] == "down", "card"]]
    expected_down = 3 if through == STREETS[-1] else 2
    down = known_down if show_down else []
    return down + ["?"] * (expected_down - len(down)), up


def street_table(
    seats: pd.DataFrame, cards: pd.DataFrame, actions: pd.DataFrame, street: str,
    reveal_shown: bool,
) -> pd.DataFrame:
    """Each seat at the end of a street: down cards (hidden unless allowed), up cards, stack."""
    final = last_street(actions, cards)
    index = STREETS.index(street)
    first_bet = actions.index[actions["street"].notna()].min() if actions["street"].notna().any() \
        else len(actions)
    upto = actions[(actions["street"].isin(STREETS[: index + 1]))
                   | (actions["street"].isna() & (actions.index < first_bet))]
    rows = []
    for seat in seats.itertuples(index=False):
        folded = seat.folded_street if isinstance(seat.folded_street, str) else None
        through = STREETS[min(index, STREETS.index(folded or final))]
        held = cards[cards["player"] == seat.player]
        shown = bool(held["shown"].any()) if len(held) else False
        down, up = seat_cards(held, through, bool(seat.is_hero) or (reveal_shown and shown))
        mine = upto[upto["player"] == seat.player]
        stack = int(mine["stack_after"].iloc[-1]) if len(mine) else int(seat.starting_stack)
        gone = folded is not None and STREETS.index(folded) <= index
        rows.append({
            "seat": int(seat.seat), "player": seat.player, "hero": bool(seat.is_hero),
            "down": " ".join("🂠" if c == "?" else fmt.card(c) for c in down),
            "up": " ".join(fmt.card(c) for c in up),
            "stack": stack, "status": f"folded on {folded}" if gone else "",
        })
    return pd.DataFrame(rows)


def actions_with_findings(actions: pd.DataFrame, findings: pd.DataFrame) -> pd.DataFrame:
    """The action list with the rule IDs and messages of the findings on each action's line."""
    by_line = findings.groupby("line").agg(
        rules=("rule", lambda r: ", ".join(r)), finding=("message", lambda m: " / ".join(m)))
    merged = actions.merge(by_line, how="left", left_on="line", right_index=True)
    merged["rules"] = merged["rules"].fillna("")
    merged["finding"] = merged["finding"].fillna("")
    return merged


def findings_off_actions(actions: pd.DataFrame, findings: pd.DataFrame) -> pd.DataFrame:
    """Findings whose line is not an action line (a seat line, a summary line…)."""
    return findings[~findings["line"].isin(actions["line"])]


def numbered_lines(text: str, first_line: int, marked: Iterable[int] = ()) -> str:
    """The hand's text with the file's line numbers beside it; `!` marks a line with a finding."""
    marks = set(marked)
    lines = text.splitlines()
    width = len(str(first_line + max(len(lines) - 1, 0)))
    return "\n".join(
        f"{first_line + i:>{width}} {'!' if first_line + i in marks else ' '} {line}"
        for i, line in enumerate(lines)
    )


def compliance_share(hands: int, flagged: int) -> float | None:
    """The share of hands without a finding, or None when there are no hands."""
    return None if hands == 0 else (hands - flagged) / hands
