"""Fixtures for the sandbox's layer tests."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def outside() -> Iterator[Path]:
    """A folder in /tmp, outside any working folder, that everyone may enter and write (like /tmp itself).

    Not under pytest's own temporary folder, which only its owner may enter: the attacks here must fail for the
    layer under test, not because ``nobody`` cannot reach the folder.
    """
    folder = Path(tempfile.mkdtemp(prefix="docpilot-layers-"))
    folder.chmod(0o1777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
