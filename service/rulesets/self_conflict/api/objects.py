"""``/v1/self-conflict/objects/validate``: an object checked against "Creating Objects"."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, post
from litestar.params import Body

from service.http.contract.body import StrictJson
from service.http.contract.problems import problem_responses
from service.rulesets.self_conflict.api.examples import OBJECT_EXAMPLES
from service.rulesets.self_conflict.rules.objects import (
    SelfConflictObjectReport,
    SelfConflictObjectValidation,
    validate_object,
)

__all__ = ["SelfConflictObjectController"]

_VALIDATE_DESCRIPTION = """\
Checks an object — a person, a robot, a ship, an army, a nation, a house — against the
seed's "Creating Objects" steps and reports **every** violation and warning at once, each
with a `code`, a JSON `pointer` into this request and a sentence. A sheet that breaks the
rules is still a **200** with `valid: false`; only a malformed body is a 400. The schema's
ranges are wide on purpose (levels −100…100), so every break is reported together.

**Violations** (steps 1–5 are required, status defaulting to Good, D10): `blank-name`
(the object's, or a talent's), `concept-missing`, `story-too-short` (fewer than 3
sentences, the seed's "a few", D9; a sentence holds a letter and ends at a run of
`.!?…` and whitespace, or the end), `talents-missing`, `duplicate-talent-name` (trimmed,
case-folded; at the later one's `name`), `talent-level-out-of-scale` (outside 0–6),
`signs-missing`, `status-out-of-scale` (outside 0–6); for `sentient: true` objects only
— the field is required so no sheet skips the question (D11) — `goal-missing` and
`objectives-missing`; and `basic-talent-missing` when `basic_talents` is sent and no
basic (or unmarked) talent carries one of them.

**Warnings** — the seed's guidance, never a violation: there is no strict mode, since the
seed gives the GM the power and the responsibility (D15):
`rare-levels-common` (2 or more talents at 1 or 6, more than a quarter of those rated
1–6) and `many-level-six` (3 or more at 6) — thresholds the service sets, the seed gives
none (D12); `talent-label-mismatch` (a name starting with a scale label other than its
level's); `gained-talent-terse` (a one-word gained talent: the seed prefers sentences);
`basic-talent-unlisted` (marked basic, not in `basic_talents`); `status-unexplained`
(below Good with no note of its cause: status has no formula, the GM turns it into
Conflict modifiers, D8); `goal-on-non-sentient` (a goal or objectives on a non-sentient
object).

The Basic/Gained split is optional (`kind` null, D13), and `basic_talents` — the GM's set
for this object's type (`GET …/basic-talents` has the humanoid one) — is checked only when
sent. `talents` answers how each talent is written (D14: `"{label} {name}({level})"`,
`dangerous`/4 → `Fairly dangerous(4)`; a name already starting with a label, any case,
longest match, stays as it is: `very good with horses(5)`); `status` the status's label.
`karma` (≥ 0, default 0) is the object's balance, which the client keeps (D1).
"""


class SelfConflictObjectController(Controller):
    """Object validation, stateless."""

    path = "/objects"
    tags = ["self-conflict"]

    @post(
        "/validate",
        operation_id="selfConflictValidateObject",
        summary="Validate an object",
        description=_VALIDATE_DESCRIPTION,
        dto=StrictJson[SelfConflictObjectValidation],
        return_dto=None,
        status_code=200,
        sync_to_thread=False,
        responses=problem_responses(400, 413, 415),
    )
    def validate(
        self, data: Annotated[SelfConflictObjectValidation, Body(examples=OBJECT_EXAMPLES)]
    ) -> SelfConflictObjectReport:
        """Every violation and warning, and how each talent is written."""
        return validate_object(data)
