"""The address on the students' join links and cards: one their machines can reach.

The teacher often opens the teacher's page on the server's own laptop, at the
``http://127.0.0.1:PORT/teacher...`` link that ``boardroom serve`` prints
first. ``127.0.0.1`` on a student's machine is that machine, so a join link
built from the address the teacher's browser used would open nothing. The
links are built, in this order, from:

1. ``--public-url`` when given (a reverse proxy, a DNS name): as given;
2. the address the teacher's page was opened at, when it is not loopback
   (students reach the server the way the teacher's browser did);
3. otherwise the first address ``boardroom serve`` prints that is not loopback
   (:func:`boardroom.server.net_addresses.reachable_hosts`), on the port the page used;
4. otherwise (a server listening on loopback only) the page's own address:
   no student can use it, and the teacher's page says so
   (``join_reachable`` in ``GET /api/admin/class``).
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from boardroom.server.net_addresses import is_loopback


class JoinAddress:
    """How this server builds the base of its join links (the module docstring):
    ``public_url`` (checked: ``boardroom.server.config.checked_public_url``; "" for none)
    and the hosts ``boardroom serve`` prints, outward ones first."""

    def __init__(self, public_url: str, hosts: Sequence[str]) -> None:
        self.public_url = public_url
        self._outward = next((host for host in hosts if not is_loopback(host)), None)

    def base(self, scheme: str, page_host: str) -> str:
        """The join links' base (``scheme://host[:port]/``) for a request to
        ``page_host`` (its ``Host`` header) over ``scheme``.

        >>> lan = JoinAddress("", ["192.0.2.7", "127.0.0.1"])
        >>> lan.base("http", "127.0.0.1:8765"), lan.base("http", "localhost")
        ('http://192.0.2.7:8765/', 'http://192.0.2.7/')
        >>> lan.base("https", "chess.school.example:8443")
        'https://chess.school.example:8443/'
        >>> JoinAddress("", ["127.0.0.1"]).base("http", "[::1]:8765")
        'http://[::1]:8765/'
        >>> JoinAddress("https://chess.example/", []).base("http", "127.0.0.1:8765")
        'https://chess.example/'
        """
        if self.public_url:
            return self.public_url
        host = urlsplit(f"//{page_host}").hostname or ""
        if not is_loopback(host) or self._outward is None:
            return f"{scheme}://{page_host}/"
        try:
            port = urlsplit(f"//{page_host}").port
        except ValueError:
            port = None
        shown = f"[{self._outward}]" if ":" in self._outward else self._outward
        return f"{scheme}://{shown}{'' if port is None else f':{port}'}/"


def reachable(base: str) -> bool:
    """True if a join link on ``base`` can work on another machine (its host is
    not loopback).

    >>> reachable("http://192.0.2.7:8765/"), reachable("http://127.0.0.1:8765/")
    (True, False)
    """
    return not is_loopback(urlsplit(base).hostname or "")
