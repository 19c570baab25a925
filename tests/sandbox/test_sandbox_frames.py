"""Programs over frames (issue K) in the attack suite: pandas programs that try to write or read outside the run,
sent through ``answer_with_program`` with the frames' allow-list switched off, must still be stopped by the
sandbox — by its static checks, and with those off too, by its runtime layers alone. Also: how frames reach a
run and how what a program computed comes back (``sandbox.dataframes``).
"""

from __future__ import annotations

import functools
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from docpilot.errors import ProgramFailed
from docpilot.understanding.frames import RawTable, answer_with_program, frame_of, name_frames, running
from sandbox import Limits, Sandbox, run_program
from sandbox.dataframes import pack_frame, unpack_frames

TOKEN = uuid.uuid4().hex[:10]
SECRET = Path(f"/tmp/docpilot-frames-secret-{TOKEN}.txt")  # world-readable, beside the working folders
PWNED = Path(f"/tmp/docpilot-frames-pwned-{TOKEN}.csv")
# attack → (program, what stops it with the sandbox's static checks, what stops it with the runtime layers alone)
ATTACKS = {
    "write-outside": (
        f"t1.to_csv('{PWNED}')",
        r"SandboxViolation: tried to write .* outside its working folder",
        r"SandboxViolation: tried to write .* outside its working folder",
    ),
    "read-through-globals": (
        f"t1.to_csv.__globals__['np'].loadtxt('{SECRET}', dtype=str)",
        r"sandbox refused the program: .*private attribute \.__globals__",
        r"SandboxViolation: tried to read .* outside its working folder",
    ),
}


@pytest.fixture(scope="module")
def box() -> Iterator[Sandbox]:
    SECRET.write_text(f"TOPSECRET-{TOKEN}")
    SECRET.chmod(0o644)
    try:
        with Sandbox(lean=True) as sandbox:
            yield sandbox
    finally:
        SECRET.unlink(missing_ok=True)
        PWNED.unlink(missing_ok=True)


@pytest.fixture(scope="module")
def frames() -> list:
    rows = [[("Region", None), ("Sales", None)], [("West", (1, 2, 3, 4)), ("1,250", (5, 6, 7, 8))]]
    return name_frames([frame_of(RawTable("sales.pdf", 2, 1, rows, 1))])  # type: ignore[list-item]


@pytest.mark.parametrize("static_checks", [True, False], ids=["sandbox-checks", "runtime-only"])
@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_a_pandas_attack_past_the_allow_list_is_stopped_by_the_sandbox(
    box: Sandbox, frames: list, monkeypatch: pytest.MonkeyPatch, attack: str, static_checks: bool
) -> None:
    import ast

    program, static, runtime = ATTACKS[attack]
    expect = static if static_checks else runtime
    monkeypatch.setattr(running, "refuse_unless_allowed", lambda program, frames, columns=(): ast.parse(program))
    monkeypatch.setattr(running, "run_program", functools.partial(run_program, static_checks=static_checks))
    before = set(os.listdir("/tmp"))
    with pytest.raises(ProgramFailed, match=expect) as failed:
        answer_with_program(program, frames, sandbox=box)
    assert f"TOPSECRET-{TOKEN}" not in str(failed.value)
    assert not PWNED.exists()
    assert not {name for name in set(os.listdir("/tmp")) - before if TOKEN in name}


def test_frames_reach_the_program_and_what_it_computed_comes_back(box: Sandbox) -> None:
    frame = pd.DataFrame({"Region": ["West", "East", "North"], "Sales": [10.0, float("nan"), 5.0]})
    packed = pack_frame(frame)
    assert packed["rows"][1] == ["East", None] and packed["numeric"] == [False, True]
    pd.testing.assert_frame_equal(unpack_frames({"t1": packed})["t1"], frame, check_dtype=False)
    code = "x = _watch(1, t1[t1['Sales'] > 1])\n_watch(0, x['Sales'].max())"
    limits = Limits(timeout_seconds=20, cpu_seconds=10, memory_mb=2048)
    with run_program(code, {}, frames={"t1": packed}, sandbox=box, limits=limits) as result:
        assert result.ok, result.error
        assert result.watched == {
            "1": {"type": "frame", "rows": [0, 2], "count": 2, "columns": ["Region", "Sales"]},
            "0": {"type": "scalar", "value": 10.0},
        }


@pytest.mark.parametrize("name", ["__builtins__", "tools", "FILES", "_watch", "not a name"])
def test_a_frame_cannot_take_a_name_the_namespace_needs(box: Sandbox, name: str) -> None:
    with pytest.raises(ValueError, match="frame names must be plain identifiers"):
        box.run("1", {}, frames={name: pack_frame(pd.DataFrame({"a": [1.0]}))})
