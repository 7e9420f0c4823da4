"""The deployment files in ``deploy/`` (issue #17 item 6): what can be checked without a cluster.

The compose file is parsed (``docker compose config`` when the plugin exists, YAML always), the
instance file is validated by Dagster's own schema, the Helm values are held against a check
list of the official chart's keys, every ``REPRO_*`` variable they set is one the package
reads, and the image's command loads its code location here (also with the k8s executor).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import dagster as dg
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
PACKAGE_SOURCE = "\n".join(p.read_text() for p in (ROOT / "repro_assets").rglob("*.py"))

# Keys of dagster/dagster chart's values schema (helm/dagster/schema) this file may use.
CHART_TOP_KEYS = {
    "global", "dagsterWebserver", "dagster-user-deployments", "runLauncher", "postgresql",
    "generatePostgresqlPasswordSecret", "dagsterDaemon", "telemetry", "computeLogManager",
}
USER_DEPLOYMENT_KEYS = {
    "name", "image", "dagsterApiGrpcArgs", "codeServerArgs", "includeConfigInLaunchedRuns",
    "deploymentNamespace", "port", "replicaCount", "env", "envConfigMaps", "envSecrets",
    "annotations", "nodeSelector", "affinity", "tolerations", "podSecurityContext",
    "securityContext", "resources", "livenessProbe", "readinessProbe", "startupProbe",
    "labels", "volumes", "volumeMounts", "schedulerName", "initContainers", "sidecarContainers",
}
K8S_RUN_LAUNCHER_KEYS = {
    "image", "imagePullPolicy", "jobNamespace", "loadInclusterConfig", "kubeconfigFile",
    "envConfigMaps", "envSecrets", "envVars", "volumeMounts", "volumes", "labels",
    "failPodOnRunFailure", "resources", "schedulerName", "securityContext", "runK8sConfig",
}
RUN_K8S_CONFIG_KEYS = {
    "containerConfig", "podSpecConfig", "podTemplateSpecMetadata", "jobSpecConfig", "jobMetadata",
}
POSTGRESQL_KEYS = {
    "enabled", "image", "postgresqlHost", "postgresqlUsername", "postgresqlPassword",
    "postgresqlDatabase", "postgresqlParams", "postgresqlScheme", "service",
}
RUN_MONITORING_KEYS = {
    "enabled", "startTimeoutSeconds", "cancelTimeoutSeconds", "pollIntervalSeconds",
    "maxResumeRunAttempts", "freeSlotsAfterRunEndSeconds",
}


def _load(name: str) -> Any:
    return yaml.safe_load((DEPLOY / name).read_text())


def _dockerfile_cmd() -> list[str]:
    text = (DEPLOY / "Dockerfile").read_text()
    [cmd] = re.findall(r"^CMD (\[.*\])$", text, flags=re.MULTILINE)
    return json.loads(cmd)


def _assert_read_by_package(names: set[str]) -> None:
    unknown = {name for name in names if name.startswith("REPRO_")
               and f'"{name}"' not in PACKAGE_SOURCE}
    assert not unknown, f"settings no code reads: {sorted(unknown)}"


# -- Dockerfile ------------------------------------------------------------------------------


def test_dockerfile_installs_cpu_torch_first_then_the_project() -> None:
    lines = (DEPLOY / "Dockerfile").read_text().splitlines()
    assert lines[[i for i, line in enumerate(lines) if line.startswith("FROM")][0]] == (
        "FROM python:3.11-slim"
    )
    torch = next(i for i, line in enumerate(lines) if '"torch==2.13.0"' in line)
    assert "download.pytorch.org/whl/cpu" in lines[torch]
    project = next(i for i, line in enumerate(lines) if 'pip install ".[' in line)
    assert torch < project
    extras = re.search(r'pip install "\.\[([^\]]+)\]"', lines[project]).group(1).split(",")
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert set(extras) <= set(declared), extras
    for source in re.findall(r"^COPY (\S+) ", "\n".join(lines), flags=re.MULTILINE):
        assert (ROOT / source).exists(), source


def test_dockerfile_build_step_imports_exist() -> None:
    """The build-time model export names functions that exist."""
    text = (DEPLOY / "Dockerfile").read_text().replace("\\\n", " ")
    imports = re.findall(r"from (repro_assets[\w.]*) import ([\w, ]+);", text)
    assert imports
    for module, names in imports:
        loaded = __import__(module, fromlist=["_"])
        for name in (n.strip() for n in names.split(",")):
            assert hasattr(loaded, name), f"{module}.{name}"


def test_image_command_serves_the_code_location() -> None:
    cmd = _dockerfile_cmd()
    assert cmd[:3] == ["dagster", "code-server", "start"]
    assert cmd[cmd.index("-h") + 1] == "0.0.0.0" and cmd[cmd.index("-p") + 1] == "4000"
    module = cmd[cmd.index("-m") + 1]
    defs = __import__(module, fromlist=["defs"]).defs
    dg.Definitions.validate_loadable(defs)


def test_the_k8s_executor_setting_loads_the_code_location(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from repro_assets.definitions import defs
    from repro_assets.executors import ExecutorSettingError, default_executor

    monkeypatch.setenv("REPRO_EXECUTOR", "k8s")
    executor = default_executor()
    assert executor is not None and executor.name == "k8s"
    with_k8s = dg.Definitions.merge(defs, dg.Definitions(executor=executor))
    dg.Definitions.validate_loadable(with_k8s)
    # jobs without an executor of their own get a pod per step; the papers jobs keep theirs
    executors = {job.name: job.executor_def.name for job in with_k8s.resolve_all_job_defs()}
    assert "k8s" in executors.values()
    monkeypatch.setenv("REPRO_EXECUTOR", "celery")
    with pytest.raises(ExecutorSettingError, match="multiprocess, in_process, k8s"):
        default_executor()


# -- docker-compose ----------------------------------------------------------------------------


def test_compose_services_images_and_env() -> None:
    compose = _load("docker-compose.yml")
    services = compose["services"]
    assert {"postgres", "minio", "minio-init", "code-server", "webserver", "daemon"} <= set(
        services)
    assert "pgvector" in services["postgres"]["image"]
    assert services["code-server"]["build"]["dockerfile"] == "deploy/Dockerfile"
    assert "command" not in services["code-server"]  # the image's own command
    for name in ("webserver", "daemon"):
        entry = services[name]["entrypoint"]
        assert entry[entry.index("-w") + 1] == "/opt/dagster/app/workspace.yaml"
    env = services["code-server"]["environment"]
    for name in ("webserver", "daemon"):
        assert services[name]["environment"] == env
    assert env["REPRO_BLOB_ROOT"].startswith("s3://")
    assert env["REPRO_INBOX_ROOT"].startswith("s3://")
    assert env["REPRO_DAGSTER_PG_URL"].startswith("postgresql+psycopg2://")
    assert env["AWS_ENDPOINT_URL"] == "http://minio:9000"
    _assert_read_by_package(set(env))
    init_sql = (DEPLOY / "postgres-init.sql").read_text()
    assert "CREATE DATABASE dagster" in init_sql and env["REPRO_DAGSTER_PG_URL"].endswith(
        "/dagster")


def test_compose_config_when_docker_compose_is_installed(tmp_path: Path) -> None:
    docker = shutil.which("docker")
    has_compose = docker is not None and subprocess.run(
        [docker, "compose", "version"], capture_output=True).returncode == 0
    if not has_compose:
        pytest.skip("the docker compose plugin is not installed here; the YAML checks ran")
    done = subprocess.run([docker, "compose", "-f", str(DEPLOY / "docker-compose.yml"),
                           "config", "--quiet"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_workspace_points_at_the_code_server_service() -> None:
    [entry] = _load("workspace.yaml")["load_from"]
    server = entry["grpc_server"]
    assert server["host"] in _load("docker-compose.yml")["services"]
    cmd = _dockerfile_cmd()
    assert str(server["port"]) == cmd[cmd.index("-p") + 1]


def test_deployment_instance_passes_dagsters_schema(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dagster._core.instance.config import dagster_instance_config

    shutil.copy(DEPLOY / "dagster.yaml", tmp_path / "dagster.yaml")
    monkeypatch.setenv("REPRO_DAGSTER_PG_URL", "postgresql+psycopg2://u:p@db:5432/dagster")
    config, _ = dagster_instance_config(str(tmp_path))
    assert config["storage"]["postgres"]["postgres_url"] == {"env": "REPRO_DAGSTER_PG_URL"}
    # a wrong key is refused by the same check
    (tmp_path / "dagster.yaml").write_text("storage_typo: {}\n")
    with pytest.raises(Exception, match="storage_typo"):
        dagster_instance_config(str(tmp_path))


# -- Helm values -------------------------------------------------------------------------------


def test_helm_values_use_the_charts_keys() -> None:
    values = _load("helm/values.yaml")
    assert set(values) <= CHART_TOP_KEYS, set(values) - CHART_TOP_KEYS

    launcher = values["runLauncher"]
    assert launcher["type"] == "K8sRunLauncher"
    k8s = launcher["config"]["k8sRunLauncher"]
    assert set(k8s) <= K8S_RUN_LAUNCHER_KEYS, set(k8s) - K8S_RUN_LAUNCHER_KEYS
    assert set(k8s.get("runK8sConfig", {})) <= RUN_K8S_CONFIG_KEYS

    postgresql = values["postgresql"]
    assert set(postgresql) <= POSTGRESQL_KEYS
    assert postgresql["enabled"] is False and postgresql["postgresqlHost"]

    monitoring = values["dagsterDaemon"]["runMonitoring"]
    assert set(monitoring) <= RUN_MONITORING_KEYS and monitoring["enabled"] is True

    user = values["dagster-user-deployments"]
    assert user["enabled"] is True
    [deployment] = user["deployments"]
    assert set(deployment) <= USER_DEPLOYMENT_KEYS, set(deployment) - USER_DEPLOYMENT_KEYS
    cmd = _dockerfile_cmd()
    args = deployment["codeServerArgs"]
    assert args[args.index("--module-name") + 1] == cmd[cmd.index("-m") + 1]
    assert deployment["includeConfigInLaunchedRuns"]["enabled"] is True
    env = {item["name"]: item["value"] for item in deployment["env"]}
    assert env["REPRO_EXECUTOR"] == "k8s"
    assert env["REPRO_BLOB_ROOT"].startswith("s3://")
    assert env["REPRO_INBOX_ROOT"].startswith("s3://")
    _assert_read_by_package(set(env))
