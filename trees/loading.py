"""Load decision tree files into the database, and check the loaded trees.

The files in ``trees/files/`` are the source of truth. ``load_trees`` parses and validates every
file first (citations against the law text of the tree's edition in the database) and only then
writes, in one transaction: all trees or, on any problem, nothing. A tree whose content hash
(``Tree.version``) did not change is left alone, so loading twice writes nothing the second time.

``check_tree_rows`` rebuilds each loaded tree from its rows and validates it again, which is what
``manage.py check_trees`` reports.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from laws.edition_law import index_of
from laws.index import ProvisionIndex
from laws.models import Article, Edition
from trees.models import Choice, Citation, Node, Tree
from trees.options import options_json, read_options
from trees.parse import load_tree_file
from trees.spec import (
    ChoiceSpec,
    Finder,
    NodeSpec,
    OutcomeSpec,
    Text,
    TreeError,
    TreeSpec,
    content_hash,
)
from trees.validate import paths, validate

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

TREES_DIR = Path(__file__).resolve().parent / "files"


# --------------------------------------------------------------------------------------------
# Citations


def edition_indexes(codes: Iterable[str]) -> dict[str, ProvisionIndex]:
    """The key index (``laws.index``) of every loaded edition among ``codes``."""
    editions = Edition.objects.filter(code__in=set(codes)).values_list("code", flat=True)
    return {code: index_of(code) for code in editions}


def citation_problem(index: ProvisionIndex) -> Callable[[str], str | None]:
    """What ``trees.validate`` asks of a citation: None when the edition holds the key, else
    the checker's message (in English, as every ``check_trees`` message)."""

    def problem(key: str) -> str | None:
        unknown = index.unknown(key)
        return unknown.english() if unknown else None

    return problem


def resolve_citations(
    edition: Edition | None = None, indexes: dict[str, ProvisionIndex] | None = None
) -> int:
    """Point every citation (of ``edition``'s trees, or all) at its article and provision again.

    Run after the law text of an edition was (re)imported: the import replaces articles, which
    clears these links. Returns the number of citations whose link changed.
    """
    trees = Tree.objects.select_related("edition")
    if edition is not None:
        trees = trees.filter(edition=edition)
    changed: list[Citation] = []
    by_code: dict[str, list[int]] = {}
    for tree_id, code in trees.values_list("id", "edition__code"):
        by_code.setdefault(code, []).append(tree_id)
    indexes = dict(indexes or {})
    missing = set(by_code) - set(indexes)
    if missing:
        indexes.update(edition_indexes(missing))
    for code, tree_ids in by_code.items():
        index = indexes[code]
        for citation in Citation.objects.filter(node__tree_id__in=tree_ids):
            article_id, provision_id = index.target(citation.key)
            if (citation.article_id, citation.provision_id) != (article_id, provision_id):
                citation.article_id, citation.provision_id = article_id, provision_id
                changed.append(citation)
    Citation.objects.bulk_update(changed, ["article", "provision"])
    return len(changed)


# --------------------------------------------------------------------------------------------
# Loading


@dataclass
class LoadReport:
    loaded: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    not_in_files: list[str] = field(default_factory=list)
    # Trees with problems that kept their last loaded version (``keep_broken``).
    kept: list[str] = field(default_factory=list)
    relinked: int = 0


def _label(path: Path) -> str:
    """A path for messages: relative to the project when it is inside it."""
    base = Path(settings.BASE_DIR)
    try:
        return str(path.resolve().relative_to(base))
    except ValueError:
        return str(path)


CASES_SUFFIX = ".cases.yaml"


def tree_file_paths(directory: Path) -> list[Path]:
    """The tree files in ``directory``: every ``*.yaml`` except the cases files beside them."""
    return sorted(p for p in Path(directory).glob("*.yaml") if not p.name.endswith(CASES_SUFFIX))


def read_tree_files(directory: Path) -> list[TreeSpec]:
    """Parse every tree file in ``directory``; raise one TreeError listing every failure.

    A tree file is ``<slug>.yaml``; ``<slug>.cases.yaml`` beside it holds the tree's cases.
    """
    files = tree_file_paths(Path(directory))
    if not files:
        raise TreeError(f"{_label(Path(directory))}: no tree files (*.yaml) found")
    specs: list[TreeSpec] = []
    problems: list[str] = []
    for path in files:
        try:
            specs.append(load_tree_file(path, _label(path)))
        except TreeError as error:
            problems.extend(error.problems)
    if problems:
        raise TreeError("\n".join(problems), problems)
    return specs


def check_specs(
    specs: list[TreeSpec],
    known_slugs: Iterable[str] = (),
    indexes: dict[str, ProvisionIndex] | None = None,
) -> dict[str, list[str]]:
    """Problems per slug for parsed specs, with citations checked against the database."""
    if indexes is None:
        indexes = edition_indexes(spec.edition for spec in specs)
    slugs = {spec.slug for spec in specs} | set(known_slugs)
    result: dict[str, list[str]] = {}
    for spec in specs:
        index = indexes.get(spec.edition)
        problems: list[str] = []
        if index is None:
            problems.append(
                f"edition {spec.edition} is not loaded: import its law text first"
                " (manage.py bootstrap or import_laws)"
            )
            problems += validate(spec, None, slugs)
        else:
            problems += validate(spec, citation_problem(index), slugs)
        result[spec.slug] = problems
    return result


def load_trees(
    directory: Path | str = TREES_DIR,
    stdout: SupportsWrite[str] | None = None,
    *,
    keep_broken: bool = False,
) -> LoadReport:
    """Load every tree file in ``directory``: all of them, or nothing when any has a problem.

    Raises TreeError (every message prefixed with the file, naming the node) before anything is
    written. Trees whose content hash is unchanged are not rewritten. With ``keep_broken`` (at
    start-up) a tree with a problem, such as a citation the law text no longer holds, is
    reported and keeps its last loaded version, and the others load.
    """
    out = stdout or io.StringIO()
    specs = read_tree_files(Path(directory))
    existing_slugs = set(Tree.objects.values_list("slug", flat=True))
    editions = {e.code: e for e in Edition.objects.filter(code__in={s.edition for s in specs})}
    indexes = {code: index_of(code) for code in editions}
    checked = check_specs(specs, existing_slugs, indexes)
    problems = [f"{spec.source}: {problem}" for spec in specs for problem in checked[spec.slug]]
    if problems and not keep_broken:
        raise TreeError("\n".join(problems), problems)

    report = LoadReport(kept=sorted(slug for slug, found in checked.items() if found))
    report.not_in_files = sorted(existing_slugs - {spec.slug for spec in specs})
    specs = [spec for spec in specs if spec.slug not in report.kept]
    current = {tree.slug: tree for tree in Tree.objects.filter(slug__in=[s.slug for s in specs])}
    now = timezone.now()
    with transaction.atomic():
        for spec in specs:
            version = content_hash(spec)
            tree = current.get(spec.slug)
            if tree is not None and tree.version == version:
                report.unchanged.append(spec.slug)
                if tree.source_path != spec.source:
                    Tree.objects.filter(pk=tree.pk).update(source_path=spec.source)
                continue
            _store(spec, version, tree, editions[spec.edition], indexes[spec.edition], now)
            report.loaded.append(spec.slug)
        report.relinked = resolve_citations(indexes=indexes)

    for slug in report.loaded:
        out.write(f"Tree {slug}: loaded\n")
    for slug in report.unchanged:
        out.write(f"Tree {slug}: up to date\n")
    for slug in report.not_in_files:
        out.write(f"Tree {slug}: in the database but no longer in {_label(Path(directory))}\n")
    for problem in problems:
        out.write(f"Tree problem: {problem}\n")
    for slug in report.kept:
        out.write(f"Tree {slug}: not loaded; it keeps its last loaded version (see above)\n")
    return report


def _text_fields(prefix: str, text: Text | None) -> dict[str, str]:
    return {
        f"{prefix}_nl": text.nl if text else "",
        f"{prefix}_en": text.en if text else "",
    }


def _store(
    spec: TreeSpec,
    version: str,
    tree: Tree | None,
    edition: Edition,
    index: ProvisionIndex,
    now: Any,
) -> Tree:
    """Write one tree: the row is updated in place (its id stays), its nodes are replaced."""
    values = {
        "edition": edition,
        "phase": spec.phase,
        **_text_fields("title", spec.title),
        **_text_fields("description", spec.description),
        "notes": spec.notes,
        **spec.finder.fields(),
        "start_key": spec.start,
        "version": version,
        "source_path": spec.source,
        "loaded_at": now,
    }
    if tree is None:
        tree = Tree.objects.create(slug=spec.slug, **values)
    else:
        for name, value in values.items():
            setattr(tree, name, value)
        tree.save()
        tree.nodes.all().delete()

    nodes = Node.objects.bulk_create(
        Node(tree=tree, order=order, **_node_fields(node)) for order, node in enumerate(spec.nodes)
    )
    by_key = {node.key: node for node in nodes}
    Choice.objects.bulk_create(
        Choice(
            node=by_key[node.key],
            key=choice.key,
            label_nl=choice.label.nl,
            label_en=choice.label.en,
            target=by_key[choice.target],
            cites=list(choice.cites),
            offender=choice.offender,
            order=order,
        )
        for node in spec.nodes
        for order, choice in enumerate(node.choices)
    )
    citations = []
    for node in spec.nodes:
        for order, key in enumerate(node.cites):
            article_id, provision_id = index.target(key)
            citations.append(
                Citation(
                    node=by_key[node.key],
                    key=key,
                    order=order,
                    article_id=article_id,
                    provision_id=provision_id,
                )
            )
    Citation.objects.bulk_create(citations)
    return tree


def _node_fields(node: NodeSpec) -> dict[str, Any]:
    outcome = node.outcome
    fields: dict[str, Any] = {
        "key": node.key,
        "kind": node.kind,
        **_text_fields("text", node.text),
        **_text_fields("help", node.help),
        "poll": node.poll,
    }
    if outcome is not None:
        fields.update(
            **_text_fields("ruling", outcome.ruling),
            **_text_fields("options", outcome.options),
            **_text_fields("announce", outcome.announce),
            chooser=outcome.chooser,
            adjusted_score=outcome.adjusted_score,
            unauthorised_information=outcome.unauthorised_information,
            see_tree=outcome.see_tree or "",
            option_list=options_json(outcome.option_list),
            resume_at=outcome.resume_at or "",
        )
    return fields


def bootstrap_trees(stdout: SupportsWrite[str]) -> LoadReport:
    """Load the shipped trees (``trees/files/``); for ``manage.py bootstrap``, after the laws.
    A tree the law text no longer supports is reported and keeps its last loaded version:
    the application always starts."""
    return load_trees(TREES_DIR, stdout, keep_broken=True)


# --------------------------------------------------------------------------------------------
# Checking loaded trees


def _text(obj: Any, prefix: str) -> Text:
    return Text(nl=getattr(obj, f"{prefix}_nl"), en=getattr(obj, f"{prefix}_en"))


def _optional_text(obj: Any, prefix: str) -> Text | None:
    text = _text(obj, prefix)
    return text if (text.nl or text.en) else None


def spec_from_rows(tree: Tree) -> TreeSpec:
    """Rebuild the spec of a loaded tree (nodes, choices and citations prefetched or not)."""
    nodes = []
    for node in tree.nodes.all():
        outcome = None
        if node.kind == "outcome":
            outcome = OutcomeSpec(
                ruling=_text(node, "ruling"),
                announce=_text(node, "announce"),
                options=_optional_text(node, "options"),
                chooser=node.chooser,
                adjusted_score=node.adjusted_score,
                unauthorised_information=node.unauthorised_information,
                see_tree=node.see_tree or None,
                option_list=read_options(node.option_list, f"node {node.key}"),
                resume_at=node.resume_at or None,
            )
        nodes.append(
            NodeSpec(
                key=node.key,
                kind=node.kind,
                text=_text(node, "text"),
                help=_optional_text(node, "help"),
                cites=tuple(citation.key for citation in node.citations.all()),
                choices=tuple(
                    ChoiceSpec(
                        key=c.key,
                        label=_text(c, "label"),
                        target=c.target.key,
                        cites=tuple(c.cites),
                        offender=c.offender,
                    )
                    for c in node.choices.all()
                ),
                outcome=outcome,
                poll=node.poll,
            )
        )
    return TreeSpec(
        slug=tree.slug,
        edition=tree.edition.code,
        phase=tree.phase,
        title=_text(tree, "title"),
        description=_text(tree, "description"),
        notes=tree.notes,
        start=tree.start_key,
        nodes=tuple(nodes),
        finder=Finder.of_row(tree),
        source=tree.source_path,
    )


def loaded_trees() -> list[Tree]:
    """Every loaded tree with its nodes, choices and citations, in a fixed number of queries."""
    return list(
        Tree.objects.select_related("edition")
        .prefetch_related(
            Prefetch("nodes", queryset=Node.objects.order_by("order")),
            Prefetch(
                "nodes__choices", queryset=Choice.objects.select_related("target").order_by("order")
            ),
            Prefetch("nodes__citations", queryset=Citation.objects.order_by("order")),
        )
        .order_by("slug")
    )


def summary(spec: TreeSpec, problems: list[str]) -> dict[str, Any]:
    """The ``check_trees --json`` entry of one tree."""
    try:
        path_count = len(paths(spec))
    except TreeError:
        path_count = 0
    return {
        "slug": spec.slug,
        "edition": spec.edition,
        "nodes": len(spec.nodes),
        "questions": len(spec.questions),
        "outcomes": len(spec.outcomes),
        "paths": path_count,
        "problems": problems,
    }


def check_tree_rows() -> list[dict[str, Any]]:
    """Validate every loaded tree again (citations against the current law text)."""
    trees = loaded_trees()
    specs = [spec_from_rows(tree) for tree in trees]
    checked = check_specs(specs)
    result = []
    for tree, spec in zip(trees, specs, strict=True):
        problems = list(checked[spec.slug])
        if content_hash(spec) != tree.version:
            problems.append(
                f"the stored tree does not match its version {tree.version[:12]}: run load_trees"
            )
        result.append(summary(spec, problems))
    return result


def check_tree_files(directory: Path | str = TREES_DIR) -> list[dict[str, Any]]:
    """Validate the tree files without loading them (for authors, before ``load_trees``)."""
    directory = Path(directory)
    result: list[dict[str, Any]] = []
    specs: list[TreeSpec] = []
    for path in tree_file_paths(directory):
        try:
            specs.append(load_tree_file(path, _label(path)))
        except TreeError as error:
            result.append(
                {
                    "slug": path.stem,
                    "edition": "",
                    "nodes": 0,
                    "questions": 0,
                    "outcomes": 0,
                    "paths": 0,
                    "problems": error.problems,
                }
            )
    checked = check_specs(specs, Tree.objects.values_list("slug", flat=True))
    result += [summary(spec, checked[spec.slug]) for spec in specs]
    return sorted(result, key=lambda entry: entry["slug"])


def trees_citing(article: Article) -> list[dict[str, Any]]:
    """The trees whose nodes cite ``article`` (or one of its provisions), for the article page:
    ``[{"tree": Tree, "keys": [key, ...], "nodes": [node key, ...]}]``, ordered by tree title."""
    uses: dict[int, dict[str, Any]] = {}
    citations = (
        Citation.objects.filter(article=article)
        .select_related("node__tree__edition")
        .order_by("node__tree__title_nl", "node__order", "order")
    )
    for citation in citations:
        tree = citation.node.tree
        use = uses.setdefault(tree.pk, {"tree": tree, "keys": [], "nodes": []})
        if citation.key not in use["keys"]:
            use["keys"].append(citation.key)
        if citation.node.key not in use["nodes"]:
            use["nodes"].append(citation.node.key)
    return list(uses.values())
