"""Several app instances on one PostgreSQL database and one Redis, behind HAProxy with the repo's
deploy/haproxy.cfg: what tests/scale and tests/perf/bench_instances.py start (no tests here).

Each instance is `python -m ui.cli serve` in a subprocess with its own data directory; what they
share is the database (a fresh schema), NiceGUI's storage in Redis (NICEGUI_REDIS_URL, under a key
prefix of this cluster's own) and the session secret (MEMORY_REVIEW_SESSION_SECRET).
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from persistence.audit_seal import seal_engine
from persistence.engine import make_engine
from persistence.settings import Settings
from tests.databases import postgres_required, postgres_unreachable_reason, postgres_url

ROOT = Path(__file__).resolve().parents[2]
PROXY_CONFIG = ROOT / "deploy" / "haproxy.cfg"
REDIS_URL = os.environ.get("NICEGUI_REDIS_URL", "redis://127.0.0.1:6379/0")
START_TIMEOUT_S = 120  # an instance imports the app from scratch: seconds of CPU, more at load 8-12


def haproxy() -> str | None:
    found = shutil.which("haproxy")  # root's PATH has /usr/sbin; another user's may not
    return found or ("/usr/sbin/haproxy" if os.access("/usr/sbin/haproxy", os.X_OK) else None)


def unavailable_reason() -> str | None:
    """Why a cluster cannot run here (PostgreSQL, Redis or HAProxy missing), or None."""
    if reason := postgres_unreachable_reason():
        return reason
    try:
        import redis
    except ImportError:
        return "the redis package is missing (NiceGUI's redis extra: pip install -e '.[scale]')"
    try:
        with redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2) as client:
            client.ping()
    except redis.RedisError as exc:
        return f"Redis at {REDIS_URL} is not reachable ({type(exc).__name__})"
    if haproxy() is None:
        return "HAProxy is not installed (apt-get install haproxy)"
    return None


def require_cluster() -> None:
    """Skip with the reason when a service is missing; fail instead where CI demands PostgreSQL."""
    reason = unavailable_reason()
    if reason is None:
        return
    if postgres_required():
        pytest.fail(f"{reason}, and MEMORY_REVIEW_REQUIRE_POSTGRES=1")
    pytest.skip(f"{reason}: the several-instances tests need PostgreSQL, Redis and HAProxy")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Instance:
    name: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, nothing is flushed."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@dataclass
class Cluster:
    database_url: str
    engine: Engine  # the shared database, for checking what the instances committed
    secret: str  # MEMORY_REVIEW_SESSION_SECRET of every instance
    redis_prefix: str  # NICEGUI_REDIS_KEY_PREFIX of every instance
    instances: list[Instance] = field(default_factory=list)
    proxy_port: int = 0

    @property
    def proxy_url(self) -> str:
        return f"http://127.0.0.1:{self.proxy_port}"

    def instance_named(self, cookie: str) -> Instance:
        """The instance HAProxy's MR_INSTANCE cookie names (app1, app2, …)."""
        return self.instances[int(cookie.removeprefix("app")) - 1]


def instance_env(data_dir: Path, *, secret: str, redis_prefix: str, extra: dict[str, str]) -> dict[str, str]:
    """The test process's environment without its pytest, NiceGUI and app settings, plus the shared ones.

    NICEGUI_REDIS_URL stays as the test process has it (else Redis on 127.0.0.1:6379)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "NICEGUI", "MEMORY_REVIEW_"))}
    env.update(
        NICEGUI_REDIS_URL=REDIS_URL,
        NICEGUI_REDIS_KEY_PREFIX=redis_prefix,
        MEMORY_REVIEW_SESSION_SECRET=secret,
        MEMORY_REVIEW_AUDIT_KEY=secret,  # instances writing one database share the audit chain's key
        MEMORY_REVIEW_DATA_DIR=str(data_dir),
        **extra,
    )
    return env


def _wait_for(url: str, process: subprocess.Popen[bytes], log: Path, what: str) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = log.read_text(errors="replace")
            if "address already in use" in output.lower() or "cannot bind socket" in output.lower():
                raise PortTaken(f"{what}: {output[-500:]}")
            raise RuntimeError(f"{what} exited: {output[-2000:]}")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except (OSError, urllib.error.URLError):
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"{what} did not start within {START_TIMEOUT_S} s: {log.read_text()[-2000:]}")


class PortTaken(RuntimeError):
    """The free port was taken between `free_port` and the bind (by another test process, say)."""


def start_instance(
    name: str, database_url: str, data_dir: Path, env: dict[str, str], *, demo: bool = False
) -> Instance:
    data_dir.mkdir(parents=True, exist_ok=True)
    for attempt in range(3):
        port = free_port()
        log = data_dir / "server.log"
        command = [sys.executable, "-m", "ui.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
        process = subprocess.Popen(
            [*command, "--db", database_url, *(["--demo"] if demo else [])],
            cwd=ROOT,
            env=env,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
        )
        instance = Instance(name, port, process, log)
        try:
            _wait_for(f"{instance.url}/login", process, log, f"instance {name}")
        except PortTaken:
            if attempt == 2:
                raise
            continue
        return instance
    raise AssertionError("unreachable")


def start_proxy(ports: list[int], log: Path) -> tuple[subprocess.Popen[bytes], int]:
    """HAProxy with deploy/haproxy.cfg as it is: the addresses come from MR_* variables.

    The config names two servers; with one instance both point at it.
    """
    binary = haproxy()
    assert binary is not None and len(ports) in (1, 2)
    apps = ports * 2 if len(ports) == 1 else ports
    for attempt in range(3):
        port = free_port()
        env = {"PATH": os.environ.get("PATH", ""), "MR_PROXY_BIND": f"127.0.0.1:{port}"}
        env.update({f"MR_APP{i}": f"127.0.0.1:{p}" for i, p in enumerate(apps, start=1)})
        process = subprocess.Popen(
            [binary, "-f", str(PROXY_CONFIG)], env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT
        )
        try:
            _wait_for(f"http://127.0.0.1:{port}/login", process, log, "HAProxy")
        except PortTaken:
            if attempt == 2:
                raise
            continue
        return process, port
    raise AssertionError("unreachable")


def _on_server(statement: str) -> None:
    admin = make_engine(postgres_url())
    with admin.begin() as connection:
        connection.execute(text(statement))
    admin.dispose()


def _forget_redis_keys(prefix: str) -> None:
    import redis

    with redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2) as client:
        keys = list(client.scan_iter(match=f"{prefix}*", count=500))
        if keys:
            client.delete(*keys)


@contextmanager
def cluster(
    base: Path, *, instances: int = 2, demo: bool = True, extra_env: dict[str, str] | None = None
) -> Iterator[Cluster]:
    """`instances` app instances on a fresh PostgreSQL schema and one Redis prefix, behind HAProxy.

    The first instance migrates the schema (and loads the demo data set); the others start after it.
    Everything is stopped and dropped afterwards.
    """
    schema = f"scale_{uuid.uuid4().hex[:10]}"
    redis_prefix = f"memory-review-test-{schema}:"
    url = f"{postgres_url()}?options=-csearch_path%3D{schema}"
    secret = secrets.token_urlsafe(32)
    _on_server(f'CREATE SCHEMA "{schema}"')
    with ExitStack() as stack:
        stack.callback(_forget_redis_keys, redis_prefix)
        stack.callback(_on_server, f'DROP SCHEMA "{schema}" CASCADE')
        engine = make_engine(url)
        stack.callback(engine.dispose)
        running = Cluster(url, engine, secret, redis_prefix)
        for number in range(1, instances + 1):
            data_dir = base / f"app{number}"
            env = instance_env(data_dir, secret=secret, redis_prefix=redis_prefix, extra=extra_env or {})
            instance = start_instance(f"app{number}", url, data_dir, env, demo=demo and number == 1)
            stack.callback(instance.stop)
            running.instances.append(instance)
        seal_engine(engine, Settings(database_url=url, data_dir=base / "tests", audit_key=secret))  # keyed too
        proxy, running.proxy_port = start_proxy([i.port for i in running.instances], base / "haproxy.log")
        stack.callback(_stop, proxy)
        yield running


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
