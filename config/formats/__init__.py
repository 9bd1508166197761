"""Date and number formats per language (``FORMAT_MODULE_PATH``), where Django's own differ
from what a Dutch bridge club writes."""
