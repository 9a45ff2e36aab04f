"""Initiative ("Initiative", "Ties/No Rolls", "Optional Initiative Bonus"): an Acumen roll
each, highest first, ties broken by a fixed chain of keys (D15, D16)."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from msgspec import Meta

from service.kernel.bounds import Seed
from service.kernel.dice import RandomSource, with_seed
from service.kernel.errors import RulesError
from service.kernel.receipts import Receipt, ReceiptWanted
from service.kernel.summary import Summary
from service.kernel.values import Value
from service.rulesets.opend6.rules.codes import CodeText, DieCode, code_of
from service.rulesets.opend6.rules.rolled_code import repointed
from service.rulesets.opend6.rules.rolls import RollResult, resolve_roll
from service.rulesets.opend6.rules.spec import (
    MAX_POINTS,
    AttributeBase,
    CharacterPoints,
    CriticalFailure,
    Faces,
    OpenD6Label,
    RollKind,
    RollRequest,
)
from service.rulesets.opend6.rules.summary import initiative_summary

__all__ = [
    "TIE_KEYS",
    "DecidedBy",
    "InitiativeEntrant",
    "InitiativePlace",
    "InitiativeRequest",
    "InitiativeResult",
    "initiative_bonus_pips",
    "roll_initiative",
]

ParticipantId = Annotated[
    str,
    Meta(
        pattern=r"^[a-z0-9_-]{1,40}$",
        description="An id: a-z, 0-9, '_' or '-'.",
        examples=["ana"],
    ),
]
# The order's keys: the total, then "Ties/No Rolls", each highest first (D16).
TieKey = Literal["total", "goes_first", "acumen", "search", "agility", "dodge", "edge"]
TIE_KEYS: tuple[TieKey, ...] = get_args(TieKey)
# What put a place ahead of the next: a key, or nothing but the listing order.
DecidedBy = Literal[TieKey, "listing"]


class InitiativeEntrant(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One participant: its Acumen rolls; the rest breaks ties. ``total`` given: no roll."""

    id: ParticipantId
    name: OpenD6Label
    acumen: CodeText
    agility: CodeText
    search: CodeText | None = None
    dodge: CodeText | None = None
    goes_first: Annotated[int, Meta(ge=0, le=10)] = 0
    edge: Annotated[int, Meta(ge=0, le=10)] = 0
    bonus_ranks: Annotated[int, Meta(ge=0, le=60)] = 0
    character_points: Annotated[int, Meta(ge=0, le=MAX_POINTS)] = 0
    total: Annotated[int, Meta(ge=-100, le=1000)] | None = None
    faces: Faces | None = None


class InitiativeRequest(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Everyone's initiative for a round (or a scene)."""

    participants: Annotated[tuple[InitiativeEntrant, ...], Meta(min_length=1, max_length=30)]
    optional_initiative_bonus: bool = False
    critical_failure: CriticalFailure = CriticalFailure.CANCEL_HIGHEST
    seed: Seed | None = None
    receipt: ReceiptWanted = False


class InitiativePlace(Value, frozen=True, kw_only=True):
    """A place in the order: the roll (none when the total was given), the total with any
    bonus, and the key that put it ahead of the next participant (``listing``: nothing
    did; the last place: null)."""

    participant: str
    roll: RollResult | None
    bonus_pips: int
    total: int
    decided_by: DecidedBy | None


class InitiativeResult(Value, frozen=True, kw_only=True):
    order: tuple[InitiativePlace, ...]
    summary: Summary
    receipt: Receipt = None


def initiative_bonus_pips(entrant: InitiativeEntrant) -> int:
    """ "Optional Initiative Bonus", as pips: ⌊adds/2⌋ dice of search over Acumen, ⌊Agility
    dice/4⌋ and ⌊ranks/6⌋ (D16: the sources add up, each floored)."""
    acumen = code_of(entrant.acumen)
    search = code_of(entrant.search) if entrant.search else acumen
    adds = search.minus(acumen) or DieCode(dice=0)
    return adds.dice // 2 + code_of(entrant.agility).dice // 4 + entrant.bonus_ranks // 6


def _keys(entrant: InitiativeEntrant, total: int) -> tuple[int, ...]:
    acumen = code_of(entrant.acumen).in_pips
    agility = code_of(entrant.agility).in_pips
    search = code_of(entrant.search).in_pips if entrant.search else acumen
    dodge = code_of(entrant.dodge).in_pips if entrant.dodge else agility
    return (total, entrant.goes_first, acumen, search, agility, dodge, entrant.edge)


def roll_initiative(
    request: InitiativeRequest, rng: RandomSource, roll_id: str
) -> InitiativeResult:
    """Roll each participant's Acumen (kind `initiative`: no multi-action penalty, no Fate
    Point, CP dice allowed, the Wild Die as on any roll, D15) and order them.

    Raises:
        RulesError: a roll refused (pointer under /participants/{index}).
    """
    source = with_seed(rng, request.seed)
    ids = [entrant.id for entrant in request.participants]
    if len(set(ids)) < len(ids):
        raise RulesError("opend6/duplicate-participant", "Participant ids must be unique.")
    placed = []
    for index, entrant in enumerate(request.participants):
        roll = None
        if entrant.total is None:
            spec = RollRequest(
                base=AttributeBase(code=entrant.acumen),
                kind=RollKind.INITIATIVE,
                character_points=CharacterPoints(before=entrant.character_points),
                critical_failure=request.critical_failure,
                faces=entrant.faces,
            )
            try:
                roll = resolve_roll(spec, source, f"{roll_id}-{index}")
            except RulesError as error:  # the roll's base is the entrant's Acumen
                at = f"/participants/{index}"
                raise repointed(error.under(at), {f"{at}/base": f"{at}/acumen"}) from None
        bonus = initiative_bonus_pips(entrant) if request.optional_initiative_bonus else 0
        rolled = entrant.total if roll is None else roll.total
        assert rolled is not None
        total = rolled + bonus
        placed.append((_keys(entrant, total), index, entrant, roll, bonus, total))
    # Highest keys first; then listing order: lexicographic, so a place won stays (D16).
    placed.sort(key=lambda item: (tuple(-key for key in item[0]), item[1]))
    order = []
    for position, (keys, _, entrant, roll, bonus, total) in enumerate(placed):
        decided_by: DecidedBy | None = None
        if position + 1 < len(placed):
            following = placed[position + 1][0]
            decided_by = next(
                (
                    name
                    for name, mine, theirs in zip(TIE_KEYS, keys, following, strict=True)
                    if mine != theirs
                ),
                "listing",
            )
        order.append(
            InitiativePlace(
                participant=entrant.id,
                roll=roll,
                bonus_pips=bonus,
                total=total,
                decided_by=decided_by,
            )
        )
    return InitiativeResult(order=tuple(order), summary=initiative_summary(tuple(order)))
