"""The Bullseye rules service: an HTTP microservice that runs Bullseye v1.0."""
