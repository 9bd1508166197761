"""Small decision trees built straight into the database, for fast tests independent of the
shipped tree files.

``proef`` (3 questions, 3 outcomes) has a question reachable by two paths, so changing an
earlier answer can bring the same question back::

    onbedoeld ─ja──────────────► vervangen ─ja──► vrij-vervangen (outcome)
        │ nee                        ▲     └nee──► straf (outcome)
        ▼                            │ja
    geaccepteerd ─nee──► afgewezen (outcome)

Citations cover the three kinds of law text the wizard shows: an official provision with a
sub-item (25A), an article with only our summary (27) and an article with only a title (40).
"""

from __future__ import annotations

from django.utils import timezone

from laws.models import Article, ArticleSummary, Edition, Provision
from trees.models import Choice, Citation, Node, NodeKind, Tree


def make_edition(code: str = "1997") -> Edition:
    edition, created = Edition.objects.get_or_create(
        code=code, defaults={"language": "nl", "title": f"Spelregels {code}"}
    )
    if created:
        article25 = Article.objects.create(
            edition=edition, number="25", title="Geoorloofde en ongeoorloofde veranderingen"
        )
        section = Provision.objects.create(
            article=article25,
            label="A.",
            key="25A",
            heading="Onbedoelde bieding",
            text="Een speler mag een onbedoelde bieding vervangen.",
            order=1,
        )
        Provision.objects.create(
            article=article25,
            parent=section,
            label="1.",
            key="25A1",
            text="Zolang zijn partner nog niet heeft geboden.",
            order=2,
        )
        article27 = Article.objects.create(edition=edition, number="27", title="Onvoldoende bod")
        ArticleSummary.objects.create(
            article=article27,
            text_nl="Eigen samenvatting: een onvoldoende bod mag worden geaccepteerd.",
            text_en="Our summary: an insufficient bid may be accepted.",
        )
        Article.objects.create(edition=edition, number="40", title="Afspraken")
    return edition


def _citations(node: Node, edition: Edition, keys: list[str]) -> None:
    for order, key in enumerate(keys):
        number = key[:2]  # the test edition has two-digit article numbers only
        article = Article.objects.filter(edition=edition, number=number).first()
        provision = Provision.objects.filter(article=article, key=key).first() if article else None
        Citation.objects.create(
            node=node, key=key, order=order, article=article, provision=provision
        )


def make_tree(
    slug: str = "proef", edition: Edition | None = None, title: str = "Proefboom"
) -> Tree:
    edition = edition or make_edition()
    tree = Tree.objects.create(
        slug=slug,
        edition=edition,
        phase="auction",
        title_nl=title,
        title_en=f"{title} (en)",
        description_nl="Een kleine boom voor tests.",
        description_en="A small tree for tests.",
        start_key="onbedoeld",
        version="v1-" + slug,
        source_path=f"tests/{slug}.yaml",
        loaded_at=timezone.now(),
    )
    questions = {
        "onbedoeld": ("Was het bod onbedoeld?", "Was the call unintended?", ["25A"]),
        "geaccepteerd": ("Is het bod geaccepteerd?", "Was the call accepted?", ["27"]),
        "vervangen": ("Vervangt de speler het bod?", "Does the player replace it?", ["25A1"]),
    }
    outcomes = {
        "vrij-vervangen": ("Vervangen zonder gevolgen", ["25A"]),
        "straf": ("Vervangen met beperkingen", ["27", "40"]),
        "afgewezen": ("Het bod blijft staan", ["27"]),
    }
    nodes: dict[str, Node] = {}
    for order, (key, (nl, en, cites)) in enumerate(questions.items()):
        nodes[key] = Node.objects.create(
            tree=tree,
            key=key,
            kind=NodeKind.QUESTION,
            text_nl=nl,
            text_en=en,
            help_nl=f"Uitleg bij {key}.",
            help_en=f"Help for {key}.",
            order=order,
        )
        _citations(nodes[key], edition, cites)
    for order, (key, (title_nl, cites)) in enumerate(outcomes.items(), start=10):
        nodes[key] = Node.objects.create(
            tree=tree,
            key=key,
            kind=NodeKind.OUTCOME,
            text_nl=title_nl,
            text_en=f"{title_nl} (en)",
            ruling_nl=f"Beslissing: {title_nl.lower()}.",
            ruling_en=f"Ruling: {key}.",
            options_nl="De niet-overtredende partij kiest." if key == "straf" else "",
            options_en="The non-offending side chooses." if key == "straf" else "",
            chooser="nos" if key == "straf" else "none",
            announce_nl=f"Zeg aan tafel: {title_nl.lower()}.",
            announce_en=f"Say at the table: {key}.",
            adjusted_score=key == "straf",
            order=order,
        )
        _citations(nodes[key], edition, cites)
    edges = [
        ("onbedoeld", "ja", "Ja", "Yes", "vervangen"),
        ("onbedoeld", "nee", "Nee", "No", "geaccepteerd"),
        ("geaccepteerd", "ja", "Ja", "Yes", "vervangen"),
        ("geaccepteerd", "nee", "Nee", "No", "afgewezen"),
        ("vervangen", "ja", "Ja", "Yes", "vrij-vervangen"),
        ("vervangen", "nee", "Nee", "No", "straf"),
    ]
    for order, (source, key, nl, en, target) in enumerate(edges):
        Choice.objects.create(
            node=nodes[source],
            key=key,
            label_nl=nl,
            label_en=en,
            target=nodes[target],
            order=order,
        )
    return tree


def make_long_tree(length: int, slug: str = "lang", edition: Edition | None = None) -> Tree:
    """A chain of ``length`` questions (each: 'verder' to the next, 'stop' to an outcome), so
    tests can show that a step costs the same in a long tree."""
    edition = edition or make_edition()
    tree = Tree.objects.create(
        slug=slug,
        edition=edition,
        phase="play",
        title_nl="Lange boom",
        title_en="Long tree",
        start_key="v0",
        version=f"long-{length}",
        source_path=f"tests/{slug}.yaml",
        loaded_at=timezone.now(),
    )
    end = Node.objects.create(
        tree=tree,
        key="einde",
        kind=NodeKind.OUTCOME,
        text_nl="Einde",
        text_en="End",
        ruling_nl="Klaar.",
        ruling_en="Done.",
        announce_nl="Klaar.",
        announce_en="Done.",
        order=length + 1,
    )
    Citation.objects.create(node=end, key="27", article=edition.articles.get(number="27"))
    questions = Node.objects.bulk_create(
        Node(
            tree=tree,
            key=f"v{i}",
            kind=NodeKind.QUESTION,
            text_nl=f"Vraag {i}?",
            text_en=f"Question {i}?",
            order=i,
        )
        for i in range(length)
    )
    choices = []
    for i, node in enumerate(questions):
        following = questions[i + 1] if i + 1 < length else end
        choices.append(
            Choice(
                node=node, key="verder", label_nl="Verder", label_en="On", target=following, order=0
            )
        )
        choices.append(
            Choice(node=node, key="stop", label_nl="Stop", label_en="Stop", target=end, order=1)
        )
    Choice.objects.bulk_create(choices)
    article = edition.articles.get(number="25")
    Citation.objects.bulk_create(
        Citation(node=node, key="25A", article=article, provision=article.provisions.get(key="25A"))
        for node in questions
    )
    return tree
