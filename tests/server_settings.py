"""Settings of the servers and workers the suite starts in processes of their own (`tests/games/servers.py`):
production's, with the fast password hasher the suite's own process uses (`tests/conftest.py`).

A failed log-in hashes a dummy password with the first hasher when the name it tried is not an account (Django's
guard against telling which accounts exist by timing; allauth tries the name as a username, then as an address):
PBKDF2's million rounds are about a second of CPU on CI's cores, for every wrong password a test sends."""

from catan_site.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
