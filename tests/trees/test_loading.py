"""Loading tree files into the database (atomic, idempotent) and the check_trees command."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from laws.loading import bootstrap_laws
from laws.models import Article, Provision
from tests.support.tree_texts import GOOD
from trees.loading import (
    TREES_DIR,
    bootstrap_trees,
    check_tree_rows,
    load_trees,
    resolve_citations,
    spec_from_rows,
    tree_file_paths,
    trees_citing,
)
from trees.models import Choice, Citation, Node, Tree
from trees.parse import load_tree_file
from trees.spec import TreeError, content_hash

MY_TREES = [
    "strafkaart",
    "verzaking",
    "strafkaart-1963",
    "teruggenomen-kaart-1987",
    "verzaking-2007",
]


@pytest.fixture
def laws(db):
    """The shipped editions without the trees (every test database has both,
    tests/conftest.py): these tests load the trees themselves."""
    Tree.objects.all().delete()


@pytest.fixture
def loaded(db):
    """The shipped editions and trees, for tests of what works on loaded trees (check_trees,
    links to the law): in every test database (tests/conftest.py). The loading itself is
    tested above, by calling load_trees."""


@pytest.fixture
def tree_dir(tmp_path: Path) -> Path:
    """A copy of the shipped tree files, to break or change without touching the originals."""
    target = tmp_path / "trees"
    shutil.copytree(TREES_DIR, target)
    return target


def test_bootstrap_loads_every_shipped_tree(laws):
    out = io.StringIO()
    report = bootstrap_trees(out)
    files = sorted(path.stem for path in tree_file_paths(TREES_DIR))
    assert sorted(report.loaded) == files
    assert set(MY_TREES) <= set(files)
    assert sorted(Tree.objects.values_list("slug", flat=True)) == files
    assert "Tree verzaking: loaded" in out.getvalue()


def test_loaded_rows_match_the_file(laws):
    load_trees()
    spec = load_tree_file(TREES_DIR / "verzaking-2007.yaml")
    tree = Tree.objects.get(slug="verzaking-2007")
    assert tree.version == content_hash(spec)
    assert tree.edition.code == "2007"
    assert tree.source_path == "trees/files/verzaking-2007.yaml"
    assert tree.nodes.count() == len(spec.nodes)
    assert list(tree.nodes.values_list("key", flat=True)) == [n.key for n in spec.nodes]
    start = tree.nodes.get(key="verzaakt")
    assert [(c.key, c.target.key) for c in start.choices.all()] == [
        ("ja", "voldongen"),
        ("nee", "niet-vastgesteld"),
    ]
    outcome = tree.nodes.get(key="twaalfde-herstel-beperking")
    assert outcome.kind == "outcome"
    assert outcome.chooser == "director"
    assert outcome.unauthorised_information
    assert outcome.adjusted_score
    assert "62D2" in outcome.ruling_nl


def test_finder_words_and_synonyms_are_stored_and_read_back(loaded):
    """One word or phrase per line, synonyms in their own columns; the rows read back give
    the file's finder, so the stored version still matches (check_trees)."""
    spec = load_tree_file(TREES_DIR / "ongeoorloofde-informatie.yaml")
    tree = Tree.objects.get(slug="ongeoorloofde-informatie")
    assert tree.synonyms_nl.splitlines() == list(spec.finder.synonyms_nl)
    assert "dacht lang na" in tree.synonyms_nl.splitlines()
    assert tree.synonyms_en.splitlines() == list(spec.finder.synonyms_en)
    assert spec_from_rows(tree).finder == spec.finder
    assert content_hash(spec_from_rows(tree)) == tree.version


def test_citations_are_resolved_to_provisions_and_articles(laws):
    load_trees()
    # 2007 has official provisions: exact provision.
    citation = Citation.objects.get(
        node__tree__slug="verzaking-2007", node__key="herstel-vrij", key="62B2"
    )
    assert citation.provision.key == "62B2"
    assert citation.article.number == "62"
    # 1963: article 50 has no lettered provisions: the article.
    citation = Citation.objects.filter(node__tree__slug="strafkaart-1963", key="50").first()
    assert citation.article.number == "50"
    assert citation.provision is None
    # 1963 lettered item.
    citation = Citation.objects.filter(node__tree__slug="strafkaart-1963", key="52(b)").first()
    assert citation.provision.key == "52(b)"
    # 2017: every provision is in the index, so a precise key resolves to its provision.
    citation = Citation.objects.filter(node__tree__slug="strafkaart", key="50D2(a)").first()
    assert citation.article.number == "50"
    assert citation.article.edition.code == "2017"
    assert (citation.provision.key, citation.provision.article_id) == (
        "50D2(a)",
        citation.article.pk,
    )
    assert not Citation.objects.filter(article__isnull=True).exists()


def test_loading_again_writes_nothing(laws, django_assert_max_num_queries):
    load_trees()
    before = {t.slug: (t.pk, t.loaded_at) for t in Tree.objects.all()}
    node_ids = set(Node.objects.values_list("id", flat=True))
    out = io.StringIO()
    with django_assert_max_num_queries(20):
        report = load_trees(stdout=out)
    assert report.loaded == []
    assert sorted(report.unchanged) == sorted(before)
    assert {t.slug: (t.pk, t.loaded_at) for t in Tree.objects.all()} == before
    assert set(Node.objects.values_list("id", flat=True)) == node_ids
    assert "Tree strafkaart: up to date" in out.getvalue()


def test_a_changed_file_replaces_only_that_tree(laws, tree_dir):
    load_trees(tree_dir)
    tree = Tree.objects.get(slug="strafkaart-1963")
    others = {t.slug: t.loaded_at for t in Tree.objects.exclude(slug="strafkaart-1963")}
    path = tree_dir / "strafkaart-1963.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "U moet nu de strafkaart spelen.", "U moet nu echt de strafkaart spelen."
        ),
        encoding="utf-8",
    )
    report = load_trees(tree_dir)
    assert report.loaded == ["strafkaart-1963"]
    reloaded = Tree.objects.get(slug="strafkaart-1963")
    assert reloaded.pk == tree.pk  # updated in place
    assert reloaded.version != tree.version
    assert reloaded.nodes.get(key="strafkaart-spelen").announce_nl.startswith("U moet nu echt")
    assert {t.slug: t.loaded_at for t in Tree.objects.exclude(slug="strafkaart-1963")} == others


def test_one_broken_file_among_good_ones_writes_nothing(laws, tree_dir):
    path = tree_dir / "verzaking.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("next: twee-slagen", "next: drie-slagen"),
        encoding="utf-8",
    )
    with pytest.raises(TreeError) as info:
        load_trees(tree_dir)
    message = str(info.value)
    assert "verzaking.yaml: node 'later-gewonnen': choice 'ja' points to unknown node" in message
    assert Tree.objects.count() == 0
    assert Node.objects.count() == 0


def test_a_broken_file_leaves_loaded_trees_untouched(laws, tree_dir):
    load_trees(tree_dir)
    versions = dict(Tree.objects.values_list("slug", "version"))
    good = tree_dir / "strafkaart.yaml"
    good.write_text(good.read_text(encoding="utf-8").replace("Strafkaart", "Strafkaarten", 1))
    bad = tree_dir / "teruggenomen-kaart-1987.yaml"
    bad.write_text(bad.read_text(encoding="utf-8").replace("phase: play", "phase: spel"))
    with pytest.raises(TreeError, match=re.escape("teruggenomen-kaart-1987.yaml: phase 'spel'")):
        load_trees(tree_dir)
    assert dict(Tree.objects.values_list("slug", "version")) == versions


def test_citation_that_does_not_resolve_is_refused(laws, tree_dir):
    path = tree_dir / "verzaking-2007.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('cites: ["62B2", "62C1", "62C2"]', 'cites: ["64A1"]'))
    with pytest.raises(TreeError) as info:
        load_trees(tree_dir)
    assert (
        "verzaking-2007.yaml: node 'herstel-vrij-later': citation '64A1': 64A1 does not exist"
        " in 2007; did you mean 63?" in str(info.value)
    )
    assert Tree.objects.count() == 0


def test_missing_edition_is_refused(without_shipped_data, tree_dir):
    with pytest.raises(TreeError, match="edition 1963 is not loaded"):
        load_trees(tree_dir)
    assert Tree.objects.count() == 0


def test_empty_directory_is_an_error(db, tmp_path):
    with pytest.raises(TreeError, match="no tree files"):
        load_trees(tmp_path)


def test_citations_are_relinked_after_a_law_import(loaded):
    # A re-import replaces the articles of the edition; the links are cleared ...
    Article.objects.filter(edition__code="2007").delete()
    assert Citation.objects.filter(node__tree__slug="verzaking-2007", article=None).exists()
    bootstrap_laws(io.StringIO())
    # ... and resolving again puts them back.
    assert resolve_citations() > 0
    assert not Citation.objects.filter(article=None).exists()
    assert Provision.objects.filter(tree_citations__key="62D2").exists()


def test_trees_citing_an_article(loaded):
    article = Article.objects.get(edition__code="2007", number="62")
    uses = trees_citing(article)
    assert [use["tree"].slug for use in uses] == ["verzaking-2007"]
    assert {"62B2", "62D1", "62D2"} <= set(uses[0]["keys"])


# ---------------------------------------------------------------------------------------------
# Commands


def test_load_trees_command(laws, tree_dir):
    out = io.StringIO()
    call_command("load_trees", "--dir", str(tree_dir), stdout=out)
    assert "tree(s) loaded, 0 unchanged" in out.getvalue()
    out = io.StringIO()
    call_command("load_trees", "--dir", str(tree_dir), stdout=out)
    assert "0 tree(s) loaded" in out.getvalue()


def test_load_trees_command_reports_every_problem_and_fails(laws, tree_dir):
    for name in ("strafkaart.yaml", "verzaking.yaml"):
        path = tree_dir / name
        path.write_text(path.read_text(encoding="utf-8").replace("start: ", "start: nergens-"))
    err = io.StringIO()
    with pytest.raises(CommandError) as info:
        call_command("load_trees", "--dir", str(tree_dir), stderr=err)
    assert info.value.returncode == 1
    assert "strafkaart.yaml: start node 'nergens-situatie' does not exist" in err.getvalue()
    assert "verzaking.yaml: start node 'nergens-verzaakt' does not exist" in err.getvalue()
    assert Tree.objects.count() == 0


def test_check_trees_passes_on_the_shipped_trees(loaded):
    out = io.StringIO()
    call_command("check_trees", stdout=out)
    assert "ok   verzaking (2017): 30 nodes, 11 questions, 19 outcomes, 20 paths" in out.getvalue()
    assert "FAIL" not in out.getvalue()


def test_check_trees_json_shape(loaded):
    out = io.StringIO()
    call_command("check_trees", "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert [entry["slug"] for entry in data] == sorted(Tree.objects.values_list("slug", flat=True))
    for entry in data:
        assert set(entry) == {
            "slug",
            "edition",
            "nodes",
            "questions",
            "outcomes",
            "paths",
            "problems",
        }
        assert entry["problems"] == []
    by_slug = {entry["slug"]: entry for entry in data}
    assert by_slug["teruggenomen-kaart-1987"] == {
        "slug": "teruggenomen-kaart-1987",
        "edition": "1987",
        "nodes": 11,
        "questions": 3,
        "outcomes": 8,
        "paths": 8,
        "problems": [],
    }


def test_check_trees_fails_on_a_damaged_tree(loaded):
    Choice.objects.filter(
        node__tree__slug="strafkaart-1963", node__key="aanwijzen", key="nee"
    ).delete()
    out = io.StringIO()
    with pytest.raises(CommandError) as info:
        call_command("check_trees", "--json", stdout=out)
    assert info.value.returncode == 1
    data = {entry["slug"]: entry for entry in json.loads(out.getvalue())}
    problems = data["strafkaart-1963"]["problems"]
    assert "node 'aanwijzen': a question needs at least two choices (has 1)" in problems
    assert "node 'geen-strafkaart': not reachable from the start node 'situatie'" in problems
    assert any("does not match its version" in p for p in problems)
    assert data["verzaking"]["problems"] == []


def test_check_trees_notices_law_text_that_went_away(loaded):
    Provision.objects.filter(article__edition__code="1987", key="47G").delete()
    result = {entry["slug"]: entry["problems"] for entry in check_tree_rows()}
    assert (
        "node 'niet-terugnemen': citation '47G': 47G does not exist in 1987; did you mean"
        " 47A–47F?" in result["teruggenomen-kaart-1987"]
    )


def test_check_trees_files_mode(laws, tree_dir):
    path = tree_dir / "strafkaart.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace('en: "Penalty card"', 'en: ""', 1))
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("check_trees", "--files", "--dir", str(tree_dir), "--json", stdout=out)
    data = {entry["slug"]: entry for entry in json.loads(out.getvalue())}
    assert data["strafkaart"]["problems"] == ["title has no en text"]
    assert Tree.objects.count() == 0  # nothing loaded


def test_check_trees_with_nothing_loaded(without_shipped_data):
    out = io.StringIO()
    call_command("check_trees", stdout=out)
    assert "No trees loaded" in out.getvalue()


def test_check_trees_fails_on_a_2017_tree_citing_13e(laws, tmp_path):
    """Law 13 has sections A-D in 2017: a tree citing the 2007 key 13E fails, and the message
    names the keys that do exist (the one key checker, laws/index.py)."""
    (tmp_path / "proef.yaml").write_text(GOOD.replace('cites: ["61A"]', 'cites: ["13E"]'))
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("check_trees", "--files", "--dir", str(tmp_path), stdout=out)
    assert (
        "node 'vraag-a': citation '13E': 13E does not exist in 2017; did you mean 13A–13D?"
        in out.getvalue()
    )
    with pytest.raises(TreeError, match="13E does not exist in 2017; did you mean 13A–13D"):
        load_trees(tmp_path)


def test_at_start_up_a_tree_whose_citations_no_longer_resolve_keeps_its_last_version(loaded):
    version = Tree.objects.get(slug="teruggenomen-kaart-1987").version
    Provision.objects.filter(article__edition__code="1987", key="47G").delete()
    Tree.objects.filter(slug="teruggenomen-kaart-1987").update(version="older")
    out = io.StringIO()
    report = bootstrap_trees(out)
    assert report.kept == ["teruggenomen-kaart-1987"]
    assert "citation '47G': 47G does not exist in 1987" in out.getvalue()
    assert "Tree teruggenomen-kaart-1987: not loaded; it keeps its last loaded version" in (
        out.getvalue()
    )
    assert Tree.objects.get(slug="teruggenomen-kaart-1987").version == "older"
    assert version != "older"
    assert "Tree verzaking: up to date" in out.getvalue()
