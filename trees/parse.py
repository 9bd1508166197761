"""Reading decision tree files (``trees/files/<slug>.yaml``, format in docs/TREE_FORMAT.md).

Parsing checks the *shape* of the document and raises :class:`~trees.spec.TreeError` on the first
structural problem (bad YAML, unknown or missing fields, wrong types, malformed keys); the *rules*
of a good tree are checked by :func:`trees.validate.validate`. Errors raised from a file are
prefixed with the file (``trees/files/x.yaml: node 'foo': ...``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path as FilePath
from typing import Any

import yaml

from laws import keys
from lib import yamltext
from trees.options import OptionSpec
from trees.spec import (
    CHOOSERS,
    OFFENDER_ROLES,
    PHASES,
    ChoiceSpec,
    Finder,
    NodeSpec,
    OutcomeSpec,
    Text,
    TreeError,
    TreeSpec,
)

__all__ = ["SLUG_RE", "load_tree_file", "parse_tree"]

SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

# --------------------------------------------------------------------------------------------
# Parsing


class _UniqueKeyLoader(yaml.SafeLoader):
    """A safe loader that refuses duplicate mapping keys (YAML would keep the last silently)."""


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    mapping: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in mapping:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        mapping[key] = loader.construct_object(value_node, deep=True)
    return mapping


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


class _FastUniqueKeyLoader(yamltext.FastSafeLoader):
    """The same, on libyaml's parser (``lib.yamltext``)."""


_FastUniqueKeyLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping
)

_TREE_FIELDS = {
    "slug",
    "edition",
    "phase",
    "title",
    "description",
    "notes",
    "finder",
    "start",
    "nodes",
}
_NODE_FIELDS = {"question", "outcome", "help", "cites", "choices", "poll"}
_CHOICE_FIELDS = {"key", "label", "next", "cites", "offender"}
_OUTCOME_FIELDS = {
    "title",
    "ruling",
    "options",
    "chooser",
    "announce",
    "adjusted_score",
    "unauthorised_information",
    "see_tree",
    "option_list",
    "resume_at",
}


class _Parser:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> TreeError:
        prefix = f"{self.source}: " if self.source else ""
        return TreeError(f"{prefix}{where}{': ' if where else ''}{message}")

    def mapping(self, value: Any, where: str, what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"{what} must be a mapping")
        for key in value:
            if not isinstance(key, str):
                raise self.fail(where, f"{what}: field {key!r} must be a string (quote it)")
        return value

    def fields(self, data: dict[str, Any], allowed: set[str], where: str, what: str) -> None:
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise self.fail(
                where,
                f"{what}: unknown field {', '.join(repr(u) for u in unknown)}"
                f" (allowed: {', '.join(sorted(allowed))})",
            )

    def string(self, value: Any, where: str, what: str, *, optional: bool = False) -> str:
        if value is None and optional:
            return ""
        if not isinstance(value, str):
            hint = " (quote it)" if isinstance(value, bool | int | float) else ""
            raise self.fail(where, f"{what} must be a string{hint}, not {value!r}")
        return value.strip()

    def slug(self, value: Any, where: str, what: str) -> str:
        text = self.string(value, where, what)
        if not SLUG_RE.match(text):
            raise self.fail(where, f"{what} {text!r} is not a lowercase slug (a-z, 0-9, '-')")
        return text

    def text(self, value: Any, where: str, what: str) -> Text:
        """A bilingual text: a mapping with ``nl`` and ``en``. Empty parts are left to validate."""
        data = self.mapping(value, where, what)
        self.fields(data, {"nl", "en"}, where, what)
        return Text(
            nl=self.string(data.get("nl"), where, f"{what} (nl)", optional=True),
            en=self.string(data.get("en"), where, f"{what} (en)", optional=True),
        )

    def boolean(self, value: Any, where: str, what: str) -> bool:
        if value is None:
            return False
        if not isinstance(value, bool):
            raise self.fail(where, f"{what} must be true or false, not {value!r}")
        return value

    def tree(self, text: str) -> TreeSpec:
        try:
            data = yamltext.load(text, fast=_FastUniqueKeyLoader, exact=_UniqueKeyLoader)
        except yaml.YAMLError as exc:
            raise self.fail("", f"invalid YAML: {exc}".replace("\n", " ")) from exc
        data = self.mapping(data, "", "the file")
        self.fields(data, _TREE_FIELDS, "", "the tree")
        missing = sorted({"slug", "edition", "phase", "title", "start", "nodes"} - set(data))
        if missing:
            raise self.fail("", f"missing field {', '.join(repr(m) for m in missing)}")
        slug = self.slug(data["slug"], "", "slug")
        edition = self.string(data["edition"], "", "edition")
        if not edition:
            raise self.fail("", "edition is empty")
        phase = self.string(data["phase"], "", "phase")
        if phase not in PHASES:
            raise self.fail("", f"phase {phase!r} is not one of {', '.join(PHASES)}")
        title = self.text(data["title"], "", "title")
        description = self.text(data.get("description") or {}, "", "description")
        notes = self.string(data.get("notes"), "", "notes", optional=True)
        finder = self.finder(data.get("finder"))
        start = self.slug(data["start"], "", "start")
        nodes_data = self.mapping(data["nodes"], "", "nodes")
        if not nodes_data:
            raise self.fail("", "nodes is empty")
        nodes = tuple(self.node(key, value) for key, value in nodes_data.items())
        return TreeSpec(
            slug=slug,
            edition=edition,
            phase=phase,
            title=title,
            description=description,
            notes=notes,
            start=start,
            nodes=nodes,
            finder=finder,
            source=self.source,
        )

    def finder(self, value: Any) -> Finder:
        """``finder: {nl: [words], en: [words], synonyms: {nl: [words], en: [words]}}``,
        each part optional."""
        if value is None:
            return Finder()
        data = self.mapping(value, "", "finder")
        self.fields(data, {"nl", "en", "synonyms"}, "", "finder")
        synonyms = self.mapping(data.get("synonyms") or {}, "", "finder synonyms")
        self.fields(synonyms, {"nl", "en"}, "", "finder synonyms")
        return Finder(
            nl=self.words(data, "nl", "finder"),
            en=self.words(data, "en", "finder"),
            synonyms_nl=self.words(synonyms, "nl", "finder synonyms"),
            synonyms_en=self.words(synonyms, "en", "finder synonyms"),
        )

    def words(self, data: dict[str, Any], language: str, what: str) -> tuple[str, ...]:
        """A list of words or phrases, each on one line (a ``Tree`` row keeps one per line)."""
        items = data.get(language) or []
        if not isinstance(items, list):
            raise self.fail("", f"{what} ({language}) must be a list of words")
        words = tuple(self.string(item, "", f"{what} ({language})") for item in items)
        if any(not word for word in words):
            raise self.fail("", f"{what} ({language}) has an empty word")
        if any("\n" in word for word in words):
            raise self.fail("", f"{what} ({language}) has a word with a line break")
        return words

    def node(self, key: str, value: Any) -> NodeSpec:
        where = f"node {key!r}"
        if not SLUG_RE.match(key):
            raise self.fail(where, "node key is not a lowercase slug (a-z, 0-9, '-')")
        data = self.mapping(value, where, "the node")
        self.fields(data, _NODE_FIELDS, where, "the node")
        if ("question" in data) == ("outcome" in data):
            raise self.fail(where, "a node has exactly one of 'question' and 'outcome'")
        help_text = self.text(data["help"], where, "help") if data.get("help") else None
        cites = self.cites(data.get("cites"), where)
        choices = self.choices(data.get("choices"), where)
        poll = self.boolean(data.get("poll"), where, "poll")
        if "question" in data:
            return NodeSpec(
                key=key,
                kind="question",
                text=self.text(data["question"], where, "question"),
                help=help_text,
                cites=cites,
                choices=choices,
                poll=poll,
            )
        if poll:
            raise self.fail(where, "poll: only a question is answered by a poll")
        outcome_data = self.mapping(data["outcome"], where, "outcome")
        self.fields(outcome_data, _OUTCOME_FIELDS, where, "outcome")
        for required in ("title", "ruling", "announce"):
            if required not in outcome_data:
                raise self.fail(where, f"outcome: missing field {required!r}")
        chooser = self.string(outcome_data.get("chooser", "none"), where, "chooser")
        if chooser not in CHOOSERS:
            raise self.fail(where, f"chooser {chooser!r} is not one of {', '.join(CHOOSERS)}")
        see_tree = outcome_data.get("see_tree")
        outcome = OutcomeSpec(
            ruling=self.text(outcome_data["ruling"], where, "ruling"),
            announce=self.text(outcome_data["announce"], where, "announce"),
            options=(
                self.text(outcome_data["options"], where, "options")
                if outcome_data.get("options")
                else None
            ),
            chooser=chooser,
            adjusted_score=self.boolean(
                outcome_data.get("adjusted_score"), where, "adjusted_score"
            ),
            unauthorised_information=self.boolean(
                outcome_data.get("unauthorised_information"), where, "unauthorised_information"
            ),
            see_tree=self.slug(see_tree, where, "see_tree") if see_tree is not None else None,
            option_list=self.option_list(outcome_data.get("option_list"), where),
            resume_at=(
                self.slug(outcome_data["resume_at"], where, "resume_at")
                if outcome_data.get("resume_at") is not None
                else None
            ),
        )
        return NodeSpec(
            key=key,
            kind="outcome",
            text=self.text(outcome_data["title"], where, "title"),
            help=help_text,
            cites=cites,
            choices=choices,
            outcome=outcome,
        )

    def option_list(self, value: Any, where: str) -> tuple[OptionSpec, ...]:
        """``option_list: [{label: {nl, en}, cites: [...], chosen_by: declarer,
        chosen_if: node/choice}]``: every option when a side chooses (docs/TREE_FORMAT.md)."""
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self.fail(where, "option_list must be a list of options")
        options = []
        for index, item in enumerate(value, start=1):
            data = self.mapping(item, where, f"option {index}")
            names = {"label", "cites", "chosen_by", "chosen_if"}
            self.fields(data, names, where, f"option {index}")
            if "label" not in data:
                raise self.fail(where, f"option {index}: missing field 'label'")
            options.append(
                OptionSpec(
                    label=self.text(data["label"], where, f"option {index}: label"),
                    cites=self.cites(data.get("cites"), f"{where}: option {index}"),
                    chosen_by=self.string(data.get("chosen_by", "none"), where, "chosen_by"),
                    chosen_if=self.string(data.get("chosen_if"), where, "chosen_if", optional=True),
                )
            )
        return tuple(options)

    def cites(self, value: Any, where: str) -> tuple[str, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self.fail(where, "cites must be a list of law references")
        result = []
        for item in value:
            raw = self.string(item, where, "citation")
            try:
                result.append(keys.canonical(raw))
            except keys.InvalidKey:
                result.append(raw)  # validate() reports it, naming the node
        return tuple(result)

    def choices(self, value: Any, where: str) -> tuple[ChoiceSpec, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self.fail(where, "choices must be a list")
        result = []
        for index, item in enumerate(value, start=1):
            data = self.mapping(item, where, f"choice {index}")
            self.fields(data, _CHOICE_FIELDS, where, f"choice {index}")
            for required in ("key", "label", "next"):
                if required not in data:
                    raise self.fail(where, f"choice {index}: missing field {required!r}")
            key = self.slug(data["key"], where, f"choice {index}: key")
            result.append(
                ChoiceSpec(
                    key=key,
                    label=self.text(data["label"], where, f"choice {key!r}: label"),
                    target=self.slug(data["next"], where, f"choice {key!r}: next"),
                    cites=self.cites(data.get("cites"), f"{where}: choice {key!r}"),
                    offender=self.offender(data.get("offender"), where, key),
                )
            )
        return tuple(result)

    def offender(self, value: Any, where: str, key: str) -> str:
        """Who the offender is by this answer (``defender``, ``declarer_side``), or ""."""
        if value is None:
            return ""
        if value not in OFFENDER_ROLES:
            roles = ", ".join(OFFENDER_ROLES)
            raise self.fail(where, f"choice {key!r}: offender must be one of {roles}")
        return str(value)


@lru_cache(maxsize=64)
def parse_tree(text: str, source: str = "") -> TreeSpec:
    """Parse a tree file's text. Raises TreeError (naming ``source`` and the node) on bad shape.

    A parse is kept per text and source: the tree is immutable, and the same files are read
    again and again (each load of the trees, the tests: about a tenth of their time)."""
    return _Parser(source).tree(text)


def load_tree_file(path: str | FilePath, source: str | None = None) -> TreeSpec:
    """Read and parse one tree file; its slug must equal the file name without ``.yaml``."""
    file_path = FilePath(path)
    label = source if source is not None else str(path)
    try:
        text = file_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TreeError(f"{label}: cannot read the file: {exc}") from exc
    tree = parse_tree(text, label)
    if tree.slug != file_path.stem:
        raise TreeError(f"{label}: slug {tree.slug!r} must equal the file name {file_path.stem!r}")
    return tree
