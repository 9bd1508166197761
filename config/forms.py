from django.forms.renderers import TemplatesSetting


class LeidraadFormRenderer(TemplatesSetting):
    """Every ``{{ form }}`` renders through crispy-forms with one error summary, so errors look
    the same on every page."""

    form_template_name = "forms/leidraad.html"
