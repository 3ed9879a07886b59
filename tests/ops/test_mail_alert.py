"""With the SMTP server refusing, a real worker's failed sends show in a real server's scrape
(catan_mail_failed_total rises), and the CatanMailFailing alert's expression, evaluated on the scraped values, is
true; promtool evaluates the rule itself on the same figures where it is installed."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from rest_framework.authtoken.models import Token

import rules
from games.models import Game, Notification
from tests.games.helpers import started_game, state_of
from tests.games.private_services import PrivateRedis, Worker, wait_until
from tests.games.servers import free_port, post_move, server_env, start_server, stop
from tests.ops.scrape import fetch, samples, value
from tests.ops.test_rules import RULES, rule_expressions

TOKEN = "scrape-token-for-mail-tests"


def failed_total(found: dict) -> float:
    return sum(v for (name, _labels), v in found.items() if name == "catan_mail_failed_total")


def promtool_fires(before: float, after: float, tmp_path) -> bool:
    """`promtool test rules`: the rule file, the two scraped values a minute apart, and the alert expected firing."""
    test = {
        "rule_files": [str(RULES)],
        "evaluation_interval": "1m",
        "tests": [
            {
                "interval": "1m",
                "input_series": [{"series": 'catan_mail_failed_total{kind="turn"}', "values": f"{before} {after}"}],
                "alert_rule_test": [
                    {
                        "eval_time": "1m",
                        "alertname": "CatanMailFailing",
                        "exp_alerts": [
                            {
                                "exp_labels": {"severity": "ticket"},
                                "exp_annotations": {"summary": "Emails fail to send (SMTP refusing or down)"},
                            }
                        ],
                    }
                ],
            }
        ],
    }
    path = tmp_path / "mail_failing_test.yml"
    path.write_text(json.dumps(test))  # JSON is YAML
    result = subprocess.run(["promtool", "test", "rules", str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    return True


@pytest.mark.django_db(transaction=True)
def test_with_smtp_refusing_mail_failures_rise_and_the_alert_is_true(postgres, tmp_path):
    broker = PrivateRedis()
    broker.start()
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    refusing = free_port()  # nothing listens there: every connection is refused
    env = server_env(broker.url)
    env.update(METRICS_TOKEN=TOKEN, PROMETHEUS_MULTIPROC_DIR=str(metrics_dir), CELERY_BROKER_URL=broker.url)
    port = free_port()
    server = start_server(port, env)
    worker = Worker(
        broker.url, EMAIL_HOST="127.0.0.1", EMAIL_PORT=str(refusing), PROMETHEUS_MULTIPROC_DIR=str(metrics_dir)
    )
    worker.start()
    try:
        game, users = started_game(humans=3, bots=0, clock=Game.Clock.ASYNC, move_seconds=86400)
        before = samples(fetch(port, TOKEN)[1])
        token = Token.objects.create(user=users[0])
        # Seat 0's opening settlement and road: the turn passes to seat 1, who is sent an email.
        for seq in (0, 1):
            action = rules.legal_actions(state_of(game), 0)[0]
            assert post_move(port, game.pk, token.key, {"action": action, "expected_seq": seq})[0] == 200
        assert rules.to_move(state_of(game)) == [1]
        # The move wrote email rows; the worker tries them and fails against the refusing server.
        wait_until(lambda: Notification.objects.filter(game=game).exclude(last_error="").exists(), timeout=60)
        wait_until(lambda: failed_total(samples(fetch(port, TOKEN)[1])) > failed_total(before), timeout=30)
        after = samples(fetch(port, TOKEN)[1])
    finally:
        worker.kill()
        stop(server)
        broker.stop()
    failed_before, failed_after = failed_total(before), failed_total(after)
    assert failed_after >= 1
    assert not any(name == "catan_mail_sent_total" and v > 0 for (name, _labels), v in after.items())
    # The mail due since the move is still waiting: the oldest-mail gauge counts its age (none waited before).
    assert value(before, "catan_outbox_oldest_seconds") == 0
    assert value(after, "catan_outbox_oldest_seconds") > 0
    # The alert: sum(increase(catan_mail_failed_total[10m])) > 0, computed on the two scrapes (both within 10 min).
    assert "increase(catan_mail_failed_total[10m])" in rule_expressions()["CatanMailFailing"]
    assert failed_after - failed_before > 0
    if shutil.which("promtool"):
        assert promtool_fires(failed_before, failed_after, tmp_path)
