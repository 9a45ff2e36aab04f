"""The edge every request passes: the ASGI middleware (request id, rate limit, CORS, gzip,
API keys, the request log), the hot JSON path and the operational routes."""
