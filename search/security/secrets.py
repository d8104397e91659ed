"""The local node's secrets (docs/security.md): `Settings.node_secrets` (default
`<node_home>-secrets`), a 0700 folder whose files are 0600 except the CA certificate, never inside
the node home (which is chowned to the node's system user). Made once and kept (idempotent):

    ca.pem ca-key.pem node.pem node-key.pem admin.pem admin-key.pem   (search.security.pki)
    admin-password      the `admin` user (all_access); printed only by `legalsearch node credentials --show-password`
    service-password    the `legalsearch-service` account that runs searches for verified end users
    compliance-salt     the plugin's field-masking salt
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import string
from dataclasses import dataclass
from pathlib import Path

from legalsearch.config import Settings
from legalsearch.errors import NodeError
from legalsearch.security import pki
from legalsearch.security.roles import ADMIN_USER, SERVICE_USER


@dataclass(frozen=True)
class Secrets:
    folder: Path

    @property
    def pki(self) -> pki.Pki:
        return pki.Pki(self.folder)

    @property
    def admin_password_file(self) -> Path:
        return self.folder / "admin-password"

    @property
    def service_password_file(self) -> Path:
        return self.folder / "service-password"

    @property
    def salt_file(self) -> Path:
        return self.folder / "compliance-salt"

    @property
    def token_keys_file(self) -> Path:
        """The keys of the node's on-behalf-of tokens (JSON: signing_key, encryption_key; base64)."""
        return self.folder / "token-keys.json"

    def token_keys(self) -> dict[str, str]:
        return json.loads(self.token_keys_file.read_text())

    def admin_password(self) -> str:
        return self.admin_password_file.read_text().strip()

    def service_password(self) -> str:
        return self.service_password_file.read_text().strip()


def make_password(length: int = 24) -> str:
    """Random letters, digits and `-_.~` with every class present (the plugin scores passwords)."""
    alphabet = string.ascii_letters + string.digits + "-_.~"
    while True:
        password = "".join(secrets.choice(alphabet) for _ in range(length))
        if (any(c.islower() for c in password) and any(c.isupper() for c in password)
                and any(c.isdigit() for c in password) and any(c in "-_.~" for c in password)):
            return password


def write_secret(path: Path, value: str) -> None:
    pki.write_private(path, (value + "\n").encode())


def _token_keys() -> str:
    """New on-behalf-of token keys: a 512-bit HMAC signing key (HS512) and a 128-bit key that
    encrypts the roles inside a token."""
    return json.dumps({"signing_key": base64.b64encode(secrets.token_bytes(64)).decode(),
                       "encryption_key": base64.b64encode(secrets.token_bytes(16)).decode()})


def ensure_secrets(settings: Settings) -> Secrets:
    """Create (or keep) the CA, certificates, passwords and salt of the local node."""
    folder = settings.node_secrets
    if folder.resolve().is_relative_to(settings.node_home.resolve()):
        raise NodeError(f"LEGALSEARCH_SECRETS_DIR={folder} is inside the node home {settings.node_home}, which is "
                        "handed to the node's system user: choose a folder outside it")
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)
    found = Secrets(folder)
    pki.ensure_pki(folder)
    for path, make in ((found.admin_password_file, make_password), (found.service_password_file, make_password),
                       (found.salt_file, lambda: secrets.token_hex(8)),
                       (found.token_keys_file, _token_keys)):
        if not path.is_file() or not path.read_text().strip():
            write_secret(path, make())
    return found


def secrets_of(settings: Settings) -> Secrets | None:
    """The local node's secrets when they exist and this process may read them."""
    found = Secrets(settings.node_secrets)
    try:
        found.admin_password_file.stat()
        return found if os.access(found.admin_password_file, os.R_OK) else None
    except OSError:
        return None


def local_credentials(settings: Settings, identity: str = "admin") -> tuple[str, str] | None:
    """(user, password) of the local node's `admin` or `service` account, if readable here."""
    found = secrets_of(settings)
    if found is None:
        return None
    if identity == "service":
        return SERVICE_USER, found.service_password()
    return ADMIN_USER, found.admin_password()


def local_ca(settings: Settings) -> Path | None:
    ca = pki.Pki(settings.node_secrets).ca
    return ca if ca.is_file() else None
