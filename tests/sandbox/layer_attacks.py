"""What the layer tests share: the layers this machine supports, programs that reach os without importing, a runner.

A layer the machine supports must engage (its test fails otherwise); a layer it cannot have (no Landlock in the
kernel, not root) is skipped with the reason.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from collections.abc import Collection

import pytest

from sandbox import Limits, RunResult, Sandbox
from sandbox.guards import LAYERS, landlock_abi

# Reaches os, sys, builtins and importlib without importing anything (what a static-check bypass allows).
WALK = """
def _os():
    for c in ().__class__.__mro__[1].__subclasses__():
        if c.__name__ == "_wrap_close":
            return c.__init__.__globals__
OS = _os()
SYS = OS["sys"]
B = SYS.modules["builtins"]
IMP = SYS.modules["importlib"]
"""

LIMITS = Limits(timeout_seconds=60, cpu_seconds=20, memory_mb=3072, file_size_mb=64, output_mb=128)


@functools.cache
def _can_unshare_network() -> bool:
    probe = "import ctypes, sys; sys.exit(ctypes.CDLL(None).unshare(0x40000000) != 0)"
    return subprocess.run([sys.executable, "-I", "-c", probe], check=False).returncode == 0


def supported(layer: str) -> tuple[bool, str]:
    """Whether this machine can have ``layer`` (and why not)."""
    root = os.geteuid() == 0
    if layer in ("user", "rlimit_processes") and not root:
        return False, f"{layer} needs the host to run as root (it drops to nobody; root is exempt from RLIMIT_NPROC)"
    if layer == "landlock" and landlock_abi() < 1:
        return False, "the kernel has no Landlock"
    if layer == "network_namespace" and not _can_unshare_network():
        return False, "this process may not create a network namespace"
    return True, ""


def landlock_scopes_signals() -> bool:
    return landlock_abi() >= 6


def need(*layers: str) -> None:
    """Skip, with the reason, when the machine cannot have one of ``layers``."""
    for layer in layers:
        ok, why = supported(layer)
        if not ok:
            pytest.skip(why)


def alone(*on: str, hook: bool = False) -> frozenset[str]:
    """The layers to switch off so that only ``on`` (and the audit hook when ``hook``) stay up."""
    keep = set(on) | ({"audit_hook"} if hook else set())
    assert keep <= set(LAYERS), keep
    return frozenset(LAYERS) - keep


def run(
    box: Sandbox,
    code: str,
    off: Collection[str],
    *,
    limits: Limits = LIMITS,
    files: dict[str, str] | None = None,
    static_checks: bool = False,
) -> RunResult:
    """Run ``code`` with the static checks off (by default) and ``off`` switched off; check the switch held."""
    result = box.run(code, files or {}, limits=limits, static_checks=static_checks, _layers_off=off)
    if result.layers:  # a run killed for a limit reports no layers
        for layer in off:
            assert result.layers[layer] is False, f"{layer} was switched off but reported on"
    return result


def message(result: RunResult) -> str:
    return str((result.error or {}).get("message", ""))
