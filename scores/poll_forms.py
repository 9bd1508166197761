"""Forms of a player poll: preparing it (the hand, the auction up to the decision, the
question, the call made at the table) and an answer (on the polled player's screen, or typed
in later from a poll sheet). Every call is read by ``lib.auction`` and must be legal where the
auction stands: a call that is not is refused with the call named."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from lib.auction import Auction, AuctionError, parse_auction, parse_call
from lib.bridge import Seat, Vulnerability
from rulings.models import POLL_QUESTION, PeerLevel, Poll, PollAnswer
from scores.deal import DealError, parse_hand

_CONTROL = {"class": "form-control", "autocomplete": "off", "spellcheck": "false"}


class PrepareForm(forms.Form):
    dealer = forms.ChoiceField(
        label=gettext_lazy("Gever"),
        choices=Seat.choices,
        widget=forms.Select(attrs={"class": "form-select"}),
    )
    vulnerability = forms.ChoiceField(
        label=gettext_lazy("Kwetsbaarheid"),
        choices=Vulnerability.choices,
        widget=forms.Select(attrs={"class": "form-select"}),
    )
    auction = forms.CharField(
        label=gettext_lazy("Bieding tot de beslissing, zonder de ongeoorloofde informatie"),
        required=False,
        max_length=Poll._meta.get_field("auction").max_length,
        help_text=gettext_lazy("Zoals aan tafel, bijvoorbeeld: 1h p 2sa x (of 1h p 2nt d)."),
        widget=forms.TextInput(attrs=_CONTROL),
    )
    hand = forms.CharField(
        label=gettext_lazy("Hand van de speler die aan de beurt is"),
        required=False,
        max_length=60,
        help_text=gettext_lazy(
            "Schoppen, harten, ruiten, klaveren met punten ertussen: AH32.VB5.1098.765. "
            "Leeg: de hand uit het opgeslagen spel."
        ),
        widget=forms.TextInput(attrs=_CONTROL),
    )
    question = forms.CharField(
        label=gettext_lazy("Vraag"),
        max_length=Poll._meta.get_field("question").max_length,
        initial=POLL_QUESTION,
        widget=forms.TextInput(attrs={"class": "form-control"}),
    )
    table_call = forms.CharField(
        label=gettext_lazy("Bieding aan tafel (na de ongeoorloofde informatie)"),
        required=False,
        max_length=8,
        help_text=gettext_lazy("De bieding waarvan u de alternatieven weegt, bijvoorbeeld 4h."),
        widget=forms.TextInput(attrs=_CONTROL | {"class": "form-control w-auto"}),
    )
    sequence = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def __init__(self, *args: Any, deal_hand: Any = None, **kwargs: Any) -> None:
        # deal_hand(seat) -> the stored deal's hand of that seat ("" without a stored deal).
        super().__init__(*args, **kwargs)
        self.deal_hand = deal_hand
        self.parsed: Auction | None = None

    def clean_auction(self) -> str:
        text: str = self.cleaned_data["auction"]
        dealer = self.data.get(self.add_prefix("dealer"), "")
        if dealer not in Seat.values:
            return text
        try:
            self.parsed = parse_auction(text, dealer)
        except AuctionError as error:
            raise forms.ValidationError(str(error)) from None
        if self.parsed.is_complete:
            raise forms.ValidationError(
                _("Deze bieding is al afgelopen; geef de bieding tot de beslissing.")
            )
        return self.parsed.to_text()

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if self.parsed is None:
            return cleaned
        seat = self.parsed.next_seat
        typed = cleaned.get("hand", "")
        if not typed and self.deal_hand is not None:
            typed = self.deal_hand(seat)
        if not typed:
            self.add_error(
                "hand",
                _("Typ de hand van %(seat)s: er is geen opgeslagen spel.") % {"seat": seat.label},
            )
        else:
            try:
                hand = parse_hand(typed)
            except DealError as error:
                self.add_error("hand", str(error))
            else:
                count = len(hand.cards())
                if count != 13:
                    self.add_error(
                        "hand", _("De hand heeft %(count)d kaarten, niet 13.") % {"count": count}
                    )
                else:
                    cleaned["hand"] = hand.pbn
        call = cleaned.get("table_call", "")
        if call:
            try:
                parsed = parse_call(call)
                self.parsed.check_next(parsed)
            except AuctionError as error:
                self.add_error("table_call", str(error))
            else:
                cleaned["table_call"] = parsed.code
        return cleaned


class AnswerForm(forms.Form):
    """One answer on the polled player's screen: the calls are the bidding box's buttons, so
    only legal ones can be tapped; the server checks again (a form from another poll, a
    changed auction, a hand-made request)."""

    player = forms.CharField(
        label=gettext_lazy("Uw naam of initialen"),
        max_length=PollAnswer._meta.get_field("player").max_length,
        widget=forms.TextInput(attrs={"class": "form-control", "autocomplete": "off"}),
    )
    level = forms.ChoiceField(
        label=gettext_lazy("Niveau"),
        choices=PeerLevel.choices,
        initial=PeerLevel.CLUB,
        widget=forms.RadioSelect,
    )
    call = forms.CharField(label=gettext_lazy("Uw bieding"), max_length=8)
    considered = forms.MultipleChoiceField(
        label=gettext_lazy("Welke andere biedingen heeft u serieus overwogen?"),
        required=False,
        choices=(),
    )
    seen = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def __init__(self, *args: Any, auction: Auction | None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.auction = auction
        codes = [call.code for call in auction.legal_next()] if auction is not None else []
        field = self.fields["considered"]
        if isinstance(field, forms.MultipleChoiceField):  # typed answers: a text field
            field.choices = [(code, code) for code in codes]

    def _legal(self, token: str) -> str:
        try:
            call = parse_call(token)
            if self.auction is None:
                raise AuctionError(_("De bieding van deze peiling is niet te lezen."), token)
            self.auction.check_next(call)
        except AuctionError as error:
            raise forms.ValidationError(str(error)) from None
        return call.code

    def clean_call(self) -> str:
        return self._legal(self.cleaned_data["call"])

    def clean_considered(self) -> list[str]:
        return [self._legal(token) for token in self.cleaned_data["considered"]]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        chosen = cleaned.get("call")
        considered = cleaned.get("considered") or []
        # The call chosen was considered by definition; each call counts once.
        cleaned["considered"] = [c for c in dict.fromkeys(considered) if c != chosen]
        return cleaned


class TypedAnswerForm(AnswerForm):
    """An answer typed in from a poll sheet: the calls as written (``2sa``, ``x``)."""

    considered = forms.CharField(  # type: ignore[assignment]
        label=gettext_lazy("Ook serieus overwogen"),
        required=False,
        max_length=80,
        help_text=gettext_lazy("Biedingen met spaties ertussen, bijvoorbeeld: p 3h."),
        widget=forms.TextInput(attrs=_CONTROL),
    )
    level = forms.ChoiceField(
        label=gettext_lazy("Niveau"),
        choices=PeerLevel.choices,
        initial=PeerLevel.CLUB,
        widget=forms.Select(attrs={"class": "form-select"}),
    )

    def __init__(self, *args: Any, auction: Auction | None, **kwargs: Any) -> None:
        super().__init__(*args, auction=auction, **kwargs)
        self.fields["call"].widget.attrs.update(_CONTROL)

    def clean_considered(self) -> list[str]:
        text = self.cleaned_data["considered"].replace(",", " ")
        return [self._legal(token) for token in text.split()]
