"""The app works offline: nothing a browser would load may point to the internet."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = [ROOT / "templates", ROOT / "static", ROOT / "laws", ROOT / "rulings"]
SUFFIXES = {".html", ".css", ".js", ".svg", ".txt"}

# Places where a browser fetches: src/href/action/poster attributes, CSS url() and @import,
# JS imports and fetch(). Plain text mentions (licence comments, xmlns in SVG) are not loads.
LOADS = [
    re.compile(r"""\b(?:src|href|action|poster|data|srcset)\s*=\s*["']?\s*(?:https?:)?//""", re.I),
    re.compile(r"""url\(\s*["']?\s*(?:https?:)?//""", re.I),
    re.compile(r"""@import\s+(?:url\()?\s*["']?\s*(?:https?:)?//""", re.I),
    re.compile(r"""\bimport\s*(?:\(|[^;]*?\bfrom\s*)\s*["'](?:https?:)?//""", re.I),
    re.compile(r"""\bfetch\(\s*["'](?:https?:)?//""", re.I),
]


def files():
    for folder in SCANNED:
        for path in folder.rglob("*"):
            if path.suffix in SUFFIXES and path.is_file() and "seeds" not in path.parts:
                yield path


def external_loads(text: str) -> list[str]:
    return [m.group(0) for pattern in LOADS for m in pattern.finditer(text)]


def test_the_scanner_recognises_external_loads():
    assert external_loads('<script src="https://cdn.example.org/htmx.js">')
    assert external_loads("<link href='//fonts.example.com/css' rel=stylesheet>")
    assert external_loads("body { background: url(https://example.org/x.png) }")
    assert external_loads('@import "https://example.org/a.css";')
    assert not external_loads('<svg xmlns="http://www.w3.org/2000/svg">')
    assert not external_loads("/* see https://getbootstrap.com */")


def test_no_template_or_static_file_loads_from_the_internet():
    scanned = list(files())
    assert len(scanned) > 5
    offenders = {
        str(p.relative_to(ROOT)): hits
        for p in scanned
        if (hits := external_loads(p.read_text(errors="ignore")))
    }
    assert offenders == {}


def test_vendored_assets_are_served_locally(client):
    for path in [
        "/static/vendor/bootstrap/bootstrap.min.css",
        "/static/vendor/bootstrap/bootstrap.bundle.min.js",
        "/static/vendor/bootstrap-icons/bootstrap-icons.min.css",
        "/static/django_htmx/htmx-2.min.js",
    ]:
        response = client.get(path)
        assert response.status_code == 200, path
