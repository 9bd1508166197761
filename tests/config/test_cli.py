"""The ``leidraad`` command's own logic: where a laptop keeps its data, and its arguments.
(``make wheel-test`` installs the wheel in a fresh environment and serves a real page.)"""

from pathlib import Path

import pytest

from config import cli


@pytest.mark.parametrize(
    ("platform", "environ", "expected"),
    [
        ("linux", {"HOME": "/home/jan"}, "/home/jan/.local/share/leidraad"),
        ("linux", {"HOME": "/home/jan", "XDG_DATA_HOME": "/data"}, "/data/leidraad"),
        ("darwin", {"HOME": "/Users/jan"}, "/Users/jan/Library/Application Support/Leidraad"),
        (
            "win32",
            {"LOCALAPPDATA": "C:/Users/jan/AppData/Local"},
            "C:/Users/jan/AppData/Local/Leidraad",
        ),
        ("win32", {"HOME": "/x", "LEIDRAAD_DATA_DIR": "/srv/ld"}, "/srv/ld"),
    ],
)
def test_data_lives_in_the_users_data_folder(platform, environ, expected):
    assert cli.user_data_dir(environ, platform) == Path(expected)


def test_serve_takes_host_port_and_no_browser():
    args = cli.parser().parse_args(["serve", "--port", "8123", "--no-browser"])
    assert (args.command, args.host, args.port, args.no_browser) == (
        "serve",
        "127.0.0.1",
        8123,
        True,
    )


def test_export_passes_its_options_to_the_management_command(monkeypatch, tmp_path):
    calls = []
    monkeypatch.setenv("LEIDRAAD_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(cli, "_django", lambda data_dir: calls.append(("setup", data_dir)))
    monkeypatch.setattr(
        "django.core.management.execute_from_command_line", lambda argv: calls.append(argv)
    )
    assert cli.main(["export", "--out", "x.json", "--club", "bc"]) == 0
    assert calls == [
        ("setup", tmp_path),
        ["leidraad", "export_rulings", "--out", "x.json", "--club", "bc"],
    ]


def test_unknown_serve_options_are_refused(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("LEIDRAAD_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(cli, "_django", lambda data_dir: None)
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["serve", "--colour"])
    assert exit_info.value.code == 2
    assert "unrecognized arguments: --colour" in capsys.readouterr().err


def test_the_wheel_lists_every_python_package_of_the_apps():
    """A package left out of pyproject.toml is missing from the laptop install (it happened:
    laws.importer became a package); make wheel-test shows it, this says which one."""
    import tomllib

    root = Path(__file__).resolve().parents[2]
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    apps = [name for name in listed if "." not in name]
    found = {
        ".".join(init.parent.relative_to(root).parts)
        for app in apps
        for init in (root / app).rglob("__init__.py")
    }
    assert found - listed == set()


def test_the_wheel_carries_every_data_file_of_the_apps():
    """A data folder the package-data globs miss is absent from the laptop install (it happened:
    laws/data/provisions-2017 was left out and the installed server would not start)."""
    import tomllib

    root = Path(__file__).resolve().parents[2]
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    package_data = config["tool"]["setuptools"]["package-data"]
    apps = [name for name in package_data if "." not in name]
    carried = {
        path
        for app in apps
        for pattern in package_data[app]
        for path in (root / app).glob(pattern)
        if path.is_file()
    }
    data_files = {
        path
        for app in apps
        for folder in {pattern.split("/")[0] for pattern in package_data[app]}
        for path in (root / app / folder).rglob("*")
        if path.is_file() and path.suffix != ".py" and "__pycache__" not in path.parts
    }
    assert sorted(str(path.relative_to(root)) for path in data_files - carried) == []


@pytest.mark.parametrize(
    ("given", "passed"),
    [
        (["wet.txt"], ["wet.txt", "--edition", "2017"]),
        (["wet.txt", "--dry-run"], ["wet.txt", "--dry-run", "--edition", "2017"]),
        (["wet.txt", "--edition", "2007"], ["wet.txt", "--edition", "2007"]),
        (["wet.txt", "--edition=1987"], ["wet.txt", "--edition=1987"]),
    ],
)
def test_import_laws_imports_into_the_current_edition_unless_told(
    monkeypatch, tmp_path, given, passed
):
    calls = []
    monkeypatch.setenv("LEIDRAAD_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(cli, "_django", lambda data_dir: None)
    monkeypatch.setattr(
        "django.core.management.execute_from_command_line", lambda argv: calls.append(argv)
    )
    assert cli.main(["import-laws", *given]) == 0
    assert calls == [["leidraad", "import_laws", *passed]]
