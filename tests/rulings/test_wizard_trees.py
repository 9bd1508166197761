"""The wizard on the shipped trees (trees/files/*.yaml), loaded the way ``bootstrap`` does."""

import io
import shutil
import uuid

from rulings import audit, wizard
from rulings.steps import step_view
from trees import snapshot
from trees.loading import TREES_DIR, load_trees
from trees.models import Tree
from trees.parse import load_tree_file
from trees.validate import paths


def test_every_path_of_every_shipped_tree_reaches_its_outcome(shipped, club_a, director_a):
    assert len(shipped) >= 5
    for slug in shipped:
        frozen = wizard.start(slug)
        spec = load_tree_file(TREES_DIR / f"{slug}.yaml")
        for path in paths(spec):
            (first_node, first_choice), *rest = path.steps
            ruling = wizard.begin(
                uuid=uuid.uuid4(),
                club=club_a,
                director=director_a,
                tree=frozen,
                node_key=first_node,
                choice_key=first_choice,
            ).ruling
            for number, (node, choice) in enumerate(rest, start=2):
                wizard.answer(ruling, node, number, choice, director_a, revision=ruling.revision)
            assert ruling.outcome_key == path.outcome, (slug, path)
            assert ruling.outcome["citations"], (slug, path.outcome)
            assert audit.verify(ruling) == []


def test_law_text_is_official_where_imported_and_a_summary_otherwise(shipped):
    official = wizard.start("strafkaart-1963")
    kinds = {law.kind for law in official.law.values()}
    assert kinds == {"official"}
    summary = wizard.start("verzaking")
    kinds = {law.kind for law in summary.law.values()}
    assert kinds == {"summary"}
    first = summary.citations(summary.start)[0]
    assert first.text.nl
    assert first.text.en
    assert first.edition == "2017"


def test_editing_and_reloading_a_tree_file_never_changes_a_ruling(
    shipped, tmp_path, club_a, director_a
):
    trees = tmp_path / "trees"
    shutil.copytree(TREES_DIR, trees)
    frozen = wizard.start("verzaking")
    start = frozen.node(frozen.start)
    first_choice = start.choices[0]
    ruling = wizard.begin(
        uuid=uuid.uuid4(),
        club=club_a,
        director=director_a,
        tree=frozen,
        node_key=frozen.start,
        choice_key=first_choice.key,
    ).ruling
    step = ruling.steps.get()

    source = trees / "verzaking.yaml"
    text = source.read_text(encoding="utf-8")
    old_question = start.text.nl
    source.write_text(text.replace(old_question, "GEWIJZIGDE vraag?", 1), encoding="utf-8")
    report = load_trees(trees, stdout=io.StringIO())
    assert report.loaded == ["verzaking"]
    snapshot.clear_cache()  # a fresh process knows nothing

    ruling.refresh_from_db()
    step.refresh_from_db()
    assert step.question["nl"] == old_question
    assert step_view(ruling, 1).node.text.nl == old_question
    assert ruling.tree_version == frozen.version != Tree.objects.get(slug="verzaking").version
    fresh = wizard.start("verzaking")
    assert fresh.node(fresh.start).text.nl == "GEWIJZIGDE vraag?"
