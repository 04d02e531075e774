"""The ID token's checks (app/people/oidc.py `validate`), with tokens signed here by our own
keys through joserfc (Authlib's JOSE library): the right token passes; a wrong issuer,
audience, signature, nonce, an expired token, an unsigned one and one signed with a shared
secret are refused with a reason in words."""

import time
from typing import Any

import pytest
from joserfc import jwt
from joserfc.jwk import KeySet, OctKey, RSAKey

from app.people.oidc import SignInError, validate

ISSUER = "http://127.0.0.1:9999"
CLIENT = "loupe"
NONCE = "n-0S6_WzA2Mj"
PROVIDER_KEY = RSAKey.generate_key(2048, parameters={"kid": "provider"})
OTHER_KEY = RSAKey.generate_key(2048, parameters={"kid": "provider"})
PUBLIC = KeySet([RSAKey.import_key(PROVIDER_KEY.as_dict(private=False))])


def token(key: Any = PROVIDER_KEY, alg: str = "RS256", **overrides: Any) -> str:
    now = int(time.time())
    claims = {
        "iss": ISSUER,
        "aud": CLIENT,
        "sub": "alice",
        "nonce": NONCE,
        "iat": now,
        "exp": now + 300,
        "email": "alice@example.com",
    }
    claims.update(overrides)
    claims = {name: value for name, value in claims.items() if value is not None}
    return jwt.encode({"alg": alg, "kid": "provider"}, claims, key)


def refused(id_token: str, nonce: str = NONCE) -> str:
    with pytest.raises(SignInError) as refusal:
        validate(id_token, PUBLIC, ISSUER, CLIENT, nonce)
    return str(refusal.value)


class TestValidate:
    def test_a_right_token_gives_its_claims(self) -> None:
        claims = validate(token(), PUBLIC, ISSUER, CLIENT, NONCE)
        assert claims["sub"] == "alice" and claims["email"] == "alice@example.com"
        # An audience list naming this client, with azp this client, passes too.
        listed = token(aud=[CLIENT, "other"], azp=CLIENT)
        assert validate(listed, PUBLIC, ISSUER, CLIENT, NONCE)["sub"] == "alice"
        assert validate(token(azp=CLIENT), PUBLIC, ISSUER, CLIENT, NONCE)["sub"] == "alice"

    def test_a_wrong_issuer_is_refused(self) -> None:
        assert "issued by 'http://127.0.0.1:1'" in refused(token(iss="http://127.0.0.1:1"))
        # The issuer is compared exactly (OIDC Core 3.1.3.7): a slash more or less is another.
        assert "issued by" in refused(token(iss=ISSUER + "/"))
        assert "issued by" in refused(token(iss=None))

    def test_a_wrong_audience_is_refused(self) -> None:
        assert "not this client" in refused(token(aud="someone-else"))
        assert "another client" in refused(token(aud=[CLIENT, "x"], azp="x"))
        # Several audiences without azp: the token may have been issued to the other one.
        assert "no azp" in refused(token(aud=[CLIENT, "x"]))
        # An azp naming another client is refused even for this client alone.
        assert "another client" in refused(token(azp="x"))

    def test_a_wrong_signature_is_refused(self) -> None:
        assert "signature" in refused(token(key=OTHER_KEY))
        # A token signed with a shared secret (HS256) is not accepted in place of the
        # provider's key, nor is an unsigned one.
        secret = OctKey.import_key("a-shared-secret-of-at-least-32-bytes!!")
        assert "signature" in refused(token(key=secret, alg="HS256"))
        header, body, _ = token().split(".")
        assert "signature" in refused(f"{header}.{body}.")

    def test_a_wrong_or_missing_nonce_is_refused(self) -> None:
        assert "nonce" in refused(token(nonce="replayed"))
        assert "nonce" in refused(token(nonce=None))
        assert "nonce" in refused(token(), nonce="")

    def test_an_expired_token_is_refused(self) -> None:
        old = int(time.time()) - 3600
        assert "expired" in refused(token(iat=old, exp=old + 300))
        assert "expired" in refused(token(exp=None))
