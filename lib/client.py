"""Who is on the other end of a request: the client's address and whether it is this machine.

The server knows one thing for certain, the socket's peer (``REMOTE_ADDR``). Proxy headers
(``X-Forwarded-For``, ``Forwarded``, ``X-Real-IP``) are written by whoever sends the request,
so they are read only when the peer is a proxy the administrator named in
``LEIDRAAD_TRUSTED_PROXIES`` (addresses or networks), and then only the one header named in
``LEIDRAAD_PROXY_CLIENT_HEADER``. The login lockout (django-axes, ``AXES_CLIENT_IP_CALLABLE``)
and the first-run setup page both ask this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address, ip_network

from django.conf import settings
from django.http import HttpRequest

Address = IPv4Address | IPv6Address
Network = IPv4Network | IPv6Network

# Every header a proxy may use to pass the client on; any of them from a peer that is not a
# trusted proxy means a proxy we do not know about sits in front.
PROXY_HEADERS = (
    "HTTP_FORWARDED",
    "HTTP_X_FORWARDED_FOR",
    "HTTP_X_REAL_IP",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_CLIENT_IP",
    "HTTP_CLIENT_IP",
    "HTTP_TRUE_CLIENT_IP",
    "HTTP_CF_CONNECTING_IP",
)
LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "[::1]", "::1"}


def parse_address(text: str) -> Address | None:
    """One address as proxies write it: bare, with a port, IPv6 in brackets, quoted."""
    value = text.strip().strip('"').strip()
    if value.startswith("["):  # [2001:db8::1]:4711
        value = value[1 : value.find("]")] if "]" in value else ""
    elif value.count(":") == 1:  # 192.0.2.1:4711
        value = value.split(":", 1)[0]
    try:
        return ip_address(value)
    except ValueError:
        return None


def trusted_proxies() -> list[Network]:
    networks: list[Network] = []
    for item in getattr(settings, "LEIDRAAD_TRUSTED_PROXIES", []):
        try:
            networks.append(ip_network(item, strict=False))
        except ValueError:
            continue  # settings refuse a bad entry at start; never trust a garbled one
    return networks


def is_trusted(address: Address | None, networks: Iterable[Network]) -> bool:
    return address is not None and any(address in network for network in networks)


def forwarded_for(value: str) -> list[str]:
    """The ``for=`` parameters of an RFC 7239 ``Forwarded`` header, in order."""
    found = []
    for element in value.split(","):
        for pair in element.split(";"):
            name, _, item = pair.partition("=")
            if name.strip().lower() == "for":
                found.append(item)
    return found


def header_chain(request: HttpRequest) -> list[str]:
    """The addresses the configured header lists, nearest proxy last."""
    name = getattr(settings, "LEIDRAAD_PROXY_CLIENT_HEADER", "X-Forwarded-For")
    key = "HTTP_" + name.upper().replace("-", "_")
    value = request.META.get(key, "")
    if not value:
        return []
    if key == "HTTP_FORWARDED":
        return forwarded_for(value)
    return value.split(",")


def forwarded_client(request: HttpRequest, networks: list[Network]) -> Address | None:
    """The client a trusted proxy names: walking the chain from the nearest hop, the first
    address that is not itself a trusted proxy (entries further left may be forged by the
    client). ``None`` when the proxy named nobody or wrote something unreadable."""
    chain = header_chain(request)
    for position, entry in enumerate(reversed(chain)):
        address = parse_address(entry)
        if address is None:
            return None
        if not is_trusted(address, networks) or position == len(chain) - 1:
            return address
    return None


def peer(request: HttpRequest) -> Address | None:
    return parse_address(request.META.get("REMOTE_ADDR", ""))


def client_address(request: HttpRequest) -> Address | None:
    """The client's address, or ``None`` when it cannot be told (a trusted proxy that named
    no client)."""
    networks = trusted_proxies()
    address = peer(request)
    if is_trusted(address, networks):
        return forwarded_client(request, networks)
    return address


def lockout_address(request: HttpRequest) -> str | None:
    """The address django-axes keys a failed login on (together with the username). Behind a
    trusted proxy the client's, so one user cannot lock out everyone behind the same proxy."""
    address = client_address(request) or peer(request)
    return str(address) if address else None


def loopback_host(request: HttpRequest) -> bool:
    host = request.META.get("HTTP_HOST", "").strip().lower()
    if host.startswith("["):
        host = host[: host.find("]") + 1]
    elif host.count(":") == 1:
        host = host.split(":", 1)[0]
    address = parse_address(host)
    return host in LOOPBACK_HOSTS or (address is not None and address.is_loopback)


def is_local(request: HttpRequest) -> bool:
    """Whether the request certainly comes from a browser on this machine.

    Through a trusted proxy: the client it names is a loopback address. Directly: the peer is
    a loopback address, no proxy header is present (a proxy we were not told about would make
    every outside visitor look local) and the browser asked for a loopback host name."""
    networks = trusted_proxies()
    address = peer(request)
    if is_trusted(address, networks):
        client = forwarded_client(request, networks)
        return client is not None and client.is_loopback
    if any(request.META.get(header) for header in PROXY_HEADERS):
        return False
    return address is not None and address.is_loopback and loopback_host(request)
