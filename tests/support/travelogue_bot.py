"""Travelogue players that know only what the game's view offers (its `waiting_for`,
the middle, who runs, the departure's pools): the random bot the property and HTTP bot
tests drive, and Part 3's fixed policy for the seeded golden game.

Both read the game as JSON (the API's answer, or the engine's view turned into builtins)
and answer an action as JSON, so a test may play them over HTTP or on the pure engine.
"""

from __future__ import annotations

import random
from typing import Any

__all__ = ["RINGS", "FixedPolicy", "choose"]

RINGS = ("loved_ones", "friends", "possessions", "reputation")
STATS = ("avoid", "armor", "angel", "allies")

View = dict[str, Any]
ActionBody = dict[str, Any]


def _faces(view: View, rng: random.Random) -> dict[str, Any]:
    """The table's faces exactly as `dice_needed` asks, or none for the server's dice."""
    needed = view["waiting_for"]["dice_needed"]
    if needed is None:
        return {}
    if needed.get("die"):
        return {"faces": rng.randint(1, 6)}
    return {
        "faces": {
            "shooter": [rng.randint(1, 6) for _ in range(needed["shooter"])],
            "angel": [rng.randint(1, 6) for _ in range(needed["angel"])],
        }
    }


def _running(view: View) -> list[str]:
    return [p["id"] for p in view["players"] if p["bullseye"]["status"] == "running"]


def _others(view: View, player: str) -> list[str]:
    return [p["id"] for p in view["players"] if p["id"] != player]


def _split(points: int, eligible: list[str], rng: random.Random | None) -> list[dict[str, Any]]:
    """``points`` over ``eligible``: at random, or as evenly as possible (first seats first)."""
    shares = [0] * len(eligible)
    for i in range(points):
        shares[rng.randrange(len(eligible)) if rng else i % len(eligible)] += 1
    return [{"to": to, "points": n} for to, n in zip(eligible, shares, strict=True)]


def _allocations(view: View, rng: random.Random | None) -> list[dict[str, Any]]:
    allocations = []
    for pool in view["departure"]["pools"]:
        if pool["points"] and pool["eligible"]:
            for share in _split(pool["points"], list(pool["eligible"]), rng):
                allocations.append({"pool": pool["pool"], **share})
    return allocations


def _moves(view: View, player: str) -> list[ActionBody]:
    """Every legal neighbour move for ``player``: another running bullseye's flag to a
    different ring of a running bullseye, neither his own, not the lower move's flag."""
    running = set(_running(view))
    lower = (view.get("neighbours") or {}).get("lower") or {}
    undone = (lower.get("moved") or {}).get("flag") if view["step"] == "moves.upper" else None
    moves = []
    for flag in view["flags"]:
        source = flag["bullseye"]
        if flag["place"] != "ring" or source not in running or source == player:
            continue
        if flag["number"] == undone:
            continue
        for to in running - {player}:
            for ring in RINGS:
                if (to, ring) != (source, flag["ring"]):
                    moves.append(
                        {
                            "type": "move_flag",
                            "flag": flag["number"],
                            "to_bullseye": to,
                            "to_ring": ring,
                        }
                    )
    return moves


def choose(view: View, rng: random.Random, player: str) -> ActionBody | None:
    """A random legal action for ``player``, or None when the game awaits nothing of him."""
    offered = next(
        (w["actions"] for w in view["waiting_for"]["who"] if w["player"] == player), None
    )
    if not offered:
        return None
    kind = rng.choice(offered)
    match kind:
        case "take_flag":
            action: ActionBody = {"type": kind, "flag": rng.choice(view["middle"])}
            if rng.random() < 0.7:
                action["to"] = rng.choice(_others(view, player))
                if rng.random() < 0.3:
                    action["on_behalf_of"] = rng.choice(_running(view))
            return action
        case "hand_flag":
            return {"type": kind, "to": rng.choice(_others(view, player))}
        case "return_flag":
            return {"type": kind} if rng.random() < 0.2 else choose(view, rng, player)
        case "reject_flag":
            return (
                {"type": kind}
                if rng.random() < 0.2
                else {"type": "accept_flag", "ring": rng.choice(RINGS)}
            )
        case "accept_flag":
            return {"type": kind, "ring": rng.choice(RINGS)}
        case "roll_attention" | "roll_pools" | "roll_final":
            return {"type": kind, **_faces(view, rng)}
        case "buy_out":
            order = list(STATS)
            rng.shuffle(order)
            return {"type": kind, "tie_break": order} if rng.random() < 0.5 else {"type": kind}
        case "let_flip":
            return {"type": kind}
        case "close_scene":
            return (
                {"type": kind, "note": "The scene plays out."}
                if rng.random() < 0.3
                else {"type": kind}
            )
        case "vote":
            return {"type": kind, "go_for_broke": rng.random() < 0.6}
        case "distribute":
            return {"type": kind, "allocations": _allocations(view, rng)}
        case "move_flag":
            moves = _moves(view, player)
            return rng.choice(moves) if moves else {"type": "pass"}
        case _:
            return {"type": kind}


class FixedPolicy:
    """Part 3's fixed policy: running players reach in seat order with the lowest middle
    flag, handed to the next seat and accepted on `loved_ones`; the attention die is the
    first seat's; buy out if affordable; vote no; even splits; pass."""

    def __init__(self) -> None:
        self.reaches = 0

    def next(self, view: View) -> tuple[str, ActionBody]:
        """Who acts next, and how."""
        waiting = view["waiting_for"]
        step = waiting["step"]
        first = waiting["who"][0]["player"]
        if step == "play":
            running = _running(view)
            reacher = running[self.reaches % len(running)]
            self.reaches += 1
            seats = [p["id"] for p in view["players"]]
            to = seats[(seats.index(reacher) + 1) % len(seats)]
            return reacher, {"type": "take_flag", "flag": min(view["middle"]), "to": to}
        if step == "play.handed":
            return first, {"type": "accept_flag", "ring": "loved_ones"}
        if step == "attention.risk":
            affordable = view["attention"]["risk"]["affordable"]
            return first, {"type": "buy_out" if affordable else "let_flip"}
        if step == "departure.vote":
            return first, {"type": "vote", "go_for_broke": False}
        if step == "departure.distribute":
            return first, {"type": "distribute", "allocations": _allocations(view, None)}
        if step in ("moves.lower", "moves.upper"):
            return first, {"type": "pass"}
        kind = waiting["who"][0]["actions"][0]
        return first, {"type": kind}
