"""Uploaded hand histories: where they are kept, and running the importer on them.

>>> safe_name("../../etc/passwd")
'passwd'
>>> safe_name("Razz <img>.txt")
'Razz__img_.txt'
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from razz.dashboard import data

SUFFIXES = (".txt", ".xml", ".phh", ".phhs")
"""The file endings the rooms read write (`razz.parser.sites.suffixes()`), for the uploader."""
MAX_UPLOAD_ENV = "RAZZ_DASHBOARD_MAX_UPLOAD_MB"
DEFAULT_MAX_UPLOAD_MB = 200
IMPORT_TIMEOUT = 3600  # seconds: a large archive on a slow disk, never forever
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def max_upload_mb() -> int:
    """The largest file the Import page accepts, in MB (`$RAZZ_DASHBOARD_MAX_UPLOAD_MB`)."""
    try:
        return max(1, int(os.environ.get(MAX_UPLOAD_ENV, DEFAULT_MAX_UPLOAD_MB)))
    except ValueError:
        return DEFAULT_MAX_UPLOAD_MB


def rooms_read() -> str:
    """The rooms whose hand histories are read, as a list for a sentence."""
    from razz.parser import sites
    from razz.parser.sites.others import Foreign

    return ", ".join(site.title for site in sites.SITES if not isinstance(site, Foreign))


def safe_name(name: str) -> str:
    """A file name from the browser made harmless: no folders, only plain characters."""
    base = _UNSAFE.sub("_", Path(name.replace("\\", "/")).name).lstrip(".")
    return base or "upload.txt"


def uploads_folder(db_path: str) -> Path:
    """Where uploads are kept: `<database>.uploads/` beside the database, never the current
    folder, so that the files the database names stay with it.

    >>> uploads_folder("/data/razz.duckdb").as_posix()
    '/data/razz.duckdb.uploads'
    """
    db = Path(db_path).resolve()
    return db.with_name(db.name + ".uploads")


def save(db_path: str, files: list[tuple[str, bytes]]) -> Path:
    """Write uploaded files into a new folder of their own and return the folder."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    folder = uploads_folder(db_path) / stamp
    folder.mkdir(parents=True, exist_ok=False)
    taken: set[str] = set()
    for name, content in files:
        target = safe_name(name)
        stem, dot, suffix = target.rpartition(".")
        n = 1
        while target in taken:
            n += 1
            target = f"{stem}-{n}.{suffix}" if dot else f"{suffix}-{n}"
        taken.add(target)
        (folder / target).write_bytes(content)
    return folder


@dataclass(frozen=True)
class ImportOutcome:
    """What running the importer on one upload gave: its folder, exit code and output."""

    folder: Path
    returncode: int
    output: str


def run_import(db_path: str, folder: Path) -> ImportOutcome:
    """Run `razz import` on a folder as its own process: the importer is the store's only writer."""
    command = [sys.executable, "-m", "razz", "import", "--db", db_path, str(folder)]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=IMPORT_TIMEOUT, check=False,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as expired:
        partial = (expired.stdout or b"") + (expired.stderr or b"")
        text = partial.decode(errors="replace") if isinstance(partial, bytes) else str(partial)
        return ImportOutcome(folder, -1, f"The import took longer than {IMPORT_TIMEOUT} s.\n{text}")
    return ImportOutcome(folder, done.returncode, (done.stdout + done.stderr).strip())


@dataclass(frozen=True)
class ImportReport:
    """What the database recorded about the files of one upload."""

    files: pd.DataFrame
    rejects: pd.DataFrame
    skipped: pd.DataFrame

    @classmethod
    def of(cls, folder: Path) -> ImportReport | None:
        """The report of an upload folder, or None when the database has no record of it."""
        prefix = str(folder.resolve()) + os.sep
        try:
            files = data.imported_files(prefix)
        except data.DatabaseUnavailable:
            return None
        if files.empty:
            return None
        return cls(files, data.imported_rejects(prefix), data.imported_skipped(prefix))


def reject_lines(rejects: pd.DataFrame) -> str:
    """Every rejected hand as `file:line: reason`, the file named as the user uploaded it.

    >>> print(reject_lines(pd.DataFrame({"source": ["/u/1/a.txt"], "line": [4],
    ...                                  "error": ["unexpected text"]})))
    a.txt:4: unexpected text
    """
    return "\n".join(f"{display_name(str(s))}:{int(line)}: {error}" for s, line, error in
                     zip(rejects["source"], rejects["line"], rejects["error"], strict=True))


def display_name(path: str) -> str:
    """An uploaded file as the user knows it: its name (and the archive member, if any)."""
    return Path(path.split("!", 1)[0]).name + ("!" + path.split("!", 1)[1] if "!" in path else "")
