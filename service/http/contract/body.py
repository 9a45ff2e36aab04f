"""Strict JSON bodies: decoded straight from bytes into a Struct, exact types, JSON only.

Litestar's default path decodes JSON to builtins and then converts with ``strict=False``,
which accepts ``"5"`` for an integer and loses the location of unknown fields. This DTO
decodes with a ``msgspec`` decoder built once per type, so errors carry exact JSON
pointers, explained in :mod:`service.http.contract.validation` when a body breaks its schema, and
refuses non-JSON content types.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import msgspec
from litestar.dto import AbstractDTO, DTOConfig
from litestar.typing import FieldDefinition

from service.compat.litestar import dto_class_state
from service.http.contract.errors import UnreadableBodyError, UnsupportedMediaType
from service.http.contract.validation import InvalidBodyError, explain

if TYPE_CHECKING:
    from litestar.dto.data_structures import DTOFieldDefinition
    from litestar.openapi.spec import Reference, Schema

    from service.compat.litestar import SchemaCreator

__all__ = ["StrictJson"]

T = TypeVar("T")


def is_json(content_type: str | None) -> bool:
    """``application/json`` or any ``application/*+json``, parameters ignored."""
    if content_type == "application/json":  # as nearly every client sends it
        return True
    if not content_type:
        return False
    media_type = content_type.split(";", 1)[0].strip().lower()
    return media_type == "application/json" or (
        media_type.startswith("application/") and media_type.endswith("+json")
    )


class StrictJson(AbstractDTO[T], Generic[T]):
    """Use as ``dto=StrictJson[Model], return_dto=None`` on a handler taking ``data: Model``."""

    _decoder: ClassVar[msgspec.json.Decoder[Any]]

    @classmethod
    def of_union(cls, annotation: Any, name: str) -> type[StrictJson[Any]]:
        """The DTO for a tagged union of Structs (``A | B``, maybe ``Annotated``): Litestar's
        ``DTO[...]`` refuses unions, msgspec decodes them by their tag all the same."""
        attributes = {
            "config": DTOConfig(),
            **dto_class_state(),
            "model_type": annotation,
        }
        return type(f"StrictJson[{name}]", (cls,), attributes)

    @classmethod
    def generate_field_definitions(
        cls, model_type: type[Any]
    ) -> Generator[DTOFieldDefinition, None, None]:
        """Unused: the model is decoded as it is, not through a transfer model."""
        yield from ()

    @classmethod
    def create_for_field_definition(
        cls, field_definition: FieldDefinition, handler_id: str, backend_cls: Any = None
    ) -> None:
        """Build the decoder once, when the handler is registered."""
        cls._decoder = msgspec.json.Decoder(cls.model_type)

    @classmethod
    def create_openapi_schema(
        cls, field_definition: FieldDefinition, handler_id: str, schema_creator: SchemaCreator
    ) -> Reference | Schema:
        """The model's own schema."""
        return schema_creator.for_field_definition(FieldDefinition.from_annotation(cls.model_type))

    def decode_bytes(self, value: bytes) -> Any:
        """Decode a JSON body; raises ``msgspec`` errors the app maps to 400 problems."""
        return self.decode_body(self.asgi_connection.headers.get("content-type"), value)

    @classmethod
    def decode_body(cls, content_type: str | None, value: bytes) -> Any:
        """Decode a JSON body sent as ``content_type`` (also for
        :class:`service.http.shell.fast_json.FastJson`, which has no DTO instance)."""
        if not is_json(content_type):
            raise UnsupportedMediaType(detail="Send the body as application/json.")
        try:
            return cls._decoder.decode(value)
        except msgspec.ValidationError as error:
            # Only on this cold path: JSON Schema counts 3.0 as an integer, msgspec does
            # not, so retry with integral floats made ints; an error that stands is
            # explained from the model and the JSON as builtins.
            try:
                relaxed = _integral_floats_as_ints(msgspec.json.decode(value))
            except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
                raise InvalidBodyError(explain(cls.model_type, error)) from None
            try:
                return msgspec.convert(relaxed, cls.model_type, strict=True)
            except msgspec.ValidationError as relaxed_error:
                raise InvalidBodyError(explain(cls.model_type, relaxed_error, relaxed)) from None
        except UnicodeDecodeError:
            raise UnreadableBodyError(
                "invalid-utf8", "A string in the body is not valid UTF-8."
            ) from None
        except RecursionError:
            raise UnreadableBodyError(
                "too-deep", "The JSON is nested deeper than the decoder allows."
            ) from None


def _integral_floats_as_ints(node: Any) -> Any:
    if isinstance(node, float) and node.is_integer():
        return int(node)
    if isinstance(node, list):
        return [_integral_floats_as_ints(item) for item in node]
    if isinstance(node, dict):
        return {key: _integral_floats_as_ints(item) for key, item in node.items()}
    return node
