#!/usr/bin/env bash
# The inside of bench/fuzz_api.sh, with DATABASE_URL and REDIS_URL set by devstack.local.
set -euo pipefail
PY=.venv/bin/python
export DEBUG=0 SECRET_KEY=fuzz-only-secret-key-not-for-production ALLOWED_HOSTS=127.0.0.1,localhost
for name in RATE_LIMIT_MOVES RATE_LIMIT_CHAT RATE_LIMIT_INVITES RATE_LIMIT_REPORTS_PER_HOUR \
    RATE_LIMIT_GAMES_PER_HOUR MAX_GAMES_PER_USER MAX_WAITING_GAMES_PER_USER INVITE_EMAILS_PER_DAY; do
  export "$name=1000000"
done
$PY manage.py migrate --noinput >/dev/null
$PY manage.py shell -c '
from accounts.models import User
from games import services
from moderation.services import moderators_group
def person(name, **extra):
    return User.objects.get_or_create(username=name, defaults={"email": f"{name}@example.com", **extra})[0]
player, other = person("fuzz-player"), person("fuzz-other")
game = services.game_create(creator=player, seat_count=4, bot_seats=[2, 3])
services.seat_join(game_id=game.pk, user=other, invite=game.invite_token)
services.game_start(game_id=game.pk, user=player)
person("fuzz-moderator").groups.add(moderators_group())
person("fuzz-admin", is_staff=True, is_superuser=True)
'
# A fresh token for each run: a run may end its own account's tokens (a password change, a revocation).
token_for() {
  $PY manage.py shell -c "
from rest_framework.authtoken.models import Token
from accounts.models import User
user = User.objects.get(username='$1')
User.objects.filter(pk=user.pk).update(is_active=True)
Token.objects.filter(user=user).delete()
print(Token.objects.create(user=user).key)"
}
declare -A NAMES=([player]=fuzz-player [moderator]=fuzz-moderator [superuser]=fuzz-admin)
port=$($PY -c 'from devstack.embedded import free_port; print(free_port())')
$PY -m catan_site.serve --port "$port" --no-access-log >/tmp/catan-fuzz-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
for seed in "$@"; do
  for role in ${FUZZ_ROLES:-player moderator superuser anonymous}; do
    header=()
    if [ "$role" != anonymous ]; then header=(-H "Authorization: Token $(token_for "${NAMES[$role]}" | tail -1)"); fi
    out=/tmp/catan-fuzz-$seed-$role.txt
    .venv/bin/st --no-color run "http://127.0.0.1:$port/api/schema/?format=json" "${header[@]}" --checks all \
      -n 40 --seed "$seed" --continue-on-failure --request-timeout 10 >"$out" 2>&1 || true
    echo "seed $seed, $role: $(grep -E '^Test cases:' -A1 "$out" | tail -1 | sed 's/^ *//'); $(grep -E '^=+ .* in [0-9.]+s =+$' "$out" | tr -d '=' | sed 's/^ *//')"
  done
done
