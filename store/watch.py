"""`razz import --watch DIR`: import hands as a poker client appends them, until interrupted.

Every `interval` seconds the folder is listed; files whose size or time changed are imported
from where the store stopped. A hand at the end of a file that is not complete (no header
follows it, and it does not end the way its room ends a hand) is held back, however long the
file stays quiet, and read once it is; a file is looked at again until it has been quiet for
`settle` seconds. Between polls the database is closed, so the dashboard can read it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from razz.store.importer import Importer, ImportInterrupted, Settings, own_files
from razz.store.progress import ImportSummary, NoProgress, Progress
from razz.store.sources import Discovery, Source, discover


def watch(
    folder: str | Path,
    db: str | Path,
    *,
    settings: Settings | None = None,
    progress: Progress | None = None,
    interval: float = 1.0,
    settle: float = 2.0,
    stop: Callable[[], bool] = lambda: False,
) -> ImportSummary:
    """Import new hands from `folder` every `interval` seconds until Ctrl-C or `stop()`."""
    progress = progress or NoProgress()
    db = Path(db)
    seen: dict[str, tuple[int, int]] = {}  # path -> (size, mtime) when last fully read
    held: dict[str, int] = {}  # file -> line of its last hand, not finished when last read
    total: ImportSummary | None = None
    started = time.monotonic()
    with Importer(db, settings or Settings(), progress) as importer:
        try:
            while not stop():
                found = discover([str(folder)], exclude=own_files(db))
                changed = tuple(
                    s for s in found.sources if seen.get(s.path) != (s.size, s.mtime_ns)
                )
                if changed:
                    now = time.time()

                    def settled(s: Source, now: float = now) -> bool:
                        return now - s.mtime_ns / 1e9 >= settle

                    try:
                        summary = importer.run(Discovery(changed, ()), settled=settled)
                    except ImportInterrupted as stopped:
                        total = _add(total, stopped.summary)
                        raise KeyboardInterrupt from None
                    total = _add(total, summary)
                    for s in changed:
                        held.pop(s.name, None)
                    held.update(summary.held)
                    for s in changed:
                        if settled(s):  # an unsettled file is looked at again next time
                            seen[s.path] = (s.size, s.mtime_ns)
                    importer.writer.release()  # readers may open the file until the next poll
                time.sleep(interval)
        except KeyboardInterrupt:
            pass  # the way a watch ends; whatever was read is committed
        files_read = len(importer.files_read)
    empty = ImportSummary(str(db), 0, 0, 0, 0, 0, 0, 0, 0.0)
    total = total or empty
    return replace(
        total, files=len(seen), files_read=files_read, interrupted=False,
        seconds=time.monotonic() - started, held=tuple(held.items()),
    )


def _add(a: ImportSummary | None, b: ImportSummary) -> ImportSummary:
    if a is None:
        return b
    return replace(
        a,
        hands=a.hands + b.hands,
        duplicates=a.duplicates + b.duplicates,
        skipped=a.skipped + b.skipped,
        rejected=a.rejected + b.rejected,
        findings=a.findings + b.findings,
        hands_read=a.hands_read + b.hands_read,
        problems=a.problems + b.problems,
        rejects=a.rejects + b.rejects,
        rejected_before=a.rejected_before + b.rejected_before,
        no_hands=a.no_hands + b.no_hands,
        not_histories=a.not_histories + b.not_histories,
        repaired=a.repaired + b.repaired,
    )
