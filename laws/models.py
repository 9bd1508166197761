"""Law text: editions, articles, provisions, footnotes, cross-references and our summaries.

Provisions carry a canonical key the way directors cite them: the article number, then the
section letter, the item number and the sub-item in parentheses (``62D2``, ``43B2(b)``,
``50D2(a)``). Lettered items directly under an article, as in the 1963 code, become
``52(a)``. Official text only ever comes from an import; ``ArticleSummary`` holds our own
plain-language words and is always shown as a summary.

A provision keeps the two apart in its own fields: OUR words (``our_title_*``, ``our_summary_*``,
loaded from the shipped provision index, ``laws/data/provisions-2017/``) are never shown as
official text; the OFFICIAL text (``label``, ``heading``, ``text``, ``closing_text``) only ever
comes from an import, recorded as a ``LawImport`` (``imported_from``: which file, when, by whom).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from lib.i18n import pick


class Edition(models.Model):
    code = models.CharField(_("code"), max_length=10, unique=True)
    language = models.CharField(_("taal"), max_length=5, default="nl")
    title = models.CharField(_("titel"), max_length=200, blank=True)
    # The title in English where the edition's file gives one (the 2017 edition does).
    title_en = models.CharField(_("titel (en)"), max_length=200, blank=True)
    source_note = models.TextField(_("bron"), blank=True)
    source_note_en = models.TextField(_("bron (en)"), blank=True)
    is_current = models.BooleanField(_("geldende editie"), default=False)
    source_hash = models.CharField(max_length=64, blank=True, editable=False)
    imported_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["code"]
        verbose_name = _("editie")
        verbose_name_plural = _("edities")

    def __str__(self) -> str:
        return self.title or self.code

    @property
    def shown_title(self) -> str:
        """The title in the active language (Dutch when no English one is known), else the
        code."""
        return pick(self.title, self.title_en) or self.code

    @property
    def shown_source_note(self) -> str:
        return pick(self.source_note, self.source_note_en)


class LawImport(models.Model):
    """One import of law text into an edition: a shipped seed loaded by ``bootstrap``
    (``shipped``), or a file a club imported (``import_laws``, the administrator's page)."""

    edition = models.ForeignKey(Edition, on_delete=models.CASCADE, related_name="imports")
    file_name = models.CharField(_("bestand"), max_length=255)
    sha256 = models.CharField(_("SHA-256"), max_length=64)
    imported_at = models.DateTimeField(_("geïmporteerd op"))
    # Null for the command line and bootstrap.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("door"),
    )
    shipped = models.BooleanField(_("meegeleverd"), default=False)
    articles = models.PositiveIntegerField(_("artikelen"), default=0)
    provisions = models.PositiveIntegerField(_("bepalingen"), default=0)

    class Meta:
        ordering = ["edition", "-imported_at", "-pk"]
        verbose_name = _("wettekstimport")
        verbose_name_plural = _("wettekstimports")

    def __str__(self) -> str:
        return f"{self.edition.code}: {self.file_name}"


class Article(models.Model):
    edition = models.ForeignKey(Edition, on_delete=models.CASCADE, related_name="articles")
    number = models.CharField(_("nummer"), max_length=10)
    title = models.CharField(_("titel"), max_length=300, blank=True)
    title_en = models.CharField(_("titel (en)"), max_length=300, blank=True)
    group = models.CharField(_("hoofdstuk of deel"), max_length=300, blank=True)
    order = models.PositiveIntegerField(default=0)
    text = models.TextField(_("inleidende tekst"), blank=True)
    # Paragraphs after the last provision (after a list "a. ...; of / b. ..."), shown below it.
    closing_text = models.TextField(_("slottekst"), blank=True)
    # The import that wrote the official text above (title, text, closing text).
    imported_from = models.ForeignKey(
        LawImport, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["edition", "order"]
        constraints = [
            models.UniqueConstraint(fields=["edition", "number"], name="article_unique_number")
        ]
        verbose_name = _("artikel")
        verbose_name_plural = _("artikelen")

    def __str__(self) -> str:
        return f"{self.edition.code} art. {self.number}"

    @property
    def shown_title(self) -> str:
        """The title in the active language, Dutch when the edition has no English one."""
        return pick(self.title, self.title_en)


class Provision(models.Model):
    article = models.ForeignKey(Article, on_delete=models.CASCADE, related_name="provisions")
    parent = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="children"
    )
    key = models.CharField(_("sleutel"), max_length=30, db_index=True)
    order = models.PositiveIntegerField(default=0)
    # OUR words from the provision index: a short title or gist and, for the provisions trees
    # and cases cite, a summary. Never official text; always labelled as our own.
    our_title_nl = models.CharField(_("eigen titel (nl)"), max_length=300, blank=True)
    our_title_en = models.CharField(_("eigen titel (en)"), max_length=300, blank=True)
    our_summary_nl = models.TextField(_("samenvatting (nl)"), blank=True)
    our_summary_en = models.TextField(_("samenvatting (en)"), blank=True)
    # OFFICIAL text, only ever written by an import, and the import that wrote it.
    label = models.CharField(_("label"), max_length=10)
    heading = models.CharField(_("kop"), max_length=300, blank=True)
    text = models.TextField(_("tekst"), blank=True)
    closing_text = models.TextField(_("slottekst"), blank=True)
    imported_from = models.ForeignKey(
        LawImport, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["article", "order"]
        constraints = [
            models.UniqueConstraint(fields=["article", "key"], name="provision_unique_key")
        ]
        verbose_name = _("bepaling")
        verbose_name_plural = _("bepalingen")

    def __str__(self) -> str:
        return self.key

    @property
    def has_text(self) -> bool:
        """Whether this provision itself holds official text (its children aside)."""
        return bool(self.heading or self.text or self.closing_text)

    @property
    def our_title(self) -> str:
        return pick(self.our_title_nl, self.our_title_en)

    @property
    def our_summary(self) -> str:
        return pick(self.our_summary_nl, self.our_summary_en)


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
        return pick(self.text_nl, self.text_en)
