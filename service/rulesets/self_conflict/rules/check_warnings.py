"""The guidance a check (and its odds) goes ahead despite (D4, D14): its own module, so the
odds' answer and the check's can both carry it."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from msgspec import Meta

from service.kernel.values import Value

__all__ = ["SelfConflictCheckWarning", "SelfConflictCheckWarningCode"]


class SelfConflictCheckWarningCode(StrEnum):
    """Guidance the check was made despite (D4, D14)."""

    CONFLICT_MODIFIER_LARGE = "conflict-modifier-large"
    TALENT_LABEL_MISMATCH = "talent-label-mismatch"


class SelfConflictCheckWarning(Value, frozen=True, kw_only=True):
    """Guidance the check went ahead despite."""

    code: SelfConflictCheckWarningCode
    detail: Annotated[str, Meta(max_length=300)]
