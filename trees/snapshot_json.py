"""Reading a stored snapshot's JSON (``TreeSnapshot.data``, a transfer bundle's snapshots) back
into :class:`trees.spec.Snapshot`: strict, since a bundle may come from elsewhere; every odd
place is a :class:`SnapshotFormatError` naming it. :meth:`Snapshot.to_json` writes what this
reads; :meth:`Snapshot.from_json` is the entry point. Pure Python, no Django.
"""

from __future__ import annotations

from typing import Any

from lib import schema
from trees.options import read_options
from trees.order import reading_order
from trees.spec import (
    KINDS,
    LAW_KINDS,
    OFFENDER_ROLES,
    ChoiceSpec,
    CitedLaw,
    NodeSpec,
    OutcomeSpec,
    Snapshot,
    SnapshotFormatError,
    Text,
    TreeSpec,
)

__all__ = ["read_cited_law", "read_snapshot"]


def read_snapshot(data: Any, digest: str = "", where: str = "snapshot") -> Snapshot:
    """Read stored snapshot data; raises SnapshotFormatError naming the first odd place."""
    read = _Reader
    read.fields(data, {"slug", "version", "edition", "phase", "title", "start", "nodes"}, where)
    nodes_data = data.get("nodes")
    if not isinstance(nodes_data, dict):
        raise SnapshotFormatError(f"{where}.nodes: must be an object")
    law: dict[str, CitedLaw] = {}
    nodes = []
    for key, raw in nodes_data.items():
        node, cited = read.node(str(key), raw, f"{where}.nodes.{key}")
        nodes.append(node)
        law.update((item.key, item) for item in cited)
    start = read.string(data, "start", where)
    if start not in nodes_data:
        raise SnapshotFormatError(f"{where}.start: no node {start}")
    for node in nodes:
        for choice in node.choices:
            if choice.target not in nodes_data:
                raise SnapshotFormatError(
                    f"{where}.nodes.{node.key}: choice {choice.key} leads nowhere"
                )
    tree = TreeSpec(
        slug=read.string(data, "slug", where),
        edition=read.string(data, "edition", where),
        phase=read.string(data, "phase", where, required=False),
        title=read.text(data.get("title"), f"{where}.title") or Text("", ""),
        description=Text("", ""),
        notes="",
        start=start,
        # PostgreSQL's jsonb does not keep the order of the stored nodes: put them in the
        # order Snapshot.of gives them, so a snapshot reads back equal on every database.
        nodes=reading_order(nodes, start),
    )
    return Snapshot(tree=tree, version=read.string(data, "version", where), law=law, digest=digest)


def read_cited_law(data: Any, where: str = "citation") -> CitedLaw:
    """One stored citation: the law text a node or an answer showed."""
    _Reader.fields(data, {"key", "edition", "article", "article_title", "kind", "text"}, where)
    kind = _Reader.string(data, "kind", where)
    if kind not in LAW_KINDS:
        raise SnapshotFormatError(f"{where}.kind: must be one of {', '.join(LAW_KINDS)}")
    return CitedLaw(
        key=_Reader.string(data, "key", where),
        edition=_Reader.string(data, "edition", where),
        article=_Reader.string(data, "article", where),
        article_title=_Reader.string(data, "article_title", where),
        kind=kind,
        text=_Reader.text(data.get("text"), f"{where}.text") or Text("", ""),
    )


class _Reader:
    """Strict reading of stored snapshot JSON (a bundle may come from elsewhere)."""

    @staticmethod
    def fields(
        data: Any, allowed: set[str], where: str, optional: frozenset[str] | set[str] = frozenset()
    ) -> None:
        if not isinstance(data, dict):
            raise SnapshotFormatError(f"{where}: must be an object")
        unknown = sorted(set(map(str, data)) - allowed)
        if unknown:
            raise SnapshotFormatError(f"{where}: unknown key(s) {', '.join(unknown)}")
        missing = sorted(allowed - optional - set(data))
        if missing:
            raise SnapshotFormatError(f"{where}.{missing[0]}: is missing")

    @staticmethod
    def string(data: dict[str, Any], name: str, where: str, *, required: bool = True) -> str:
        value = data.get(name)
        if value is None and not required:
            return ""
        if type(value) is not str:
            raise SnapshotFormatError(f"{where}.{name}: must be str")
        return value

    @staticmethod
    def boolean(data: dict[str, Any], name: str, where: str) -> bool:
        value = data.get(name)
        if type(value) is not bool:
            raise SnapshotFormatError(f"{where}.{name}: must be bool")
        return value

    @staticmethod
    def text(value: Any, where: str) -> Text | None:
        if value is None:
            return None
        odd = schema.problems(value, schema.LanguageText, where)
        if odd:
            raise SnapshotFormatError(odd[0])
        return Text(value.get("nl") or "", value.get("en") or "")

    @staticmethod
    def node(key: str, data: Any, where: str) -> tuple[NodeSpec, list[CitedLaw]]:
        read = _Reader
        read.fields(
            data,
            {"kind", "text", "help", "citations", "outcome", "choices", "poll"},
            where,
            optional={"text", "help", "outcome", "choices", "poll"},
        )
        kind = data.get("kind")
        if kind not in KINDS:
            raise SnapshotFormatError(f"{where}.kind: must be one of {', '.join(KINDS)}")
        raw_citations = data.get("citations")
        if not isinstance(raw_citations, list):
            raise SnapshotFormatError(f"{where}.citations: must be a list")
        cited = [
            read_cited_law(item, f"{where}.citations[{index}]")
            for index, item in enumerate(raw_citations)
        ]
        details = "outcome" if kind == "outcome" else "choices"
        if data.get(details) is None:
            raise SnapshotFormatError(f"{where}: {details} is missing")
        outcome = read.outcome(data["outcome"], f"{where}.outcome") if kind == "outcome" else None
        choices, answer_law = read.choices(data.get("choices") or [], f"{where}.choices")
        cited = [*cited, *answer_law]
        node = NodeSpec(
            key=key,
            kind=kind,
            text=read.text(data.get("text"), f"{where}.text") or Text("", ""),
            help=read.text(data.get("help"), f"{where}.help"),
            cites=tuple(item.key for item in cited[: len(raw_citations)]),
            choices=choices,
            outcome=outcome,
            poll=read.boolean(data, "poll", where) if "poll" in data else False,
        )
        return node, cited

    @staticmethod
    def outcome(data: Any, where: str) -> OutcomeSpec:
        read = _Reader
        names = {"ruling", "options", "chooser", "announce", "adjusted_score"}
        names |= {"unauthorised_information", "see_tree", "option_list", "resume_at"}
        optional = {"ruling", "options", "announce", "see_tree", "option_list", "resume_at"}
        read.fields(data, names, where, optional=optional)
        try:
            option_list = read_options(data.get("option_list") or [], f"{where}.option_list")
        except ValueError as error:
            raise SnapshotFormatError(str(error)) from None
        see_tree = data.get("see_tree")
        if see_tree is not None and type(see_tree) is not str:
            raise SnapshotFormatError(f"{where}.see_tree: must be str")
        return OutcomeSpec(
            ruling=read.text(data.get("ruling"), f"{where}.ruling") or Text("", ""),
            announce=read.text(data.get("announce"), f"{where}.announce") or Text("", ""),
            options=read.text(data.get("options"), f"{where}.options"),
            chooser=read.string(data, "chooser", where),
            adjusted_score=read.boolean(data, "adjusted_score", where),
            unauthorised_information=read.boolean(data, "unauthorised_information", where),
            see_tree=see_tree or None,
            option_list=option_list,
            resume_at=read.string(data, "resume_at", where, required=False) or None,
        )

    @staticmethod
    def choices(data: Any, where: str) -> tuple[tuple[ChoiceSpec, ...], list[CitedLaw]]:
        """The choices, and the law text their answers cite."""
        if not isinstance(data, list):
            raise SnapshotFormatError(f"{where}: must be a list")
        result = []
        law: list[CitedLaw] = []
        for index, item in enumerate(data):
            at = f"{where}[{index}]"
            names = {"key", "label", "target", "citations", "offender"}
            _Reader.fields(item, names, at, optional={"label", "citations", "offender"})
            offender = _Reader.string(item, "offender", at, required=False)
            if offender and offender not in OFFENDER_ROLES:
                roles = ", ".join(OFFENDER_ROLES)
                raise SnapshotFormatError(f"{at}.offender: must be one of {roles}")
            raw = item.get("citations") or []
            if not isinstance(raw, list):
                raise SnapshotFormatError(f"{at}.citations: must be a list")
            cited = [read_cited_law(entry, f"{at}.citations[{n}]") for n, entry in enumerate(raw)]
            law += cited
            result.append(
                ChoiceSpec(
                    key=_Reader.string(item, "key", at),
                    label=_Reader.text(item.get("label"), f"{at}.label") or Text("", ""),
                    target=_Reader.string(item, "target", at),
                    cites=tuple(entry.key for entry in cited),
                    offender=offender,
                )
            )
        return tuple(result), law
