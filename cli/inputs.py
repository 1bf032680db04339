"""What the commands that read hand histories say about inputs that hold no hands.

A file that is not a hand history is one line (never its bytes) and makes the exit status 1;
an empty file is one line and changes nothing; when nothing at all could be read, the command
says so and exits 1.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from razz.text import safe

if TYPE_CHECKING:
    from razz.store.sources import NoHands

EXIT_OK, EXIT_FOUND = 0, 1


def no_hands_status(
    prog: str,
    notes: Sequence[NoHands],
    hands_seen: int,
    paths: Sequence[str],
    out: TextIO | None = None,
) -> int:
    """Print each file without hands and, when no hand was seen at all, that nothing was
    readable; the exit status this calls for.

    >>> import io
    >>> from razz.store.sources import NoHands
    >>> out = io.StringIO()
    >>> no_hands_status("razz parse", [NoHands("x.png: not a hand history")], 0, ["x.png"], out)
    1
    >>> print(out.getvalue(), end="")
    razz parse: x.png: not a hand history
    razz parse: nothing readable in x.png: no hand history found
    """
    out = out or sys.stderr
    for note in notes:
        print(safe(f"{prog}: {note}"), file=out)
    status = EXIT_FOUND if any(not note.empty for note in notes) else EXIT_OK
    if hands_seen == 0:
        print(safe(f"{prog}: nothing readable in {' '.join(paths)}: no hand history found"),
              file=out)
        status = EXIT_FOUND
    return status
