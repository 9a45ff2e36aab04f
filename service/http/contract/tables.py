"""What every ruleset's ``GET …/tables/{name}`` shares: the ``name`` parameter and the 404."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from litestar.exceptions import NotFoundException
from litestar.openapi.spec import Example
from litestar.params import Parameter

__all__ = ["table_name", "table_named"]

T = TypeVar("T")


def table_name(example: str) -> Any:
    """The ``name`` path parameter, for ``Annotated[str, table_name("…")]``."""
    return Parameter(
        max_length=32, description="The table's name.", examples=[Example(value=example)]
    )


def table_named(tables: Mapping[str, T], name: str, what: str) -> T:
    """``tables[name]``, or a 404 saying there is no ``what`` of that name."""
    try:
        return tables[name]
    except KeyError:
        raise NotFoundException(detail=f"No {what} named '{name}'.") from None
