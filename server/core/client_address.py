"""Whose request is it: the client's address behind trusted reverse proxies.

Behind a reverse proxy (Caddy, nginx) every connection comes from the proxy, so
the address of the TCP peer names the proxy, not the player. The proxy names the
player in the ``X-Forwarded-For`` header, a comma list to which each proxy on the
way appends the address it received the request from. Anyone can send that
header, so it is believed only as far as it was written by proxies the operator
trusts (``--trusted-proxy``), and read the way nginx's ``real_ip_recursive on``
reads it: from the right.

- A peer that is not a trusted proxy is the client; its header is ignored.
- From a trusted proxy, the entries are read from the rightmost (written by that
  proxy) leftwards, and the first address that is not itself a trusted proxy is
  the client. What lies to the left of it was written by the client or by
  proxies nobody vouches for, and is never read: a client that sends its own
  ``X-Forwarded-For: 10.9.9.9`` through the proxy gets ``10.9.9.9, <its own
  address>`` forwarded, and is known by its own address.
- An entry that is not an address (garbage, ``unknown``, an empty one) stops the
  reading: the hop that passed it on is taken as the client, which is the peer
  itself when the rightmost entry is garbage. A header that does not parse never
  refuses anyone, and gives no client a fresh budget it could choose: whatever
  it writes to the left of its own address is never looked at.
- When every entry is a trusted proxy (a client on the proxies' own network),
  the leftmost one is the client, as nginx has it.

Not read: the standard ``Forwarded`` header (RFC 7239) and ``X-Real-IP``. Caddy
and nginx both write ``X-Forwarded-For``; one header, read one way, is one thing
for an operator to get right.

Werkzeug's ``ProxyFix`` and aiohttp-remotes' ``XForwardedRelaxed`` count hops
instead (trust the last N entries); trusting networks, as nginx and
aiohttp-remotes' ``XForwardedStrict`` do, stays right when a request reaches the
server by more than one path (through the proxy, or straight from the proxy's own
machine).

Pure: no sockets, no headers object; the adapter (:mod:`boardroom.server.admission`) passes
the peer's address and the header's value in, once per request.

>>> trusted = TrustedProxies.parse("127.0.0.1, 10.0.0.0/8")
>>> client_address("127.0.0.1", "203.0.113.7", trusted)
'203.0.113.7'
>>> client_address("127.0.0.1", "10.9.9.9, 203.0.113.7, 10.0.0.2", trusted)  # forged, then 2 hops
'203.0.113.7'
>>> client_address("198.51.100.1", "203.0.113.7", trusted)  # not a trusted proxy: header ignored
'198.51.100.1'
>>> client_address("127.0.0.1", "nonsense", trusted)
'127.0.0.1'
"""

from __future__ import annotations

from dataclasses import dataclass
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address, ip_network

IPAddress = IPv4Address | IPv6Address
IPNetwork = IPv4Network | IPv6Network

MAX_FORWARDED_ENTRIES = 16
"""Entries of ``X-Forwarded-For`` read at most, from the right. A real chain is
one to three proxies; the header itself may be 8 KB, some 500 addresses, each
costing a parse when every one is trusted (a client inside the trusted network
sending a long header on purpose). Past this many the reading stops as at
garbage: the last address read is the client."""


def parse_address(text: str) -> IPAddress | None:
    """The address ``text`` names, or None when it names none.

    Accepted, as proxies write them: ``192.0.2.1``, ``2001:db8::1``,
    ``[2001:db8::1]``, and either with a port (``192.0.2.1:5000``,
    ``[2001:db8::1]:5000``), with spaces around. An IPv4 address written as IPv6
    (``::ffff:192.0.2.1``) is the IPv4 address, and a zone (``fe80::1%eth0``) is
    dropped, so one machine is never two addresses.

    >>> parse_address(" [2001:DB8::1]:443 "), parse_address("::ffff:192.0.2.1:80")
    (IPv6Address('2001:db8::1'), None)
    >>> parse_address("::ffff:192.0.2.1"), parse_address("unknown")
    (IPv4Address('192.0.2.1'), None)
    """
    text = text.strip()
    if text.startswith("["):
        inside, bracket, after = text[1:].partition("]")
        if not bracket or (after and not _is_port(after)):
            return None
        text = inside
    elif text.count(":") == 1:  # IPv4 with a port: IPv6 has two colons or more
        text, _, port = text.partition(":")
        if not _is_port(":" + port):
            return None
    try:
        address = ip_address(text)
    except ValueError:
        return None
    if isinstance(address, IPv6Address):
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
        if address.scope_id is not None:
            return IPv6Address(int(address))
    return address


def _is_port(text: str) -> bool:
    """True for ``:`` and 1 to 5 ASCII digits (``str.isdigit`` takes other digits too)."""
    digits = text[1:]
    return text[:1] == ":" and 1 <= len(digits) <= 5 and digits.isascii() and digits.isdigit()


@dataclass(frozen=True)
class TrustedProxies:
    """The networks whose connections are believed about who the client is
    (``--trusted-proxy``). Empty (the default): nobody is, and every client is
    its TCP peer."""

    networks: tuple[IPNetwork, ...] = ()

    @classmethod
    def parse(cls, text: str) -> TrustedProxies:
        """The networks of a comma list of addresses and CIDR networks
        (``"127.0.0.1,::1"``, ``"10.0.0.0/8"``); empty entries are skipped.

        Raises ValueError naming the first entry that is neither, or a network
        with host bits set (``10.0.0.1/8``: did it mean ``10.0.0.0/8``, or the
        one address?).

        >>> TrustedProxies.parse("127.0.0.1, ::1").networks
        (IPv4Network('127.0.0.1/32'), IPv6Network('::1/128'))
        >>> TrustedProxies.parse("10.0.0.300")
        Traceback (most recent call last):
        ...
        ValueError: '10.0.0.300' is not an IP address or network (such as 10.0.0.0/8 or ::1)
        """
        networks = []
        for entry in text.split(","):
            entry = entry.strip()
            if not entry:
                continue
            try:
                networks.append(_unmapped(ip_network(entry)))
            except ValueError as error:
                if "host bits set" in str(error):
                    base = ip_network(entry, strict=False)
                    raise ValueError(
                        f"{entry!r} has bits set after its /{base.prefixlen}: "
                        f"give {base} for the network"
                    ) from None
                raise ValueError(
                    f"{entry!r} is not an IP address or network (such as 10.0.0.0/8 or ::1)"
                ) from None
        return cls(tuple(networks))

    def __bool__(self) -> bool:
        """True when some proxy is trusted."""
        return bool(self.networks)

    def trusts(self, address: str | IPAddress | None) -> bool:
        """True when ``address`` (text as :func:`parse_address` reads it, or an
        address) is in one of the networks; False for text that is no address."""
        if isinstance(address, str):
            address = parse_address(address)
        if address is None:
            return False
        # `in` is False across versions (an IPv4 address in an IPv6 network), never an error.
        return any(address in network for network in self.networks)


_IPV4_MAPPED = IPv6Network("::ffff:0:0/96")


def _unmapped(network: IPNetwork) -> IPNetwork:
    """``network`` with IPv4 written as IPv6 (``::ffff:10.0.0.0/104``) as IPv4
    (``10.0.0.0/8``), since :func:`parse_address` reads such addresses as IPv4."""
    if isinstance(network, IPv6Network) and network.subnet_of(_IPV4_MAPPED):
        address = int(network.network_address) & 0xFFFFFFFF
        return IPv4Network((address, network.prefixlen - 96))
    return network


def client_address(peer: str, forwarded_for: str | None, trusted: TrustedProxies) -> str:
    """The address of the client whose request came from TCP peer ``peer`` with
    ``X-Forwarded-For`` value ``forwarded_for`` (several such headers joined by
    commas, in order; None when there was none); see the module docstring.

    ``peer`` comes back as it is when it is the answer; an address read from the
    header comes back in its standard form (``2001:db8::1``, IPv4 as IPv4).
    """
    if not forwarded_for or not trusted.trusts(peer):
        return peer
    client = peer
    # rsplit bounds the work: the leftmost part holds every entry beyond the limit,
    # so it parses only when there is exactly one there.
    for entry in reversed(forwarded_for.rsplit(",", MAX_FORWARDED_ENTRIES - 1)):
        address = parse_address(entry)
        if address is None:
            return client
        client = str(address)
        if not trusted.trusts(address):
            return client
    return client
