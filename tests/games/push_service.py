"""A push service stand-in that speaks the protocol (RFC 8030 message delivery, RFC 8291 message encryption, RFC 8292
VAPID), for tests of the site's unchanged push code: an HTTP server on this machine that takes each encrypted POST,
checks its VAPID JWT against the site's public key (ES256 signature, audience, expiry, subject), decrypts the body
with `http_ece` and the subscription's own private key and auth secret (which only the browser holds: the test
plays the browser), and keeps what it read. An endpoint can be made to answer 410 (gone) or 500 (failing)."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from devstack.embedded import free_port


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def point(public_key: ec.EllipticCurvePublicKey) -> bytes:
    return public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def vapid_key_pair() -> tuple[str, str]:
    """A site's VAPID pair as settings take it: (private key's raw 32 bytes, public uncompressed point), base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big")), b64url(point(key.public_key()))


@dataclass
class Browser:
    """A browser's side of one subscription: its key pair and auth secret (RFC 8291 3.2)."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict:
        """What PushSubscription.toJSON() gives the page."""
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(point(self.key.public_key())), "auth": b64url(self.auth)},
        }


class PushService:
    def __init__(self, site_public_key: str) -> None:
        self.site_public_key = site_public_key
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.browsers: dict[str, Browser] = {}
        self.received: dict[str, list[dict]] = {}
        self.rejected: list[str] = []
        self.answer: dict[str, int] = {}  # endpoint path -> status to answer instead of 201
        self.lock = threading.Lock()
        self.server: ThreadingHTTPServer | None = None

    def browser(self, name: str) -> Browser:
        browser = Browser(endpoint=f"{self.origin}/push/{name}")
        self.browsers[f"/push/{name}"] = browser
        return browser

    def notices(self, browser: Browser) -> list[dict]:
        with self.lock:
            return list(self.received.get(browser.endpoint, []))

    def start(self) -> None:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's hook name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                status, reason = service.take(self.path, dict(self.headers.items()), body)
                if reason:
                    with service.lock:
                        service.rejected.append(reason)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def take(self, path: str, headers: dict[str, str], body: bytes) -> tuple[int, str]:
        """(status, why it was refused or "") for one POST."""
        headers = {k.lower(): v for k, v in headers.items()}
        browser = self.browsers.get(path)
        if browser is None:
            return 404, f"unknown endpoint {path}"
        if path in self.answer:
            return self.answer[path], ""
        if "ttl" not in headers:
            return 400, "no TTL header (RFC 8030 5.2)"
        if headers.get("content-encoding") != "aes128gcm":
            return 415, f"content encoding {headers.get('content-encoding')}"
        refused = self.check_vapid(headers.get("authorization", ""))
        if refused:
            return 401, refused
        try:
            plain = http_ece.decrypt(body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm")
        except Exception as error:
            return 400, f"cannot decrypt: {error}"
        with self.lock:
            self.received.setdefault(browser.endpoint, []).append(json.loads(plain))
        return 201, ""

    def check_vapid(self, authorization: str) -> str:
        """RFC 8292: `vapid t=<JWT>, k=<public key>`; the key must be the site's, the JWT signed by it (ES256),
        for this push service's origin, not expired (nor more than 24 hours ahead), with a contact subject."""
        if not authorization.startswith("vapid "):
            return f"not a vapid authorization: {authorization[:20]}"
        parts = dict(part.strip().split("=", 1) for part in authorization[6:].split(","))
        if parts.get("k") != self.site_public_key:
            return "not the site's public key"
        header, claims, signature = parts.get("t", "").split(".")
        if json.loads(unb64url(header)).get("alg") != "ES256":
            return "not ES256"
        raw = unb64url(signature)
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(self.site_public_key))
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        try:
            public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        except Exception:
            return "bad signature"
        claims = json.loads(unb64url(claims))
        if claims.get("aud") != self.origin:
            return f"audience {claims.get('aud')}"
        if not time.time() < claims.get("exp", 0) <= time.time() + 86400:
            return "expired or too far ahead"
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            return "no contact subject"
        return ""
