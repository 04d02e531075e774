"""Encryption of stored secrets (candidate-model API keys, webhook signing secrets) with
Fernet; signing keys.

The key comes from LOUPE_SECRET_KEY (at least 32 bytes; SHA-256 of it is the Fernet key) or,
when that is unset (embedded mode only), from a random key kept in LOUPE_SECRET_KEY_FILE,
created on first use, readable by its owner only.
"""

import base64
import contextlib
import hashlib
import hmac
import os
import tempfile
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken

from app.config import ConfigError, Settings, secret_key_problem
from app.db import owner_only

_fernets: dict[str, Fernet] = {}
# The key of each key file, read and checked once per process: signing keys are asked for on
# every console request, and the file does not change while Loupe runs.
_file_keys: dict[Path, str] = {}


def _key_material(settings: Settings) -> str:
    if settings.secret_key:
        return settings.secret_key
    path = Path(settings.secret_key_file).absolute()
    material = _file_keys.get(path)
    if material is None:
        material = _file_keys[path] = _read_key_file(path)
    return material


def _read_key_file(path: Path) -> str:
    """The key in `path` (made first if there is none); ConfigError when it is not usable."""
    if path.exists():
        owner_only(path)
    else:
        _create_key_file(path)
    material = path.read_text().strip()
    problem = secret_key_problem(material)
    if problem is not None:
        raise ConfigError(f"LOUPE_SECRET_KEY_FILE {path}: the key in it {problem}")
    return material


def _create_key_file(path: Path) -> None:
    """Write a random key to `path`, owner-only, whole or not at all: the key is written to a
    temporary file first and linked into place, so a process starting at the same moment
    reads either no file or the whole key, and of two such processes one key wins."""
    # Owner only, like the file: the key decrypts every stored model key and webhook secret.
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".secret-")  # mode 0600
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(base64.urlsafe_b64encode(os.urandom(32)).decode())
        with contextlib.suppress(FileExistsError):
            os.link(temporary, path)
    finally:
        os.unlink(temporary)


def check_key(settings: Settings) -> None:
    """Raise ConfigError at start-up when the key file holds no usable key (making the file
    first if there is none), rather than on the first request that encrypts."""
    _key_material(settings)


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
