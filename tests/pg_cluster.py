"""A throwaway PostgreSQL cluster for the tests: ``initdb`` into a temp directory, ``pg_ctl`` on a free port.

PostgreSQL refuses to run as root, so under root the cluster belongs to the unprivileged ``postgres`` user
(Debian's package creates it) and every server command runs through ``runuser``. Where no PostgreSQL binaries
exist, tests that need one are skipped with one line saying why; under CI (``CI=true``) that is a failure
instead, because CI on these machines always has them.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

SUPERUSER = "hermes"
UNPRIVILEGED = "postgres"


class NoPostgres(Exception):
    """No usable PostgreSQL server binaries on this machine."""


def _bin_dir() -> Path:
    """Where ``initdb``, ``pg_ctl`` and ``postgres`` live (Debian keeps the server outside PATH)."""
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(candidate, "postgres").exists() and Path(candidate, "initdb").exists():
            return Path(candidate)
    found = shutil.which("pg_ctl")
    if found and Path(found).with_name("postgres").exists():
        return Path(found).parent
    raise NoPostgres("no PostgreSQL server binaries (initdb, pg_ctl, postgres) were found")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Cluster:
    """A running PostgreSQL server owned by the test session."""

    bin_dir: Path
    data_dir: Path
    port: int
    run_as: str | None
    databases: list[str] = field(default_factory=list)
    _admin: psycopg.Connection[Any] | None = field(default=None, repr=False)

    @property
    def admin_url(self) -> str:
        """The URL of the ``postgres`` maintenance database as the cluster's superuser."""
        return self.url("postgres")

    def url(self, database: str) -> str:
        """A ``postgresql://`` URL of one database of this cluster, over TCP on loopback."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _run(self, *argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        cmd = [str(self.bin_dir / argv[0]), *argv[1:]]
        if self.run_as is not None:
            cmd = ["runuser", "-u", self.run_as, "--", *cmd]
        return subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=timeout)

    def psql(self, database: str, sql: str) -> str:
        """Run SQL through ``psql`` (for fixtures; the code under test uses its own driver)."""
        psql = shutil.which("psql") or str(self.bin_dir / "psql")
        out = subprocess.run(
            [psql, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", self.url(database), "-c", sql],
            check=True,
            capture_output=True,
            text=True,
            timeout=60,
        )
        return out.stdout.strip()

    def _admin_execute(self, sql: str) -> None:
        """Run a statement on the maintenance database over one connection kept for the session: the
        suite makes and drops a database per PostgreSQL test, and a ``psql`` process for each costs more."""
        if self._admin is None or self._admin.closed:
            self._admin = psycopg.connect(self.admin_url, autocommit=True)
        self._admin.execute(sql)

    def create_database(self, prefix: str = "t", template: str | None = None) -> str:
        """A new empty database (or a copy of ``template``); returns its URL."""
        name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        clause = f" TEMPLATE {template}" if template else ""
        self._admin_execute(f"CREATE DATABASE {name}{clause}")
        self.databases.append(name)
        return self.url(name)

    def drop_database(self, url: str) -> None:
        """Drop a database made by :meth:`create_database`, ending its connections first."""
        name = url.rsplit("/", 1)[1]
        self._admin_execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        """Stop the server immediately and delete its files."""
        if self._admin is not None:
            self._admin.close()
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self._run("pg_ctl", "-D", str(self.data_dir), "-m", "immediate", "-w", "stop", timeout=60)
        shutil.rmtree(self.data_dir.parent, ignore_errors=True)


def start_cluster() -> Cluster:
    """Start a fresh cluster; raises :class:`NoPostgres` when the machine has none."""
    bin_dir = _bin_dir()
    run_as: str | None = None
    base = Path(tempfile.mkdtemp(prefix="hermes-pg-"))
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam(UNPRIVILEGED)
        except KeyError as exc:
            raise NoPostgres(f"running as root and there is no unprivileged {UNPRIVILEGED!r} user") from exc
        run_as = UNPRIVILEGED
        os.chown(base, user.pw_uid, user.pw_gid)
        os.chmod(base, 0o700)
    data = base / "data"
    port = _free_port()
    cluster = Cluster(bin_dir, data, port, run_as)
    cluster._run(
        "initdb",
        "-D",
        str(data),
        "-U",
        SUPERUSER,
        "-A",
        "trust",
        "-E",
        "UTF8",
        "--locale=C.UTF-8",
        "--no-sync",
    )
    # Durability settings off: the tests kill our servers, never this one, and fsync is slow on a full suite.
    options = (
        f"-c port={port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={base} "
        "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 "
        "-c shared_buffers=64MB"
    )
    cluster._run(
        "pg_ctl",
        "-D",
        str(data),
        "-o",
        options,
        "-l",
        str(base / "server.log"),
        "-w",
        "-t",
        "60",
        "start",
        timeout=90,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            cluster.psql("postgres", "SELECT 1")
            break
        except subprocess.CalledProcessError:
            if time.monotonic() > deadline:
                cluster.stop()
                raise
            time.sleep(0.1)
    return cluster
