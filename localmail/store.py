"""The mails the local catcher kept (devstack/mailcatcher.py writes one .eml file each), read back."""

from __future__ import annotations

import email
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.policy import default as default_policy
from email.utils import getaddresses
from pathlib import Path

NAME = re.compile(r"^[0-9]+-[0-9]+-[0-9]{6}$")


@dataclass(frozen=True)
class Mail:
    name: str
    received: datetime
    message: EmailMessage

    @property
    def subject(self) -> str:
        return str(self.message.get("Subject", ""))

    @property
    def recipients(self) -> list[str]:
        return [address.lower() for _, address in getaddresses(self.message.get_all("To", []))]

    @property
    def reply_to(self) -> str:
        addresses = getaddresses(self.message.get_all("Reply-To", []))
        return addresses[0][1] if addresses else ""

    @property
    def text(self) -> str:
        body = self.message.get_body(preferencelist=("plain", "html"))
        return body.get_content() if body is not None else ""


def _read(path: Path) -> Mail:
    message = email.message_from_bytes(path.read_bytes(), policy=default_policy)
    received = datetime.fromtimestamp(int(path.stem.split("-")[0]) / 1e9, tz=UTC)
    return Mail(path.stem, received, message)  # type: ignore[arg-type]


def latest(folder: Path, *, to: str = "", limit: int = 50) -> list[Mail]:
    """The newest mails first; only those addressed to `to` when given."""
    if not folder.is_dir():
        return []
    mails = []
    for path in sorted(folder.glob("*.eml"), reverse=True):
        mail = _read(path)
        if to and to.lower() not in mail.recipients:
            continue
        mails.append(mail)
        if len(mails) == limit:
            break
    return mails


def one(folder: Path, name: str) -> Mail | None:
    if not NAME.match(name):
        return None
    path = folder / f"{name}.eml"
    return _read(path) if path.is_file() else None
