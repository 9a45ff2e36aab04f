"""The rules of Bullseye v1.0, pure: no HTTP, no Redis, no I/O.

Randomness always comes in as a parameter (see :class:`service.bullseye.dice.RandomSource`),
so every rule can be tested with a seeded generator.
"""
