"""`flask --app pbem check-mail-dns` against a DNS server on loopback (dnslib), never the internet.

The test's server answers from a zone the test writes; the command is pointed at it with
MAIL_DNS_SERVER. Each record is tested present and right, missing, and wrong.
"""

from __future__ import annotations

import base64
import subprocess

import pytest
from dnslib import PTR, QTYPE, RR, TXT, A
from dnslib.server import BaseResolver, DNSServer

from pbem_web import free_port  # tests/helpers

DOMAIN, SELECTOR, ADDRESS = "pbem.test", "pbem2026", "192.0.2.25"


class Zone(BaseResolver):
    """Answers from {(name, type): [rdata]}; anything else: no such name."""

    def __init__(self, records: dict):
        self.records = records

    def resolve(self, request, handler):
        reply = request.reply()
        name, kind = str(request.q.qname).rstrip("."), QTYPE[request.q.qtype]
        for rdata in self.records.get((name, kind), []):
            reply.add_answer(RR(request.q.qname, request.q.qtype, rdata=rdata, ttl=60))
        if not reply.rr and not any(n == name for n, _ in self.records):
            reply.header.rcode = 3   # NXDOMAIN
        return reply


def pem_key(tmp_path, name: str = "dkim.pem") -> tuple[str, str]:
    """(path of a new private key, the p= of its DNS record)."""
    path = tmp_path / name
    subprocess.run(["openssl", "genrsa", "-out", str(path), "2048"], check=True, capture_output=True)
    public = subprocess.run(["openssl", "rsa", "-in", str(path), "-pubout", "-outform", "DER"],
                            check=True, capture_output=True).stdout
    return str(path), base64.b64encode(public).decode()


def long_txt(text: str) -> TXT:
    """A TXT record of several strings of at most 255 bytes, as a 2048-bit key's is published."""
    return TXT([text[i:i + 255] for i in range(0, len(text), 255)])


def good_zone(p: str) -> dict:
    return {
        (DOMAIN, "TXT"): [TXT(f"v=spf1 ip4:{ADDRESS} -all")],
        (f"{SELECTOR}._domainkey.{DOMAIN}", "TXT"): [long_txt(f"v=DKIM1; k=rsa; p={p}")],
        (f"_dmarc.{DOMAIN}", "TXT"): [TXT("v=DMARC1; p=quarantine")],
        ("25.2.0.192.in-addr.arpa", "PTR"): [PTR("mail.pbem.test.")],
        ("mail.pbem.test", "A"): [A(ADDRESS)],
    }


@pytest.fixture
def dns_server():
    servers = []

    def serve(records: dict) -> str:
        port = free_port()
        server = DNSServer(Zone(records), port=port, address="127.0.0.1")
        server.start_thread()
        servers.append(server)
        return f"127.0.0.1:{port}"
    yield serve
    for server in servers:
        server.stop()


def run(make_app, server: str, key: str | None, *args):
    config = {"MAIL_DNS_SERVER": server}
    if key:
        config.update(DKIM_KEY=key, DKIM_SELECTOR=SELECTOR)
    return make_app(**config).test_cli_runner().invoke(args=["check-mail-dns", *args])


def lines(result) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in result.output.splitlines())


def test_a_domain_with_every_record_right_passes(make_app, dns_server, tmp_path):
    key, p = pem_key(tmp_path)
    result = run(make_app, dns_server(good_zone(p)), key, "--address", ADDRESS)
    assert result.exit_code == 0, result.output
    said = lines(result)
    assert said["SPF"] == f"ok: pbem.test has an SPF record: v=spf1 ip4:{ADDRESS} -all"
    assert said["DKIM"] == f"ok: {SELECTOR}._domainkey.pbem.test publishes DKIM_KEY's public key"
    assert said["DMARC"] == "ok: _dmarc.pbem.test: v=DMARC1; p=quarantine"
    assert said["PTR"] == f"ok: {ADDRESS} is named mail.pbem.test, which resolves back to it"


def test_each_missing_record_is_named_with_the_record_to_add(make_app, dns_server, tmp_path):
    key, _ = pem_key(tmp_path)
    result = run(make_app, dns_server({("other.test", "TXT"): [TXT("x")]}), key, "--address", ADDRESS)
    assert result.exit_code == 1
    said = lines(result)
    assert said["SPF"] == (f'MISSING: pbem.test has no SPF record. Add: pbem.test. TXT '
                           f'"v=spf1 a mx ip4:{ADDRESS} -all"')
    assert said["DKIM"].startswith(f"MISSING: {SELECTOR}._domainkey.pbem.test has no DKIM key. Add: ")
    assert f"openssl rsa -in {key} -pubout -outform DER" in said["DKIM"]
    assert said["DMARC"].startswith("MISSING: _dmarc.pbem.test has no DMARC record. Add: "
                                    '_dmarc.pbem.test. TXT "v=DMARC1; p=quarantine;')
    assert said["PTR"].startswith(f"MISSING: {ADDRESS} has no reverse DNS")


def test_a_wrong_key_an_address_not_allowed_and_a_ptr_that_does_not_resolve_back_fail(
        make_app, dns_server, tmp_path):
    key, _ = pem_key(tmp_path)
    _, other = pem_key(tmp_path, "other.pem")
    zone = good_zone(other)   # another key published
    zone[(DOMAIN, "TXT")] = [TXT("v=spf1 ip4:198.51.100.7 -all")]
    zone[("mail.pbem.test", "A")] = [A("198.51.100.7")]
    result = run(make_app, dns_server(zone), key, "--address", ADDRESS)
    assert result.exit_code == 1
    said = lines(result)
    assert said["SPF"] == (f"MISSING: pbem.test's SPF record (v=spf1 ip4:198.51.100.7 -all) does not "
                           f"name {ADDRESS}. Add ip4:{ADDRESS} to it.")
    assert said["DKIM"].startswith(f"MISSING: {SELECTOR}._domainkey.pbem.test publishes another key "
                                   "than DKIM_KEY")
    assert said["DMARC"].startswith("ok")
    assert said["PTR"] == (f"MISSING: {ADDRESS} is named mail.pbem.test, but mail.pbem.test does not "
                           f"resolve back to {ADDRESS}: add mail.pbem.test. A {ADDRESS}")


def test_without_a_key_it_says_pbem_does_not_sign_and_a_dead_server_is_one_line(make_app, dns_server):
    result = run(make_app, dns_server(good_zone("AAAA")), None, "--address", ADDRESS)
    assert lines(result)["DKIM"].startswith("MISSING: pbem does not sign mail (DKIM_KEY is not set)")
    dead = run(make_app, f"127.0.0.1:{free_port()}", None)
    assert dead.exit_code == 1
    assert dead.output.strip().startswith("pbem: the DNS could not be asked: ")
    assert len(dead.output.strip().splitlines()) == 1
