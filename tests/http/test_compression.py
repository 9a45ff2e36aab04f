"""Large answers gzipped for clients that accept it, small ones and event streams never;
`/openapi.json` revalidated by its ETag (integrators' review: nothing was compressed — the
document is 1.16 MB, a travelogue action answers the whole game, a roll with odds ~7 KB)."""

from __future__ import annotations

import gzip
import json
import random
from typing import Any

import pytest
from litestar import Litestar, get
from litestar.config.compression import CompressionConfig
from litestar.testing import TestClient

from service.app import create_app
from service.http.shell.compression import MIN_BYTES, accepts_gzip
from service.http.shell.cors import CorsPolicy
from service.http.shell.keys import ApiKeys
from service.http.shell.middleware import RequestShell
from service.settings import Settings

ODDS_ROLL = {"base": {"type": "skill", "code": "5D"}, "with_odds": True, "seed": 3}


def _raw(client: TestClient, method: str, path: str, **kwargs: Any) -> tuple[Any, bytes]:
    with client.stream(method, path, **kwargs) as answer:
        return answer, b"".join(answer.iter_raw())


@pytest.mark.parametrize(
    ("value", "accepted"),
    [
        (b"gzip", True),
        (b"gzip, deflate, br", True),
        (b"br;q=1.0, gzip;q=0.8, *;q=0.1", True),
        (b"*", True),
        (b"gzip;q=0", False),
        (b"*;q=0", False),
        (b"gzip;q=0, *", False),  # refused by name: * does not bring it back
        (b"identity", False),
        (b"br", False),
        (b"", False),
        (b"x-gzip", True),
    ],
)
def test_accept_encoding_is_read_with_its_q_values(value: bytes, accepted: bool) -> None:
    assert accepts_gzip(value) is accepted


def test_a_large_answer_is_gzipped_and_says_so(client: TestClient) -> None:
    plain, plain_body = _raw(
        client, "POST", "/v1/opend6/rolls", json=ODDS_ROLL, headers={"Accept-Encoding": "identity"}
    )
    zipped, zipped_body = _raw(
        client, "POST", "/v1/opend6/rolls", json=ODDS_ROLL, headers={"Accept-Encoding": "gzip"}
    )
    assert len(plain_body) >= MIN_BYTES
    assert "content-encoding" not in plain.headers
    assert zipped.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in zipped.headers["vary"].lower()
    assert int(zipped.headers["content-length"]) == len(zipped_body) < len(plain_body) / 3
    unzipped = json.loads(gzip.decompress(zipped_body))
    expected = json.loads(plain_body)
    assert unzipped.pop("id") != expected.pop("id")  # fresh per answer; all else equal
    assert unzipped == expected


def test_a_small_answer_goes_out_as_it_is(client: TestClient) -> None:
    answer, body = _raw(
        client,
        "POST",
        "/v1/checks",
        json={"target": 5, "seed": 1},
        headers={"Accept-Encoding": "gzip"},
    )
    assert len(body) < MIN_BYTES
    assert "content-encoding" not in answer.headers
    assert json.loads(body)["target"] == 5


def test_the_document_is_revalidated_by_its_etag_and_served_gzipped(client: TestClient) -> None:
    first, body = _raw(client, "GET", "/openapi.json", headers={"Accept-Encoding": "identity"})
    etag = first.headers["etag"]
    zipped, zipped_body = _raw(client, "GET", "/openapi.json", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["content-encoding"] == "gzip"
    assert gzip.decompress(zipped_body) == body
    assert len(zipped_body) < len(body) / 5
    assert zipped.headers["etag"] == etag
    unchanged = client.get("/openapi.json", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    assert client.get("/openapi.json", headers={"If-None-Match": '"other"'}).status_code == 200


def _shell_around(app: Litestar) -> Any:
    return RequestShell(
        app.asgi_handler,
        api_keys=ApiKeys((), "secret-0123456789abcdefghijklmnopqrstuvwxyz"),
        body_read_seconds=5,
        cors=CorsPolicy(()),
    )


@pytest.mark.parametrize("size", [MIN_BYTES - 1, MIN_BYTES, 40_000])
@pytest.mark.parametrize("accept", ["gzip", "gzip, br", "", "identity"])
def test_the_shell_compresses_as_litestars_compression_middleware_does(
    size: int, accept: str
) -> None:
    """One answer through the shell's gzip and through Litestar's CompressionMiddleware
    (with the same threshold): the same encoding chosen, the same Vary, the same body
    once decoded. (They differ on purpose where Litestar reads `gzip;q=0` as accepting
    gzip: test_accept_encoding_is_read_with_its_q_values.)"""
    text = "".join(random.Random(size).choice("abcdefgh ") for _ in range(size))

    @get("/text", sync_to_thread=False, media_type="text/plain")
    def answer() -> str:
        return text

    ours = Litestar([answer])
    ours.asgi_handler = _shell_around(ours)
    theirs = Litestar(
        [answer], compression_config=CompressionConfig(backend="gzip", minimum_size=MIN_BYTES)
    )
    results = []
    for app in (ours, theirs):
        with TestClient(app) as client:
            got, body = _raw(client, "GET", "/text", headers={"Accept-Encoding": accept})
            encoding = got.headers.get("content-encoding")
            decoded = gzip.decompress(body) if encoding == "gzip" else body
            vary = "accept-encoding" in got.headers.get("vary", "").lower()
            results.append((encoding, vary, decoded.decode(), int(got.headers["content-length"])))
    (our_encoding, our_vary, our_text, our_length), (encoding, vary, decoded, length) = results
    assert (our_encoding, our_vary, our_text) == (encoding, vary, decoded)
    assert our_text == text
    assert (our_length == length) == (our_encoding is None)  # zlib levels may differ


def test_event_streams_are_never_compressed(served_url: str) -> None:
    import httpx

    from tests.support.session_kinds import KINDS

    game = next(kind for kind in KINDS if kind.kind == "game")
    with httpx.Client(base_url=served_url, timeout=10) as plain:
        session = game.create(plain)
        headers = {**session.player, "Accept-Encoding": "gzip"}
        with plain.stream("GET", f"{session.path}/events", headers=headers) as stream:
            assert stream.status_code == 200
            assert "content-encoding" not in stream.headers
            first = next(stream.iter_lines())
    assert first.startswith("id:") or first.startswith("event:") or first.startswith(":")


def test_a_served_app_gzips_for_settings_as_shipped() -> None:
    with TestClient(create_app(Settings(redis_url="redis://unused"), rng=random.Random(1))) as c:
        answer, _ = _raw(c, "GET", "/openapi.json", headers={"Accept-Encoding": "gzip"})
    assert answer.headers["content-encoding"] == "gzip"
