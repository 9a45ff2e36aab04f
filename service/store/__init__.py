"""Conflict state in Redis. For now: the one client per process and its health."""
