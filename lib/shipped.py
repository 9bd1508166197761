"""The data Leidraad ships (law text, decision trees, training cases), loaded by
``manage.py bootstrap``.

Each app registers the loader of its own shipped data in ``AppConfig.ready()``; the command
runs them in their order (trees cite law text, training cases use trees) and so imports no
app itself. A loader takes the command's stdout and skips what is loaded and unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["Loader", "loaders", "register"]

# Takes the command's stdout (a Django OutputWrapper); what it returns is not used.
Loader = Callable[[Any], object]
_loaders: dict[str, tuple[int, Loader]] = {}


def register(name: str, order: int, loader: Loader) -> None:
    """Load ``loader``'s data at ``order`` (lower first); registering a name again replaces
    its loader."""
    _loaders[name] = (order, loader)


def loaders() -> list[tuple[str, Loader]]:
    """The registered loaders by name, in the order they run."""
    ordered = sorted(_loaders.items(), key=lambda item: item[1][0])
    return [(name, loader) for name, (_order, loader) in ordered]
