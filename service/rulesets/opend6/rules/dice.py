"""The dice of one roll: regular dice, the Wild Die's chain and Character Point chains,
from the table (``faces``) or rolled by the server ("Wild Die", "Character Points")."""

from __future__ import annotations

from service.kernel.dice import FaceRefusals, RandomSource
from service.kernel.errors import Concern, RulesError
from service.rulesets.opend6.rules.spec import MAX_CHAIN, Faces

__all__ = ["FACES", "chain_concerns", "roll_chain", "rolled_faces", "wild_die_only_faces"]

EXPLODES = 6
# How OpenD6 refuses the table's faces: the kernel's refusals under its namespace. The
# twist, an exploding chain's `wild-chain`, is OpenD6's own (chain_concerns).
FACES = FaceRefusals("opend6")


def roll_chain(rng: RandomSource) -> tuple[int, ...]:
    """An exploding die: each 6 counts and is tossed again, another face stops it; at most
    100 tosses (D7)."""
    tosses = [rng.randint(1, 6)]
    while tosses[-1] == EXPLODES and len(tosses) < MAX_CHAIN:
        tosses.append(rng.randint(1, 6))
    return tuple(tosses)


def chain_concerns(chain: tuple[int, ...], pointer: str) -> list[Concern]:
    """A chain from the table is 6s then one face that is not a 6."""
    concerns = []
    for index, face in enumerate(chain[:-1]):
        if face != EXPLODES:
            concerns.append(
                Concern(
                    code="opend6/wild-chain",
                    pointer=f"{pointer}/{index}",
                    detail=f"A {face} ends an exploding die's chain; only 6s are tossed again.",
                )
            )
    if chain[-1] == EXPLODES and len(chain) < MAX_CHAIN:
        concerns.append(
            FACES.faces_missing(pointer, "The chain ends in a 6: one more toss is missing.")
        )
    return concerns


def _count_concerns(name: str, given: int, wanted: int, pointer: str) -> list[Concern]:
    """`faces-missing` or `faces-extra` for ``given`` dice named ``name`` of ``wanted``."""
    return _listed(
        FACES.count(
            given,
            wanted,
            pointer,
            missing=lambda more: f"{more} more {name} needed ({wanted} in all).",
            extra=lambda over: f"{over} {name} too many (the roll has {wanted}).",
        )
    )


def _listed(concern: Concern | None) -> list[Concern]:
    return [] if concern is None else [concern]


def rolled_faces(
    regular: int,
    cp_before: int,
    cp_after: int,
    supplied: Faces | None,
    rng: RandomSource,
) -> Faces:
    """The faces of the roll: the table's, checked; else the server's. With the table's
    faces and Character Points spent after, a missing ``character_points_after`` is rolled
    by the server (the stateless "after": resend the answer's faces).

    Raises:
        RulesError: `faces-missing`, `faces-extra`, `wild-chain`, with pointers.
    """
    if supplied is None:
        return Faces(
            regular=tuple(rng.randint(1, 6) for _ in range(regular)),
            wild=roll_chain(rng),
            character_points=tuple(roll_chain(rng) for _ in range(cp_before)),
            character_points_after=tuple(roll_chain(rng) for _ in range(cp_after)) or None,
        )
    concerns = _count_concerns("regular dice", len(supplied.regular), regular, "/faces/regular")
    if supplied.wild is None:
        concerns.append(FACES.faces_missing("/faces/wild", "The Wild Die's chain is missing."))
    else:
        concerns.extend(chain_concerns(supplied.wild, "/faces/wild"))
    concerns.extend(
        _count_concerns(
            "Character Point dice",
            len(supplied.character_points),
            cp_before,
            "/faces/character_points",
        )
    )
    for index, chain in enumerate(supplied.character_points):
        concerns.extend(chain_concerns(chain, f"/faces/character_points/{index}"))
    after = supplied.character_points_after
    if after is not None:
        concerns.extend(
            _count_concerns(
                "Character Point dice spent after",
                len(after),
                cp_after,
                "/faces/character_points_after",
            )
        )
        for index, chain in enumerate(after):
            concerns.extend(chain_concerns(chain, f"/faces/character_points_after/{index}"))
    if concerns:
        raise RulesError.from_concerns(concerns)
    if after is None:
        after = tuple(roll_chain(rng) for _ in range(cp_after))
    return Faces(
        regular=supplied.regular,
        wild=supplied.wild,
        character_points=supplied.character_points,
        character_points_after=after or None,  # null: none yet, so resending can add them
    )


def wild_die_only_faces(supplied: Faces | None, rng: RandomSource) -> Faces:
    """ "Special Difficulties": a Wild-Die-Only roll is the Wild Die tossed once and never
    again, a 6 included; nothing else is rolled (D14). The table gives that one toss.

    Raises:
        RulesError: `faces-missing` (no toss), `faces-extra` (any other face), with
            pointers.
    """
    if supplied is None:
        return Faces(wild=(rng.randint(1, 6),))
    why = "A Wild-Die-Only roll is one toss of the Wild Die, never tossed again (D14)"
    wild = FACES.count(
        len(supplied.wild or ()),
        1,
        "/faces/wild",
        missing=lambda _: f"{why}: give that toss, `wild: [<face>]`.",
        extra=lambda over: f"{why}: {over} toss(es) too many.",
    )
    concerns = _listed(wild)
    for name, given in (
        ("regular", len(supplied.regular)),
        ("character_points", len(supplied.character_points)),
        ("character_points_after", len(supplied.character_points_after or ())),
    ):
        other = FACES.count(
            given,
            0,  # no other die is rolled, so none is ever missing
            f"/faces/{name}",
            missing=str,
            extra=lambda over: f"{why}: no other die is rolled, {over} too many.",
        )
        concerns += _listed(other)
    if concerns:
        raise RulesError.from_concerns(concerns)
    return Faces(wild=supplied.wild)
