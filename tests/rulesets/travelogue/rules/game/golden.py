"""The seeded server game of Part 3 (seed 7, the fixed policy) and its event log.

Regenerate the golden file after a deliberate rule change with
``.venv/bin/python -m tests.rulesets.travelogue.rules.game.golden``.
"""

from __future__ import annotations

import random
from pathlib import Path

import msgspec

from service.rulesets.travelogue.rules.game.engine import apply
from service.rulesets.travelogue.rules.game.model import GameStatus, WhoseDice
from service.rulesets.travelogue.rules.game.setup import new_game
from tests.rulesets.travelogue.rules.game.full_game import SHEETS
from tests.rulesets.travelogue.rules.game.play_helpers import as_action, view_of
from tests.support.travelogue_bot import FixedPolicy

__all__ = ["GOLDEN", "seeded_game_log"]

GOLDEN = Path(__file__).parent / "data" / "seeded_game_7.jsonl"


def seeded_game_log() -> list[bytes]:
    """Every event of the seed-7 game, one JSON line each: name and data."""
    applied = new_game(SHEETS, game_id="seven", name="Seed 7", dice_source=WhoseDice.SERVER, seed=7)
    game, events = applied.state, list(applied.events)
    policy = FixedPolicy()
    strong = random.Random()  # never drawn from: the game is seeded
    while game.status is GameStatus.ACTIVE:
        actor, body = policy.next(view_of(game))
        step = apply(game, actor, as_action(body), strong)
        game = step.state
        events.extend(step.events)
    return [msgspec.json.encode({"event": e.type, **e.data}) for e in events]


if __name__ == "__main__":
    GOLDEN.write_bytes(b"\n".join(seeded_game_log()) + b"\n")
    print(f"wrote {GOLDEN}")
