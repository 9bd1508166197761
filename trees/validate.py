"""The rules of a good decision tree, and walking one (pure Python, no Django).

:func:`validate` returns every problem found (reachability, cycles, choices, outcomes,
citations, bilingual text) so that an author sees them all at once. Messages name the node:
``node 'foo': choice 'ja' points to unknown node 'bar'``. :func:`paths` lists every
start-to-outcome path and :func:`walk` follows answers from the start.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence

from laws import keys
from trees.spec import CHOOSERS, NodeSpec, Path, Text, TreeError, TreeSpec

__all__ = ["ensure_valid", "find_cycles", "paths", "validate", "walk"]

# --------------------------------------------------------------------------------------------
# Validation


def _successors(tree: TreeSpec, key: str) -> list[str]:
    if not tree.has_node(key):
        return []
    return [c.target for c in tree.node(key).choices if tree.has_node(c.target)]


def find_cycles(tree: TreeSpec) -> list[list[str]]:
    """Every distinct cycle reached by a depth-first search, as a list of node keys."""
    white, grey, black = 0, 1, 2
    colour = {node.key: white for node in tree.nodes}
    cycles: list[list[str]] = []
    seen: set[frozenset[str]] = set()

    def visit(key: str, stack: list[str]) -> None:
        colour[key] = grey
        stack.append(key)
        for nxt in _successors(tree, key):
            if colour[nxt] == grey:
                cycle = stack[stack.index(nxt) :]
                if frozenset(cycle) not in seen:
                    seen.add(frozenset(cycle))
                    cycles.append(cycle)
            elif colour[nxt] == white:
                visit(nxt, stack)
        stack.pop()
        colour[key] = black

    for node in tree.nodes:
        if colour[node.key] == white:
            visit(node.key, [])
    return cycles


def _reachable(tree: TreeSpec) -> set[str]:
    if not tree.has_node(tree.start):
        return set()
    seen = {tree.start}
    todo = [tree.start]
    while todo:
        for nxt in _successors(tree, todo.pop()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _text_problems(text: Text | None, what: str) -> Iterator[str]:
    if text is None:
        return
    for language in ("nl", "en"):
        if not getattr(text, language).strip():
            yield f"{what} has no {language} text"


def _duplicates(values: Sequence[str]) -> list[str]:
    """The values that occur more than once, sorted."""
    return sorted({v for v in values if values.count(v) > 1})


def _question_problems(node: NodeSpec, where: str) -> Iterator[str]:
    """At least two choices, with distinct keys and labels."""
    if len(node.choices) < 2:
        yield f"{where}: a question needs at least two choices (has {len(node.choices)})"
    for key in _duplicates([c.key for c in node.choices]):
        yield f"{where}: choice key {key!r} is used more than once"
    for language in ("nl", "en"):
        labels = [getattr(c.label, language).strip().casefold() for c in node.choices]
        for label in _duplicates([lb for lb in labels if lb]):
            yield f"{where}: choice label {label!r} ({language}) is not distinct"


def _outcome_problems(node: NodeSpec, where: str, trees: Collection[str] | None) -> Iterator[str]:
    """No choices, at least one citation, bilingual texts, and a ``see_tree`` that exists."""
    if node.choices:
        yield f"{where}: an outcome has no choices (found {len(node.choices)})"
    if not node.cites:
        yield f"{where}: an outcome must cite at least one provision"
    outcome = node.outcome
    if outcome is None:
        return
    for text, what in (
        (outcome.ruling, "ruling"),
        (outcome.announce, "announce"),
        (outcome.options, "options"),
    ):
        yield from (f"{where}: {p}" for p in _text_problems(text, what))
    if outcome.see_tree is not None and trees is not None and outcome.see_tree not in trees:
        yield f"{where}: see_tree {outcome.see_tree!r} is not a tree"


def _option_problems(
    tree: TreeSpec, node: NodeSpec, where: str, unknown: Callable[[str], str | None] | None
) -> Iterator[str]:
    """Each option of an outcome's option list: bilingual label, law held by the edition, a
    chooser, and a ``chosen_if`` that names an answer of the tree."""
    if node.outcome is None:
        return
    for index, option in enumerate(node.outcome.option_list, start=1):
        at = f"{where}: option {index}"
        yield from (f"{at}: {p}" for p in _text_problems(option.label, "label"))
        if not option.cites:
            yield f"{at}: an option cites the law that gives it"
        yield from _key_problems(option.cites, at, unknown)
        if option.chosen_by not in CHOOSERS or option.chosen_by == "none":
            yield f"{at}: chosen_by {option.chosen_by!r} is not one of {', '.join(CHOOSERS[1:])}"
        for answer in option.chosen_if.split():
            node_key, _, choice_key = answer.partition("/")
            if not tree.has_node(node_key) or tree.node(node_key).choice(choice_key) is None:
                yield f"{at}: chosen_if {answer!r} is not an answer of this tree"


def _choice_problems(tree: TreeSpec, node: NodeSpec, where: str) -> Iterator[str]:
    """Bilingual labels, and every path ends in an outcome: no choice may lead nowhere."""
    for choice in node.choices:
        yield from (
            f"{where}: choice {choice.key!r}: {p}" for p in _text_problems(choice.label, "label")
        )
        if not tree.has_node(choice.target):
            yield f"{where}: choice {choice.key!r} points to unknown node {choice.target!r}"


def _citation_problems(
    tree: TreeSpec, node: NodeSpec, where: str, unknown: Callable[[str], str | None] | None
) -> Iterator[str]:
    """Citations (the node's and its answers') well-formed, not repeated, and held by the
    edition."""
    yield from _key_problems(node.cites, where, unknown)
    for choice in node.choices:
        yield from _key_problems(choice.cites, f"{where}: choice {choice.key!r}", unknown)


def _key_problems(
    cites: Sequence[str], where: str, unknown: Callable[[str], str | None] | None
) -> Iterator[str]:
    for key in _duplicates(cites):
        yield f"{where}: citation {key!r} is listed more than once"
    for key in dict.fromkeys(cites):
        try:
            written = keys.canonical(key)
        except keys.InvalidKey as error:
            yield f"{where}: citation {key!r} is not a law reference: {error.reason}"
            continue
        if written != key:
            yield f"{where}: citation {key!r} is not canonical (write {written!r})"
        elif unknown is not None and (problem := unknown(key)):
            yield f"{where}: citation {key!r}: {problem}"


def _node_problems(
    tree: TreeSpec,
    node: NodeSpec,
    reachable: set[str],
    unknown: Callable[[str], str | None] | None,
    trees: Collection[str] | None,
) -> Iterator[str]:
    where = f"node {node.key!r}"
    # every node reachable from the start
    if tree.has_node(tree.start) and node.key not in reachable:
        yield f"{where}: not reachable from the start node {tree.start!r}"
    # nl and en everywhere (node level)
    what = "question" if node.kind == "question" else "title"
    yield from (f"{where}: {p}" for p in _text_problems(node.text, what))
    yield from (f"{where}: {p}" for p in _text_problems(node.help, "help"))
    if node.kind == "question":
        yield from _question_problems(node, where)
    else:
        yield from _outcome_problems(node, where, trees)
    yield from _choice_problems(tree, node, where)
    yield from _citation_problems(tree, node, where, unknown)
    yield from _option_problems(tree, node, where, unknown)


def validate(
    tree: TreeSpec,
    unknown: Callable[[str], str | None] | None = None,
    trees: Collection[str] | None = None,
) -> list[str]:
    """Every problem with ``tree`` (empty list: the tree is good).

    ``unknown(key)`` says what is wrong with a canonical citation key in the tree's edition
    (None: the edition holds it; the one key checker, ``laws.index``, gives the message with
    the nearest existing keys); when it is None citations are only checked for form.
    ``trees`` is the set of known tree slugs, used to check ``see_tree``; when None that
    reference is not checked.
    """
    problems: list[str] = []

    # nl and en everywhere (tree level)
    problems.extend(_text_problems(tree.title, "title"))
    problems.extend(_text_problems(tree.description, "description"))

    # start node exists
    if not tree.has_node(tree.start):
        problems.append(f"start node {tree.start!r} does not exist")

    # node keys are unique (YAML mappings guarantee it for files; specs built in code may not)
    for key in _duplicates([node.key for node in tree.nodes]):
        problems.append(f"node {key!r}: defined more than once")

    reachable = _reachable(tree)
    for node in tree.nodes:
        problems.extend(_node_problems(tree, node, reachable, unknown, trees))

    # no cycles
    cycles = find_cycles(tree)
    for cycle in cycles:
        loop = " → ".join([*cycle, cycle[0]])
        problems.append(f"node {cycle[0]!r}: part of a cycle ({loop})")
    if not cycles:
        problems.extend(basis_problems(tree, unknown))
        problems.extend(resume_problems(tree))

    return problems


def resume_problems(tree: TreeSpec) -> Iterator[str]:
    """An outcome's ``resume_at`` is a question on every path to that outcome, so a deferred
    ruling always finds it among its answers."""
    for node in tree.outcomes:
        target = node.outcome.resume_at if node.outcome else None
        if not target:
            continue
        if not tree.has_node(target) or tree.node(target).is_outcome:
            yield f"node {node.key!r}: resume_at {target!r} is not a question of this tree"
            continue
        for path in paths(tree):
            if path.outcome == node.key and target not in (n for n, _c in path.steps):
                via = " → ".join(path.answers)
                yield f"node {node.key!r}: resume_at {target!r} is not on the path {via}"
                break


def path_basis(tree: TreeSpec, path: Path) -> list[str]:
    """The legal basis a ruling along ``path`` gets (as ``rulings.legal_basis.tree_basis``):
    the outcome's citations, then the answers' cites, each once."""
    answers = [
        key
        for node_key, choice_key in path.steps
        if (choice := tree.node(node_key).choice(choice_key)) is not None
        for key in choice.cites
    ]
    return list(dict.fromkeys([*tree.node(path.outcome).cites, *answers]))


def basis_problems(
    tree: TreeSpec, unknown: Callable[[str], str | None] | None = None
) -> Iterator[str]:
    """Every path's legal basis is non-empty and, with ``unknown``, held by the edition (a key
    missing is said once per outcome, naming the first path)."""
    said: set[tuple[str, str]] = set()
    for path in paths(tree):
        basis = path_basis(tree, path)
        where = f"node {path.outcome!r} (via {' → '.join(path.answers) or 'the start'})"
        if not basis:
            yield f"{where}: the legal basis is empty"
        elif unknown is not None:
            missing = [key for key in basis if keys.is_canonical(key) and unknown(key)]
            missing = [key for key in missing if (path.outcome, key) not in said]
            said.update((path.outcome, key) for key in missing)
            if missing:
                yield f"{where}: legal basis cites {', '.join(missing)}, not in the edition"


def ensure_valid(
    tree: TreeSpec,
    unknown: Callable[[str], str | None] | None = None,
    trees: Collection[str] | None = None,
) -> TreeSpec:
    """Return ``tree`` if it is valid, else raise TreeError listing every problem with the file."""
    problems = validate(tree, unknown, trees)
    if problems:
        prefix = f"{tree.source}: " if tree.source else ""
        lines = [f"{prefix}{problem}" for problem in problems]
        raise TreeError("\n".join(lines), lines)
    return tree


# --------------------------------------------------------------------------------------------
# Paths and walking


def paths(tree: TreeSpec) -> list[Path]:
    """Every start-to-outcome path, in file order of the choices.

    Raises TreeError if the tree has a cycle (the number of paths would be infinite). Choices that
    lead to unknown nodes and questions without choices yield no path (validate reports them).
    """
    if find_cycles(tree):
        raise TreeError(f"{tree.source or tree.slug}: the tree has a cycle; no paths")
    if not tree.has_node(tree.start):
        return []
    result: list[Path] = []

    def follow(key: str, steps: tuple[tuple[str, str], ...]) -> None:
        node = tree.node(key)
        if node.kind == "outcome":
            result.append(Path(steps=steps, outcome=key))
            return
        for choice in node.choices:
            if tree.has_node(choice.target):
                follow(choice.target, (*steps, (key, choice.key)))

    follow(tree.start, ())
    return result


def walk(tree: TreeSpec, answers: Sequence[str]) -> NodeSpec:
    """Follow choice keys from the start; the node reached. Raises TreeError on a wrong answer."""
    try:
        node = tree.node(tree.start)
    except KeyError:
        raise TreeError(f"{tree.slug}: start node {tree.start!r} does not exist") from None
    for index, answer in enumerate(answers, start=1):
        if node.kind == "outcome":
            raise TreeError(
                f"{tree.slug}: answer {index} ({answer!r}) given after outcome {node.key!r}"
            )
        choice = node.choice(answer)
        if choice is None:
            valid = ", ".join(c.key for c in node.choices)
            raise TreeError(
                f"{tree.slug}: node {node.key!r}: {answer!r} is not a choice (choose {valid})"
            )
        try:
            node = tree.node(choice.target)
        except KeyError:
            raise TreeError(
                f"{tree.slug}: node {node.key!r}: choice {answer!r} points to unknown node"
                f" {choice.target!r}"
            ) from None
    return node
