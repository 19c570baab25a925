"""Each operating-system layer of the sandbox stops its attacks alone.

Every attack runs with the static checks and the audit hook off, twice: with only the layer under test up (it
must stop the attack), and with that layer off as well (the attack must get through). The second run shows that
the test can fail and that this layer, not another, is what stopped the first. Limits are set low for the test
(a CPU second, a few hundred MB of address space over what the worker already maps, one MB per file), never
reached with real multi-gigabyte allocations. The network attack connects only to a listener this test opens on
127.0.0.1; the fork bomb is bounded at 64 forks.
"""

from __future__ import annotations

import inspect
import os
import socket
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pymupdf
import pytest
from layer_attacks import LIMITS, WALK, alone, message, need, run, supported

from sandbox import Sandbox, run_program
from sandbox.guards import LAYERS

TOKEN = uuid.uuid4().hex[:10]
SECRET_TEXT = f"ROOTONLY-{TOKEN}"
ON_OFF = pytest.mark.parametrize("layer_on", [True, False], ids=["layer-alone-stops-it", "layer-off-it-gets-through"])


@pytest.fixture(scope="module")
def box() -> Iterator[Sandbox]:
    with Sandbox(lean=True) as sandbox:
        yield sandbox


@pytest.fixture
def root_secret(outside: Path) -> Path:
    """A file only its owner (this test's user) may read, in a folder everyone may enter."""
    path = outside / "secret.txt"
    path.write_text(SECRET_TEXT)
    path.chmod(0o600)
    return path


@pytest.fixture
def secret_pdf(outside: Path) -> Path:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), SECRET_TEXT)
    doc.save(outside / "secret.pdf")
    (outside / "secret.pdf").chmod(0o644)
    return outside / "secret.pdf"


# ---- the switch and the record -------------------------------------------------------------------
def test_every_layer_the_machine_supports_engages(box: Sandbox) -> None:
    """Not a skip: a layer this machine can have and did not get is a failure."""
    with box.run("x = 1", {}) as result:
        assert result.ok, result.error
        assert set(result.layers) == set(LAYERS)
        missing = [layer for layer in LAYERS if supported(layer)[0] and not result.layers[layer]]
        assert not missing, f"layers this machine supports did not engage: {missing}"


def test_a_switched_off_layer_is_reported_off(box: Sandbox) -> None:
    with box.run("x = 1", {}, _layers_off={"landlock", "audit_hook"}) as result:
        assert result.ok, result.error
        assert result.layers["landlock"] is False and result.layers["audit_hook"] is False
        assert result.stats["layers_off"] == ["audit_hook", "landlock"]
    with pytest.raises(ValueError, match="unknown sandbox layers"):
        box.run("x = 1", {}, _layers_off={"landlok"})


def test_the_product_entry_point_cannot_switch_layers_off() -> None:
    assert "_layers_off" not in inspect.signature(run_program).parameters


# ---- nobody ---------------------------------------------------------------------------------------
@ON_OFF
def test_nobody_cannot_read_a_file_only_root_may_read(box: Sandbox, root_secret: Path, layer_on: bool) -> None:
    need("user")
    code = WALK + f"print(B.open({str(root_secret)!r}).read())"
    with run(box, code, alone("user") if layer_on else alone()) as result:
        if layer_on:
            assert result.layers["user"] is True
            assert not result.ok and "Permission denied" in message(result), result.error
            assert SECRET_TEXT not in result.to_json()
        else:
            assert result.ok and SECRET_TEXT in result.printed, result.error


# ---- Landlock -------------------------------------------------------------------------------------
@ON_OFF
def test_landlock_stops_c_code_reading_outside(box: Sandbox, secret_pdf: Path, layer_on: bool) -> None:
    """PyMuPDF opens the file in C: no audit hook sees it; the worker is root here, so only Landlock is left."""
    need("landlock")
    code = WALK + f"d = SYS.modules['pymupdf'].open({str(secret_pdf)!r})\nprint(d[0].get_text())"
    with run(box, code, alone("landlock") if layer_on else alone()) as result:
        if layer_on:
            assert result.layers["landlock"] is True
            assert not result.ok and SECRET_TEXT not in result.to_json()
        else:
            assert result.ok and SECRET_TEXT in result.printed, result.error


@ON_OFF
def test_landlock_stops_c_code_writing_outside(box: Sandbox, outside: Path, layer_on: bool) -> None:
    need("landlock")
    target = outside / f"pwned-{TOKEN}.pdf"
    code = WALK + f"d = SYS.modules['pymupdf'].open()\nd.new_page()\nd.save({str(target)!r})"
    with run(box, code, alone("landlock") if layer_on else alone()) as result:
        if layer_on:
            assert not result.ok and not target.exists(), result.error
        else:
            assert result.ok and target.exists(), result.error


# ---- the network namespace (and Landlock's TCP rules) ---------------------------------------------
@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """A listener on 127.0.0.1 that this test owns; the only address any attack here connects to."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        server.setblocking(False)
        yield server


def _connected(server: socket.socket) -> bytes | None:
    """What a connection already queued on ``server`` sent, or None when nothing connected."""
    try:
        conn, _ = server.accept()
    except BlockingIOError:
        return None
    with conn:
        conn.setblocking(True)
        conn.settimeout(10)  # the sender has finished and closed; this only guards against a hang
        return conn.recv(100)


@pytest.mark.parametrize(
    "layer", [None, "network_namespace", "landlock"], ids=["both-off-it-connects", "netns-alone", "landlock-alone"]
)
def test_a_connection_to_the_hosts_loopback_is_stopped(box: Sandbox, listener: socket.socket, layer: str) -> None:
    if layer:
        need(layer)
    if layer == "landlock":
        from sandbox.guards import landlock_abi

        if landlock_abi() < 4:
            pytest.skip("Landlock before ABI 4 has no TCP rules")
    port = listener.getsockname()[1]
    code = WALK + (
        f"s = IMP.import_module('socket').create_connection(('127.0.0.1', {port}), timeout=10)\n"
        f"s.sendall(b'{TOKEN}')\ns.close()\nprint('connected')"
    )
    with run(box, code, alone(layer) if layer else alone()) as result:
        sent = _connected(listener)
        if layer:
            assert result.layers[layer] is True
            assert not result.ok and sent is None, result.error
        else:
            assert result.ok and sent == TOKEN.encode(), result.error


# ---- RLIMIT_NPROC ---------------------------------------------------------------------------------
FORKS = 64
FORK_BOMB = (
    WALK
    + f"""
n = 0
for i in range({FORKS}):
    try:
        pid = OS['fork']()
    except B.OSError:
        break
    if pid == 0:
        SYS.modules['signal'].pause()
        OS['_exit'](0)
    n += 1
print('forked', n)
"""
)


@ON_OFF
def test_rlimit_nproc_bounds_a_fork_bomb(box: Sandbox, layer_on: bool) -> None:
    """RLIMIT_NPROC binds only a user other than root, so the user layer stays up in both runs."""
    need("user", "rlimit_processes")
    limits = replace(LIMITS, processes=8)
    off = alone("user", "rlimit_processes") if layer_on else alone("user")
    with run(box, FORK_BOMB, off, limits=limits) as result:
        assert result.ok, result.error
        forked = int(result.printed.split()[1])
        if layer_on:
            assert result.layers["rlimit_processes"] is True
            assert forked < FORKS, result.printed
        else:
            assert forked == FORKS, result.printed


# ---- memory, CPU and file size --------------------------------------------------------------------
def _mapped_mb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) // 1024
    raise AssertionError("no VmSize")


@ON_OFF
def test_rlimit_as_stops_a_large_allocation(box: Sandbox, layer_on: bool) -> None:
    """The limit is what the worker already maps plus 256 MB; the program asks for 1 GB it never touches."""
    box.start()
    assert box.pid is not None
    limits = replace(LIMITS, memory_mb=_mapped_mb(box.pid) + 256)
    code = WALK + "x = B.bytes(1 << 30)\nprint('allocated', len(x))"
    with run(box, code, alone("rlimit_memory") if layer_on else alone(), limits=limits) as result:
        if layer_on:
            assert result.layers["rlimit_memory"] is True
            assert not result.ok and f"more than {limits.memory_mb} MB" in message(result), result.error
        else:
            assert result.ok and result.printed.strip() == f"allocated {1 << 30}", result.error


BURN = """
def burn(seconds):
    t = OS['times']()
    while OS['times']()[0] + OS['times']()[1] < seconds:
        sum(i * i for i in range(10000))
"""


@ON_OFF
def test_rlimit_cpu_stops_a_cpu_burner(box: Sandbox, layer_on: bool) -> None:
    limits = replace(LIMITS, cpu_seconds=1)
    code = WALK + BURN + "burn(2.5)\nprint('burned')"
    with run(box, code, alone("rlimit_cpu") if layer_on else alone(), limits=limits) as result:
        if layer_on:
            assert not result.ok and "CPU time" in message(result), result.error
        else:
            assert result.ok and "burned" in result.printed, result.error


@ON_OFF
def test_ignoring_sigxcpu_meets_the_hard_cpu_limit(box: Sandbox, layer_on: bool) -> None:
    """The soft limit sends SIGXCPU, which the program ignores; the hard limit (2 s later) kills it."""
    limits = replace(LIMITS, cpu_seconds=1)
    code = WALK + BURN + "S = SYS.modules['signal']\nS.signal(S.SIGXCPU, S.SIG_IGN)\nburn(4)\nprint('burned')"
    with run(box, code, alone("rlimit_cpu") if layer_on else alone(), limits=limits) as result:
        if layer_on:
            assert not result.ok and "CPU time" in message(result), result.error
            assert result.stats["cpu_seconds"] > 1.5  # it outlived the soft limit: SIGXCPU was ignored
        else:
            assert result.ok and "burned" in result.printed, result.error


def _root_may_raise_limits() -> bool:
    """Whether this process has CAP_SYS_RESOURCE (some containers' root does not)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("CapEff:"):
            return bool(int(line.split()[1], 16) & (1 << 24))
    return False


@ON_OFF
def test_raising_a_hard_limit_is_refused_to_nobody(box: Sandbox, layer_on: bool) -> None:
    """Raising RLIMIT_CPU's hard limit needs CAP_SYS_RESOURCE: the user layer is what refuses it."""
    need("user")
    code = WALK + (
        "R = SYS.modules['resource']\n"
        "R.setrlimit(R.RLIMIT_CPU, (R.RLIM_INFINITY, R.RLIM_INFINITY))\n"
        "print('raised', R.getrlimit(R.RLIMIT_CPU))"
    )
    off = alone("user", "rlimit_cpu") if layer_on else alone("rlimit_cpu")
    with run(box, code, off) as result:
        if layer_on:
            assert not result.ok and "raise maximum limit" in message(result), result.error
        elif not _root_may_raise_limits():
            assert not result.ok and "raise maximum limit" in message(result), result.error
            pytest.skip("this machine's root lacks CAP_SYS_RESOURCE: raising fails without the user layer too")
        else:
            assert result.ok and result.printed.strip() == "raised (-1, -1)", result.error


@ON_OFF
def test_rlimit_fsize_stops_a_large_file(box: Sandbox, layer_on: bool) -> None:
    limits = replace(LIMITS, file_size_mb=1)
    code = WALK + (
        "f = B.open('big.bin', 'wb')\nf.write(b'x' * (2 << 20))\nf.close()\n"
        "print('wrote', OS['stat']('big.bin').st_size)"
    )
    with run(box, code, alone("rlimit_file_size") if layer_on else alone(), limits=limits) as result:
        if layer_on:
            assert not result.ok and "larger than 1 MB" in message(result), result.error
            assert os.path.getsize(os.path.join(result.workdir or "", "big.bin")) <= 1 << 20
        else:
            assert result.ok and result.printed.strip() == f"wrote {2 << 20}", result.error
