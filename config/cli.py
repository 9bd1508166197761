"""The ``leidraad`` command for club laptops (Windows, macOS, Linux): no ``make`` needed.

    leidraad serve            migrate, load laws/trees/cases, serve, open the browser
    leidraad backup FILE      a consistent copy of the database
    leidraad export ...       a transfer bundle for the club server (``export_rulings``)
    leidraad import ...       a transfer bundle from a laptop (``import_rulings``)
    leidraad unlock USERNAME  lift the login lockout of a user (``axes_reset_username``)
    leidraad import-laws FILE [--edition 2017] [--dry-run]
                              official law text over the edition's summaries (``import_laws``)
    leidraad --version

Data lives in the user's data folder (``LEIDRAAD_DATA_DIR`` overrides it), never inside the
installed package. The server is waitress, a production-grade WSGI server in pure Python.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import webbrowser
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

APP_NAME = "Leidraad"
# The management commands behind the pass-through subcommands.
PASS_THROUGH = {
    "backup": "backup",
    "export": "export_rulings",
    "import": "import_rulings",
    "import-laws": "import_laws",
    "unlock": "axes_reset_username",
}
# The edition ``import-laws`` imports into unless told otherwise: the current one.
DEFAULT_LAW_EDITION = "2017"


def pass_through_arguments(command: str, rest: list[str]) -> list[str]:
    """The management command's arguments for a pass-through subcommand: ``import-laws``
    imports into the current edition when no ``--edition`` is given."""
    if command == "import-laws" and not any(
        arg == "--edition" or arg.startswith("--edition=") for arg in rest
    ):
        return [*rest, "--edition", DEFAULT_LAW_EDITION]
    return rest


def user_data_dir(environ: dict[str, str] | None = None, platform: str = sys.platform) -> Path:
    """Where a laptop keeps its database and secret key: ``LEIDRAAD_DATA_DIR`` when set, else
    the platform's folder for application data."""
    env = os.environ if environ is None else environ
    if env.get("LEIDRAAD_DATA_DIR"):
        return Path(env["LEIDRAAD_DATA_DIR"]).expanduser()
    home = Path(env.get("HOME") or env.get("USERPROFILE") or Path.home())
    if platform.startswith("win"):
        base = env.get("LOCALAPPDATA") or env.get("APPDATA") or str(home / "AppData" / "Local")
        return Path(base) / APP_NAME
    if platform == "darwin":
        return home / "Library" / "Application Support" / APP_NAME
    return Path(env.get("XDG_DATA_HOME") or home / ".local" / "share") / APP_NAME.lower()


def version() -> str:
    try:
        return metadata.version("leidraad")
    except metadata.PackageNotFoundError:  # run from a checkout without installing
        return "0+checkout"


def _django(data_dir: Path) -> None:
    os.environ["LEIDRAAD_DATA_DIR"] = str(data_dir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def serve(host: str, port: int, open_browser: bool, threads: int) -> None:
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    call_command("bootstrap")
    from waitress import serve as waitress_serve

    from config.wsgi import application

    url = f"http://{host}:{port}/"
    print(f"Leidraad {version()} on {url} (data: {os.environ['LEIDRAAD_DATA_DIR']}); Ctrl+C stops.")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    waitress_serve(application, **waitress_options(host, port, threads))


def waitress_options(host: str, port: int, threads: int) -> dict[str, Any]:
    """Waitress keeps the proxy headers: it would strip them (it trusts no proxy), and then a
    request that came through a reverse proxy on this machine would look like a local one.
    Leidraad reads them itself, from LEIDRAAD_TRUSTED_PROXIES only (lib/client.py)."""
    return {
        "host": host,
        "port": port,
        "threads": threads,
        "ident": "Leidraad",
        "clear_untrusted_proxy_headers": False,
    }


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="leidraad", description=__doc__.split("\n")[0])
    parser.add_argument("--version", action="version", version=f"leidraad {version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="set up and serve Leidraad on this computer")
    run.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    run.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    run.add_argument("--threads", type=int, default=4, help="worker threads (4)")
    run.add_argument("--no-browser", action="store_true", help="do not open a browser")
    for name, command in PASS_THROUGH.items():
        commands.add_parser(
            name, help=f"run manage.py {command}; add -h for its options", add_help=False
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    args, rest = parser().parse_known_args(args_list)
    data_dir = user_data_dir()
    data_dir.mkdir(parents=True, exist_ok=True)
    _django(data_dir)
    if args.command == "serve":
        if rest:
            parser().error(f"unrecognized arguments: {' '.join(rest)}")
        serve(args.host, args.port, not args.no_browser, args.threads)
        return 0
    from django.core.management import execute_from_command_line

    arguments = pass_through_arguments(args.command, rest)
    execute_from_command_line(["leidraad", PASS_THROUGH[args.command], *arguments])
    return 0


if __name__ == "__main__":
    sys.exit(main())
