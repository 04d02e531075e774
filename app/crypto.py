"""Encryption of stored secrets (candidate-model API keys, webhook signing secrets) with
Fernet; signing keys.

The key comes from LOUPE_SECRET_KEY (at least 32 bytes; SHA-256 of it is the Fernet key) or,
when that is unset (embedded mode only), from a random key kept in LOUPE_SECRET_KEY_FILE,
created on first use, readable by its owner only.
"""

import base64
import hashlib
import hmac
import os
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken

from app.config import Settings
from app.db import owner_only

_fernets: dict[str, Fernet] = {}


def _key_material(settings: Settings) -> str:
    if settings.secret_key:
        return settings.secret_key
    path = Path(settings.secret_key_file)
    if not path.exists():
        # Owner only, like the file: the key decrypts every stored model key and webhook secret.
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # O_EXCL: two processes starting at once must not each write a different key.
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as handle:
                handle.write(base64.urlsafe_b64encode(os.urandom(32)).decode())
    else:
        owner_only(path)
    return path.read_text().strip()


def _fernet(settings: Settings) -> Fernet:
    material = _key_material(settings)
    fernet = _fernets.get(material)
    if fernet is None:
        key = base64.urlsafe_b64encode(hashlib.sha256(material.encode()).digest())
        fernet = _fernets[material] = Fernet(key)
    return fernet


def encrypt(settings: Settings, plaintext: str) -> bytes:
    """The Fernet token of `plaintext`."""
    return _fernet(settings).encrypt(plaintext.encode())


class SecretUnavailable(Exception):
    """A stored secret that this process's key cannot decrypt."""


def decrypt(settings: Settings, token: bytes) -> str:
    """The plaintext of a token made by `encrypt`; raises SecretUnavailable on a wrong key."""
    try:
        return _fernet(settings).decrypt(bytes(token)).decode()
    except InvalidToken as exc:
        raise SecretUnavailable(
            "a stored API key cannot be decrypted: LOUPE_SECRET_KEY differs from the one "
            "it was stored with"
        ) from exc


def signing_key(settings: Settings, purpose: str) -> bytes:
    """A key for HMAC signatures of one purpose, derived from LOUPE_SECRET_KEY's material."""
    return hmac.new(_key_material(settings).encode(), purpose.encode(), hashlib.sha256).digest()
