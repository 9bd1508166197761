"""Decision trees as loaded from their files, and the frozen snapshots rulings were made on."""

from collections.abc import Iterable

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from laws.models import Article, Edition, Provision
from lib.i18n import active_language, pick
from lib.text import with_edition

# --- Decision trees ------------------------------------------------------------------------
# Trees are written as YAML files (trees/files/<slug>.yaml, the source of truth) and loaded by
# ``trees.loading.load_trees``; these rows are a read-only copy for the pages and the wizard.
# ``Tree.version`` is the content hash of the parsed file (``trees.spec.content_hash``).


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
    return pick(getattr(obj, f"{field}_nl"), getattr(obj, f"{field}_en"))


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
    # The tree file's finder words and synonyms, one per line (trees/finder.py searches them).
    finder_nl = models.TextField(_("zoekwoorden (nl)"), blank=True)
    finder_en = models.TextField(_("zoekwoorden (en)"), blank=True)
    synonyms_nl = models.TextField(_("synoniemen (nl)"), blank=True)
    synonyms_en = models.TextField(_("synoniemen (en)"), blank=True)
    start_key = models.CharField(_("beginvraag"), max_length=80)
    version = models.CharField(_("versie"), max_length=64)
    source_path = models.CharField(_("bestand"), max_length=300)
    loaded_at = models.DateTimeField(_("geladen op"))

    class Meta:
        ordering = ["phase", "edition__code", "title_nl"]
        verbose_name = _("beslisboom")
        verbose_name_plural = _("beslisbomen")

    def __str__(self) -> str:
        return with_edition(self.title_nl, self.edition.code)

    @property
    def title(self) -> str:
        return _localised(self, "title")

    @property
    def description(self) -> str:
        return _localised(self, "description")


def localised_titles(slugs: Iterable[str] | None = None) -> dict[str, str]:
    """The loaded trees' titles in the active language (Dutch where no English one is
    written), by slug; only ``slugs`` when given. Rulings record the Dutch title they were made
    with; pages show this one while the tree is loaded."""
    field = "title_en" if active_language() == "en" else "title_nl"
    trees = Tree.objects.all() if slugs is None else Tree.objects.filter(slug__in=set(slugs))
    return {
        slug: title or dutch for slug, title, dutch in trees.values_list("slug", field, "title_nl")
    }


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
    # Every option when a side chooses (trees.options.options_json), empty for most outcomes.
    option_list = models.JSONField(_("keuzelijst"), default=list, blank=True)
    # The question a ruling deferred at this outcome resumes at (OutcomeSpec.resume_at).
    resume_at = models.CharField(_("hervatten bij"), max_length=80, blank=True)
    # A question a player poll answers (NodeSpec.poll, issue 33).
    poll = models.BooleanField(_("peiling"), default=False)
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
    # The provision keys this answer establishes (ChoiceSpec.cites), in the file's order.
    cites = models.JSONField(_("wetsartikelen"), default=list, blank=True)
    # Who the offender is by this answer (ChoiceSpec.offender: trees.spec.OFFENDER_ROLES), or "".
    offender = models.CharField(_("overtreder"), max_length=20, blank=True, default="")
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


class TreeSnapshot(models.Model):
    """A decision tree frozen as a ruling saw it: nodes, choices, outcomes and the law text shown
    for every citation (official text where imported, otherwise our summary). Content-addressed:
    ``digest`` is the SHA-256 of the canonical JSON of ``data``, so a row never changes, many
    rulings share it, and a loaded tree can change later without touching a past ruling (see
    ``rulings/wizard.py``)."""

    digest = models.CharField(max_length=64, primary_key=True)
    slug = models.CharField(_("beslisboom"), max_length=80)
    version = models.CharField(_("versie beslisboom"), max_length=64)
    edition_code = models.CharField(_("editie"), max_length=10)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["slug", "version"])]
        verbose_name = _("momentopname beslisboom")
        verbose_name_plural = _("momentopnamen beslisbomen")

    def __str__(self) -> str:
        return f"{self.slug} {self.version[:12]}"
