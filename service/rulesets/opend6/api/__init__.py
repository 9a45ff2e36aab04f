"""OpenD6 over HTTP: thin controllers under /v1/opend6."""
