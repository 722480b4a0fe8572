"""The qwixx-tower wheel built offline from this checkout (the kiosk install and boot tests)."""

from __future__ import annotations

import fcntl
import importlib.metadata
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support import with_certificates
from support.paths import ROOT

NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis"
)
UNREACHABLE = ("Could not find a version", "No matching distribution", "NewConnectionError")


def install_environment() -> dict[str, str]:
    """This process's environment for an install, without this suite's PYTHONPATH and venv:
    pip must see only the venv it installs into (a checkout on PYTHONPATH with its egg-info
    looks like qwixx-tower already installed, and pip would skip the wheel)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return with_certificates(env)  # pip may reach a package index over TLS


def _run(*command: str | Path, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=install_environment(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _setuptools_builds_wheels() -> bool:
    try:
        major, minor = importlib.metadata.version("setuptools").split(".")[:2]
    except importlib.metadata.PackageNotFoundError:
        return False
    return (int(major), int(minor)) >= (77, 0)  # bdist_wheel alone; the SPDX license string


def build_wheel(work: Path) -> Path:
    """The qwixx-tower wheel built from this checkout, offline, in `work`; skips without the
    setuptools that can."""
    if not _setuptools_builds_wheels():
        pytest.skip("setuptools>=77 (the [test] extra, ./dev installs it) builds the wheel")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    built = _run(
        sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
        "-w", work / "dist", source, cwd=work,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout + built.stderr
    shutil.rmtree(source, ignore_errors=True)  # 600 files, not left for the run's very end
    (wheel,) = (work / "dist").glob("qwixx_tower-*.whl")
    return wheel


def shared_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of `build_wheel`, built once per test run: the kiosk install and the systemd
    boot run side by side on two workers (pytest-xdist), and the first to ask builds it while
    the other waits on a lock in the run's temporary folder, which all workers share."""
    run = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run = run.parent  # each worker's folder is one of the run's
    with (run / "wheel.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        work = run / "wheel"
        built = sorted((work / "dist").glob("qwixx_tower-*.whl"))
        if built:
            return built[0]
        shutil.rmtree(work, ignore_errors=True)  # what a build that failed left
        work.mkdir()
        return build_wheel(work)
