"""The baseline for ``make bench``: a bare Litestar POST that decodes a JSON body into a
msgspec Struct and answers a small Struct — what the framework itself costs per request."""

from __future__ import annotations

import msgspec
from litestar import Litestar, post


class Quality(msgspec.Struct):
    name: str
    type: str
    magnitude: int


class Situational(msgspec.Struct):
    label: str
    magnitude: int


class Depletable(msgspec.Struct):
    name: str
    current: int
    maximum: int


class Body(msgspec.Struct):
    target: int
    qualities: list[Quality] = []
    situational: list[Situational] = []
    depletable: list[Depletable] = []


class Answer(msgspec.Struct):
    target: int
    count: int


@post("/baseline", sync_to_thread=False, status_code=200)
def baseline(data: Body) -> Answer:
    return Answer(target=data.target, count=len(data.qualities))


app = Litestar([baseline], debug=False, logging_config=None)
