"""The README's command lines still work: every `razz …` line of its code blocks is checked
against the installed command, on sample_histories/ and a temporary database.

The README is read when the tests run, so lines added to it by anyone are covered:

* a synopsis (`razz audit PATH... [--format text|json|csv|html] …`): every option it names,
  and every choice it lists for one, is in `razz SUBCOMMAND --help`; and the command, with
  its required placeholders filled in (PATH: a sample file, FILE: a temporary store …) and its
  optional parts left out, runs without a usage error;
* an example (`$ razz equity "As 2d 3c" "Kh Qd Jc"` and the lines after it): it runs, and
  every line of output the README shows is in what it prints;
* printed findings (`sample_histories/…:185: BRINGIN-WHO …` and the `-- N hands audited` line
  under them): `razz audit` of those files prints these very lines.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SAMPLE = "sample_histories/violations/BRINGIN-WHO.txt"  # 4 hands, one finding
TIMEOUT = 120

# A placeholder of a synopsis, by the option it follows ("" for a positional one), and what
# stands for it when the command is run.
FILL: dict[tuple[str, str], str | tuple[str, ...]] = {
    ("", "PATH"): SAMPLE, ("--db", "FILE"): "{db}", ("--out", "DIR"): "{tmp}/out",
    ("--hands", "N"): "3", ("--seed", "S"): "1", ("-j", "N"): "1", ("--port", "N"): "8599",
    ("--ruleset", "NAME"): "pokerstars", ("--player", "NAME"): "RazzHero",
    ("--room", "ROOM"): "PokerStars", ("", "NAME"): "RazzHero", ("--as", "PERSON"): "Me",
    ("", "HAND"): ("As 2d 3c", "Kh Qd Jc"), ("--dead", "CARDS"): "Kh", ("--alpha", "A"): "0.05",
    ("--rule-samples", "DIR"): "{tmp}/samples", ("--biased-deck", "PERCENT"): "10",
    ("--gap", "MINUTES"): "30", ("--limit", "N"): "5",
}
# Commands that would not end by themselves (a server, a watcher): their help is checked.
NOT_RUN = ("dashboard", "--watch")


@dataclass(frozen=True)
class Block:
    """A code block of the README: its first line's number and its lines."""

    line: int
    lines: tuple[str, ...]


def code_blocks() -> list[Block]:
    blocks, current, start = [], None, 0
    for number, text in enumerate(README.read_text(encoding="utf-8").splitlines(), 1):
        if text.lstrip().startswith("```"):
            if current is None:
                current, start = [], number + 1
            else:
                blocks.append(Block(start, tuple(current)))
                current = None
        elif current is not None:
            current.append(text)
    return blocks


def synopses() -> list[tuple[int, str]]:
    """`razz …` lines that describe a command (placeholders, optional parts), without the
    comment after them (two spaces or more)."""
    found = []
    for block in code_blocks():
        for k, text in enumerate(block.lines):
            if text.startswith("razz "):
                found.append((block.line + k, re.split(r"\s{2,}", text.strip())[0]))
    return found


def examples() -> list[tuple[int, str, tuple[str, ...]]]:
    """`$ razz …` lines with the output the README shows after them."""
    found = []
    for block in code_blocks():
        for k, text in enumerate(block.lines):
            if text.startswith("$ razz "):
                output = []
                for after in block.lines[k + 1:]:
                    if after.startswith("$ "):
                        break
                    output.append(after)
                found.append((block.line + k, text[2:], tuple(output)))
    return found


FINDING = re.compile(r"^(?P<file>sample_histories/\S+?):(?P<line>\d+): [A-Z]+(?:-[A-Z0-9]+)* ")


def printed_audits() -> list[tuple[int, tuple[str, ...]]]:
    """Blocks that show `razz audit` output: finding lines of sample files, and summaries."""
    return [(b.line, b.lines) for b in code_blocks()
            if any(FINDING.match(t) for t in b.lines)]


def razz(args: list[str], tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RAZZ_DB": str(tmp / "readme.duckdb"), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "razz", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT, check=False,
                          stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temporary folder with a store of the sample file (for --db and $RAZZ_DB)."""
    tmp = tmp_path_factory.mktemp("readme")
    done = razz(["import", SAMPLE, "--db", str(tmp / "readme.duckdb")], tmp)
    assert done.returncode in (0, 1), done.stderr
    return tmp


def test_the_readme_has_the_command_lines_this_test_reads() -> None:
    assert len(synopses()) >= 10 and examples() and printed_audits()


def _help(command: list[str], tmp: Path) -> str:
    done = razz([*command, "--help"], tmp)
    assert done.returncode == 0, f"razz {' '.join(command)} --help: {done.stderr}"
    return done.stdout


def _command(words: list[str]) -> list[str]:
    """The subcommand (and its action) a synopsis names: `razz alias add NAME` -> alias add."""
    command = []
    for word in words[1:]:
        if not re.fullmatch(r"[a-z]+", word):
            break
        command.append(word)
    return command


def _options(synopsis: str) -> list[tuple[str, list[str]]]:
    """Each option a synopsis names, with the choices it lists (`--format text|json`)."""
    found = []
    for match in re.finditer(r"(?<![\w-])(--?[a-zA-Z][\w-]*)(?:\s+([a-z0-9]+(?:\|[a-z0-9]+)+))?",
                             synopsis):
        found.append((match.group(1), match.group(2).split("|") if match.group(2) else []))
    return found


def _instantiate(synopsis: str, tmp: Path) -> list[str] | None:
    """The synopsis as a command to run: optional parts left out, the first of alternatives,
    placeholders filled; None when a placeholder has no stand-in."""
    text = synopsis
    while "[" in text:  # innermost optional parts first
        text = re.sub(r"\[[^\[\]]*\]", "", text)
    tokens = shlex.split(text)[1:]
    out: list[str] = []
    used: dict[tuple[str, str], int] = {}
    for k, token in enumerate(tokens):
        token = token.split("|")[0] if "|" in token and not token.startswith("-") else token
        if token in ("...", "…"):
            continue
        name = token.rstrip(".…")
        if re.fullmatch(r"[A-Z]+", name):
            before = tokens[k - 1] if k and tokens[k - 1].startswith("-") else ""
            values = FILL.get((before, name))
            if values is None:
                return None
            if isinstance(values, tuple):  # a placeholder repeated: another value each time
                n = used[before, name] = used.get((before, name), -1) + 1
                values = values[n % len(values)]
            out.append(values.format(db=tmp / "readme.duckdb", tmp=tmp))
        elif "|" in token and token.startswith("-"):
            out.append(token.split("|")[0])
        else:
            out.append(token)
    return out


@pytest.mark.parametrize("number,synopsis", synopses(), ids=lambda v: str(v)[:40])
def test_each_synopsis_names_options_the_command_has_and_runs(
    number: int, synopsis: str, store: Path
) -> None:
    words = synopsis.split()
    sub = " ".join(_command(words))
    text = _help(_command(words), store)
    for option, choices in _options(synopsis):
        assert re.search(rf"(?<![\w-]){re.escape(option)}\b", text), \
            f"README line {number}: razz {sub} has no option {option}"
        for choice in choices:
            assert choice in text, f"README line {number}: {option} has no choice {choice}"
    if any(word in synopsis for word in NOT_RUN) or "..." in words[2:3]:
        return
    command = _instantiate(synopsis, store)
    if command is None:
        return
    done = razz(command, store)
    assert done.returncode in (0, 1), (
        f"README line {number}: razz {shlex.join(command)} exited {done.returncode}: "
        f"{done.stderr[-2000:]}")


@pytest.mark.parametrize("number,command,output", examples(), ids=lambda v: str(v)[:40])
def test_each_example_prints_what_the_readme_shows(
    number: int, command: str, output: tuple[str, ...], store: Path
) -> None:
    done = razz(shlex.split(command)[1:], store)
    assert done.returncode in (0, 1), f"README line {number}: {done.stderr[-2000:]}"
    printed = [" ".join(line.split()) for line in (done.stdout + done.stderr).splitlines()]
    for shown in output:
        if shown.strip():
            assert " ".join(shown.split()) in printed, \
                f"README line {number}: `{command}` no longer prints {shown!r}"


@pytest.mark.parametrize("number,lines", printed_audits(), ids=str)
def test_printed_findings_are_what_razz_audit_prints(
    number: int, lines: tuple[str, ...], store: Path
) -> None:
    files = list(dict.fromkeys(m.group("file") for t in lines if (m := FINDING.match(t))))
    for name in files:
        assert (ROOT / name).is_file(), f"README line {number}: no file {name}"
    done = razz(["audit", *files], store)
    printed = (done.stdout + done.stderr).splitlines()
    for shown in lines:
        if FINDING.match(shown) or shown.startswith("-- "):
            assert shown in printed, f"README line {number}: razz audit no longer prints " \
                                     f"{shown!r}"
