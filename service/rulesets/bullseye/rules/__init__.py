"""The rules of Bullseye v1.0, pure: no HTTP, no Redis, no I/O.

Randomness always comes in as a parameter (:class:`service.kernel.dice.RandomSource`),
so every rule can be tested with a seeded generator.
"""
