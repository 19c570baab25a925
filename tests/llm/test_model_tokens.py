"""The token estimate that budgets evidence and table schemas agrees with the embedded model's tokenizer.

The budgets (800 tokens of passages, 500 of table schemas) are what keep one model call near 15 s on two
cores; an estimate that reads a page of figures as a third of its size had given the model 2-3x that.
"""

from __future__ import annotations

import pytest

from docpilot.llm import local_available
from docpilot.llm.tokens import model_tokens
from docpilot.understanding.frames import FrameStore, candidate_frames, name_frames, schema_text

pytestmark = pytest.mark.skipif(not local_available(), reason="the embedded model is not installed")


@pytest.fixture(scope="module")
def tokenizer():
    import llama_cpp

    from docpilot.llm import weights

    vocab = llama_cpp.Llama(model_path=str(weights.model_path()), vocab_only=True, verbose=False)
    return lambda text: len(vocab.tokenize(text.encode("utf-8"), add_bos=False))


def _page(path: str, page: int) -> str:
    import fitz

    with fitz.open(path) as doc:
        return doc[page - 1].get_text()


def test_the_estimate_is_near_the_tokenizer_on_figures_and_on_prose(real, tokenizer) -> None:
    pages = [
        _page(real("pdfplumber__nics-background-checks-2015-11.pdf"), 1),  # a table of figures
        _page(real("financebench__BESTBUY_2024Q2_10Q.pdf"), 17),  # a statement: figures, "(1)", "-"
        _page(real("pdfjs__tracemonkey.pdf"), 1),  # prose
    ]
    for text in pages + [" ".join(page.split()) for page in pages]:  # as laid out, and as a passage
        counted, actual = model_tokens(text), tokenizer(text)
        assert abs(counted - actual) <= 0.15 * actual, (counted, actual)


def test_a_schema_of_tables_of_figures_fits_its_budget_in_real_tokens(real, tokenizer) -> None:
    files = {
        "nics.pdf": real("pdfplumber__nics-background-checks-2015-11.pdf"),
        "amzn.pdf": real("financebench__AMAZON_2019_10K.pdf"),
    }
    found = candidate_frames(FrameStore(), {"nics.pdf": [1], "amzn.pdf": [38]}, files)
    text = schema_text(name_frames(found), question="How many permit checks did Kentucky run?")
    assert "t1:" in text and tokenizer(text) <= 1.1 * 500, tokenizer(text)
