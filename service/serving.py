"""The ASGI servers ``python -m service`` can run the app under: granian (the default) or
uvicorn.

granian serves by default because it bounds what a client may make it hold: request headers
of at most MAX_HEADER_BYTES and 100 fields (431 beyond), all of them within
HEADER_READ_TIMEOUT_SECONDS (then the connection is closed, which also ends idle keep-alive
connections). uvicorn bounds neither: a 64 MiB header or hundreds of slowloris connections
are held as long as the client likes, so run it only behind a proxy that bounds them
(deploy/nginx.conf). The body's own deadline is the app's (BODY_READ_TIMEOUT_SECONDS, in
service.http.shell.middleware), so it holds under either. ``make bench`` compares the two on the
same machine (README, "Performance"). Both get the same settings: bind address, workers,
trusted proxies, graceful stop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from service.app import create_app

if TYPE_CHECKING:
    from litestar import Litestar
    from litestar.types import ASGIApp

    from service.settings import Settings

__all__ = ["GRACEFUL_SHUTDOWN_SECONDS", "granian_app", "serve", "served_app"]

# On SIGTERM: stop accepting, finish the requests in flight for at most this long, exit.
GRACEFUL_SHUTDOWN_SECONDS = 10

# The server's own records go to the root logger, which service.logging renders as JSON.
_GRANIAN_LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {},
    "loggers": {
        "_granian": {"handlers": [], "propagate": True},
        "granian.access": {"handlers": [], "propagate": True},
    },
}


def served_app() -> Litestar:
    """The app as a server worker builds it, for the rest of the worker's life."""
    return create_app(worker=True)


def granian_app() -> ASGIApp:
    """The app as granian's workers load it: behind the trusted proxies' X-Forwarded-For."""
    from granian.utils.proxies import wrap_asgi_with_proxy_headers

    app = served_app()
    trusted = app.state.settings.forwarded_allow_ips
    return wrap_asgi_with_proxy_headers(app, trusted_hosts=trusted)  # type: ignore[no-any-return]


def serve(settings: Settings) -> None:
    """Serve until SIGTERM or SIGINT, then finish what is in flight and return."""
    if settings.server == "uvicorn":
        import uvicorn

        uvicorn.run(
            "service.serving:served_app",
            factory=True,
            host=settings.host,
            port=settings.port,
            workers=settings.workers,
            forwarded_allow_ips=settings.forwarded_allow_ips,
            access_log=False,
            log_config=None,
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
        )
        return
    from granian.constants import Interfaces
    from granian.http import HTTP1Settings
    from granian.log import LogLevels
    from granian.server import Server

    Server(
        "service.serving:granian_app",
        factory=True,
        interface=Interfaces.ASGI,
        address=settings.host,
        port=settings.port,
        workers=settings.workers,
        log_level=LogLevels(settings.log_level.lower()),
        log_dictconfig=_GRANIAN_LOGGING,
        log_access=False,
        respawn_failed_workers=True,
        workers_kill_timeout=GRACEFUL_SHUTDOWN_SECONDS,
        http1_settings=HTTP1Settings(
            header_read_timeout=round(settings.header_read_timeout_seconds * 1000),
            max_buffer_size=settings.max_header_bytes,
        ),
    ).serve()
