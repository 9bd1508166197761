"""Audit the pinned runtime requirements for known vulnerabilities with pip-audit.

Never a false pass: when the advisory data cannot be reached for some package, the audit says
so and fails, instead of reporting "no known vulnerabilities".
"""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIP_AUDIT = ROOT / ".venv" / "bin" / "pip-audit"

result = subprocess.run(
    [
        str(PIP_AUDIT),
        "-r",
        str(ROOT / "requirements.txt"),
        "--no-deps",
        "--disable-pip",
        "--format",
        "json",
        "--progress-spinner",
        "off",
    ],
    capture_output=True,
    text=True,
)
try:
    report = json.loads(result.stdout)
except json.JSONDecodeError:
    print(f"audit: pip-audit failed: {result.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
    sys.exit(2)

dependencies = report.get("dependencies", [])
unaudited = [d["name"] for d in dependencies if d.get("skip_reason")]
vulnerable = [(d["name"], d["version"], v["id"]) for d in dependencies for v in d.get("vulns", [])]
for name, version, advisory in vulnerable:
    print(f"VULNERABLE: {name} {version}: {advisory}")
if unaudited:
    print(
        f"audit: advisory data could not be reached for {len(unaudited)} of {len(dependencies)} "
        f"packages ({', '.join(unaudited[:5])}{'…' if len(unaudited) > 5 else ''}): "
        "dependencies were NOT audited."
    )
    sys.exit(3)
if vulnerable:
    print(f"audit: {len(vulnerable)} known vulnerabilities in requirements.txt.")
    sys.exit(1)
print(f"audit: {len(dependencies)} packages audited, no known vulnerabilities.")
