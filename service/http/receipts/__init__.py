"""Signed roll receipts: canonical JSON, the signing keys (configured or published through
Redis), signing in turns, and the routes that publish and verify."""
