"""The local node's certificates: one CA, a node certificate (TLS on transport and HTTP) and an
admin client certificate, made with `cryptography` (no openssl binary, no demo installer).

`ensure_pki(folder)` is idempotent: a certificate is kept while it is signed by the current CA,
has the wanted host names and is more than `renew_days` from expiry; otherwise it is reissued
(an expired node certificate stops the node from starting, so this runs before every start).
Keys are unencrypted PKCS#8 (the security plugin refuses PKCS#1), written 0600.

The distinguished names the plugin compares (`plugins.security.nodes_dn`, `authcz.admin_dn`)
are RFC 4514 strings, CN first: `NODE_DN`, `ADMIN_DN`.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

ORG = "legalsearch"
HOSTS = ("localhost", "127.0.0.1")
RENEW_DAYS = 30


def _name(cn: str, ou: str) -> x509.Name:
    return x509.Name([
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, ORG),
        x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, ou),
        x509.NameAttribute(NameOID.COMMON_NAME, cn),
    ])


NODE_NAME = _name("legalsearch-node", "node")
ADMIN_NAME = _name("legalsearch-admin", "admin")
NODE_DN = NODE_NAME.rfc4514_string()    # "CN=legalsearch-node,OU=node,O=legalsearch"
ADMIN_DN = ADMIN_NAME.rfc4514_string()  # "CN=legalsearch-admin,OU=admin,O=legalsearch"


@dataclass(frozen=True)
class Pki:
    """Where the PEM files of one node live (all in one folder: the secrets folder)."""

    folder: Path

    @property
    def ca(self) -> Path:
        return self.folder / "ca.pem"

    @property
    def ca_key(self) -> Path:
        return self.folder / "ca-key.pem"

    @property
    def node(self) -> Path:
        return self.folder / "node.pem"

    @property
    def node_key(self) -> Path:
        return self.folder / "node-key.pem"

    @property
    def admin(self) -> Path:
        return self.folder / "admin.pem"

    @property
    def admin_key(self) -> Path:
        return self.folder / "admin-key.pem"


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _new_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def write_private(path: Path, data: bytes) -> None:
    """Write `data` readable by its owner only (created 0600, then renamed into place)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    tmp.replace(path)


def _write_key(path: Path, key) -> None:
    write_private(path, key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))


def _write_cert(path: Path, cert: x509.Certificate) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    tmp.chmod(0o644)  # a certificate is public: clients read ca.pem
    tmp.replace(path)


def _key_usage(ca: bool) -> x509.KeyUsage:
    return x509.KeyUsage(digital_signature=True, key_encipherment=not ca, key_cert_sign=ca, crl_sign=ca,
                         content_commitment=False, data_encipherment=False, key_agreement=False,
                         encipher_only=False, decipher_only=False)


def make_ca(days: int = 3650) -> tuple[rsa.RSAPrivateKey, x509.Certificate]:
    key = _new_key()
    name = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, ORG),
                      x509.NameAttribute(NameOID.COMMON_NAME, f"{ORG} local CA")])
    now = _now()
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5)).not_valid_after(now + dt.timedelta(days=days))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_key_usage(ca=True), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    return key, cert


def issue(ca_key, ca_cert: x509.Certificate, subject: x509.Name, *, server: bool, hosts=(), days: int = 825,
          not_before: dt.datetime | None = None, not_after: dt.datetime | None = None):
    """A leaf certificate signed by the CA: a node certificate (`server`: serverAuth + clientAuth,
    with `hosts` as SANs, used for transport and HTTP) or a client one (clientAuth only).
    `not_before` / `not_after` override `days` (tests make expired certificates with them)."""
    key = _new_key()
    now = _now()
    eku = [ExtendedKeyUsageOID.CLIENT_AUTH] + ([ExtendedKeyUsageOID.SERVER_AUTH] if server else [])
    builder = (
        x509.CertificateBuilder().subject_name(subject).issuer_name(ca_cert.subject).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(not_before or now - dt.timedelta(minutes=5))
        .not_valid_after(not_after or now + dt.timedelta(days=days))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_key_usage(ca=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage(eku), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
    )
    if hosts:
        builder = builder.add_extension(_san(hosts), critical=False)
    return key, builder.sign(ca_key, hashes.SHA256())


def _san(hosts) -> x509.SubjectAlternativeName:
    entries: list[x509.GeneralName] = []
    for host in hosts:
        try:
            entries.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            entries.append(x509.DNSName(host))
    return x509.SubjectAlternativeName(entries)


def load_cert(path: Path) -> x509.Certificate | None:
    try:
        return x509.load_pem_x509_certificate(path.read_bytes())
    except (OSError, ValueError):
        return None


def _still_good(cert: x509.Certificate | None, ca_cert: x509.Certificate, hosts=()) -> bool:
    if cert is None or cert.issuer != ca_cert.subject:
        return False
    if cert.not_valid_after_utc - _now() < dt.timedelta(days=RENEW_DAYS):
        return False
    try:
        cert.verify_directly_issued_by(ca_cert)
    except (ValueError, TypeError, Exception):  # InvalidSignature has no common base to name
        return False
    if hosts:
        try:
            san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        except x509.ExtensionNotFound:
            return False
        have = {str(v) for v in san.get_values_for_type(x509.DNSName)}
        have |= {str(v) for v in san.get_values_for_type(x509.IPAddress)}
        return set(hosts) <= have
    return True


def ensure_pki(folder: Path, hosts=HOSTS) -> Pki:
    """Create or keep the CA, node and admin certificates in `folder`. Idempotent."""
    pki = Pki(folder)
    ca_cert = load_cert(pki.ca)
    ca_key = None
    if ca_cert is not None and pki.ca_key.is_file():
        ca_key = serialization.load_pem_private_key(pki.ca_key.read_bytes(), password=None)
        if ca_cert.not_valid_after_utc - _now() < dt.timedelta(days=RENEW_DAYS):
            ca_cert = None
    if ca_cert is None or ca_key is None:
        ca_key, ca_cert = make_ca()
        _write_key(pki.ca_key, ca_key)
        _write_cert(pki.ca, ca_cert)
    for cert_path, key_path, subject, server in ((pki.node, pki.node_key, NODE_NAME, True),
                                                 (pki.admin, pki.admin_key, ADMIN_NAME, False)):
        if _still_good(load_cert(cert_path), ca_cert, hosts if server else ()) and key_path.is_file():
            continue
        key, cert = issue(ca_key, ca_cert, subject, server=server, hosts=hosts if server else ())
        _write_key(key_path, key)
        _write_cert(cert_path, cert)
    return pki
