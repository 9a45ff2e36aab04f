"""Self/Conflict over HTTP: thin controllers, problem texts, examples, the registration."""
