"""Who is on the other end: the client's address and locality, from what the server knows."""

import http.client
import threading

import pytest
from django.test import RequestFactory, override_settings
from waitress import wasyncore
from waitress.server import create_server

from config import cli
from lib.client import client_address, is_local, lockout_address, parse_address

rf = RequestFactory()


def request(remote="127.0.0.1", host="127.0.0.1:8000", **headers):
    return rf.get("/setup/", REMOTE_ADDR=remote, HTTP_HOST=host, **headers)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("192.0.2.1", "192.0.2.1"),
        (" 192.0.2.1:4711 ", "192.0.2.1"),
        ('"[2001:db8::1]:4711"', "2001:db8::1"),
        ("2001:db8::1", "2001:db8::1"),
        ("unknown", None),
        ("", None),
        ("[::1", None),
    ],
)
def test_addresses_are_read_as_proxies_write_them(text, expected):
    address = parse_address(text)
    assert (str(address) if address else None) == expected


def test_a_direct_browser_on_this_machine_is_local():
    assert is_local(request())
    assert is_local(request(remote="::1", host="[::1]:8000"))
    assert is_local(request(host="localhost:8000"))


@pytest.mark.parametrize(
    "headers",
    [
        {"HTTP_X_FORWARDED_FOR": "203.0.113.9"},
        {"HTTP_X_FORWARDED_FOR": "127.0.0.1"},
        {"HTTP_FORWARDED": "for=203.0.113.9"},
        {"HTTP_X_REAL_IP": "203.0.113.9"},
        {"HTTP_X_FORWARDED_HOST": "leidraad.example.org"},
    ],
)
def test_a_proxy_nobody_configured_makes_the_request_not_local(headers):
    """A reverse proxy on the same machine connects from 127.0.0.1: without a configured
    trusted proxy its headers cannot be believed, so setup is refused (issue 35, item 1)."""
    assert not is_local(request(**headers))


def test_a_public_host_name_on_a_loopback_peer_is_not_local():
    """A proxy that passes the Host on but sets no header at all."""
    assert not is_local(request(host="leidraad.example.org"))


def test_another_peer_is_not_local_whatever_it_claims():
    assert not is_local(request(remote="192.0.2.7"))
    assert not is_local(request(remote="192.0.2.7", HTTP_X_FORWARDED_FOR="127.0.0.1"))
    assert not is_local(request(remote="garbage"))


@override_settings(LEIDRAAD_TRUSTED_PROXIES=["127.0.0.1"])
def test_through_a_trusted_proxy_the_client_it_names_decides():
    outside = request(host="leidraad.example.org", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert not is_local(outside)
    assert str(client_address(outside)) == "203.0.113.9"
    # A client that forges the left of the chain is still named by the proxy on the right.
    forged = request(HTTP_X_FORWARDED_FOR="127.0.0.1, 203.0.113.9")
    assert not is_local(forged)
    assert str(client_address(forged)) == "203.0.113.9"
    assert is_local(request(host="leidraad.example.org", HTTP_X_FORWARDED_FOR="127.0.0.1"))


@override_settings(LEIDRAAD_TRUSTED_PROXIES=["127.0.0.1"])
def test_a_trusted_proxy_that_names_nobody_is_refused():
    assert client_address(request()) is None
    assert not is_local(request())
    assert not is_local(request(HTTP_X_FORWARDED_FOR="nonsense"))
    # Only the configured header counts; the proxy's other headers may carry the client's.
    assert not is_local(request(HTTP_X_REAL_IP="127.0.0.1"))


@override_settings(
    LEIDRAAD_TRUSTED_PROXIES=["10.0.0.0/8"], LEIDRAAD_PROXY_CLIENT_HEADER="Forwarded"
)
def test_the_forwarded_header_and_a_proxy_network():
    named = request(remote="10.1.2.3", HTTP_FORWARDED='for="[2001:db8::7]:80";proto=https')
    assert str(client_address(named)) == "2001:db8::7"
    assert lockout_address(named) == "2001:db8::7"


def test_the_lockout_address_is_the_peer_without_a_trusted_proxy():
    assert lockout_address(request(remote="192.0.2.7", HTTP_X_FORWARDED_FOR="203.0.113.9")) == (
        "192.0.2.7"
    )


def test_leidraad_serve_keeps_the_proxy_headers_for_leidraad_to_judge():
    """Waitress strips X-Forwarded-For from a proxy it does not trust; then a request through
    a proxy on this machine looked local to the setup page. With ``leidraad serve``'s options
    the header reaches the application."""
    seen = {}

    def app(environ, start_response):
        seen.update(environ)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    server = create_server(app, **cli.waitress_options("127.0.0.1", 0, 1))
    statuses = []

    def fetch() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=5)
        connection.request("GET", "/setup/", headers={"X-Forwarded-For": "203.0.113.9"})
        statuses.append(connection.getresponse().status)
        connection.close()

    client = threading.Thread(target=fetch, daemon=True)
    client.start()
    # The server's loop runs here, so closing it never races a thread blocked in select().
    while client.is_alive():
        wasyncore.loop(timeout=0.05, count=1, map=server._map)
    server.close()
    server.task_dispatcher.shutdown()
    assert statuses == [200]
    assert seen["HTTP_X_FORWARDED_FOR"] == "203.0.113.9"
