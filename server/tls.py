"""TLS for ``boardroom serve --tls-cert FILE --tls-key FILE``: aiohttp's own.

The server then answers ``https://`` and ``wss://`` on its one port, and nothing
in plain text. For a server on the internet, the usual alternative is a reverse
proxy that holds the certificate (docs/operations.md, "On the internet").
"""

from __future__ import annotations

import ssl

from boardroom.server.config import ServerConfig


def server_ssl_context(config: ServerConfig) -> ssl.SSLContext | None:
    """The TLS context ``config`` asks for, None without TLS. Raises ``OSError``
    for a file that cannot be read and ``ssl.SSLError`` for one that is not a
    certificate and key that match."""
    if not config.tls:
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(config.tls_cert, config.tls_key)
    return context
