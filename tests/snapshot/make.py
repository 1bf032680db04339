"""Freeze what the product outputs today, so that a refactor can show it reproduces it.

Run from the repository root with the project installed:

    .venv/bin/python tests/snapshot/make.py            # everything but the 100,000 hands
    .venv/bin/python tests/snapshot/make.py --large    # also the 100,000 simulated hands

It writes, into tests/snapshot/:

* `audit-*.jsonl`: `razz audit --format json` of the shipped `sample_histories/` (each
  folder on its own, each room of `rooms/` too, audited with its site's rules) and of the real PokerStars files of ../shared/corpus (the findings in
  full, paths relative to where they were read from);
* `events-*.tsv`: per hand, a digest of the events `razz parse --json` gives (a change of
  the event model changes these, and must be explained where it lands);
* `results-*.tsv`: per hand, a digest of everything the auditor computes for the store
  (per-player results, pots, actions, cards, findings);
* `sim100k.tsv` (with --large): the per-player results of 100,000 hands simulated with a
  fixed seed, per block of 100 hands: a digest of the hands' text (so that a change of the
  simulator is told apart from a change of the engine) and a digest of their results;
  `sim100k-events.tsv`: a digest of the events the reader gives for the same blocks.

`tests/test_snapshot.py` recomputes each file and compares; when a digest differs it names
the hand, so the difference can be looked at by running both versions on that hand.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import io
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CORPUS = ROOT.parent / "shared" / "corpus"
SAMPLES = ROOT / "sample_histories"
ROOMS = ("fulltilt", "winamax", "kingsclub", "merge", "phh")
SAMPLE_SETS = ("", "violations", "handwritten", "handwritten-violations",
               *(f"rooms/{room}" for room in ROOMS))
SIM_HANDS, SIM_SEED, SIM_BLOCK = 100_000, 20261201, 100


def digest(value: Any) -> str:
    """A short, stable digest of a JSON-ready value."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def plain(value: Any) -> Any:
    """Dataclasses (results, findings) as JSON-ready dicts and lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


def sample_label(name: str) -> str:
    """The snapshot's name of a folder of sample_histories/: `samples-rooms-phh`."""
    return "samples-" + (name.replace("/", "-") or "top")


def sample_files(name: str) -> list[Path]:
    """The hand histories of a folder of sample_histories/ (not its README or manifest)."""
    from razz.parser import sites

    folder = SAMPLES / name if name else SAMPLES
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in sites.suffixes())


def labelled_files(label: str) -> list[Path]:
    """The files of a snapshot's sample set, by its label."""
    return sample_files({sample_label(name): name for name in SAMPLE_SETS}[label])


def corpus_files() -> list[Path]:
    folder = CORPUS / "pokerstars"
    return sorted(folder.glob("*.txt")) if folder.is_dir() else []


def relative(path: Path) -> str:
    for base in (ROOT, CORPUS.parent):
        if path.is_relative_to(base):
            return str(path.relative_to(base))
    return str(path)


def audit_lines(files: Iterable[Path]) -> list[str]:
    """`razz audit --format json` of the files, each file named relative to its folder above."""
    from razz.parser import Hand, ParseError, read_path
    from razz.replay.audit import audit_hand
    from razz.replay.ruleset import site_ruleset
    from razz.replay.tablecheck import TableCheck

    lines: list[str] = []
    check = TableCheck()
    for path in files:
        name = relative(path)
        for item in read_path(path):
            if isinstance(item, ParseError):
                lines.append(json.dumps({"file": name, "hand_id": item.hand_id,
                                         "line": item.line, "rule": "PARSE",
                                         "message": item.message}, ensure_ascii=False))
            elif isinstance(item, Hand):
                result = audit_hand(item, site_ruleset(item.header.site))
                for f in (*result.findings, *check.feed(item, result)):
                    lines.append(_finding(f, name))
    lines += [_finding(f, relative(Path(f.source))) for f in check.finish()]
    return lines


def _finding(f: Any, name: str) -> str:
    row = plain(f)
    row["source"] = name  # consequence_of: null for a violation, as `razz audit --format json`
    return json.dumps(row, sort_keys=True, ensure_ascii=False)


def per_hand(files: Iterable[Path]) -> Iterator[tuple[str, str, str, str]]:
    """(file, hand id, events digest, results digest) of every hand, skipped ones marked."""
    from razz.parser import Hand, read_path
    from razz.parser.serialize import result_to_dict
    from razz.replay.audit import audit_hand
    from razz.replay.ruleset import site_ruleset

    for path in files:
        name = relative(path)
        for item in read_path(path):
            parsed = result_to_dict(item)
            parsed.pop("text", None)
            if isinstance(parsed.get("header"), dict):
                parsed["header"].pop("source", None)
            elif "source" in parsed:  # skipped hands and errors: the file, wherever it is read
                parsed["source"] = name
            if isinstance(item, Hand):
                result = plain(audit_hand(item, site_ruleset(item.header.site)))
                result.pop("source", None)
                for f in result["findings"]:
                    f.pop("source", None)
                    if f.get("consequence_of") is None:  # a violation: the digest of
                        f.pop("consequence_of", None)  # before consequences were found
                yield name, item.header.hand_id, digest(parsed), digest(result)
            else:
                hand_id = getattr(item, "hand_id", None) or f"line{getattr(item, 'first_line', 0)}"
                yield name, str(hand_id), digest(parsed), "-"


def simulated_blocks(
    hands: int = SIM_HANDS, seed: int = SIM_SEED
) -> Iterator[tuple[int, str, str, str]]:
    """(block number, text digest, results digest, events digest) per block of simulated
    hands: what the simulator wrote, what the auditor computes, what the reader gives. One
    pass gives all three (simulating 100,000 hands is most of the time it takes)."""
    from razz.parser import Hand, read_stream
    from razz.parser.serialize import result_to_dict
    from razz.replay.audit import audit_hand
    from razz.simulate.simulator import file_text, simulate

    block: list[tuple[str, Any, Any]] = []
    number = 0

    def digests() -> tuple[int, str, str, str]:
        return (number, digest([t for t, _, _ in block]), digest([r for _, r, _ in block]),
                digest([e for _, _, e in block]))

    for simulated in simulate(hands, seed):
        data = io.BytesIO(file_text(simulated).encode("utf-8"))  # as written to disk
        for item in read_stream(data, simulated.name):
            assert isinstance(item, Hand), str(item)
            parsed = result_to_dict(item)
            parsed.pop("text", None)
            parsed["header"].pop("source", None)
            block.append((item.text, plain(audit_hand(item)), parsed))
            if len(block) == SIM_BLOCK:
                yield digests()
                number += 1
                block = []
    if block:
        yield digests()


def write_tsv(path: Path, rows: Iterable[tuple[Any, ...]]) -> int:
    count = 0
    with path.open("w", encoding="utf-8", newline="\n") as out:
        for row in rows:
            out.write("\t".join(str(v) for v in row) + "\n")
            count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--large", action="store_true", help="also the 100,000 simulated hands")
    args = parser.parse_args(argv)
    sets: list[tuple[str, list[Path]]] = [
        (sample_label(name), sample_files(name)) for name in SAMPLE_SETS
    ]
    if corpus_files():
        sets.append(("corpus-pokerstars", corpus_files()))
    else:
        print("../shared/corpus is absent: its snapshot is not written", file=sys.stderr)
    for label, files in sets:
        (HERE / f"audit-{label}.jsonl").write_text(
            "".join(line + "\n" for line in audit_lines(files)), encoding="utf-8"
        )
        rows = list(per_hand(files))
        write_tsv(HERE / f"events-{label}.tsv", ((f, h, e) for f, h, e, _ in rows))
        write_tsv(HERE / f"results-{label}.tsv", ((f, h, r) for f, h, _, r in rows))
        print(f"{label}: {len(rows)} hands")
    if args.large:
        blocks = list(simulated_blocks())
        write_tsv(HERE / "sim100k.tsv", ((n, t, r) for n, t, r, _ in blocks))
        write_tsv(HERE / "sim100k-events.tsv", ((n, e) for n, _, _, e in blocks))
        print(f"sim100k: {len(blocks)} blocks of {SIM_BLOCK} hands")
    return 0


if __name__ == "__main__":
    sys.exit(main())
