"""The HTTP platform every ruleset shares, by capability: ``shell`` (the edge), ``odds``,
``receipts`` and ``contract`` (problems, bodies, the published promises), each layer
importing only the layers below it."""
