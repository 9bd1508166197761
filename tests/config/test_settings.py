import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    skip = {"DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    environment = {k: v for k, v in os.environ.items() if k not in skip}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_pass_check_deploy(tmp_path):
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        PRODUCTION="true",
        SECRET_KEY="x7#Kq" * 12,
        ALLOWED_HOSTS="leidraad.example.org",
        LEIDRAAD_DATA_DIR=str(tmp_path),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    environment = {
        "PRODUCTION": "true",
        "ALLOWED_HOSTS": "x.org",
        "LEIDRAAD_DATA_DIR": str(tmp_path),
    }
    result = run_manage("check", SECRET_KEY="", **environment)
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_laptop_mode_generates_and_keeps_a_secret_key(tmp_path):
    for _ in range(2):
        result = run_manage("check", SECRET_KEY="", LEIDRAAD_DATA_DIR=str(tmp_path))
        assert result.returncode == 0, result.stderr
    key = (tmp_path / "secret_key").read_text()
    assert len(key) >= 50
    assert oct((tmp_path / "secret_key").stat().st_mode)[-3:] == "600"


def test_sqlite_runs_in_wal_mode(tmp_path):
    result = run_manage(
        "shell",
        "-c",
        "from django.db import connection; c = connection.cursor(); "
        "c.execute('PRAGMA journal_mode'); print(c.fetchone()[0])",
        LEIDRAAD_DATA_DIR=str(tmp_path),
        DATABASE_URL="",
    )
    assert result.stdout.strip().splitlines()[-1] == "wal", result.stderr


def test_the_suite_talks_to_the_database_it_was_given(db):
    from django.db import connection

    expected = (
        "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite"
    )
    assert connection.vendor == expected
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone()[0] == 1
