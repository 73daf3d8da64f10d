"""Where a client dials: a server's address (``HOST:PORT``) and a match to join
(``CODE@HOST:PORT``), as the command line, the window and the bot read them.

>>> parse_join("k7mxq2@example.org")
('K7MXQ2', 'example.org')
>>> parse_address("example.org")
('example.org', 8765)
"""

from __future__ import annotations

from game.server.protocol import DEFAULT_PORT

__all__ = ["parse_address", "parse_join"]


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (or ``HOST``, or ``ws://HOST:PORT``) as a host and a port; raises
    ValueError with a line naming the text."""
    rest = text.strip()
    for scheme in ("ws://", "wss://"):
        rest = rest.removeprefix(scheme)
    rest = rest.rstrip("/")
    host, colon, port = rest.rpartition(":")
    if not colon:
        host, port = rest, str(DEFAULT_PORT)
    host = host.strip("[]")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{text!r} is not an address: write HOST:PORT (e.g. 127.0.0.1:8765)")
    return host, int(port)


def parse_join(text: str) -> tuple[str, str]:
    """``CODE@HOST:PORT`` as the code (upper case) and the address (read by
    :func:`parse_address`); raises ValueError with a line naming the text."""
    code, at, address = text.strip().rpartition("@")
    code = code.strip().upper()
    if not at or not code.isalnum() or not address:
        raise ValueError(
            f"{text!r} is not a match to join: write CODE@HOST:PORT (K7MXQ2@host:8765)"
        )
    parse_address(address)
    return code, address.strip()
