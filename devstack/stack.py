"""`make run`: the deployed system, small. On the PostgreSQL and Redis that devstack/local.py gives it:

- migrate, create the demo accounts and games, collect the static files;
- then, under honcho (the `Procfile` at the top of the tree), the processes production runs: the web server, a
  Celery worker on both queues, beat, the inbound mail handler (replies by email), and an SMTP catcher that keeps
  the site's outgoing mail for the local mailbox page (/local/mail/).

Ctrl-C stops honcho, which stops its processes; devstack/local.py then stops the servers.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from urllib.parse import urlsplit

from devstack.embedded import free_port
from devstack.vapid import vapid_env

ROOT = Path(__file__).resolve().parent.parent

# What the local run changes from production's defaults: a short email clock with a fast tick, so that a clock
# is seen to run out within minutes, and mail kept on this machine.
LOCAL_DEFAULTS = {
    "ASYNC_MIN_MOVE_SECONDS": "180",
    "CLOCKS_TICK_SECONDS": "10",
    "INBOUND_EMAIL_DOMAIN": "catan.localhost",
    "BOT_WORKERS": "2",
}


def say(message: str) -> None:
    print(f"[make run] {message}", file=sys.stderr, flush=True)


def port_taken(host: str, port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind((host, port))
        except OSError:
            return True
    return False


def site_url(given: str, host: str, port: int) -> str:
    """The links in mails name the port this run serves on: a SITE_URL on this machine (.env's example says
    127.0.0.1:8000) follows HOST and PORT; one elsewhere (a proxy in front) is kept."""
    if given and urlsplit(given).hostname not in ("127.0.0.1", "localhost", "::1", None):
        return given
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    return f"http://{shown}:{port}"


def stack_env(env: Mapping[str, str], *, host: str, port: int, folder: Path) -> dict[str, str]:
    mail_port, inbound_port = free_port(), free_port()
    full = {**LOCAL_DEFAULTS, **env}
    full.update(
        WEB_HOST=host,
        WEB_PORT=str(port),
        SITE_URL=site_url(full.get("SITE_URL", ""), host, port),
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(mail_port),
        MAIL_SMTP_PORT=str(mail_port),
        INBOUND_SMTP_PORT=str(inbound_port),
        LOCAL_INBOUND_SMTP=f"127.0.0.1:{inbound_port}",
        LOCAL_MAILBOX_DIR=str(folder / "mail"),
        LOCAL_FOLDER=str(folder),
        PYTHONUNBUFFERED="1",
        # honcho runs each line of the Procfile in a shell: `python` and `celery` are the virtualenv's.
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
    )
    full.update(vapid_env(full, folder))  # Web Push keys of this machine's own
    return full


# The three management commands in one process: each Django start is seconds of a start's wait, twice on CI.
_PREPARE = """
import os, django
from django.core.management import call_command
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catan_site.settings")
django.setup()
call_command("migrate", interactive=False)
call_command("ensure_demo")
call_command("collectstatic", interactive=False, verbosity=0)
"""


def _prepare(env: Mapping[str, str]) -> None:
    """Migrate, create the demo accounts and games, collect the static files (in a process of their own: the
    settings are the stack's environment, not this wrapper's)."""
    subprocess.run([sys.executable, "-c", _PREPARE], env=dict(env), cwd=ROOT, check=True)


def _announce_when_ready(url: str, mailbox: str, deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    say(f"ready: Catan on {url}/  (log in as demo / demo; admin / admin moderates)")
                    say(f"the site's mail (turn mails, reminders, sign-up links; reply from there): {mailbox}")
                    say(f"the operator's page (log in as admin / admin): {url}/ops/")
                    say("Ctrl-C stops everything")
                    return
        except OSError:
            pass
        time.sleep(0.5)
    say(f"the web server did not answer on {url} within a minute: see the web.1 lines above")


def run_stack(
    env: Mapping[str, str], *, host: str, port: int, folder: Path, run_command: Callable[[list[str], Mapping], int]
) -> int:
    """Prepare the database, then run the Procfile's processes with `run_command` until Ctrl-C."""
    full = stack_env(env, host=host, port=port, folder=folder)
    say("migrating and creating the demo accounts and games")
    _prepare(full)
    url = full["SITE_URL"].rstrip("/")
    watcher = threading.Thread(
        target=_announce_when_ready, args=(url, f"{url}/local/mail/", time.monotonic() + 60), daemon=True
    )
    watcher.start()
    return run_command([sys.executable, "-m", "honcho", "start", "-f", str(ROOT / "Procfile"), "-d", str(ROOT)], full)
