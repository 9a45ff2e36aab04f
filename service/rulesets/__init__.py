"""The games, one folder each (``rules/`` pure, ``api/`` its routes). Deliberately empty:
importing a game's rules imports nothing else; the registry is :mod:`service.hosted`."""
