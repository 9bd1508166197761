"""The shapes a bundle's rulings and snapshots must have (transfer/shapes.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulings import wizard
from rulings.models import Step
from tests.support.rulings import make_ruling
from transfer import bundles as transfer
from transfer import shapes
from trees import snapshot
from trees.loading import TREES_DIR, tree_file_paths


def test_what_the_wizard_writes_fits(club_a, director_a):
    ruling = make_ruling(club_a, director_a, ("ja", "nee"), change_first_to="nee", then=("nee",))
    fields = transfer.serialise_ruling(ruling)
    assert fields["outcome"]  # an outcome was reached, so its shape is checked too
    assert shapes.ruling_problems(fields) == []
    assert len(fields["steps"]) == Step.objects.filter(ruling=ruling).count() > 2
    for step in fields["steps"]:
        assert shapes.step_problems(step) == []
    assert shapes.snapshot_problems(snapshot.get(ruling.snapshot_id).to_json()) == []


def test_every_shipped_tree_freezes_to_a_snapshot_that_fits(shipped):
    assert len(shipped) == len(tree_file_paths(TREES_DIR)) > 1
    for tree in shipped.values():
        assert shapes.snapshot_problems(snapshot.build(tree).to_json()) == [], tree.slug


def test_every_shipped_outcome_fits_as_a_rulings_outcome(shipped):
    """What the wizard keeps of each outcome reached (with its option list or the question
    play resumes at, where a tree has them) is what a bundle may bring."""
    with_options = 0
    for tree in shipped.values():
        frozen = snapshot.build(tree)
        for key in (node.key for node in frozen.tree.nodes):
            if frozen.is_outcome(key):
                outcome = wizard._outcome_snapshot(frozen, key)
                with_options += "option_list" in outcome or "resume_at" in outcome
                fields = {"outcome": outcome}
                assert shapes.ruling_problems(fields) == [], (tree.slug, key)
    assert with_options > 0


@pytest.mark.parametrize(
    ("value", "shape", "expected"),
    [
        (["a list"], shapes.OUTCOME, "outcome: must be an object"),
        ({"nl": ["x"]}, shapes.TEXT, "outcome.nl: must be str"),
        ("tekst", shapes.TEXT, "outcome: must be an object"),
        ([["start", "ja", "extra"]], shapes.PATH, "outcome[0]: must be a list of 2"),
        ({"a": 1}, shapes.EARLIER_ANSWERS, "outcome.a: must be str"),
        ({"nl": "x", "de": "y"}, shapes.TEXT, "outcome: unknown key(s) de"),
        ({"key": "k"}, shapes.OUTCOME, "outcome.chooser: is missing"),
        (
            {**dict.fromkeys(shapes.Citation.__annotations__, ""), "kind": "rumour"},
            shapes.CITATION,
            "must be one of official, summary, title, missing",
        ),
        (True, str, "outcome: must be str"),
    ],
)
def test_odd_shapes_are_named(value, shape, expected):
    found = shapes.problems(value, shape, "outcome")
    assert any(expected in line for line in found), found


def _odd_snapshot() -> dict:
    return {
        "slug": "s",
        "version": "1",
        "edition": "2017",
        "phase": "play",
        "title": None,
        "start": "q",
        "nodes": {
            "q": {
                "kind": "question",
                "text": {"nl": "?"},
                "help": None,
                "citations": [],
                "choices": [{"key": "ja", "label": None, "target": "o"}],
            },
            "o": {"kind": "outcome", "text": None, "help": None, "citations": []},
        },
    }


def test_a_snapshot_whose_start_or_choices_lead_nowhere():
    data = _odd_snapshot()
    assert shapes.snapshot_problems(data) == ["snapshot.nodes.o: outcome is missing"]
    data["nodes"]["o"]["outcome"] = {
        "chooser": "none",
        "adjusted_score": False,
        "unauthorised_information": False,
    }
    assert shapes.snapshot_problems(data) == []
    data["start"] = "elders"
    assert shapes.snapshot_problems(data) == ["snapshot.start: no node elders"]
    data["start"] = "q"
    data["nodes"]["q"]["choices"][0]["target"] = "nergens"
    assert shapes.snapshot_problems(data) == ["snapshot.nodes.q: choice ja leads nowhere"]


json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=3), st.just("official")
)
json_keys = st.sampled_from(["nl", "en", "help", "key", "kind", "text", "chooser", "x"])
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(json_keys, inner, max_size=5)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(
    shape=st.sampled_from(
        [
            shapes.TEXT,
            shapes.QUESTION,
            shapes.CITATION,
            shapes.OUTCOME,
            shapes.PATH,
            shapes.EARLIER_ANSWERS,
        ]
    ),
    value=json_value,
)
def test_any_json_value_gets_named_places_or_none(shape, value):
    """Whatever the JSON, the check answers in lines that each name a place under the given
    name (pydantic's own texts and locations never show), and never raises. (Compared once
    with the hand-written checker it replaced: 3,000 examples, no difference.)"""
    for line in shapes.problems(value, shape, "w"):
        assert line.startswith("w"), line
        assert "Input should" not in line
        assert "function-" not in line
        assert ": " in line
