"""The peer of ``make bench-instructions``: the Bullseye check as an idiomatic FastAPI +
pydantic v2 async app would serve it, so the service's cost per check has a same-run
yardstick besides the bare-Litestar baseline.

Request and answer are pydantic models with the service's bounds (``extra="forbid"``, as
the service refuses unknown fields); the handler is an ``async def`` returning the answer
model, which FastAPI validates and serializes. No request log, no metrics, no request id:
what a small FastAPI service has before it adds any of them.

The rules are the service's own pure helpers where they take plain numbers (impairment,
conditions, depletion amount, outcome, narrator, the label tables), so the two apps do the
same arithmetic; what the peer writes itself is the orchestration, over its own models,
for what the benchmark body uses: the §6.3 per-type cap, situational modifiers, §3.2.3
impairment, the die, §2.4.2 depletion. Restoration, Quick 10, bullseyes and the refusal
texts are left out (a peer that does less can only look cheaper).
"""

from __future__ import annotations

import random
import uuid
from typing import Annotated, Literal

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field

from service.rulesets.bullseye.rules.conditions import condition, impairment_of
from service.rulesets.bullseye.rules.depletion import depletion_amount
from service.rulesets.bullseye.rules.modifiers import half_toward_zero
from service.rulesets.bullseye.rules.narration import narrator_for, outcome_of
from service.rulesets.bullseye.rules.tables import TABLES, TableName

__all__ = ["app"]

Name = Annotated[str, Field(min_length=1, max_length=120)]
Magnitude = Annotated[int, Field(ge=-100, le=100)]
QualityType = Literal["core", "intrinsic", "experiential", "material", "negative"]
CAPPED = frozenset({"core", "intrinsic", "experiential", "material"})
SIDES = {"d20": (1, 20, 0), "2d10": (2, 10, 0), "3d6": (3, 6, 0), "4d6-4": (4, 6, -4)}


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Quality(Strict):
    name: Name
    type: QualityType
    magnitude: Magnitude


class Situational(Strict):
    label: Name
    magnitude: Magnitude


class DepletableScore(Strict):
    name: Name
    current: Annotated[int, Field(ge=-100000, le=100000)]
    maximum: Annotated[int, Field(ge=1, le=100000)]


class DepletionSide(Strict):
    threat: Annotated[int, Field(ge=-20, le=20)] = 0
    depletion_modifier: Annotated[int, Field(ge=-20, le=20)] = 0


class DepletionAtIssue(Strict):
    actor: DepletionSide = DepletionSide()
    opposition: DepletionSide = DepletionSide()
    affects: Annotated[list[Name], Field(max_length=2)] = []


class SuppliedRoll(Strict):
    faces: Annotated[list[Annotated[int, Field(ge=1, le=20)]], Field(min_length=1, max_length=4)]


class CheckRequest(Strict):
    target: Annotated[int, Field(ge=-100, le=200)]
    qualities: Annotated[list[Quality], Field(max_length=24)] = []
    situational: Annotated[list[Situational], Field(max_length=16)] = []
    depletable: Annotated[list[DepletableScore], Field(max_length=2)] = []
    depletion: DepletionAtIssue | None = None
    dice: Literal["d20", "2d10", "3d6", "4d6-4"] = "d20"
    roll: SuppliedRoll | None = None
    seed: Annotated[int, Field(ge=0, le=2**53 - 1)] | None = None
    strict: bool = False


class ModifierLine(BaseModel):
    source: Literal["quality", "situational", "impairment"]
    name: str
    type: QualityType | None
    magnitude: int
    applied: int
    note: str | None = None


class DepletableAfter(BaseModel):
    name: str
    current: int
    maximum: int
    impairment: int
    state: str


class DepletionResult(BaseModel):
    loser: Literal["actor", "opposition", "none"]
    amount: int
    after: list[DepletableAfter]


class CheckResult(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    id: str
    dice: str
    faces: list[int]
    die_result: int
    quick10: bool = False
    bullseye: bool = False
    modifiers: list[ModifierLine]
    total_modifier: int
    yield_: int = Field(alias="yield")
    target: int
    spread: int
    outcome: Literal["success", "failure", "stalemate"]
    yield_label: str
    target_label: str
    spread_label: str
    narrator: Literal["player", "gm"]
    depletion: DepletionResult | None
    warnings: list[dict[str, str]] = []
    restoration: None = None
    odds: None = None  # the service's with_odds and receipt, not asked by the bench's body
    receipt: None = None


_dice = random.SystemRandom()
app = FastAPI(title="Bullseye check, FastAPI peer")


def _quality_lines(qualities: list[Quality]) -> list[ModifierLine]:
    """§6.3: per capped type the largest in full, a second at half, no more."""
    ranks: dict[int, int] = {}
    by_type: dict[str, list[int]] = {}
    for index, quality in enumerate(qualities):
        if quality.type in CAPPED:
            by_type.setdefault(quality.type, []).append(index)
    for indices in by_type.values():
        ordered = sorted(indices, key=lambda i: -abs(qualities[i].magnitude))
        ranks.update((index, rank) for rank, index in enumerate(ordered))
    lines = []
    for index, quality in enumerate(qualities):
        rank = ranks.get(index, 0)
        applied, note = quality.magnitude, None
        if rank == 1:
            applied = half_toward_zero(quality.magnitude)
            note = f"second {quality.type} quality: half its magnitude, rounded toward zero (§6.3)"
        elif rank >= 2:
            applied, note = 0, f"{quality.type} quality beyond the second: not applied (§6.3)"
        lines.append(
            ModifierLine(
                source="quality",
                name=quality.name,
                type=quality.type,
                magnitude=quality.magnitude,
                applied=applied,
                note=note,
            )
        )
    return lines


def _impairment_lines(scores: list[DepletableScore]) -> list[ModifierLine]:
    """§3.2.3, the greatest impairment only (§7.6)."""
    impaired = [
        (score.name, value)
        for score in scores
        if (value := impairment_of(score.maximum, score.current))
    ]
    if not impaired:
        return []
    greatest = min(range(len(impaired)), key=lambda i: impaired[i][1])
    return [
        ModifierLine(
            source="impairment",
            name=name,
            type=None,
            magnitude=value,
            applied=value if index == greatest else 0,
            note=None if index == greatest else "only the greatest impairment applies (§7.6)",
        )
        for index, (name, value) in enumerate(impaired)
    ]


def _depletion(request: CheckRequest, spread: int) -> DepletionResult | None:
    at_issue = request.depletion
    if at_issue is None:
        return None
    if spread > 0:
        loser, amount = (
            "opposition",
            depletion_amount(spread, at_issue.actor.threat, at_issue.opposition.depletion_modifier),
        )
    elif spread < 0:
        loser, amount = (
            "actor",
            depletion_amount(spread, at_issue.opposition.threat, at_issue.actor.depletion_modifier),
        )
    else:
        loser, amount = "none", 0
    affected = {name.casefold() for name in at_issue.affects}
    lost = amount if loser == "actor" else 0
    after = []
    for score in request.depletable:
        if affected and score.name.casefold() not in affected:
            continue
        if not affected and len(request.depletable) != 1:
            continue
        now = condition(score.maximum, score.current - lost)
        after.append(
            DepletableAfter(
                name=score.name,
                current=score.current - lost,
                maximum=score.maximum,
                impairment=now.impairment,
                state=now.state,
            )
        )
    return DepletionResult(loser=loser, amount=amount, after=after)


@app.post("/v1/checks")
async def resolve_check(request: CheckRequest) -> CheckResult:
    """Resolve one check (§2)."""
    lines = [
        *_quality_lines(request.qualities),
        *(
            ModifierLine(
                source="situational",
                name=s.label,
                type=None,
                magnitude=s.magnitude,
                applied=s.magnitude,
            )
            for s in request.situational
        ),
        *_impairment_lines(request.depletable),
    ]
    count, sides, offset = SIDES[request.dice]
    if request.roll is not None:
        faces = list(request.roll.faces)
    else:
        rng = _dice if request.seed is None else random.Random(request.seed)
        faces = [rng.randint(1, sides) for _ in range(count)]
    die_result = sum(faces) + offset
    total = sum(line.applied for line in lines)
    spread = die_result + total - request.target
    outcome = outcome_of(spread)
    return CheckResult(
        id=uuid.uuid4().hex,
        dice=request.dice,
        faces=faces,
        die_result=die_result,
        modifiers=lines,
        total_modifier=total,
        yield_=die_result + total,
        target=request.target,
        spread=spread,
        outcome=outcome,
        yield_label=TABLES[TableName.YIELD].label_for(die_result + total),
        target_label=TABLES[TableName.TARGET].label_for(request.target),
        spread_label=TABLES[TableName.SPREAD].label_for(spread),
        narrator=narrator_for(outcome),
        depletion=_depletion(request, spread),
    )
