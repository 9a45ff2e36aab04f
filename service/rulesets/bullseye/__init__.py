"""Bullseye v1.0: the service's first ruleset (``rules`` pure, ``api`` its routes)."""
