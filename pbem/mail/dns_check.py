"""What the sending domain's DNS says to the big providers (`flask --app pbem check-mail-dns`).

SPF, DKIM (the selector's public key matches DKIM_KEY), DMARC, and the reverse DNS of the
sending address, each read with dnspython and said in plain words: what is there, what is
missing, and the record to add. MAIL_DNS_SERVER (host:port) asks that server instead of the
system's resolver (a test's server on loopback, or an authoritative server after a change).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

import dkim.crypto  # type: ignore[import-untyped]
import dns.resolver
import dns.reversename
from flask import current_app

from pbem.mail import signing


@dataclass(frozen=True)
class Finding:
    what: str     # SPF, DKIM, DMARC, PTR
    ok: bool
    said: str     # in plain words, with the record to add when something is missing


def resolver() -> dns.resolver.Resolver:
    server = current_app.config.get("MAIL_DNS_SERVER")
    if not server:
        return dns.resolver.Resolver()
    answering = dns.resolver.Resolver(configure=False)
    host, _, port = server.rpartition(":") if ":" in server else (server, "", "53")
    answering.nameservers, answering.port = [host], int(port)
    answering.lifetime = 5.0
    return answering


def texts(ask: dns.resolver.Resolver, name: str) -> list[str]:
    """The TXT records at `name` (each one's strings joined), none if the name has none."""
    try:
        answer = ask.resolve(name, "TXT")
    except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
        return []
    return [b"".join(record.strings).decode(errors="replace") for record in answer]


def check(address: str | None = None) -> list[Finding]:
    """Every finding for the sending domain; `address`: the sending IP, for SPF and PTR."""
    ask, domain = resolver(), signing.domain()
    return [spf(ask, domain, address), dkim_key(ask, domain), dmarc(ask, domain),
            ptr(ask, address)]


def spf(ask, domain: str, address: str | None) -> Finding:
    found = [t for t in texts(ask, domain) if t.lower().startswith("v=spf1")]
    mechanism = f"ip4:{address}" if address else "ip4:<this machine's address>"
    add = f'{domain}. TXT "v=spf1 a mx {mechanism} -all"'
    if not found:
        return Finding("SPF", False, f"{domain} has no SPF record. Add: {add}")
    if len(found) > 1:
        return Finding("SPF", False, f"{domain} has {len(found)} SPF records; receivers ignore "
                                     f"them all. Keep one: {add}")
    if address and f"ip4:{address}" not in found[0] and not {"a", "mx"} & set(found[0].split()):
        return Finding("SPF", False, f"{domain}'s SPF record ({found[0]}) does not name {address}. "
                                     f"Add ip4:{address} to it.")
    return Finding("SPF", True, f"{domain} has an SPF record: {found[0]}")


def dkim_key(ask, domain: str) -> Finding:
    config = current_app.config
    selector, key = config.get("DKIM_SELECTOR"), config.get("DKIM_PRIVATE_KEY")
    if not key:
        return Finding("DKIM", False, "pbem does not sign mail (DKIM_KEY is not set): set DKIM_KEY "
                                      "and DKIM_SELECTOR, or sign in your MTA (OpenDKIM).")
    name = f"{selector}._domainkey.{domain}"
    ours = _modulus_of_private(key)
    add = (f'{name}. TXT "v=DKIM1; k=rsa; p=..." with p= the output of `openssl rsa -in '
           f'{config.get("DKIM_KEY")} -pubout -outform DER | base64 -w0`')
    published = [t for t in texts(ask, name) if "p=" in t]
    if not published:
        return Finding("DKIM", False, f"{name} has no DKIM key. Add: {add}")
    tags = dict(part.strip().split("=", 1) for part in published[0].split(";") if "=" in part)
    try:
        theirs = dkim.crypto.parse_public_key(base64.b64decode("".join(tags["p"].split())))["modulus"]
    except Exception:   # a record that is not a key at all
        theirs = None
    if theirs != ours:
        return Finding("DKIM", False, f"{name} publishes another key than DKIM_KEY: receivers "
                                      f"will reject the signatures. Replace it with: {add}")
    return Finding("DKIM", True, f"{name} publishes DKIM_KEY's public key")


def dmarc(ask, domain: str) -> Finding:
    name = f"_dmarc.{domain}"
    found = [t for t in texts(ask, name) if t.upper().startswith("V=DMARC1")]
    if not found:
        return Finding("DMARC", False, f"{name} has no DMARC record. Add: {name}. TXT "
                                       f'"v=DMARC1; p=quarantine; rua=mailto:postmaster@{domain}"')
    return Finding("DMARC", True, f"{name}: {found[0]}")


def ptr(ask, address: str | None) -> Finding:
    if not address:
        return Finding("PTR", False, "give the sending address (--address) to check its reverse DNS")
    try:
        names = [str(r.target).rstrip(".") for r in
                 ask.resolve(dns.reversename.from_address(address), "PTR")]
    except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
        names = []
    if not names:
        return Finding("PTR", False, f"{address} has no reverse DNS: ask the provider of this "
                                     "address to name it (a name that resolves back to it)")
    try:
        back = {r.address for r in ask.resolve(names[0], "A")}
    except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
        back = set()
    if address not in back:
        return Finding("PTR", False, f"{address} is named {names[0]}, but {names[0]} does not "
                                     f"resolve back to {address}: add {names[0]}. A {address}")
    return Finding("PTR", True, f"{address} is named {names[0]}, which resolves back to it")


def _modulus_of_private(key: bytes) -> int:
    return int(dkim.crypto.parse_pem_private_key(key)["modulus"])
