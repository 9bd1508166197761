"""Why a wizard transition cannot be made (shared by the wizard and the step views)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

__all__ = ["WizardError"]


class WizardError(Exception):
    """A transition that cannot be made; ``message`` is for the director (translated)."""

    STALE = "stale"
    WRONG_NODE = "wrong_node"
    NOT_A_CHOICE = "not_a_choice"
    FINAL = "final"
    DEFERRED = "deferred"
    DISCARDED = "discarded"
    NO_OUTCOME = "no_outcome"
    INCOMPLETE = "incomplete"
    NO_TREE = "no_tree"
    CONFLICT = "conflict"
    NO_HAND_OVER = "no_hand_over"

    MESSAGES: dict[str, Promise] = {
        STALE: _(
            "Dit formulier was verouderd (een dubbele klik, of de arbitrage is in een ander "
            "tabblad verder gegaan). Er is niets gewijzigd; hieronder staat de huidige stand."
        ),
        WRONG_NODE: _(
            "Dit antwoord hoort niet bij de vraag van deze stap. Er is niets gewijzigd; "
            "hieronder staat de huidige stand."
        ),
        NOT_A_CHOICE: _("Dat is geen antwoord op deze vraag. Er is niets gewijzigd."),
        FINAL: _("Deze arbitrage is definitief opgeslagen en kan niet meer worden gewijzigd."),
        DEFERRED: _("Deze arbitrage is uitgesteld. Hervat haar eerst."),
        DISCARDED: _("Deze arbitrage is verworpen; ze blijft bewaard maar gaat niet verder."),
        NO_OUTCOME: _("Er is nog geen uitkomst: beantwoord eerst de vragen."),
        INCOMPLETE: _("Vul de speeldatum en het spelnummer in om de arbitrage op te slaan."),
        NO_TREE: _("Deze beslisboom bestaat niet (meer)."),
        CONFLICT: _("De arbitrage werd tegelijk ergens anders gewijzigd. Probeer het opnieuw."),
        NO_HAND_OVER: _(
            "Deze uitkomst verwijst niet (meer) naar die beslisboom. Er is niets gewijzigd; "
            "hieronder staat de huidige stand."
        ),
    }

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail

    @property
    def message(self) -> str:
        return str(self.MESSAGES[self.code])
