"""Template helpers every app loads (``{% load leidraad %}``)."""

from django.template import Context, Template

from lib.templatetags.leidraad import prose


def test_prose_joins_wrapped_lines_and_keeps_lists_and_paragraphs():
    text = (
        "De slag blijft staan en\nhet spel gaat verder.\n\n"
        "De leider kiest:\n- hoogste\n- laagste\na. of <niets>"
    )
    # The one prose renderer (lib.text.prose): the same HTML as on the tree page.
    assert prose(text) == (
        "<p>De slag blijft staan en het spel gaat verder.</p>"
        "<p>De leider kiest:</p><ul><li>hoogste</li><li>laagste</li></ul>"
        '<ul class="tree-list"><li>a. of &lt;niets&gt;</li></ul>'
    )


def test_tree_text_reads_the_same_on_every_page_that_shows_it():
    """The wizard, the explore page, the record and the appeal form all show a tree's
    outcome text through this one filter (they used ``linebreaks`` before, which printed the
    Markdown marks)."""
    page = Template("{% load leidraad %}{{ text|prose }}")
    assert page.render(Context({"text": "Een **nieuwe** slag"})) == (
        "<p>Een <strong>nieuwe</strong> slag</p>"
    )
