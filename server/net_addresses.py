"""This machine's addresses as other machines reach it, and which addresses are loopback.

``boardroom serve`` prints one line per address that :func:`reachable_hosts`
finds; class mode builds the students' join links on the first of them that is
not loopback (:mod:`boardroom.server.classroom.join_address`), since ``127.0.0.1`` on a
student's machine is that machine.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket


def reachable_hosts(bind_host: str) -> list[str]:
    """The addresses others may use to reach a server bound to ``bind_host``:
    the address itself, or for 0.0.0.0 this machine's IPv4 addresses (the
    main outward one first) and 127.0.0.1. It may look up this machine's own
    name (DNS): call it off the event loop."""
    if bind_host not in ("0.0.0.0", "", "::"):  # noqa: S104 - comparing, not binding
        return [bind_host]
    hosts: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        # "Connecting" a UDP socket sends nothing; it only picks the outward interface.
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
        hosts.append(probe.getsockname()[0])
    with contextlib.suppress(OSError):
        for *_, sockaddr in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            hosts.append(str(sockaddr[0]))
    hosts.append("127.0.0.1")
    unique = list(dict.fromkeys(hosts))
    outward = [h for h in unique if not is_loopback(h)]
    return outward + [h for h in unique if is_loopback(h)][:1]


def is_loopback(host: str) -> bool:
    """True for a host name or address that means "this machine" wherever it is
    typed: ``localhost`` (and its subdomains), 127.0.0.0/8, ``::1`` (with or
    without brackets). A name that DNS may resolve to loopback is not looked up.

    >>> [is_loopback(h) for h in ("127.0.0.1", "127.1.2.3", "[::1]", "LocalHost", "10.0.0.5")]
    [True, True, True, True, False]
    >>> is_loopback("school.example"), is_loopback("")
    (False, False)
    """
    name = host.strip().strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False
