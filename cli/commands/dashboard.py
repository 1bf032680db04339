"""`razz dashboard [--db FILE] [--port N] [--allow-import]`: serve the Streamlit dashboard.

The dashboard only reads the store, unless `--allow-import` adds the Import page, which
uploads hand histories into `<db>.uploads/` beside the database and imports them.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

DEFAULT_PORT = 8501


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="FILE", default=None,
                        help="DuckDB file to show (default: $RAZZ_DB, else razz.duckdb)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"port to serve on (default {DEFAULT_PORT})")
    parser.add_argument("--address", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--allow-import", action="store_true",
                        help="add the Import page, which uploads files into <db>.uploads/ "
                        "and imports them (without it the dashboard only reads)")
    parser.add_argument("--max-upload-mb", type=int, default=200, metavar="MB",
                        help="largest hand-history file the Import page accepts (default 200)")


def streamlit_command(args: argparse.Namespace) -> tuple[list[str], dict[str, str]]:
    """The `streamlit run` command line and environment that serve the dashboard."""
    from razz.store.db import default_db_path

    db = Path(args.db) if args.db else default_db_path()
    import razz.dashboard  # the package's __init__ is empty: no Streamlit import here

    app = Path(razz.dashboard.__file__).resolve().parent / "app.py"
    command = [
        sys.executable, "-m", "streamlit", "run", str(app),
        "--server.headless", "true",
        "--server.port", str(args.port),
        "--server.address", args.address,
        "--server.maxUploadSize", str(args.max_upload_mb),
        "--server.fileWatcherType", "none",
        "--server.runOnSave", "false",
        "--browser.gatherUsageStats", "false",
        "--client.toolbarMode", "viewer",
    ]
    env = dict(os.environ)
    env["RAZZ_DASHBOARD_DB"] = str(db.resolve())
    env["RAZZ_DASHBOARD_MAX_UPLOAD_MB"] = str(args.max_upload_mb)
    # Never inherited: only this flag, on this command line, lets the dashboard write.
    env["RAZZ_DASHBOARD_ALLOW_IMPORT"] = "1" if args.allow_import else "0"
    return command, env


def run(args: argparse.Namespace) -> int:
    command, env = streamlit_command(args)
    mode = ("with the Import page (uploads go to "
            f"{env['RAZZ_DASHBOARD_DB']}.uploads/)" if args.allow_import else "read-only")
    print(f"Dashboard on {env['RAZZ_DASHBOARD_DB']}, {mode}: "
          f"http://{args.address}:{args.port}/ (Ctrl-C to stop)", file=sys.stderr, flush=True)
    # Become the Streamlit server rather than wait for it: stopping `razz dashboard` (Ctrl-C,
    # a service manager's SIGTERM) then stops the server, and no orphan is left behind.
    os.execve(command[0], command, env)
