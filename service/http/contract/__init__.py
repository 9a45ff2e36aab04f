"""What the service promises and refuses: problems and their catalog, strict bodies, the
OpenAPI contract's extras, preconditions and the registry a ruleset hands the host.

The lowest layer of ``service.http``: it imports nothing of the shell, odds or receipts.
"""
