"""Self/Conflict: the untitled 2d6 talent system (JurviZ 2004), as docs/self-conflict.md
applies it. ``rules/`` is pure; ``api/`` mounts it at ``/v1/self-conflict``."""
