"""Leidraad's benchmark (``make bench``): see bench/README.md."""
