"""The `razz` command line: one subcommand per job.

Exit codes are shared by every subcommand: 0 when all went well, 1 when some hand had an
error (or, for `audit`, an error finding), 2 for usage or I/O errors.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# name -> (module under razz.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "parse": ("parse", "read hand histories and report what parsed, what was skipped and why"),
    "audit": ("audit", "replay hands against the rules of Razz and report every rule broken"),
    "simulate": ("simulate", "play random legal hands and write them as PokerStars histories"),
    "import": ("import_", "parse, audit and load hand histories into a DuckDB file"),
    "stats": ("stats", "print per-player statistics from a DuckDB file"),
    "alias": ("alias", "names that are one person across rooms: add, list, remove"),
    "dashboard": ("dashboard", "open the Streamlit dashboard on a DuckDB file"),
    "fairness": ("fairness", "test whether the deals the logs show look like a fair shuffle"),
    "export": ("export", "write hands of any room as PHH (the open Poker Hand History standard)"),
    "equity": ("equity", "each hand's share of the pot from the known cards, exact when feasible"),
}

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="razz",
        description="Razz hand histories: parse, audit, simulate, import into DuckDB, review.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (module, help_text) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text, description=help_text)
        importlib.import_module(f"razz.commands.{module}").add_arguments(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    module = importlib.import_module(f"razz.commands.{COMMANDS[args.command][0]}")
    try:
        return int(module.run(args))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of our output is gone (`| head`): stop quietly. Point stdout at
        # /dev/null so that flushing it at exit raises nothing more.
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_OK
