"""The travelogue's routes under ``/v1/travelogue``."""
