"""Template helpers for the question and outcome steps: the progress hint, the answers to
check before the final save, and board details that contradict them."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from lib.i18n import pick
from rulings import consistency, hand_over, law_titles, legal_basis
from rulings.models import Ruling
from rulings.steps import PathEntry, StepView, answered_path, step_progress, tree_of
from trees import options
from trees.models import Tree
from trees.progress import Progress

register = template.Library()


@register.simple_tag
def progress_of(view: StepView) -> Progress | None:
    return step_progress(view)


@register.simple_tag
def answers_of(ruling: Ruling) -> list[PathEntry]:
    return answered_path(ruling)


@register.simple_tag
def legal_basis_of(ruling: Ruling) -> list[dict[str, object]]:
    """The legal basis of the outcome the ruling stands at, worked out from its frozen tree
    (no query) by the function whose keys the one writer stored for it."""
    if not getattr(ruling, "outcome_key", "") or not getattr(ruling, "snapshot_id", ""):
        return []  # a page part rendered without a stored ruling (a test of the banner)
    tree = tree_of(ruling)
    keys = legal_basis.tree_basis(tree, ruling.path, ruling.outcome_key)
    recorded = ruling.outcome or {}
    if ruling.handed_over:
        # Continued from another tree: its basis first, then this tree's (rulings/hand_over.py).
        keys = legal_basis.basis_keys(hand_over.earlier_basis(ruling.handed_over), keys)
        recorded = hand_over.basis_law(ruling)
    return law_titles.localised(legal_basis.shown(keys, recorded, tree), tree.edition)


@register.simple_tag
def handed_over_of(ruling: Ruling) -> list[dict[str, object]]:
    """The trees this ruling went through before the current one (rulings/hand_over.py)."""
    return hand_over.parts_shown(ruling) if getattr(ruling, "handed_over", None) else []


@register.simple_tag
def tree_title_of(slug: str) -> str:
    """The title of the loaded tree ``slug`` in the page's language (one query), else the
    slug: the tree an outcome hands over to."""
    row = Tree.objects.filter(slug=slug).values_list("title_nl", "title_en").first()
    return pick(row[0], row[1]) if row else slug


@register.simple_tag
def option_list_of(ruling: Ruling) -> list[dict[str, object]]:
    """Every option of the outcome when a side chooses, the chosen one marked (27A3)."""
    outcome = getattr(ruling, "outcome", None)
    if not isinstance(outcome, dict):
        return []
    return options.shown(outcome, getattr(ruling, "path", None) or [])


@register.simple_tag
def contradictions_of(ruling: Ruling) -> list[consistency.Contradiction]:
    """Board details that contradict what the answers say of the offender, by the roles the
    ruling's own frozen tree gives its answers."""
    if not getattr(ruling, "snapshot_id", ""):
        return []  # a free ruling: no tree, no answers
    return consistency.contradictions(
        tree_of(ruling).tree, ruling.path, ruling.offender_seat, ruling.declarer_seat
    )


@register.simple_tag
def board_details(ruling: Ruling) -> list[str]:
    """The board details saved so far, each as a short phrase (empty ones left out)."""
    parts = [
        (ruling.round, _("ronde %(round)s"), {"round": ruling.round}),
        (ruling.table, _("tafel %(table)s"), {"table": ruling.table}),
        (ruling.board, _("spel %(board)s"), {"board": ruling.board}),
        (
            ruling.offender_seat,
            _("overtreder %(seat)s"),
            {"seat": ruling.get_offender_seat_display()},
        ),
        (ruling.declarer_seat, _("leider %(seat)s"), {"seat": ruling.get_declarer_seat_display()}),
        (
            ruling.contract_level,
            _("contract %(level)s%(strain)s%(doubled)s"),
            {
                "level": ruling.contract_level,
                "strain": ruling.get_contract_strain_display(),
                "doubled": ruling.contract_doubled,
            },
        ),
    ]
    return [text % values for given, text, values in parts if given]
