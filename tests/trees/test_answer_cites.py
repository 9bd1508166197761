"""Answers that cite what they establish (issue 27A1): parsed, hashed, frozen and validated."""

from laws.index import ArticleEntry, ProvisionEntry, ProvisionIndex
from tests.support.tree_texts import GOOD, problems_of, replace, tree_from
from trees.hashing import canonical_data
from trees.loading import citation_problem
from trees.spec import CitedLaw, Snapshot, content_hash

CITING = replace(
    '        label: {nl: "Nee", en: "No"}\n        next: uitkomst-b\n',
    '        label: {nl: "Nee", en: "No"}\n        next: uitkomst-b\n'
    '        cites: ["63 a 1", "64B3"]\n',
)


def test_an_answer_cites_canonical_keys_and_the_hash_covers_them():
    tree = tree_from(CITING)
    assert tree.node("vraag-b").choice("nee").cites == ("63A1", "64B3")
    assert tree.node("vraag-b").choice("ja").cites == ()
    assert content_hash(tree) != content_hash(tree_from(GOOD))


def test_answers_without_cites_keep_the_hash_they_had():
    # An answer without cites is hashed as before answers could cite (the pinned tree hashes
    # in tests/transfer/test_pinned_formats.py stay); one with cites carries them.
    plain = canonical_data(tree_from(GOOD))
    assert all("cites" not in c for node in plain["nodes"] for c in node["choices"])
    citing = canonical_data(tree_from(CITING))
    assert [c.get("cites") for c in citing["nodes"][1]["choices"]] == [None, ("63A1", "64B3")]


def test_a_snapshot_keeps_the_answer_law_and_reads_it_back():
    tree = tree_from(CITING)
    keys = {*(k for n in tree.nodes for k in n.cites), "63A1"}
    law = {key: CitedLaw(key=key, edition="2017", article=key[:2]) for key in keys}
    frozen = Snapshot.of(tree, "v", law)
    data = frozen.to_json()
    choice = data["nodes"]["vraag-b"]["choices"][1]
    assert [c["key"] for c in choice["citations"]] == ["63A1", "64B3"]
    assert "citations" not in data["nodes"]["vraag-b"]["choices"][0]
    again = Snapshot.from_json(data)
    assert again.choice("vraag-b", "nee").cites == ("63A1", "64B3")
    assert again.node("vraag-b").cites == ()
    assert [law.key for law in again.answer_citations("vraag-b", "nee")] == ["63A1", "64B3"]
    assert again.to_json() == data


def test_an_answer_citation_is_checked_against_the_edition():
    index = ProvisionIndex.build(
        "2017",
        [ArticleEntry(n) for n in ("61", "62", "63", "64")],
        [ProvisionEntry(k) for k in ("61A", "62A", "63A", "64A", "64A1", "64B", "64B3", "64C")],
    )
    problems = problems_of(CITING, unknown=citation_problem(index))
    assert problems[0].startswith("node 'vraag-b': choice 'nee': citation '63A1': 63A1 does not")
    assert (
        "node 'uitkomst-b' (via ja → nee): legal basis cites 63A1, not in the edition" in problems
    )
    assert problems_of(replace('cites: ["63 a 1", "64B3"]', 'cites: ["64B3", "64B3"]', CITING)) == [
        "node 'vraag-b': choice 'nee': citation '64B3' is listed more than once"
    ]
