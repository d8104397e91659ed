"""Where and as whom a Store connects: OPENSEARCH_URL with OPENSEARCH_USER / OPENSEARCH_PASSWORD
(or credentials in the URL, which are moved out of it) and OPENSEARCH_CA_CERTS; for the local
node (or local cluster), its URL, its CA and the `admin` (or, for searches on behalf of an end
user, the service account's) password are found in its node home and secrets folder, so nobody
has to set anything (docs/security.md). The one part of the store that knows the local node.
"""

from __future__ import annotations

from legalsearch.config import Settings, split_credentials
from legalsearch.errors import NodeError, warn_once
from legalsearch.node import cluster, process
from legalsearch.security.secrets import local_ca, local_credentials, secrets_of
from legalsearch.store.opensearch import Connection, Identity


def resolve_url(settings: Settings) -> str:
    """OPENSEARCH_URL when set (several nodes: comma-separated), else the local node or the
    local cluster started from this machine's node home (all its running nodes)."""
    if settings.opensearch_url:
        return ",".join(split_credentials(u.strip())[0].rstrip("/") for u in settings.opensearch_url.split(",")
                        if u.strip())
    url = process.local_url(settings) or ",".join(cluster.local_urls(settings))
    if url:
        return url
    raise NodeError(
        "no OpenSearch node to talk to: set OPENSEARCH_URL (e.g. https://localhost:9200 from "
        "docker-compose.yml) or start the local node with `legalsearch node start`."
    )



def connection(settings: Settings, url: str | None = None, identity: Identity = "admin") -> Connection:
    """The URL, credentials and CA a Store uses (see the module docstring); `url` overrides the
    configured or local one."""
    raw = url or settings.opensearch_url
    parts = [split_credentials(u.strip()) for u in (raw or resolve_url(settings)).split(",") if u.strip()]
    clean = ",".join(p[0].rstrip("/") for p in parts)  # several nodes: comma-separated
    url_user, url_password = next(((p[1], p[2]) for p in parts if p[1]), (None, None))
    user = settings.opensearch_user or url_user
    password = settings.opensearch_password.get_secret_value() if settings.opensearch_password else url_password
    ca = settings.opensearch_ca_certs
    client_cert = None
    if clean.startswith("https") and set(clean.split(",")) <= cluster.known_urls(settings):  # the local node(s)
        ca = ca or local_ca(settings)
        if identity == "admin-certificate":
            found = secrets_of(settings)
            if found is None:
                raise NodeError(f"the admin certificate of the local node is in {settings.node_secrets}, which this "
                                "user cannot read: run as the user who installed the node")
            client_cert, user, password = (found.pki.admin, found.pki.admin_key), None, None
        elif not user:
            user, password = local_credentials(settings, identity) or (None, None)
    if clean.startswith("https") and not settings.opensearch_verify_certs:
        warn_once("verify-off", "TLS CERTIFICATE VERIFICATION IS OFF (LEGALSEARCH_OPENSEARCH_VERIFY_CERTS=false): "
                  "anyone between this client and OpenSearch can read and change the traffic, passwords "
                  "included. Set OPENSEARCH_CA_CERTS to the cluster's CA instead.")
    return Connection(clean, user, password, ca, settings.opensearch_verify_certs, client_cert)
