"""YAML text to data, through libyaml where PyYAML was built with it.

The pure-Python parser takes most of the time of loading the shipped trees, cases and law
summaries (every ``make run`` start and many tests); libyaml's parser builds the same data
several times faster. Its error messages are worded differently, so a text that fails is
parsed again by the pure-Python parser, whose message is the one directors and tests know.
"""

from __future__ import annotations

from typing import Any

import yaml

__all__ = ["FastSafeLoader", "load"]

try:
    from yaml import CSafeLoader as FastSafeLoader
except ImportError:  # PyYAML without libyaml
    from yaml import SafeLoader as FastSafeLoader  # type: ignore[assignment]


def load(
    text: str,
    fast: type[Any] = FastSafeLoader,
    exact: type[Any] = yaml.SafeLoader,
) -> Any:
    """The data of ``text`` (loaders: safe ones only); on invalid YAML, ``exact``'s error."""
    try:
        return yaml.load(text, Loader=fast)  # noqa: S506 - safe loaders only
    except yaml.YAMLError:
        return yaml.load(text, Loader=exact)  # noqa: S506 - raises the familiar error
