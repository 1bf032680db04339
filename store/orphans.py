"""Worker processes end soon after the process they work for, however it ended.

A `kill -9` of an import runs no clean-up: its forkserver and workers would wait for work
that never comes, holding memory for minutes. Each of them watches the process it works for
(`watch_parent`) from a thread that sleeps until that process ends, then exits at once.
Importing this module in the forkserver (it is in the server's preload list, see
`razz.store.ingest.worker_pool`) makes the server watch the process that started it.

>>> import os
>>> watch_parent(os.getpid())  # a process never outlives itself: returns at once, watching
"""

from __future__ import annotations

import os
import select
import sys
import threading
import time


def watch_parent(pid: int) -> None:
    """Exit this process, without clean-up, as soon as process `pid` ends."""
    threading.Thread(target=_wait_then_exit, args=(pid,), name="razz-orphan-watch",
                     daemon=True).start()


def _wait_then_exit(pid: int) -> None:
    try:
        fd = os.pidfd_open(pid)  # Linux: readable once the process has ended
    except (AttributeError, OSError):
        fd = None
    if fd is not None:
        select.select([fd], [], [])
    else:  # elsewhere: look every half second (a reused pid only delays the exit)
        while _alive(pid):
            time.sleep(0.5)
    os._exit(0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _in_forkserver() -> bool:
    """True while the forkserver imports its preload list (its `main` is on the stack)."""
    frame = sys._getframe()
    while frame is not None:
        if frame.f_globals.get("__name__") == "multiprocessing.forkserver":
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


if _in_forkserver():
    watch_parent(os.getppid())
