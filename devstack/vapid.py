"""`make run`'s own Web Push key pair (VAPID, RFC 8292): made once, kept in the run folder, so that browsers
subscribed to this machine's site stay subscribed across runs. Keys given in the environment win."""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_pair() -> dict[str, str]:
    """A fresh pair as the settings take it: the private key's 32 raw bytes and the public key's 65-byte point."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {
        "VAPID_PRIVATE_KEY": _b64url(key.private_numbers().private_value.to_bytes(32, "big")),
        "VAPID_PUBLIC_KEY": _b64url(public),
    }


def vapid_env(env: Mapping[str, str], folder: Path) -> dict[str, str]:
    """The VAPID variables for `make run`: the environment's if both are set, else the folder's pair (made now if
    there is none)."""
    if env.get("VAPID_PRIVATE_KEY") and env.get("VAPID_PUBLIC_KEY"):
        return {}
    stored = folder / "vapid.json"
    if stored.exists():
        return json.loads(stored.read_text())
    pair = new_pair()
    folder.mkdir(parents=True, exist_ok=True)
    stored.write_text(json.dumps(pair))
    stored.chmod(0o600)
    return pair
