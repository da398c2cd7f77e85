"""App servers forked from a process that has imported the app once.

Starting `python -m ui.cli serve` costs 3.1-3.6 s of CPU before the first page, almost all of it
imports (NiceGUI, the pages), and a server's first ingest or Add-dialog suggestion compiles the
extraction rules (about 2 s under load). The end-to-end tests start a fresh server for nearly every
test, so each test process keeps one helper process (`python -m tests.e2e.forks`) that has made those
imports and compiled the rules, with the environment a server subprocess gets (no PYTEST*, NICEGUI*,
MEMORY_REVIEW_* variables), and forks it for each server:
the child sets its own environment and output, then runs the same `ui.cli.main(["serve", ...])` as
the command line does. The helper makes no threads, engines or event loops before it forks.
"""

from __future__ import annotations

import importlib
import json
import os
import select
import signal
import subprocess
import sys
import traceback
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[2]


class ForkedServer:
    """The part of subprocess.Popen the server fixtures use, for a process that is not our child
    (its parent, the helper, lets the kernel reap it): a pidfd tells when it has exited."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        try:
            self._pidfd: int | None = os.pidfd_open(pid)
        except ProcessLookupError:  # exited and reaped already
            self._pidfd, self.returncode = None, -1

    def _exited(self, timeout: float) -> bool:
        if self._pidfd is None:
            return True
        readable, _, _ = select.select([self._pidfd], [], [], timeout)
        if readable:
            os.close(self._pidfd)
            self._pidfd, self.returncode = None, -1  # the exit status went to the helper
        return self._pidfd is None

    def poll(self) -> int | None:
        self._exited(0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if not self._exited(timeout if timeout is not None else 3600):
            raise subprocess.TimeoutExpired(f"server {self.pid}", timeout or 3600)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, number: int) -> None:
        if self._pidfd is not None:
            signal.pidfd_send_signal(self._pidfd, number)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Forks:
    """The helper process of one test process; `start` forks a server from it."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.forks"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self._requests: IO[bytes] = self.process.stdin
        self._answers: IO[bytes] = self.process.stdout
        if self._answers.readline().strip() != b"ready":
            raise RuntimeError("the fork helper did not start")

    def start(self, argv: list[str], env: dict[str, str], log: Path) -> ForkedServer:
        request = {"argv": argv, "env": env, "log": str(log)}
        self._requests.write(json.dumps(request).encode() + b"\n")
        self._requests.flush()
        answer = self._answers.readline()
        if not answer:
            raise RuntimeError("the fork helper exited")
        return ForkedServer(int(answer))

    def close(self) -> None:
        self._requests.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _serve_forever() -> None:
    from ui.cli import main

    importlib.import_module("ui.server")  # what `serve` imports on its own
    importlib.import_module("domain.extraction").prepare()  # compiled once here, not in each server

    # A child that exits is reaped by the kernel: the helper never waits for one.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    answers = sys.stdout.buffer
    answers.write(b"ready\n")
    answers.flush()
    for line in sys.stdin.buffer:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                output = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                nothing = os.open(os.devnull, os.O_RDONLY)
                os.dup2(nothing, 0)
                os.dup2(output, 1)
                os.dup2(output, 2)
                os.close(nothing)
                os.close(output)
                os.environ.clear()
                os.environ.update(request["env"])
                code = main(request["argv"])
            except BaseException:
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        answers.write(f"{pid}\n".encode())
        answers.flush()


if __name__ == "__main__":
    _serve_forever()
