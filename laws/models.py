"""Law text: editions, articles, provisions, footnotes, cross-references and our summaries.

Provisions carry a canonical key the way directors cite them: the article number, then the
section letter, the item number and the sub-item in parentheses (``62D2``, ``43B2(b)``,
``50D2(a)``). Lettered items directly under an article, as in the 1963 code, become
``52(a)``. Official text only ever comes from an import; ``ArticleSummary`` holds our own
plain-language words and is always shown as a summary.
"""

from django.db import models
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _


class Edition(models.Model):
    code = models.CharField(_("code"), max_length=10, unique=True)
    language = models.CharField(_("taal"), max_length=5, default="nl")
    title = models.CharField(_("titel"), max_length=200, blank=True)
    source_note = models.TextField(_("bron"), blank=True)
    is_current = models.BooleanField(_("geldende editie"), default=False)
    source_hash = models.CharField(max_length=64, blank=True, editable=False)
    imported_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["code"]
        verbose_name = _("editie")
        verbose_name_plural = _("edities")

    def __str__(self) -> str:
        return self.title or self.code


class Article(models.Model):
    edition = models.ForeignKey(Edition, on_delete=models.CASCADE, related_name="articles")
    number = models.CharField(_("nummer"), max_length=10)
    title = models.CharField(_("titel"), max_length=300, blank=True)
    group = models.CharField(_("hoofdstuk of deel"), max_length=300, blank=True)
    order = models.PositiveIntegerField(default=0)
    text = models.TextField(_("inleidende tekst"), blank=True)
    # Paragraphs after the last provision (after a list "a. ...; of / b. ..."), shown below it.
    closing_text = models.TextField(_("slottekst"), blank=True)

    class Meta:
        ordering = ["edition", "order"]
        constraints = [
            models.UniqueConstraint(fields=["edition", "number"], name="article_unique_number")
        ]
        verbose_name = _("artikel")
        verbose_name_plural = _("artikelen")

    def __str__(self) -> str:
        return f"{self.edition.code} art. {self.number}"


class Provision(models.Model):
    article = models.ForeignKey(Article, on_delete=models.CASCADE, related_name="provisions")
    parent = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="children"
    )
    label = models.CharField(_("label"), max_length=10)
    key = models.CharField(_("sleutel"), max_length=30, db_index=True)
    heading = models.CharField(_("kop"), max_length=300, blank=True)
    text = models.TextField(_("tekst"), blank=True)
    closing_text = models.TextField(_("slottekst"), blank=True)
    order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["article", "order"]
        constraints = [
            models.UniqueConstraint(fields=["article", "key"], name="provision_unique_key")
        ]
        verbose_name = _("bepaling")
        verbose_name_plural = _("bepalingen")

    def __str__(self) -> str:
        return self.key


class Footnote(models.Model):
    article = models.ForeignKey(Article, on_delete=models.CASCADE, related_name="footnotes")
    provision = models.ForeignKey(
        Provision, on_delete=models.CASCADE, null=True, blank=True, related_name="footnotes"
    )
    marker = models.CharField(_("markering"), max_length=10, blank=True)
    text = models.TextField(_("tekst"))
    order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["article", "order"]
        verbose_name = _("voetnoot")
        verbose_name_plural = _("voetnoten")

    def __str__(self) -> str:
        return f"{self.marker or '–'} {self.text[:40]}"


class CrossReference(models.Model):
    """A reference such as ``zie artikel 64 C`` found in the text of an article or provision."""

    article = models.ForeignKey(Article, on_delete=models.CASCADE, related_name="references")
    provision = models.ForeignKey(
        Provision, on_delete=models.CASCADE, null=True, blank=True, related_name="references"
    )
    footnote = models.ForeignKey(
        Footnote, on_delete=models.CASCADE, null=True, blank=True, related_name="references"
    )
    raw = models.CharField(_("zoals geschreven"), max_length=100)
    target_key = models.CharField(_("doel"), max_length=30)
    target_article = models.ForeignKey(
        Article, on_delete=models.SET_NULL, null=True, blank=True, related_name="referred_by"
    )
    target_provision = models.ForeignKey(
        Provision, on_delete=models.SET_NULL, null=True, blank=True, related_name="referred_by"
    )
    order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["article", "order"]
        verbose_name = _("verwijzing")
        verbose_name_plural = _("verwijzingen")

    def __str__(self) -> str:
        return f"{self.raw} → {self.target_key}"


class ArticleSummary(models.Model):
    """Our own plain-language summary: never official text, always labelled as a summary."""

    article = models.OneToOneField(Article, on_delete=models.CASCADE, related_name="summary")
    text_nl = models.TextField(_("samenvatting (nl)"))
    text_en = models.TextField(_("samenvatting (en)"), blank=True)

    class Meta:
        verbose_name = _("samenvatting")
        verbose_name_plural = _("samenvattingen")

    def __str__(self) -> str:
        return str(self.article)

    @property
    def text(self) -> str:
        return self.text_en if get_language() == "en" and self.text_en else self.text_nl


# --- Decision trees ------------------------------------------------------------------------
# Trees are written as YAML files (laws/trees/<slug>.yaml, the source of truth) and loaded by
# ``laws.tree_loading.load_trees``; these rows are a read-only copy for the pages and the wizard.
# ``Tree.version`` is the content hash of the parsed file (``laws.trees.content_hash``).


class Phase(models.TextChoices):
    AUCTION = "auction", _("bieding")
    PLAY = "play", pgettext_lazy("phase", "spel")


class NodeKind(models.TextChoices):
    QUESTION = "question", _("vraag")
    OUTCOME = "outcome", _("uitkomst")


class Chooser(models.TextChoices):
    NONE = "none", _("niemand")
    DECLARER = "declarer", _("leider")
    DEFENDERS = "defenders", _("tegenspelers")
    NOS = "nos", _("niet-overtredende partij")
    LHO = "lho", _("linkertegenstander")
    OFFENDER = "offender", _("overtreder")
    DIRECTOR = "director", _("wedstrijdleider")


def _localised(obj: models.Model, field: str) -> str:
    """``field_en`` when the active language is English and it is filled, else ``field_nl``."""
    dutch = getattr(obj, f"{field}_nl")
    if (get_language() or "nl").startswith("en"):
        return getattr(obj, f"{field}_en") or dutch
    return dutch


class Tree(models.Model):
    slug = models.SlugField(_("sleutel"), max_length=80, unique=True)
    edition = models.ForeignKey(
        Edition, on_delete=models.PROTECT, related_name="trees", verbose_name=_("editie")
    )
    phase = models.CharField(_("fase"), max_length=10, choices=Phase.choices)
    title_nl = models.CharField(_("titel (nl)"), max_length=200)
    title_en = models.CharField(_("titel (en)"), max_length=200, blank=True)
    description_nl = models.TextField(_("beschrijving (nl)"), blank=True)
    description_en = models.TextField(_("beschrijving (en)"), blank=True)
    notes = models.TextField(_("notities"), blank=True)
    start_key = models.CharField(_("beginvraag"), max_length=80)
    version = models.CharField(_("versie"), max_length=64)
    source_path = models.CharField(_("bestand"), max_length=300)
    loaded_at = models.DateTimeField(_("geladen op"))

    class Meta:
        ordering = ["phase", "edition__code", "title_nl"]
        verbose_name = _("beslisboom")
        verbose_name_plural = _("beslisbomen")

    def __str__(self) -> str:
        return f"{self.title_nl} ({self.edition.code})"

    @property
    def title(self) -> str:
        return _localised(self, "title")

    @property
    def description(self) -> str:
        return _localised(self, "description")


class Node(models.Model):
    tree = models.ForeignKey(Tree, on_delete=models.CASCADE, related_name="nodes")
    key = models.CharField(_("sleutel"), max_length=80)
    kind = models.CharField(_("soort"), max_length=10, choices=NodeKind.choices)
    # The question, or the title of an outcome.
    text_nl = models.TextField(_("tekst (nl)"))
    text_en = models.TextField(_("tekst (en)"), blank=True)
    help_nl = models.TextField(_("toelichting (nl)"), blank=True)
    help_en = models.TextField(_("toelichting (en)"), blank=True)
    # Outcome fields (empty for questions).
    ruling_nl = models.TextField(_("beslissing (nl)"), blank=True)
    ruling_en = models.TextField(_("beslissing (en)"), blank=True)
    options_nl = models.TextField(_("keuzes (nl)"), blank=True)
    options_en = models.TextField(_("keuzes (en)"), blank=True)
    chooser = models.CharField(
        _("wie kiest"), max_length=10, choices=Chooser.choices, default=Chooser.NONE
    )
    announce_nl = models.TextField(_("aankondiging (nl)"), blank=True)
    announce_en = models.TextField(_("aankondiging (en)"), blank=True)
    adjusted_score = models.BooleanField(_("arbitrale score overwegen"), default=False)
    unauthorised_information = models.BooleanField(_("ongeoorloofde informatie"), default=False)
    see_tree = models.CharField(_("verder met beslisboom"), max_length=80, blank=True)
    order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["tree", "order"]
        constraints = [models.UniqueConstraint(fields=["tree", "key"], name="node_unique_key")]
        verbose_name = _("knoop")
        verbose_name_plural = _("knopen")

    def __str__(self) -> str:
        return f"{self.tree.slug}:{self.key}"

    @property
    def is_outcome(self) -> bool:
        return self.kind == NodeKind.OUTCOME

    @property
    def text(self) -> str:
        return _localised(self, "text")

    @property
    def help(self) -> str:
        return _localised(self, "help")

    @property
    def ruling(self) -> str:
        return _localised(self, "ruling")

    @property
    def options(self) -> str:
        return _localised(self, "options")

    @property
    def announce(self) -> str:
        return _localised(self, "announce")


class Choice(models.Model):
    node = models.ForeignKey(Node, on_delete=models.CASCADE, related_name="choices")
    key = models.CharField(_("sleutel"), max_length=80)
    label_nl = models.CharField(_("antwoord (nl)"), max_length=300)
    label_en = models.CharField(_("antwoord (en)"), max_length=300, blank=True)
    target = models.ForeignKey(Node, on_delete=models.CASCADE, related_name="incoming")
    order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["node", "order"]
        constraints = [models.UniqueConstraint(fields=["node", "key"], name="choice_unique_key")]
        verbose_name = _("antwoord")
        verbose_name_plural = _("antwoorden")

    def __str__(self) -> str:
        return f"{self.node}:{self.key}"

    @property
    def label(self) -> str:
        return _localised(self, "label")


class Citation(models.Model):
    """A provision a node cites. ``article``/``provision`` are resolved when the tree is loaded
    (and again after a law import): ``provision`` when the edition has that exact provision,
    else ``article`` only (a whole-article citation, or an edition without official text)."""

    node = models.ForeignKey(Node, on_delete=models.CASCADE, related_name="citations")
    key = models.CharField(_("sleutel"), max_length=30)
    order = models.PositiveIntegerField(default=0)
    article = models.ForeignKey(
        Article, on_delete=models.SET_NULL, null=True, blank=True, related_name="tree_citations"
    )
    provision = models.ForeignKey(
        Provision,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tree_citations",
    )

    class Meta:
        ordering = ["node", "order"]
        indexes = [models.Index(fields=["key"], name="citation_key")]
        verbose_name = _("citaat")
        verbose_name_plural = _("citaten")

    def __str__(self) -> str:
        return self.key
