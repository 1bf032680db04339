"""Pure pandas reshaping between the queries and the pages: sessions, curves, tables, hands.

Nothing here touches Streamlit or the database, so every function is tested on small frames.

>>> starting_hand_label(1, 2, 3)
'(A2)3'
>>> starting_hand_group(2, 4, 7)
'7 high'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from razz.dashboard import format as fmt

RANKS = "A23456789TJQK"  # Razz order: the ace is the lowest card

# ------------------------------------------------------------------------------- filters


@dataclass(frozen=True, slots=True)
class Narrowing:
    """How many rows there are, and how many are left after each filter in turn."""

    total: int
    steps: tuple[tuple[str, int], ...] = ()  # (filter name, rows left after it)

    @property
    def shown(self) -> int:
        return self.steps[-1][1] if self.steps else self.total

    def hidden_by(self) -> list[tuple[str, int]]:
        """(filter, rows it hides on top of the filters before it), for each that hides some.

        >>> Narrowing(318, (("Money", 318), ("Dates", 306))).hidden_by()
        [('Dates', 12)]
        """
        hidden, before = [], self.total
        for name, left in self.steps:
            if before - left:
                hidden.append((name, before - left))
            before = left
        return hidden


def plural(count: int, noun: str) -> str:
    """`1 hand`, `2,000 hands`, `1 finding`.

    >>> plural(1, "hand"), plural(2000, "finding")
    ('1 hand', '2,000 findings')
    """
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def narrowing_note(narrowing: Narrowing, noun: str, whose: str = "") -> str:
    """What the filters show and hide, in a sentence.

    >>> narrowing_note(Narrowing(318, (("Money", 318), ("Dates", 306))), "hand", " of Bo")
    'Showing 306 of 318 hands of Bo: 12 hidden by the Dates filter.'
    >>> narrowing_note(Narrowing(3, (("Stakes", 1), ("Dates", 0))), "hand")
    'Showing 0 of 3 hands: 2 hidden by the Stakes filter, 1 by the Dates filter.'
    >>> narrowing_note(Narrowing(1), "finding")
    'Showing the only finding.'
    """
    hidden = narrowing.hidden_by()
    if not hidden:
        if narrowing.total == 1:
            return f"Showing the only {noun}{whose}."
        return f"Showing all {plural(narrowing.total, noun)}{whose}."
    parts = [f"{hidden[0][1]:,} hidden by the {hidden[0][0]} filter"]
    parts += [f"{count:,} by the {name} filter" for name, count in hidden[1:]]
    return (f"Showing {narrowing.shown:,} of {plural(narrowing.total, noun)}{whose}: "
            + ", ".join(parts) + ".")


# ------------------------------------------------------------------------------ sessions


SERIES = ("All hands", "All-in EV", "Showdown", "Non-showdown")


def cumulative(hands: pd.DataFrame, max_points: int = 1500) -> pd.DataFrame:
    """Running totals over a player's hands: all, all-in EV (the all-in-adjusted net, when the
    frame has `ev_net`), showdown and non-showdown, in money and BB.

    Long format (hand, series, money, bb) for a line chart; thinned to about `max_points`
    points per series, always keeping the last hand so that the final totals are exact.
    """
    if hands.empty:
        return pd.DataFrame(columns=["hand", "series", "money", "bb"])
    showdown = hands["showdown"].astype(bool).to_numpy()
    net = hands["net"].astype("float64").to_numpy()
    net_bb = hands["net_bb"].astype("float64").to_numpy()
    frame = pd.DataFrame({"hand": range(1, len(hands) + 1)})
    parts = {"All hands": (net, net_bb)}
    if "ev_net" in hands:
        parts["All-in EV"] = (hands["ev_net"].astype("float64").to_numpy(),
                              hands["ev_net_bb"].astype("float64").to_numpy())
    parts |= {
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


SESSION_COLUMNS = ["table_id", "stakes_id", "start", "end", "hands", "net", "net_bb",
                   "bb_per_100", "rake_paid", "showdowns", "ev_net", "luck", "luck_bb"]


def as_runs(hands: pd.DataFrame) -> pd.DataFrame:
    """A player's hands (`data.player_hand_numbers`) as runs of one hand each: the rows that
    `sessions_of` and `run_curve` read, as the store's `player_runs` keeps them."""
    showdown = hands["showdown"].astype(bool)
    net, net_bb = hands["net"], hands["net_bb"].astype("float64")
    ev = "ev_net" in hands
    return pd.DataFrame({
        "table_id": hands["table_id"], "stakes_id": hands["stakes_id"],
        "first": hands["t"], "last": hands["t"], "hands": 1,
        "showdowns": showdown.astype("int64"), "net": net, "net_bb": net_bb,
        "net_showdown": net.where(showdown, 0), "net_showdown_bb": net_bb.where(showdown, 0.0),
        "rake_paid": hands["rake_paid"].astype("float64"),
        "ev_net": hands["ev_net"].astype("float64") if ev else net.astype("float64"),
        "ev_net_bb": hands["ev_net_bb"].astype("float64") if ev else net_bb,
    })


def sessions_of(hands: pd.DataFrame, gap_minutes: int) -> pd.DataFrame:
    """A player's sessions from their hands (`data.player_hand_numbers`, columns t …) or from
    runs of their hands (`data.player_runs`, columns first, last, hands …).

    A session is a run of hands at one table without a pause of `gap_minutes` or more
    between two hands' starts, split by stakes, as the store's `sessions_for` counts them
    (a test holds the two equal); `start` and `end` are the first and last hands' starts
    in epoch ms. Latest first. Runs are merged into sessions exactly: hands inside a run are
    less than the shortest gap apart, so a pause of the gap or more between two hands of a
    table is a pause between the runs before it and the runs after it. Numbers only, so that
    a million hands take a moment.
    """
    if hands.empty:
        return pd.DataFrame(columns=SESSION_COLUMNS)
    runs = as_runs(hands) if "t" in hands else hands
    order = np.lexsort((runs["last"].to_numpy(), runs["first"].to_numpy(),
                        runs["table_id"].to_numpy()))
    by_table = runs.iloc[order]
    table = by_table["table_id"].to_numpy()
    first = by_table["first"].to_numpy().astype("int64")
    # The latest end so far at the table: runs of one table may overlap (a run per day, per
    # batch of an import), and a run that starts before it ends joins its session.
    ends = pd.Series(by_table["last"].to_numpy().astype("int64")).groupby(table).cummax()
    ends = ends.to_numpy()
    opens = np.ones(len(by_table), dtype=bool)
    opens[1:] = (table[1:] != table[:-1]) | (first[1:] - ends[:-1] >= gap_minutes * 60_000)
    grouped = by_table.assign(session=np.cumsum(opens)).groupby(
        ["session", "stakes_id"], sort=False).agg(
        table_id=("table_id", "first"), start=("first", "min"), end=("last", "max"),
        hands=("hands", "sum"), net=("net", "sum"), net_bb=("net_bb", "sum"),
        rake_paid=("rake_paid", "sum"), showdowns=("showdowns", "sum"),
        ev_net=("ev_net", "sum"), ev_net_bb=("ev_net_bb", "sum"))
    out = grouped.reset_index()
    out["luck"] = out["net"] - out["ev_net"]
    out["luck_bb"] = out["net_bb"] - out["ev_net_bb"]
    # As SQL's round(): halves away from zero (the rake paid is never negative).
    out["rake_paid"] = np.floor(out["rake_paid"].astype("float64") + 0.5).astype("int64")
    out["bb_per_100"] = 100 * out["net_bb"] / out["hands"]
    out = out.sort_values(["start", "table_id"], ascending=[False, True], kind="stable")
    return out[SESSION_COLUMNS].reset_index(drop=True)


def run_curve(runs: pd.DataFrame, max_points: int = 1500) -> pd.DataFrame:
    """Running totals over runs of a player's hands (`data.player_runs`), as `cumulative`
    draws them over hands: a point where each run ends, in the order they end, thinned to
    about `max_points` points per series, the last one kept: the final totals are exact.

    A point counts every hand of the runs ended by then; hands of a run still going on at
    another table at that moment are counted where that run ends.
    """
    if runs.empty:
        return pd.DataFrame(columns=["hand", "series", "money", "bb"])
    runs = runs.iloc[np.lexsort((runs["first"].to_numpy(), runs["last"].to_numpy()))]
    parts = {
        "All hands": ("net", "net_bb"), "All-in EV": ("ev_net", "ev_net_bb"),
        "Showdown": ("net_showdown", "net_showdown_bb"),
    }
    frame = pd.DataFrame({"hand": runs["hands"].astype("int64").cumsum().to_numpy()})
    step = max(1, -(-len(runs) // max_points))
    keep = list(range(step - 1, len(runs), step))
    if keep[-1] != len(runs) - 1:
        keep.append(len(runs) - 1)
    series = []
    for name, (money, bb) in parts.items():
        series.append(frame.assign(
            series=name, money=runs[money].astype("float64").cumsum().to_numpy(),
            bb=runs[bb].astype("float64").cumsum().to_numpy()).iloc[keep])
    other = frame.assign(
        series="Non-showdown",
        money=(runs["net"] - runs["net_showdown"]).astype("float64").cumsum().to_numpy(),
        bb=(runs["net_bb"] - runs["net_showdown_bb"]).astype("float64").cumsum().to_numpy())
    series.append(other.iloc[keep])
    start = pd.DataFrame({"hand": 0, "series": list(SERIES), "money": 0.0, "bb": 0.0})
    return pd.concat([start, *series], ignore_index=True)


# ---------------------------------------------------------------------- player statistics


def stat_columns(stats: pd.DataFrame, keys: Iterable[str]) -> pd.DataFrame:
    """Each statistic's value (a share in percent, or a ratio) from its hits and chances."""
    values = {}
    for key in keys:
        hits, chances = stats[f"{key}_hits"], stats[f"{key}_chances"]
        values[key] = (hits / chances.where(chances > 0)).astype("float64")
    return pd.DataFrame(values, index=stats.index)


def stat_sheet(row: pd.Series, stats: Iterable[Any]) -> pd.DataFrame:
    """One player's statistics as rows: label, value, what it counted and out of what.

    A rate reads `66.7%` with `2 hands` out of `3 hands dealt`; an aggression factor reads
    `2.35` with `332 bets and raises` out of `141 calls`.
    """
    rows = []
    for stat in stats:
        hits, chances = int(row[f"{stat.key}_hits"]), int(row[f"{stat.key}_chances"])
        value = fmt.factor(hits, chances) if stat.ratio else fmt.percent(hits, chances)
        rows.append({"key": stat.key, "statistic": stat.label, "value": value,
                     "count": f"{hits:,} {stat.counted}",
                     "out_of": f"{chances:,} {stat.out_of}"})
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


# ------------------------------------------------------------------------------- audit


def compliance_share(hands: int, flagged: int) -> float | None:
    """The share of hands without a finding, or None when there are no hands."""
    return None if hands == 0 else (hands - flagged) / hands
