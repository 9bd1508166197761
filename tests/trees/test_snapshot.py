"""The frozen tree (trees/snapshot.py and the Snapshot type of trees/spec.py): one type read
and written by one JSON pair, and kept in memory per process by digest."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.tree_texts import GOOD, frozen
from trees import snapshot
from trees.models import TreeSnapshot
from trees.spec import Snapshot, SnapshotFormatError


def test_every_shipped_tree_reads_back_as_the_snapshot_it_was_stored_from(shipped):
    for tree in shipped.values():
        frozen = snapshot.freeze(tree)
        stored = TreeSnapshot.objects.get(digest=frozen.digest).data
        read = Snapshot.from_json(stored, frozen.digest)
        assert read == frozen, tree.slug
        assert read.to_json() == stored, tree.slug
        assert snapshot.digest_of(read.to_json()) == frozen.digest, tree.slug
        # Every citation of every node has its law text.
        for node in read.tree.nodes:
            assert [law.key for law in read.citations(node.key)] == list(node.cites)


def test_a_snapshot_is_parsed_once_per_process_and_then_costs_no_query(
    proef_tree, django_assert_num_queries
):
    digest = snapshot.freeze(proef_tree).digest
    snapshot.clear_cache()  # as in a fresh process
    with django_assert_num_queries(1):
        first = snapshot.get(digest)
    with django_assert_num_queries(0):
        again = snapshot.get(digest)
    assert again is first


def test_freezing_a_tree_frozen_before_costs_no_query(proef_tree, django_assert_num_queries):
    frozen = snapshot.freeze(proef_tree)
    with django_assert_num_queries(0):
        assert snapshot.freeze(proef_tree) is frozen


def test_the_cache_forgets_the_least_recently_used(proef_tree, monkeypatch):
    monkeypatch.setattr(snapshot, "CACHE_SIZE", 1)
    frozen = snapshot.freeze(proef_tree)
    other = Snapshot.of(frozen.tree, "another version", frozen.law)
    snapshot.store(other)
    assert list(snapshot._cache) == [snapshot.digest_of(other.to_json())]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(start="nergens"), "snapshot.start: no node nergens"),
        (lambda d: d.pop("slug"), "snapshot.slug: is missing"),
        (lambda d: d.update(extra=1), "snapshot: unknown key(s) extra"),
        (lambda d: d["nodes"]["onbedoeld"].update(kind="vraag"), "kind: must be one of"),
        (
            lambda d: d["nodes"]["onbedoeld"]["citations"][0].update(kind="gerucht"),
            "snapshot.nodes.onbedoeld.citations[0].kind: must be one of",
        ),
        (
            lambda d: d["nodes"]["onbedoeld"]["choices"][0].update(target="nergens"),
            "snapshot.nodes.onbedoeld: choice ja leads nowhere",
        ),
        (lambda d: d["nodes"]["onbedoeld"].update(text=["x"]), "onbedoeld.text: must be an object"),
    ],
)
def test_odd_stored_data_is_refused_naming_the_place(proef_tree, change, message):
    data = snapshot.freeze(proef_tree).to_json()
    change(data)
    with pytest.raises(SnapshotFormatError, match=re.escape(message)):
        Snapshot.from_json(data)


# Every message the reader gives (trees/snapshot_json.py, through lib/schema.py): a place, then
# one of our phrases; never pydantic's own words ("Input should be …").
OUR_WORDS = re.compile(
    r"^snapshot[\w.\[\]-]*: (must be (an object|a list|str|bool|one of [\w, ]+)|is missing"
    r"|unknown key\(s\) .+|(outcome|choices) is missing|no node .+|choice .+ leads nowhere"
    r"|must have label, cites, chosen_by and chosen_if|label, chosen_by and chosen_if must be"
    r" text|must be a list of keys)$"
)
ODD_VALUES = [None, 0, True, "", "x", [], [1], {}, {"nl": 1}, {"x": 1}, 1.5]


def _places(value, at=()):
    yield at
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _places(item, (*at, index))


@given(st.data())
def test_one_odd_value_anywhere_is_refused_in_our_words_or_read(data):
    stored = frozen(GOOD).to_json()
    place = data.draw(st.sampled_from(list(_places(stored))[1:]))
    parent = stored
    for part in place[:-1]:
        parent = parent[part]
    if data.draw(st.booleans()) and isinstance(parent, dict):
        del parent[place[-1]]
    else:
        parent[place[-1]] = data.draw(st.sampled_from(ODD_VALUES))
    message = ""
    try:
        Snapshot.from_json(stored)
    except SnapshotFormatError as error:
        message = str(error)
    assert not message or OUR_WORDS.match(message), message
