"""The client's address behind trusted proxies, without sockets: X-Forwarded-For
read from the right, forged entries, chains of proxies, IPv6, garbage."""

from __future__ import annotations

from ipaddress import IPv4Address, IPv6Address, ip_address

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardroom.server.core.client_address import (
    MAX_FORWARDED_ENTRIES,
    TrustedProxies,
    client_address,
    parse_address,
)

PROXY = "127.0.0.1"
LOCAL = TrustedProxies.parse("127.0.0.1,::1")
CHAIN = TrustedProxies.parse("127.0.0.1, 10.0.0.0/8, fd00::/8")


# -- who is believed -------------------------------------------------------------------


def test_without_trusted_proxies_the_peer_is_the_client_whatever_it_sends() -> None:
    assert client_address(PROXY, "203.0.113.7", TrustedProxies()) == PROXY
    assert client_address(PROXY, "203.0.113.7", TrustedProxies.parse("")) == PROXY


def test_an_untrusted_peers_header_is_ignored() -> None:
    assert client_address("198.51.100.1", "203.0.113.7", LOCAL) == "198.51.100.1"
    assert client_address("127.0.0.2", "203.0.113.7", LOCAL) == "127.0.0.2"


def test_a_trusted_proxy_names_the_client() -> None:
    assert client_address(PROXY, "203.0.113.7", LOCAL) == "203.0.113.7"
    assert client_address("::1", "203.0.113.7", LOCAL) == "203.0.113.7"


def test_a_trusted_proxy_sending_no_header_is_the_client() -> None:
    assert client_address(PROXY, None, LOCAL) == PROXY
    assert client_address(PROXY, "", LOCAL) == PROXY


def test_a_peer_that_is_no_address_is_not_trusted() -> None:
    assert client_address("unknown", "203.0.113.7", LOCAL) == "unknown"


# -- forged headers and chains -----------------------------------------------------------


def test_a_client_forging_the_header_through_the_proxy_is_known_by_its_own_address() -> None:
    """The proxy appends the address it saw; what the client wrote is to its left."""
    forged = "127.0.0.1, 10.1.2.3, 192.0.2.99"
    assert client_address(PROXY, f"{forged}, 203.0.113.7", CHAIN) == "203.0.113.7"


def test_in_a_chain_of_trusted_proxies_the_first_untrusted_address_from_the_right_wins() -> None:
    header = "192.0.2.99, 203.0.113.7, 10.0.0.5, 10.0.0.4"
    assert client_address(PROXY, header, CHAIN) == "203.0.113.7"


def test_a_proxy_that_is_not_trusted_in_the_chain_is_taken_as_the_client() -> None:
    """Nobody vouches for what an untrusted proxy wrote: it is as far as we can see."""
    header = "203.0.113.7, 198.51.100.20, 10.0.0.4"
    assert client_address(PROXY, header, CHAIN) == "198.51.100.20"


def test_when_every_entry_is_a_trusted_proxy_the_leftmost_is_the_client() -> None:
    assert client_address(PROXY, "10.0.0.9, 10.0.0.5", CHAIN) == "10.0.0.9"


def test_several_headers_joined_in_order_read_as_one_list() -> None:
    assert client_address(PROXY, "192.0.2.99,203.0.113.7", LOCAL) == "203.0.113.7"


# -- IPv6 --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "client"),
    [
        ("2001:db8::7", "2001:db8::7"),
        ("2001:DB8:0:0::7", "2001:db8::7"),
        ("[2001:db8::7]", "2001:db8::7"),
        ("[2001:db8::7]:40000", "2001:db8::7"),
        ("fe80::7%eth0", "fe80::7"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("203.0.113.7:40000", "203.0.113.7"),
        ("  203.0.113.7\t", "203.0.113.7"),
    ],
)
def test_addresses_are_read_as_proxies_write_them_and_given_in_standard_form(
    entry: str, client: str
) -> None:
    assert client_address(PROXY, entry, LOCAL) == client


def test_an_ipv6_chain_skips_trusted_ipv6_proxies() -> None:
    assert client_address("fd00::1", "2001:db8::7, fd00::2", CHAIN) == "2001:db8::7"


def test_a_peer_written_as_ipv4_in_ipv6_is_trusted_as_its_ipv4_address() -> None:
    """A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d."""
    assert client_address("::ffff:127.0.0.1", "203.0.113.7", LOCAL) == "203.0.113.7"
    mapped = TrustedProxies.parse("::ffff:10.0.0.0/104")
    assert mapped.trusts("10.1.2.3") and not mapped.trusts("11.0.0.1")


def test_one_client_is_one_address_however_it_is_written() -> None:
    """A zone, IPv4-in-IPv6 or a port never turn one client into several budgets."""
    written = ["203.0.113.7", "::ffff:203.0.113.7", "203.0.113.7:1", "[::ffff:203.0.113.7]:2"]
    assert {client_address(PROXY, entry, LOCAL) for entry in written} == {"203.0.113.7"}
    written6 = ["2001:db8::7", "fe80::1%eth0", "fe80::1%eth1", "[fe80::1%lo]:5"]
    assert len({client_address(PROXY, entry, LOCAL) for entry in written6}) == 2


# -- garbage -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        "unknown",
        "nonsense",
        ",",
        " ",
        "203.0.113.7,",
        "203.0.113.7, ,",
        "203.0.113.300",
        "203.0.113.07",
        "2001:db8::7:80:1:2:3:4:5",
        "[2001:db8::7",
        "[2001:db8::7]x",
        "[2001:db8::7]:port",
        "203.0.113.7:",
        "203.0.113.7:123456",
        "203.0.113.7:٣",
        "_hidden",
        "2001:db8::/32",
        "\x00",
    ],
)
def test_a_header_that_does_not_parse_gives_the_proxys_own_address(header: str) -> None:
    assert client_address(PROXY, header, LOCAL) == PROXY


def test_garbage_behind_a_trusted_hop_gives_that_hop() -> None:
    assert client_address(PROXY, "garbage, 10.0.0.5", CHAIN) == "10.0.0.5"


def test_garbage_left_of_the_client_is_never_read() -> None:
    """A client cannot escape its own budget by sending a header that does not parse."""
    assert client_address(PROXY, "garbage, 203.0.113.7", LOCAL) == "203.0.113.7"
    assert client_address(PROXY, "x" * 8000 + ", 203.0.113.7", LOCAL) == "203.0.113.7"


def test_a_long_chain_of_trusted_entries_is_read_only_so_far() -> None:
    """Past MAX_FORWARDED_ENTRIES the reading stops as at garbage: the last address read."""
    trusted = [f"10.0.{i // 250}.{i % 250 + 1}" for i in range(500)]
    header = ", ".join(["203.0.113.7", *trusted])
    assert client_address(PROXY, header, CHAIN) == trusted[-(MAX_FORWARDED_ENTRIES - 1)]
    exactly = ", ".join(["203.0.113.7", *trusted[-(MAX_FORWARDED_ENTRIES - 1) :]])
    assert client_address(PROXY, exactly, CHAIN) == "203.0.113.7"


# -- the setting ---------------------------------------------------------------------------


def test_the_setting_takes_addresses_and_networks_of_both_versions() -> None:
    trusted = TrustedProxies.parse(" 127.0.0.1 , ::1,10.0.0.0/8,fd00::/8,")
    assert len(trusted.networks) == 4 and trusted
    assert all(trusted.trusts(a) for a in ("127.0.0.1", "::1", "10.200.0.1", "fd12::1"))
    assert not any(trusted.trusts(a) for a in ("127.0.0.2", "::2", "11.0.0.1", "fe80::1"))
    assert not TrustedProxies.parse("")


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("127.0.0.1,localhost", "'localhost' is not an IP address or network"),
        ("10.0.0.0/33", "'10.0.0.0/33' is not"),
        ("10.0.0.1/8", "'10.0.0.1/8' has bits set after its /8: give 10.0.0.0/8"),
        ("::1/129", "'::1/129' is not"),
        ("127.0.0.1;::1", "'127.0.0.1;::1' is not"),
    ],
)
def test_a_bad_entry_is_a_value_error_naming_it(text: str, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        TrustedProxies.parse(text)


# -- properties ----------------------------------------------------------------------------

ipv4 = st.integers(0, 2**32 - 1).map(IPv4Address)
ipv6 = st.integers(0, 2**128 - 1).map(IPv6Address)
addresses = st.one_of(ipv4, ipv6).map(lambda a: ip_address(str(parse_address(str(a)))))
junk = st.text(max_size=40)


def written(address: IPv4Address | IPv6Address) -> st.SearchStrategy[str]:
    """Ways a proxy may write ``address`` in the header."""
    text = str(address)
    if isinstance(address, IPv6Address):
        return st.sampled_from([text, f"[{text}]", f"[{text}]:443", f" {text.upper()} "])
    return st.sampled_from([text, f"{text}:8080", f"::ffff:{text}", f"\t{text}"])


@given(junk, junk)
def test_an_untrusted_peer_is_always_its_own_client(peer: str, header: str) -> None:
    assert client_address(peer, header, TrustedProxies()) == peer
    if not LOCAL.trusts(peer):
        assert client_address(peer, header, LOCAL) == peer


@given(junk)
def test_any_header_gives_an_address_never_an_error(header: str) -> None:
    """Whatever arrives: the proxy itself, or an address in standard form."""
    client = client_address(PROXY, header, CHAIN)
    assert client == PROXY or str(ip_address(client)) == client


@given(st.lists(junk, max_size=5), addresses, st.data())
def test_nothing_a_client_writes_changes_the_address_the_proxy_saw(
    forged: list[str], client: IPv4Address | IPv6Address, data: st.DataObject
) -> None:
    """The client controls every entry left of the one the trusted proxy appends."""
    if CHAIN.trusts(client):
        return
    seen = data.draw(written(client))
    header = ",".join([*forged, seen])
    assert client_address(PROXY, header, CHAIN) == str(client)


@given(addresses, st.lists(st.integers(1, 2**24 - 2), max_size=4), st.data())
def test_trusted_hops_appended_after_the_client_are_skipped(
    client: IPv4Address | IPv6Address, hops: list[int], data: st.DataObject
) -> None:
    if CHAIN.trusts(client):
        return
    proxies = [str(IPv4Address((10 << 24) + hop)) for hop in hops]
    header = ", ".join([data.draw(written(client)), *proxies])
    assert client_address(PROXY, header, CHAIN) == str(client)
