"""`make run` makes its own Web Push key pair once, keeps it in its folder, and lets the environment's win."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from devstack.stack import stack_env


def _unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def test_make_run_has_a_vapid_pair_of_its_own_kept_across_runs(tmp_path):
    first = stack_env({"PATH": "/usr/bin"}, host="127.0.0.1", port=8000, folder=tmp_path)
    again = stack_env({"PATH": "/usr/bin"}, host="127.0.0.1", port=8000, folder=tmp_path)
    assert (
        first["VAPID_PRIVATE_KEY"] == again["VAPID_PRIVATE_KEY"]
        and first["VAPID_PUBLIC_KEY"] == again["VAPID_PUBLIC_KEY"]
    )
    private = ec.derive_private_key(int.from_bytes(_unb64url(first["VAPID_PRIVATE_KEY"]), "big"), ec.SECP256R1())
    public = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    assert public == _unb64url(first["VAPID_PUBLIC_KEY"]) and len(public) == 65  # a pair, as settings take it
    assert (tmp_path / "vapid.json").stat().st_mode & 0o077 == 0  # the private key readable by its owner only
    given = {"PATH": "/usr/bin", "VAPID_PRIVATE_KEY": "mine", "VAPID_PUBLIC_KEY": "ours"}
    chosen = stack_env(given, host="127.0.0.1", port=8000, folder=tmp_path)
    assert (chosen["VAPID_PRIVATE_KEY"], chosen["VAPID_PUBLIC_KEY"]) == ("mine", "ours")
