"""Exact odds without stalling a worker: the gate every odds answer passes, its cache, and
the pool of processes that computes the heavy ones."""
