"""Issue "A fleet": the Kubernetes manifests (k8s/) validate offline, strictly, against the Kubernetes schemas
(kubernetes-validate's wheel carries them), and say what the fleet needs: web pods drained (readiness, liveness,
a preStop pause, a grace long enough), an autoscaler on CPU, workers, one beat, PgBouncer in transaction mode."""

from __future__ import annotations

from pathlib import Path

import kubernetes_validate
import pytest
import yaml
from kubernetes_validate.utils import latest_version

ROOT = Path(__file__).resolve().parents[1]
K8S = ROOT / "k8s"
MANIFESTS = sorted(p for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")
VERSIONS = ["1.31.0", latest_version()]


def resources() -> dict[tuple[str, str], dict]:
    found = {}
    for path in MANIFESTS:
        for doc in yaml.safe_load_all(path.read_text()):
            if doc:
                found[(doc["kind"], doc["metadata"]["name"])] = doc
    return found


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.name)
def test_each_manifest_is_valid_kubernetes(path, version):
    docs = [doc for doc in yaml.safe_load_all(path.read_text()) if doc]
    assert docs
    for doc in docs:
        kubernetes_validate.validate(doc, version, strict=True)  # raises with the field that is wrong


def test_a_wrong_field_is_caught():
    """The check is real: a misspelt field fails it."""
    web = resources()[("Deployment", "web")]
    broken = {**web, "spec": {**web["spec"], "replicaz": 3}}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, latest_version(), strict=True)


def test_the_kustomization_lists_every_manifest():
    listed = yaml.safe_load((K8S / "kustomization.yaml").read_text())["resources"]
    assert sorted(listed) == [p.name for p in MANIFESTS]


def _container(deployment: dict) -> dict:
    return deployment["spec"]["template"]["spec"]["containers"][0]


def test_web_pods_are_drained_and_scaled_on_cpu():
    found = resources()
    web = found[("Deployment", "web")]
    container = _container(web)
    assert container["readinessProbe"]["httpGet"]["path"] == "/healthz/ready"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz/live"
    pause = int(container["lifecycle"]["preStop"]["exec"]["command"][-1])
    config = found[("ConfigMap", "catan-config")]["data"]
    needed = pause + float(config["DRAIN_SECONDS"]) + float(config["DRAIN_SOCKETS_SECONDS"]) + 10
    assert web["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] >= needed
    assert web["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    autoscaler = found[("HorizontalPodAutoscaler", "web")]
    assert autoscaler["spec"]["scaleTargetRef"]["name"] == "web"
    assert autoscaler["spec"]["metrics"][0]["resource"]["name"] == "cpu"
    assert found[("Service", "web")]["spec"]["selector"] == web["spec"]["selector"]["matchLabels"]
    sockets = found[("Ingress", "sockets")]
    assert sockets["metadata"]["annotations"]["nginx.ingress.kubernetes.io/upstream-hash-by"] == "$uri"
    assert sockets["spec"]["rules"][0]["http"]["paths"][0]["path"] == "/ws/"


def test_one_beat_workers_and_pgbouncer_in_transaction_mode():
    found = resources()
    beat = found[("Deployment", "beat")]
    assert beat["spec"]["replicas"] == 1 and beat["spec"]["strategy"]["type"] == "Recreate"
    assert "beat" in _container(beat)["command"]
    for name, queue in (("worker", "--queues=celery"), ("bots", "--queues=bots")):
        assert queue in _container(found[("Deployment", name)])["command"]
    ini = found[("ConfigMap", "pgbouncer")]["data"]["pgbouncer.ini"]
    assert "pool_mode = transaction" in ini
    secret = found[("Secret", "catan-secret")]["stringData"]
    assert "@pgbouncer:6432/" in secret["DATABASE_URL"] and "@postgres:5432/" in secret["DIRECT_DATABASE_URL"]
