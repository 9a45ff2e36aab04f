"""Quick Shot's routes under ``/v1/quick-shot``."""
