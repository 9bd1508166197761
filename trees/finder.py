"""Finding a tree, and the question in it, by what a director types (pure Python, no Django).

A director types what the players told him: "partner aarzelde", "strafkaart niet gespeeld",
"slow double", "verzaakr". :class:`TreeIndex` holds a tree's words by where they stand: its
finder words and synonyms, title and description, and inside the tree every question, answer
and outcome title. :func:`rank` scores every tree:

- Only words that carry meaning count (:func:`trees.wording.terms`).
- A typed word matches a word of the tree in any form: the same (case and accents ignored),
  the same Snowball stem (``verzaakt``/``verzaking``), the start of a word or stem (``verzak``,
  ``alert`` in ``gealerteerd``), one typing error away (``verzaakr``), or, weakest, the end of
  a compound (``pauze`` in ``denkpauze``). :data:`QUALITY` says how much each is worth.
- Each typed word adds its best match in the tree, weighed by where it stands
  (:data:`WEIGHTS`: a finder word most, the description least); a word the tree does not have
  adds nothing, so one unknown word no longer hides every tree. Inside a tree, a word most
  trees hold ("kaart", "partner", "niet") is worth less (:func:`_rarity`); in a finder phrase
  or title, one word counts for its share of it ("niet" of "kleur niet bekend").
- A finder phrase, question, answer or outcome that holds several of the typed words adds a
  bonus: "twee kaarten tegelijk" is one situation, not three loose words.

A question, answer or outcome holding two or more typed words is where the tree is entered
(:attr:`Found.question`): the question itself, the question an answer leads to (the answer is
what happened), or for an outcome or an answer that ends the tree the question that decides
it. Of equal matches the one nearest the start wins, as it leaves the fewest questions to ask
first.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from trees.spec import NodeSpec, Text, TreeSpec
from trees.wording import LANGUAGES, deletions, near, stem, terms

__all__ = ["QUALITY", "WEIGHTS", "Found", "Query", "TreeIndex", "first_clause", "rank"]

# How much a word of the tree is worth by where it stands.
WEIGHTS = {
    "finder": 6.0,
    "title": 5.0,
    "question": 3.0,
    "answer": 3.0,
    "outcome": 2.5,
    "description": 2.0,
}
# How well a typed word matches a word of the tree.
QUALITY = {"same": 1.0, "start": 0.7, "typo": 0.6, "compound": 0.4}
# Places that name the tree; a typed word there is not made worth less by other trees having it.
NAMES = ("finder", "title")
# A place holding several typed words adds this share of each one's worth beyond the best.
TOGETHER = 0.5
# Matches this good count as a typed word found in a place (a compound's end does not).
FIRM = QUALITY["typo"]
# The shortest typed word (or stem) that may be the start of a word, the start of a stem, one
# typo away from a word or a stem, or the end of a compound, and the shortest word of the tree
# that may be the start of a typed one: shorter ones find too much.
MIN_START, MIN_STEM_START, MIN_TYPO, MIN_STEM_TYPO, MIN_COMPOUND = 3, 4, 5, 6, 4
MIN_SHORTER = 5


@dataclass(frozen=True)
class Place:
    """One text of a tree: what it is (a key of :data:`WEIGHTS`), the question a match here
    opens the tree at ("" for the tree as a whole), and how many meaningful words it has."""

    kind: str
    question: str
    size: int

    @property
    def weight(self) -> float:
        return WEIGHTS[self.kind]


@dataclass(frozen=True)
class Query:
    """A typed word in the forms it is looked up by, made once for every tree searched."""

    word: str
    exact: tuple[str, ...]  # the word and its stems ("nl:<stem>", "en:<stem>")
    starts: tuple[str, ...]  # the start of a word or stem of the tree
    shorter: tuple[str, ...]  # keys that would be the start of the typed word or its stems
    typos: tuple[tuple[str, str], ...]  # (a key one letter shorter, the form it comes from)

    @classmethod
    def of(cls, text: str) -> list[Query]:
        return [cls.of_word(word) for word in terms(text)]

    @classmethod
    def of_word(cls, word: str) -> Query:
        stems = tuple(f"{language}:{stem(word, language)}" for language in LANGUAGES)
        exact = (word, *stems)
        starts = [word] if len(word) >= MIN_START else []
        starts += [key for key in stems if len(_bare(key)) >= MIN_STEM_START]
        shorter, typos = [], []
        for key in exact:
            bare = _bare(key)
            shorter += [_same_kind(key, bare[:length]) for length in range(MIN_SHORTER, len(bare))]
            if len(bare) >= (MIN_TYPO if bare == key else MIN_STEM_TYPO):
                typos += [(_same_kind(key, variant), bare) for variant in (bare, *deletions(bare))]
        return cls(word, exact, tuple(starts), tuple(shorter), tuple(typos))


@dataclass(frozen=True)
class Found:
    """A tree that matches: its slug, score and the question to open it at ("" for its
    start)."""

    slug: str
    score: float
    question: str = ""


@dataclass
class TreeIndex:
    """The words of one tree, by the places they stand in (see the module's docstring)."""

    slug: str
    title: str  # Dutch, for ties
    start: str
    # One line saying when the tree applies: the first clause of its description.
    when: Text = Text("", "")
    # The text of every question, to show where a result opens the tree.
    questions: dict[str, Text] = field(default_factory=dict)
    places: list[Place] = field(default_factory=list)
    # A word ("verzaakt") or a stem with its language ("nl:verzaak") -> the places holding it.
    # Tuples, not sets, once made: the garbage collector need not visit them (an index has
    # tens of thousands, and a full collection walking them cost a search 100 ms).
    keys: dict[str, tuple[int, ...]] = field(default_factory=dict)
    # The same keys sorted (for starts of words), and the words reversed (for compounds).
    sorted_keys: list[str] = field(default_factory=list)
    reversed_words: list[str] = field(default_factory=list)
    # A key, or a key with one letter left out -> (the key, its word or stem), for typos.
    variants: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    # Questions each node is from the start (for ties between places).
    depth: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, tree: TreeSpec) -> TreeIndex:
        when = Text(first_clause(tree.description.nl), first_clause(tree.description.en))
        index = cls(slug=tree.slug, title=tree.title.nl, start=tree.start, when=when)
        keys: defaultdict[str, set[int]] = defaultdict(set)

        def add(kind: str, question: str, texts: list[tuple[str, str]]) -> None:
            number = len(index.places)
            seen: set[str] = set()
            for language, text in texts:
                for word in terms(text):
                    seen.add(word)
                    keys[word].add(number)
                    keys[f"{language}:{stem(word, language)}"].add(number)
            index.places.append(Place(kind, question, len(seen)))

        finder = tree.finder
        for language, phrases in (
            ("nl", (*finder.nl, *finder.synonyms_nl)),
            ("en", (*finder.en, *finder.synonyms_en)),
        ):
            for phrase in phrases:
                add("finder", "", [(language, phrase)])
        add("title", "", [("nl", tree.title.nl), ("en", tree.title.en)])
        add("description", "", [("nl", tree.description.nl), ("en", tree.description.en)])
        parents = _parents(tree)
        for node in tree.nodes:
            texts = [("nl", node.text.nl), ("en", node.text.en)]
            if node.outcome is not None:
                add("outcome", parents.get(node.key, ""), texts)
                continue
            add("question", node.key, texts)
            index.questions[node.key] = node.text
            for choice in node.choices:
                target = tree.node(choice.target) if tree.has_node(choice.target) else None
                # The answer is what happened: the tree opens at the question it leads to,
                # or at this question when it ends the tree.
                opens = choice.target if target and not target.is_outcome else node.key
                add("answer", opens, [("nl", choice.label.nl), ("en", choice.label.en)])
        index.keys = {key: tuple(sorted(places)) for key, places in keys.items()}
        index.variants = _variants(index.keys)
        index.depth = _depths(tree)
        index.sorted_keys = sorted(index.keys)
        index.reversed_words = sorted(key[::-1] for key in index.keys if ":" not in key)
        return index

    def matches(self, query: Query) -> dict[int, float]:
        """The places holding ``query`` in some form, each with its best quality."""
        found: dict[int, float] = {}

        def hit(key: str, quality: float) -> None:
            for place in self.keys.get(key, ()):
                if found.get(place, 0.0) < quality:
                    found[place] = quality

        for key in query.exact:
            hit(key, QUALITY["same"])
        for start in query.starts:
            for key in self._starting_with(start):
                hit(key, QUALITY["start"])
        # And a word of the tree that is the start of the typed one: "alert" in "gealerteerd"
        # (stem "alerteer").
        for key in query.shorter:
            hit(key, QUALITY["start"])
        for variant, bare in query.typos:
            for candidate, other in self.variants.get(variant, ()):
                # A typo rarely hits the first letter; allowing it there found "voor" for "hoor".
                if other[0] == bare[0] and near(bare, other):
                    hit(candidate, QUALITY["typo"])
        if len(query.word) >= MIN_COMPOUND:
            for word in self._ending_with(query.word):
                hit(word, QUALITY["compound"])
        return found

    def names(self, query: Query) -> bool:
        """Whether ``query`` names the tree: a word of its title, or a finder word or synonym
        of one word (the same word or stem, or the start of one; not a typo or a compound's
        end). One word of a finder phrase does not: "uitgelegd" names the misinformation
        tree (a synonym), not the claim tree ("niet uitgelegd")."""
        return any(
            quality >= QUALITY["start"]
            and (place.kind == "title" or (place.kind == "finder" and place.size == 1))
            for place, quality in (
                (self.places[number], quality) for number, quality in self.matches(query).items()
            )
        )

    def _starting_with(self, start: str) -> list[str]:
        keys = self.sorted_keys
        first = bisect.bisect_left(keys, start)
        last = bisect.bisect_left(keys, start + "\uffff", first)
        return keys[first:last]

    def _ending_with(self, end: str) -> list[str]:
        ends = self.reversed_words
        backwards = end[::-1]
        first = bisect.bisect_right(ends, backwards)  # the word itself is not a compound
        last = bisect.bisect_left(ends, backwards + "\uffff", first)
        return [word[::-1] for word in ends[first:last] if len(word) >= len(end) + 3]

    def score(self, matches: list[dict[int, float]], rarity: list[float]) -> Found:
        """How well the typed words match this tree (``matches``: :meth:`matches` of each
        typed word, worth its ``rarity`` inside the tree), and where to open it."""
        holding: dict[int, int] = defaultdict(int)  # place -> how many typed words it holds
        for places in matches:
            for number in places:
                holding[number] += 1
        total = 0.0
        # Per place: the weighed matches of the typed words it holds firmly.
        held: dict[int, list[float]] = defaultdict(list)
        for places, worth in zip(matches, rarity, strict=True):
            best = 0.0
            for number, quality in places.items():
                place = self.places[number]
                if place.kind in NAMES:
                    # A name is meant to tell this tree apart, but one word of a phrase
                    # ("niet" of "kleur niet bekend") is only part of it.
                    value = (
                        place.weight * quality * min(1.0, (1 + holding[number]) / (1 + place.size))
                    )
                else:
                    value = place.weight * quality * worth
                best = max(best, value)
                if quality >= FIRM:
                    held[number].append(value)
            total += best
        together = max((self._together(n, values) for n, values in held.items()), default=0.0)
        return Found(self.slug, total + together, self._question(held))

    def _together(self, number: int, values: list[float]) -> float:
        """The bonus of a place holding several typed words: half of each one's worth beyond
        the best, and a whole finder phrase typed ("twee kaarten tegelijk") its weight again."""
        place = self.places[number]
        bonus = TOGETHER * (sum(values) - max(values))
        if place.kind == "finder" and len(values) >= place.size >= 2:
            bonus += place.weight
        return bonus

    def _question(self, held: dict[int, list[float]]) -> str:
        """The question where two or more typed words stand together, best first; the start
        is no place to enter at (the tree opens there anyway)."""
        per_question: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for number, values in held.items():
            place = self.places[number]
            if place.question and place.question != self.start and len(values) >= 2:
                per_question[place.question].append((len(values), sum(values)))
        if not per_question:
            return ""

        def strength(question: str) -> tuple[int, float, int]:
            found = sorted(per_question[question], reverse=True)
            # A question found by its own text and by the answer leading to it: more certain.
            evidence = found[0][1] + TOGETHER * sum(value for _count, value in found[1:2])
            return (found[0][0], evidence, -self.depth.get(question, 99))

        return max(per_question, key=strength)


_BRACKETS = re.compile(r"\s*\([^()]*\)")
_CLAUSE_END = re.compile(r"[.:;](?:\s|$)")
CLAUSE_WORDS = 20


def first_clause(text: str) -> str:
    """The description's opening clause, up to its first full stop, colon or semicolon,
    without what stands in brackets (the articles) and at most :data:`CLAUSE_WORDS` words:
    "Een speler komt uit of speelt voor terwijl hij niet aan de beurt is". Tree files open
    their description that way (docs/TREE_FORMAT.md)."""
    plain = _BRACKETS.sub("", " ".join(text.split()))
    clause = _CLAUSE_END.split(plain, maxsplit=1)[0].strip()
    words = clause.split()
    return clause if len(words) <= CLAUSE_WORDS else " ".join(words[:CLAUSE_WORDS]) + " …"


def _variants(keys: Iterable[str]) -> dict[str, tuple[tuple[str, str], ...]]:
    """Each key, and each key with one letter left out -> the keys with their word or stem."""
    variants: defaultdict[str, list[tuple[str, str]]] = defaultdict(list)
    for key in keys:
        bare = _bare(key)
        for variant in dict.fromkeys((bare, *deletions(bare))):
            variants[_same_kind(key, variant)].append((key, bare))
    return {variant: tuple(found) for variant, found in variants.items()}


def _bare(key: str) -> str:
    """The word or stem of a key, without the stem's language."""
    return key.partition(":")[2] or key


def _same_kind(key: str, variant: str) -> str:
    """A deletion variant keyed like ``key``: a stem's variants keep its language."""
    language, colon, _rest = key.partition(":")
    return f"{language}:{variant}" if colon else variant


def _parents(tree: TreeSpec) -> dict[str, str]:
    """For each node, the first question (in file order) with an answer leading to it."""
    parents: dict[str, str] = {}
    for node in tree.nodes:
        for choice in node.choices:
            parents.setdefault(choice.target, node.key)
    return parents


def _depths(tree: TreeSpec) -> dict[str, int]:
    """How many questions each node is from the start (the fewest)."""
    depth = {tree.start: 0}
    queue = deque([tree.start])
    while queue:
        key = queue.popleft()
        node: NodeSpec | None = tree.node(key) if tree.has_node(key) else None
        for choice in node.choices if node else ():
            if choice.target not in depth:
                depth[choice.target] = depth[key] + 1
                queue.append(choice.target)
    return depth


def _rarity(holding: int, trees: int) -> float:
    """What a typed word held by ``holding`` of ``trees`` trees is worth: 1 when one tree
    holds it, falling towards a quarter when all fifteen do."""
    if holding <= 1:
        return 1.0
    return math.log(1 + trees / holding) / math.log(1 + trees)


def rank(indexes: Iterable[TreeIndex], query: str) -> list[Found]:
    """The trees matching anything of ``query``, best first (ties by Dutch title); every tree
    in title order when nothing meaningful is typed."""
    queries = Query.of(query)
    indexes = list(indexes)
    if not queries:
        return [Found(index.slug, 0.0) for index in sorted(indexes, key=lambda i: i.title)]
    titles = {index.slug: index.title for index in indexes}
    matches = [[index.matches(query) for query in queries] for index in indexes]
    # A word most trees have ("kaart", "partner", "niet") tells them apart less than a word
    # one tree has: each typed word is worth less the more trees hold it (1 for one tree).
    rarity = [
        _rarity(sum(1 for found in matches if found[number]), len(indexes))
        for number in range(len(queries))
    ]
    found = [index.score(each, rarity) for index, each in zip(indexes, matches, strict=True)]
    return sorted(
        (item for item in found if item.score > 0),
        key=lambda item: (-item.score, titles[item.slug]),
    )
