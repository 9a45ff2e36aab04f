"""The registry: every ruleset the service hosts, in the order they are mounted and listed.

A ruleset is a folder of :mod:`service.rulesets` (``rules/`` pure, ``api/`` its routes)
that hands the host one :class:`service.http.contract.registry.Ruleset`; adding a game is adding it
here. The registry is not ``service/rulesets/__init__.py``: importing a ruleset's pure
rules (as an odds pool process does) must not import every game's routes, Litestar along.
"""

from __future__ import annotations

from service.rulesets.bullseye.api.ruleset import BULLSEYE
from service.rulesets.opend6.api.ruleset import OPEND6
from service.rulesets.quick_shot.api.ruleset import QUICK_SHOT
from service.rulesets.self_conflict.api.ruleset import SELF_CONFLICT
from service.rulesets.travelogue.api.ruleset import TRAVELOGUE

__all__ = ["RULESETS"]

RULESETS = (BULLSEYE, OPEND6, SELF_CONFLICT, TRAVELOGUE, QUICK_SHOT)
