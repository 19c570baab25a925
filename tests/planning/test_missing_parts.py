"""A part the reader needs that cannot be loaded stops it with what to install; it never plans on without it.

Without scikit-learn's stop-word list every ordinary word ("the", "please") would count as unread and the fast
path would quietly hand most plain requests to the model (7 of 20 planned instead of 18, measured once).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator

import pytest

from docpilot.errors import MissingPart
from docpilot.files import FileInfo
from docpilot.planning.fastpath import fast_plan, spans

FILES = {"report.pdf": FileInfo("report.pdf", "/x/report.pdf", "pdf", pages=12)}


@pytest.fixture
def fresh_words() -> Iterator[None]:
    spans._stop_words.cache_clear()
    spans._fillers.cache_clear()
    yield
    spans._stop_words.cache_clear()
    spans._fillers.cache_clear()


def test_the_reader_plans_with_its_word_lists(fresh_words: None) -> None:
    plan = fast_plan("Please delete page 2 of the report.", FILES)
    assert plan is not None and [s.task for s in plan.steps] == ["delete_pages"]


def test_the_reader_refuses_to_start_without_its_stop_words(fresh_words: None, monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "sklearn" else real(name, *a))
    with pytest.raises(MissingPart, match="pip install scikit-learn"):
        fast_plan("Please delete page 2 of the report.", FILES)
