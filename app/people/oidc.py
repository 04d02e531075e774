"""OpenID Connect sign-in: the provider's discovery and keys, the authorization request
(authorization code with PKCE, Authlib's S256 challenge), the code exchange and the ID token's
checks (joserfc, Authlib's JOSE library).

Every request to the provider goes through the outbound address policy first (public addresses
only unless `LOUPE_OIDC_ALLOW` or the deprecated `LOUPE_ALLOW_PRIVATE_URLS` allows the host), and
is sent to the address the policy checked (no second lookup, no proxy of the environment, no
redirect), its answer read up to `MAX_ANSWER_BYTES`. The client secret is sent to the token
endpoint only, never logged.
"""

import json
import secrets
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import httpx
from authlib.oauth2.rfc7636 import create_s256_code_challenge
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet

from app.config import Settings
from app.media.fetch import trust_context
from app.media.netguard import (
    AddressPolicy,
    BlockedAddress,
    IPAddress,
    parse_allow,
    pin,
    resolve_sync,
    url_host,
)

SCOPE = "openid email profile"
# Asymmetric algorithms only: an HS256 token would be signed with the client secret, which
# every holder of it could forge.
ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512")
TIMEOUT = httpx.Timeout(10.0, connect=5.0)
# A discovery document, a key set or a token answer is a few kilobytes.
MAX_ANSWER_BYTES = 1 << 20
# A request to the provider, answer and all (TIMEOUT bounds each wait within it).
DEADLINE_SECONDS = 20.0
# Discovery and keys are read again after this long, and keys at once for an unknown key id.
CACHE_SECONDS = 3600.0


class SignInError(Exception):
    """An OIDC sign-in refused: the message says why, in words for the sign-in error page."""


class SignatureError(SignInError):
    """The ID token is not signed by one of the keys at hand (the provider may have rotated)."""


@dataclass(frozen=True)
class Provider:
    issuer: str
    authorization_endpoint: str
    token_endpoint: str
    jwks_uri: str


@dataclass(frozen=True)
class Pending:
    """What the browser's short-lived sign-in cookie carries between the redirect to the
    provider and its callback."""

    state: str
    nonce: str
    code_verifier: str
    next: str


def enabled(settings: Settings) -> bool:
    return bool(settings.oidc_issuer and settings.oidc_client_id)


def policy(settings: Settings) -> AddressPolicy:
    """Where the provider may be reached: public addresses, plus LOUPE_OIDC_ALLOW's hosts."""
    names, networks = parse_allow(settings.oidc_allow)
    return AddressPolicy(
        allow_private=settings.allow_private_urls,
        allowlist=names | frozenset(settings.fetch_allowlist),
        networks=networks,
        setting="LOUPE_OIDC_ALLOW",
    )


def check_url(settings: Settings, url: str) -> list[IPAddress]:
    """The addresses to connect to for `url`, each checked by the policy; SignInError unless
    `url` is http(s) and its host may be connected to."""
    target = httpx.URL(url)
    if target.scheme not in ("http", "https") or not target.host:
        raise SignInError(f"The identity provider's URL {url!r} is not an http(s) URL.")
    port = target.port or (443 if target.scheme == "https" else 80)
    try:
        return resolve_sync(url_host(target), port, policy(settings))
    except BlockedAddress as exc:
        raise SignInError(f"Loupe may not connect to the identity provider: {exc}.") from None


def _send(
    settings: Settings, method: str, url: str, **options: Any
) -> tuple[httpx.Response, bytes]:
    """`method url` sent to an address the policy checked (each in turn until one connects;
    Host, SNI and the certificate check keep the URL's host), and its answer's body up to
    MAX_ANSWER_BYTES, all within DEADLINE_SECONDS.

    Raises:
        SignInError: the host is refused, or the answer is longer or slower than that.
        httpx.HTTPError: the provider could not be reached or read.
    """
    auth = options.pop("auth", None)
    addresses = check_url(settings, url)
    verify = trust_context(settings.ca_bundle) or True
    deadline = time.monotonic() + DEADLINE_SECONDS
    with httpx.Client(
        trust_env=False, follow_redirects=False, timeout=TIMEOUT, verify=verify
    ) as client:
        for index, address in enumerate(addresses):
            target, headers, extensions = pin(httpx.URL(url), address)
            # Read as sent: a compressed answer is not inflated (it fails as JSON instead).
            headers["Accept-Encoding"] = "identity"
            request = client.build_request(
                method, target, headers=headers, extensions=extensions, **options
            )
            try:
                response = client.send(request, auth=auth, stream=True)
            except httpx.ConnectError:
                if index == len(addresses) - 1:
                    raise
                continue
            try:
                return response, _read(response, url, deadline)
            finally:
                response.close()
    raise AssertionError("unreachable: resolve_sync gives at least one address")


def _read(response: httpx.Response, url: str, deadline: float) -> bytes:
    body = bytearray()
    for chunk in response.iter_raw():
        body += chunk
        if len(body) > MAX_ANSWER_BYTES:
            raise SignInError(
                f"The identity provider's answer from {url} is longer than "
                f"{MAX_ANSWER_BYTES} bytes."
            )
        if time.monotonic() > deadline:
            raise SignInError(
                f"The identity provider's answer from {url} took longer than "
                f"{DEADLINE_SECONDS:g} s."
            )
    return bytes(body)


def _get_json(settings: Settings, url: str) -> dict[str, Any]:
    try:
        response, raw = _send(settings, "GET", url)
        response.raise_for_status()
        body = json.loads(raw)
    except (httpx.HTTPError, ValueError) as exc:
        raise SignInError(f"The identity provider did not answer {url}: {exc}") from None
    if not isinstance(body, dict):
        raise SignInError(f"The identity provider's {url} is not a JSON object.")
    return body


_cache: dict[str, tuple[float, Any]] = {}
_cache_lock = threading.Lock()


def _cached(key: str, load: Any, fresh: bool = False) -> Any:
    with _cache_lock:
        hit = _cache.get(key)
    if hit is not None and not fresh and time.monotonic() - hit[0] < CACHE_SECONDS:
        return hit[1]
    value = load()
    with _cache_lock:
        _cache[key] = (time.monotonic(), value)
    return value


def discover(settings: Settings) -> Provider:
    """The provider's endpoints from `<issuer>/.well-known/openid-configuration`."""
    issuer = str(settings.oidc_issuer).rstrip("/")

    def load() -> Provider:
        found = _get_json(settings, f"{issuer}/.well-known/openid-configuration")
        try:
            provider = Provider(
                issuer=str(found["issuer"]),
                authorization_endpoint=str(found["authorization_endpoint"]),
                token_endpoint=str(found["token_endpoint"]),
                jwks_uri=str(found["jwks_uri"]),
            )
        except KeyError as exc:
            raise SignInError(f"The provider's discovery document lacks {exc}.") from None
        if provider.issuer.rstrip("/") != issuer:
            raise SignInError(
                f"The provider says its issuer is {provider.issuer!r}, not LOUPE_OIDC_ISSUER "
                f"{issuer!r}."
            )
        return provider

    return _cached(f"discovery {issuer}", load)


def keys(settings: Settings, provider: Provider, fresh: bool = False) -> KeySet:
    """The provider's signing keys (JWKS)."""

    def load() -> KeySet:
        try:
            return KeySet.import_key_set(_get_json(settings, provider.jwks_uri))  # type: ignore[arg-type]
        except (JoseError, ValueError, TypeError) as exc:
            raise SignInError(f"The provider's keys could not be read: {exc}") from None

    return _cached(f"jwks {provider.jwks_uri}", load, fresh)


def start(next_page: str) -> Pending:
    """A new sign-in's random state, nonce and PKCE verifier."""
    return Pending(
        state=secrets.token_urlsafe(24),
        nonce=secrets.token_urlsafe(24),
        code_verifier=secrets.token_urlsafe(48),
        next=next_page,
    )


def authorization_url(
    settings: Settings, provider: Provider, pending: Pending, redirect_uri: str
) -> str:
    """Where the browser goes to sign in at the provider."""
    check_url(settings, provider.authorization_endpoint)
    params = {
        "response_type": "code",
        "client_id": settings.oidc_client_id,
        "redirect_uri": redirect_uri,
        "scope": SCOPE,
        "state": pending.state,
        "nonce": pending.nonce,
        "code_challenge": create_s256_code_challenge(pending.code_verifier),
        "code_challenge_method": "S256",
    }
    separator = "&" if "?" in provider.authorization_endpoint else "?"
    return f"{provider.authorization_endpoint}{separator}{urlencode(params)}"


def exchange(
    settings: Settings, provider: Provider, code: str, pending: Pending, redirect_uri: str
) -> str:
    """The ID token the provider gives for the authorization code (with the PKCE verifier)."""
    data = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": redirect_uri,
        "code_verifier": pending.code_verifier,
        "client_id": str(settings.oidc_client_id),
    }
    auth = (
        httpx.BasicAuth(str(settings.oidc_client_id), settings.oidc_client_secret)
        if settings.oidc_client_secret
        else None
    )
    try:
        response, raw = _send(settings, "POST", provider.token_endpoint, data=data, auth=auth)
        body = json.loads(raw)
    except (httpx.HTTPError, ValueError) as exc:
        raise SignInError(f"The identity provider's token endpoint failed: {exc}") from None
    if response.status_code != 200 or not isinstance(body, dict):
        error = body.get("error") if isinstance(body, dict) else None
        raise SignInError(
            f"The identity provider refused the sign-in code ({response.status_code}"
            f"{': ' + str(error) if error else ''})."
        )
    id_token = body.get("id_token")
    if not isinstance(id_token, str):
        raise SignInError("The identity provider sent no ID token.")
    return id_token


def validate(
    id_token: str,
    key_set: KeySet,
    issuer: str,
    client_id: str,
    nonce: str,
    now: int | None = None,
) -> dict[str, Any]:
    """The ID token's claims once its signature (one of the provider's keys), issuer, audience,
    nonce and expiry are right; SignInError naming what is wrong otherwise.

    As OpenID Connect Core 3.1.3.7 says: `iss` is exactly the provider's issuer (the one its
    discovery document names, no trailing slash added or taken away); `aud` names this client;
    a token for several audiences must say it was issued to this client (`azp`), and an `azp`
    naming another client is refused whatever the audience."""
    try:
        token = jwt.decode(id_token, key_set, algorithms=list(ALGORITHMS))
    except (JoseError, ValueError) as exc:
        raise SignatureError(f"The ID token's signature is not the provider's ({exc}).") from None
    claims: Mapping[str, Any] = token.claims
    if claims.get("iss") != issuer:
        raise SignInError(f"The ID token was issued by {claims.get('iss')!r}, not {issuer!r}.")
    audience = claims.get("aud")
    audiences = audience if isinstance(audience, list) else [audience]
    if client_id not in audiences:
        raise SignInError(f"The ID token is for {audience!r}, not this client ({client_id!r}).")
    authorized = claims.get("azp")
    if authorized is not None and authorized != client_id:
        raise SignInError(f"The ID token was issued to another client (azp {authorized!r}).")
    if len(audiences) > 1 and authorized is None:
        raise SignInError(
            f"The ID token is for several audiences {audiences!r} and does not say it was "
            "issued to this client (no azp)."
        )
    if not nonce or not secrets.compare_digest(str(claims.get("nonce", "")), nonce):
        raise SignInError("The ID token's nonce is not this sign-in's (a replayed token).")
    registry = jwt.JWTClaimsRegistry(
        now=now, leeway=60, exp={"essential": True}, sub={"essential": True}
    )
    try:
        registry.validate(dict(claims))
    except JoseError as exc:
        raise SignInError(f"The ID token is expired or incomplete ({exc}).") from None
    return dict(claims)


def verified_claims(
    settings: Settings, provider: Provider, id_token: str, nonce: str
) -> dict[str, Any]:
    """`validate` with the provider's keys, read again once if the signature matches none of
    them (the provider may have rotated its keys)."""
    client_id = str(settings.oidc_client_id)
    try:
        return validate(id_token, keys(settings, provider), provider.issuer, client_id, nonce)
    except SignatureError:
        fresh = keys(settings, provider, fresh=True)
        return validate(id_token, fresh, provider.issuer, client_id, nonce)
