"""Click-to-next-question time in headless Chromium (Playwright), against the gunicorn server.

The time is taken inside the page: from just before the choice button is clicked until the next
question has replaced the step (``#wizard`` swapped by htmx) and the browser has produced the
next animation frame, i.e. until the new question can be painted. Playwright's own round trips
are not in it. A new ruling is started (not timed) whenever a path reaches an outcome.
"""

# ruff: noqa: S311

from __future__ import annotations

import os
import random
import uuid as uuid_lib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from trees.spec import Snapshot

from bench.load import HOST, Session

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/lib/chromium/chromium"))
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Resolves with the milliseconds from the click to (a) the first frame after htmx swapped the
# step in (the new question can be painted) and (b) htmx's settle (``htmx:afterSettle``): only
# then are the new buttons wired to htmx, so the next click waits for it.
CLICK_JS = """
async (index) => {
  const old = document.getElementById("wizard");
  const buttons = old.querySelectorAll("button[name=choice]");
  const swapped = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      const now = document.getElementById("wizard");
      if (now && now !== old) { observer.disconnect(); resolve(); }
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
  const settled = new Promise((resolve) => {
    const done = (event) => {
      if (event.target instanceof HTMLElement && event.target.id === "wizard") {
        document.removeEventListener("htmx:afterSettle", done);
        resolve(performance.now());
      }
    };
    document.addEventListener("htmx:afterSettle", done);
  });
  performance.clearResourceTimings();
  const started = performance.now();
  buttons[index].click();
  await swapped;
  await new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const painted = performance.now();
  const ready = await settled;
  const wizard = document.getElementById("wizard");
  const xhr = performance.getEntriesByType("resource")
    .filter((entry) => entry.initiatorType === "xmlhttprequest").pop();
  return {
    request: xhr ? xhr.responseEnd - xhr.startTime : NaN,
    painted: painted - started,
    ready: ready - started,
    outcome: !wizard.querySelector("button[name=choice]"),
    error: !!wizard.querySelector("[data-wizard-error]"),
  };
}
"""


def available() -> bool:
    return CHROMIUM.exists()


def click_times(
    port: int, session: Session, tree: Snapshot, steps: int, seed: int = 7
) -> tuple[list[float], list[float], list[float]]:
    """(painted, ready, request) seconds for ``steps`` clicks; ``request`` is the htmx
    request alone (network and server, from the browser's resource timing)."""
    from playwright.sync_api import sync_playwright

    rng = random.Random(seed)
    base = f"http://{HOST}:{port}"
    times: list[float] = []
    ready: list[float] = []
    requests: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS
        )
        try:
            context = browser.new_context(locale="nl-NL", viewport={"width": 1280, "height": 900})
            context.add_cookies([{"name": "sessionid", "value": session.sessionid, "url": base}])
            page = context.new_page()
            # One untimed warm-up path: the browser's cache and the server's workers.
            warmup = 1
            while len(times) < steps:
                page.goto(f"{base}/arbitrage/nieuw/{tree.slug}/{uuid_lib.uuid4()}/")
                page.wait_for_selector("#wizard button[name=choice]")
                node = tree.start
                while True:
                    choices = tree.node(node).choices
                    index = rng.randrange(len(choices))
                    result = page.evaluate(CLICK_JS, index)
                    if result["error"]:
                        raise RuntimeError("the wizard refused an answer in the browser")
                    if not warmup:
                        times.append(result["painted"] / 1000)
                        ready.append(result["ready"] / 1000)
                        requests.append(result["request"] / 1000)
                    target = choices[index].target
                    if result["outcome"] != tree.is_outcome(target):
                        raise RuntimeError("the browser shows another step than expected")
                    if tree.is_outcome(target) or len(times) >= steps:
                        break
                    node = target
                warmup = 0
        finally:
            browser.close()
    return times, ready, requests
