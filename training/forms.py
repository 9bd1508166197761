"""Forms for training: a trainer's own cases, sessions, and joining a session with its code.

Forms validate and convert only; saving and access checks live in the views and in
``training/files.py`` and ``training/practice.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, cast

from django import forms
from django.db.models import QuerySet
from django.forms.boundfield import BoundWidget
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from laws import keys
from laws.edition_law import index_of
from laws.index import message
from lib.auction import AuctionError, load_auction
from lib.fields import ModelChoiceField, ModelMultipleChoiceField
from lib.i18n import active_language
from scores.deal import DealError, parse_hand
from training.files import outcome_problems, tree_choices, tree_spec
from training.models import TrainingCase, TrainingSession
from training.practice import CODE_LENGTH, normalise_code
from trees.spec import TreeError, TreeSpec
from trees.validate import walk

_SPLIT = re.compile(r"[,;\s]+")


def split_words(text: str) -> list[str]:
    return [word for word in _SPLIT.split(text or "") if word]


def path_from_answers(tree: TreeSpec, answers: list[str]) -> list[tuple[str, str]]:
    """``["nee", "ja"]`` → ``[(start, "nee"), (next node, "ja")]``; raises TreeError."""
    steps = []
    for index in range(len(answers)):
        node = walk(tree, answers[:index])
        steps.append((node.key, answers[index]))
    walk(tree, answers)
    return steps


class ClubChoiceMixin(forms.BaseForm):
    """A ``club`` field when the user can act for more than one club; none otherwise."""

    def setup_club(self, clubs: list[Club]) -> None:
        self.clubs = clubs
        if len(clubs) > 1:
            self.fields["club"] = ModelChoiceField(
                label=_("Club"), queryset=Club.objects.filter(pk__in=[c.pk for c in clubs])
            )
            self.order_fields(["club"])

    def chosen_club(self) -> Club:
        return self.cleaned_data.get("club") or self.clubs[0]


class TrainingCaseForm(ClubChoiceMixin, forms.ModelForm):
    """A trainer's own case. The expected outcomes are chosen from the outcomes of the chosen
    tree; the model path is typed as answer keys (``nee, nee, ja``, as in the explore page)."""

    tree_slug = forms.ChoiceField(label=_("Beslisboom"))
    expected_outcomes = forms.MultipleChoiceField(
        label=_("Juiste uitkomst(en)"),
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Kies eerst de beslisboom; meer dan één uitkomst mag als ze alle goed zijn."),
    )
    path_answers = forms.CharField(
        label=_("Modelpad (optioneel)"),
        required=False,
        max_length=2000,
        help_text=_(
            "De antwoorden vanaf de eerste vraag, met komma's ertussen, bijvoorbeeld "
            "'nee, nee, ja'. Vult u het in, dan moet de cursist precies dit pad volgen."
        ),
    )
    cites_text = forms.CharField(
        label=_("Wetsartikelen bij de uitleg"),
        required=False,
        max_length=400,
        help_text=_("Bijvoorbeeld: 50B, 50D2(a)"),
    )
    tags_text = forms.CharField(label=_("Labels"), required=False, max_length=400)

    class Meta:
        model = TrainingCase
        fields = [
            "title_nl",
            "title_en",
            "tree_slug",
            "situation_nl",
            "situation_en",
            "expected_outcomes",
            "path_answers",
            "explanation_nl",
            "explanation_en",
            "cites_text",
            "difficulty",
            "tags_text",
            "auction",
            "poll_hand",
        ]
        widgets = {
            "situation_nl": forms.Textarea(attrs={"rows": 6}),
            "situation_en": forms.Textarea(attrs={"rows": 6}),
            "explanation_nl": forms.Textarea(attrs={"rows": 5}),
            "explanation_en": forms.Textarea(attrs={"rows": 5}),
        }
        help_texts = {
            "situation_nl": _("Eenvoudige Markdown: **vet**, *schuin*, lijstjes met -."),
            "auction": _(
                "Optioneel, voor een peiling in een sessie: de gever en de bieding aan tafel, "
                "een denkpauze met ?, bijvoorbeeld: N: 1h p 2h? p 4h."
            ),
            "poll_hand": _(
                "De hand van de speler wiens bieding de peiling vraagt: AH32.VB5.1098.765."
            ),
        }

    def __init__(self, *args, clubs: list[Club], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.setup_club(clubs)
        if self.instance.pk:
            self.fields.pop("club", None)
            self.initial.setdefault("cites_text", ", ".join(self.instance.cites))
            self.initial.setdefault("tags_text", ", ".join(self.instance.tags))
            self.initial.setdefault(
                "path_answers", ", ".join(c for _n, c in self.instance.expected_path)
            )
        language = active_language()
        cast(forms.ChoiceField, self.fields["tree_slug"]).choices = [
            ("", "---------"),
            *tree_choices(language),
        ]
        slug = self.data.get(self.add_prefix("tree_slug")) or self.initial.get("tree_slug")
        self.tree = tree_spec(slug) if slug else None
        cast(forms.ChoiceField, self.fields["expected_outcomes"]).choices = (
            [(node.key, node.text.get(language)) for node in self.tree.outcomes]
            if self.tree is not None
            else []
        )

    def clean_cites_text(self) -> list[str]:
        try:
            cited = keys.canonical_list(self.cleaned_data["cites_text"])
        except keys.InvalidKey as error:
            raise forms.ValidationError(
                _("'%(raw)s' is geen wetsverwijzing (zoals 50D2(a))."), params={"raw": error.text}
            ) from None
        return list(dict.fromkeys(cited))

    def clean_auction(self) -> str:
        """The case's auction as lib.auction stores it ("N: 1H P 2H? P"), or ""."""
        typed = (self.cleaned_data.get("auction") or "").strip()
        if not typed:
            return ""
        try:
            auction = load_auction(typed)
        except AuctionError as error:
            raise forms.ValidationError(str(error)) from None
        return auction.stored() if auction is not None else ""

    def clean_poll_hand(self) -> str:
        typed = (self.cleaned_data.get("poll_hand") or "").strip()
        if not typed:
            return ""
        try:
            hand = parse_hand(typed)
        except DealError as error:
            raise forms.ValidationError(str(error)) from None
        if len(hand.cards()) != 13:
            raise forms.ValidationError(
                _("De hand heeft %(count)d kaarten, niet 13.") % {"count": len(hand.cards())}
            )
        return hand.pbn

    def clean_tags_text(self) -> list[str]:
        return [slugify(tag) for tag in self.cleaned_data["tags_text"].split(",") if slugify(tag)]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        tree = tree_spec(data.get("tree_slug", ""))
        if tree is not None and data.get("cites_text"):
            self._check_cites(tree, data["cites_text"])
        outcomes = data.get("expected_outcomes") or []
        if tree is None or not outcomes:
            if tree is not None and "expected_outcomes" not in self.errors:
                self.add_error("expected_outcomes", _("Kies de juiste uitkomst in deze boom."))
            return data
        if outcome_problems(tree, outcomes):
            self.add_error("expected_outcomes", _("Deze uitkomst bestaat niet in deze boom."))
            return data
        answers = split_words(data.get("path_answers", "").lower())
        data["expected_path"] = []
        if answers:
            try:
                steps = path_from_answers(tree, answers)
            except TreeError:
                self.add_error(
                    "path_answers", _("Dit pad bestaat niet in de boom: controleer de antwoorden.")
                )
                return data
            end = walk(tree, answers)
            if not end.is_outcome:
                self.add_error(
                    "path_answers", _("Dit pad eindigt bij een vraag, niet bij een uitkomst.")
                )
            elif end.key not in outcomes:
                self.add_error(
                    "path_answers", _("Dit pad eindigt niet bij een van de gekozen uitkomsten.")
                )
            else:
                data["expected_path"] = [list(step) for step in steps]
        return data

    def _check_cites(self, tree: TreeSpec, cites: list[str]) -> None:
        """Every cited key must exist in the tree's edition (the one key checker)."""
        index = index_of(tree.edition)
        if not index.articles:
            return  # the edition's law text is not loaded: nothing to check against
        for key in cites:
            unknown = index.unknown(key)
            if unknown is not None:
                self.add_error("cites_text", message(unknown))

    def save(self, commit: bool = True) -> TrainingCase:
        case = super().save(commit=False)
        case.expected_outcomes = list(self.cleaned_data["expected_outcomes"])
        case.expected_path = self.cleaned_data.get("expected_path", [])
        case.cites = self.cleaned_data["cites_text"]
        case.tags = self.cleaned_data["tags_text"]
        if case.pk is None:
            case.club = self.chosen_club()
            case.slug = unique_case_slug(case.club, case.title_nl)
        if commit:
            case.save()
        return case


def unique_case_slug(club: Club, title: str) -> str:
    base = slugify(title)[:70] or "casus"
    slug, number = base, 1
    while TrainingCase.objects.filter(club=club, slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return slug


class CaseChoiceField(ModelMultipleChoiceField):
    """Cases listed by their title."""

    def label_from_instance(self, obj: TrainingCase) -> str:
        return obj.title


@dataclass
class CaseGroup:
    """The cases of one tree in the session form: a fieldset with the tree's title."""

    slug: str
    title: str
    checkboxes: list[BoundWidget] = field(default_factory=list)


class TrainingSessionForm(ClubChoiceMixin, forms.ModelForm):
    class Meta:
        model = TrainingSession
        fields = ["title", "open_to_guests", "cases"]
        widgets = {"cases": forms.CheckboxSelectMultiple}
        labels = {"title": _("Naam van de sessie"), "cases": _("Casussen")}
        field_classes = {"cases": CaseChoiceField}

    def __init__(self, *args, clubs: list[Club], cases: QuerySet[TrainingCase], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.setup_club(clubs)
        cast(CaseChoiceField, self.fields["cases"]).queryset = cases

    def case_groups(self) -> list[CaseGroup]:
        """The case checkboxes per tree, trees in title order, cases in their own order; a
        case whose tree file is gone keeps its slug as the title (still choosable)."""
        titles = dict(tree_choices(active_language()))
        groups: dict[str, CaseGroup] = {}
        for checkbox in self["cases"]:
            slug = checkbox.data["value"].instance.tree_slug
            if slug not in groups:
                groups[slug] = CaseGroup(slug, titles.get(slug, slug))
            groups[slug].checkboxes.append(checkbox)
        return sorted(groups.values(), key=lambda group: group.title.lower())

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        club = data.get("club") or (self.clubs[0] if self.clubs else None)
        for case in data.get("cases") or []:
            if case.club_id is not None and club is not None and case.club_id != club.pk:
                self.add_error(
                    "cases", _("Een casus van een andere club past niet in deze sessie.")
                )
                break
        return data


class JoinForm(forms.Form):
    code = forms.CharField(
        label=_("Deelnamecode"),
        max_length=20,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )

    def clean_code(self) -> str:
        code = normalise_code(self.cleaned_data["code"])
        if len(code) != CODE_LENGTH:
            raise forms.ValidationError(
                _("Een code heeft %(n)s letters en cijfers."), params={"n": CODE_LENGTH}
            )
        return code
