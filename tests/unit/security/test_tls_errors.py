"""TLS failures against a real TLS server (no OpenSearch needed): a CA the client does not trust,
an expired certificate, a certificate for another host. Each is a TLSError that says what to do."""

from __future__ import annotations

import datetime as dt
import socket
import ssl
import threading

import pytest
from legalsearch.config import Settings
from legalsearch.errors import TLSError
from legalsearch.security import pki
from legalsearch.store import Store


def _serve(context: ssl.SSLContext) -> int:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)

    def loop():
        while True:
            conn, _ = listener.accept()
            try:
                with context.wrap_socket(conn, server_side=True) as tls:
                    tls.recv(1024)
            except (OSError, ssl.SSLError):
                conn.close()

    threading.Thread(target=loop, daemon=True).start()
    return listener.getsockname()[1]


@pytest.fixture(scope="module")
def ca(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ca")
    key, cert = pki.make_ca()
    (folder / "ca.pem").write_bytes(cert.public_bytes(pki.serialization.Encoding.PEM))
    return key, cert, folder / "ca.pem"


def _server(tmp_path, ca, **kw) -> int:
    key, cert = pki.issue(ca[0], ca[1], pki.NODE_NAME, server=True, **kw)
    cert_file, key_file = tmp_path / "server.pem", tmp_path / "server-key.pem"
    cert_file.write_bytes(cert.public_bytes(pki.serialization.Encoding.PEM))
    pki.write_private(key_file, key.private_bytes(pki.serialization.Encoding.PEM, pki.serialization.PrivateFormat.PKCS8,
                                                  pki.serialization.NoEncryption()))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    return _serve(context)


def _error(tmp_path, port: int, ca_file=None) -> str:
    settings = Settings(node_home=tmp_path / "node", opensearch_url=f"https://127.0.0.1:{port}",
                        opensearch_ca_certs=ca_file, request_timeout=5)
    with pytest.raises(TLSError) as caught:
        Store(settings).info()
    return str(caught.value)


def test_a_ca_the_client_does_not_trust(tmp_path, ca):
    message = _error(tmp_path, _server(tmp_path, ca, hosts=pki.HOSTS))
    assert "OPENSEARCH_CA_CERTS" in message and "Is the node running" not in message


def test_an_expired_server_certificate(tmp_path, ca):
    past = dt.datetime.now(dt.UTC) - dt.timedelta(days=1)
    port = _server(tmp_path, ca, hosts=pki.HOSTS, not_before=past - dt.timedelta(days=30), not_after=past)
    assert "has expired" in _error(tmp_path, port, ca[2])


def test_a_certificate_for_another_host(tmp_path, ca):
    message = _error(tmp_path, _server(tmp_path, ca, hosts=("db.example.org",)), ca[2])
    assert "another host name" in message
