"""One real browser (Playwright + Debian's Chromium, headless) drives the whole app flow.

Screenshots of each stage go to ``$DOCPILOT_SCREENSHOTS`` (else the test's tmp dir);
with ``DOCPILOT_README_SHOT`` set, the main stage is also written to docs/app.png.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import pymupdf
import pytest

from tests.processes import alive, program_pids

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
CONTRACT = Path(os.environ.get("DOCPILOT_SHARED", ROOT.parent / "shared")) / "corpus" / "synthetic" / "contract.pdf"
WAIT = 30_000  # ms

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is absent: the browser test needs Debian's chromium", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [  # gradio's queue calls pandas in ways pandas 3 deprecates; not ours to fix
    pytest.mark.filterwarnings("ignore:'future.no_silent_downcasting' is deprecated"),
    pytest.mark.filterwarnings("ignore:The copy keyword is deprecated"),
    pytest.mark.browser,
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_gone(paths: list[Path], seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while any(p.exists() for p in paths) and time.monotonic() < deadline:
        time.sleep(0.2)
    return not any(p.exists() for p in paths)


@pytest.fixture
def app(tmp_path, monkeypatch):
    from docpilot.ui import launch

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # run records stay out of the user's cache
    root = tmp_path / "sessions"
    running = launch(
        "127.0.0.1", free_port(), backend="rules", idle_timeout=600, session_root=root, prevent_thread_lock=True
    )
    yield running, root
    running.close()  # the server and every session's folder


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("DOCPILOT_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_browser_flow(app, shots, guard, make_pdf, tmp_path):
    expect = sync_api.expect
    running, root = app
    source = (
        guard(CONTRACT) if CONTRACT.exists() else make_pdf(["One.", "Two.", "Three.", "Four."], name="contract.pdf")
    )
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"])
        context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
        page = context.new_page()
        hosts: set[str] = set()
        page.on("request", lambda r: hosts.add(urlsplit(r.url).hostname or urlsplit(r.url).scheme))
        page.goto(running.local_url)
        chat, request = page.locator("#chat"), page.locator("#request textarea")

        def shot(name: str) -> Path:
            path = shots / f"{name}.png"
            page.screenshot(path=str(path), full_page=True)
            return path

        def send(text: str) -> None:
            request.fill(text)
            page.locator("#send").click()

        # 1. upload: the file is listed and its pages appear as thumbnails
        page.locator("#upload input[type=file]").set_input_files(source)
        expect(chat).to_contain_text("Added contract.pdf", timeout=WAIT)
        expect(page.locator("#thumbs img")).to_have_count(4, timeout=WAIT)
        expect(page.locator("#page-view img")).to_have_attribute("src", re.compile(r"-v1\.png$"))
        page.locator("#thumbs img").nth(1).click()  # a thumbnail opens its page in the large view
        expect(page.locator("#page-view img")).to_have_attribute("src", re.compile(r"-v2\.png$"), timeout=WAIT)
        shot("1-uploaded")

        # 2. a request gives a plan in plain words, the exact plan and the editor
        send("rotate page 2 by 90 degrees")
        expect(chat).to_contain_text("Rotate page 2 of contract.pdf", timeout=WAIT)
        expect(page.locator("#approve")).to_be_enabled()
        editor = page.locator("#plan-editor")
        expect(editor).to_contain_text("rotate_pages")
        shot("2-plan")

        # 3. change the page range in the plan editor (row 2 = pages, column 4 = value)
        assert editor.locator("[data-testid='cell-1-2']").inner_text().strip() == "pages"
        cell = editor.locator("[data-testid='cell-1-3']")
        cell.dblclick()
        box = editor.locator("textarea[aria-label='Edit cell']")
        box.fill("3")
        box.press("Enter")
        expect(cell.locator("span[data-editable]")).to_have_text("3")
        shot("3-edited")

        # 4. approve: progress ends, the edited plan ran, results and before/after appear
        page.locator("#approve").click()
        expect(chat).to_contain_text("Rotate page 3 of contract.pdf", timeout=WAIT)
        expect(chat).to_contain_text("Done in 1 step", timeout=WAIT)
        expect(page.locator("#approve")).to_be_disabled()
        expect(page.locator(".progress-text")).to_have_count(0, timeout=WAIT)
        expect(page.locator("#before-after img")).to_have_count(2, timeout=WAIT)
        links = page.locator("#downloads a[data-testid='download-link']")
        expect(links).to_have_count(2)
        main = shot("4-done")
        if os.environ.get("DOCPILOT_README_SHOT"):
            (ROOT / "docs").mkdir(exist_ok=True)
            shutil.copyfile(main, ROOT / "docs" / "app.png")
        with page.expect_download() as download:
            links.first.click()
        saved = tmp_path / download.value.suggested_filename
        download.value.save_as(saved)
        assert saved.name == "contract_rotated.pdf"
        with pymupdf.open(saved) as doc:
            assert [pg.rotation for pg in doc] == [0, 0, 90, 0]
        page.get_by_text("Logs", exact=True).click()
        expect(page.locator("#logs textarea")).to_have_value(
            re.compile(r"edited: step 1 rotate_pages: pages 2 → 3[\s\S]*run ok")
        )

        # 5. a request that cannot be done is explained; the next one works
        send("rotate page 9 by 90 degrees")
        expect(chat).to_contain_text("out of range", timeout=WAIT)
        shot("5-error")
        send("add a DRAFT watermark")
        expect(chat).to_contain_text('Add the watermark "DRAFT"', timeout=WAIT)
        page.locator("#approve").click()
        expect(page.locator("#downloads")).to_contain_text("contract_watermarked", timeout=WAIT)

        # 6. reset clears the chat, the files and the session folder
        [folder] = [d for d in root.iterdir() if d.is_dir()]
        page.locator("#reset").click()
        expect(page.locator("#files")).to_contain_text("No files yet", timeout=WAIT)
        expect(chat).not_to_contain_text("Added contract.pdf")
        expect(links).to_have_count(0)
        expect(page.locator("#thumbs img")).to_have_count(0)
        assert wait_gone([folder]), "reset removes the session folder"
        shot("6-reset")

        # nothing the page loaded came from anywhere but this machine (no fonts, scripts or telemetry)
        assert hosts <= {"127.0.0.1", "data", "blob"}, hosts

        # 7. closing the tab ends the session too
        page.locator("#upload input[type=file]").set_input_files(source)
        expect(chat).to_contain_text("Added contract.pdf", timeout=WAIT)
        [folder] = [d for d in root.iterdir() if d.is_dir()]
        context.close()
        browser.close()
    assert wait_gone([folder]), "closing the tab removes the session folder"


def test_browser_two_files(app, shots, guard, make_pdf, tmp_path):
    """Issue F: with two PDFs uploaded, a change asked for one changes only that one; a revision with
    "instead" replaces the step (the diff is shown) and the result has it."""
    expect = sync_api.expect
    running, root = app
    contract = make_pdf(["Contract one.", "Contract two."], name="contract.pdf")
    report = make_pdf(["Report one.", "Report two.", "Report three."], name="annual_report.pdf")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
        page.goto(running.local_url)
        chat, request = page.locator("#chat"), page.locator("#request textarea")

        page.locator("#upload input[type=file]").set_input_files([contract, report])
        expect(chat).to_contain_text("annual_report.pdf", timeout=WAIT)
        expect(page.locator("#files")).to_contain_text("contract.pdf", timeout=WAIT)

        # a change to the contract only
        request.fill("add a DRAFT watermark to the contract")
        page.locator("#send").click()
        expect(chat).to_contain_text('Add the watermark "DRAFT"', timeout=WAIT)
        expect(page.locator("#approve")).to_be_enabled(timeout=WAIT)
        page.locator("#approve").click()
        expect(page.locator("#downloads")).to_contain_text("contract_watermarked", timeout=WAIT)
        expect(page.locator("#downloads")).not_to_contain_text("annual_report")  # only the contract changed
        page.screenshot(path=str(shots / "two-files-1-contract.png"), full_page=True)

        # a plan for the report, revised with "instead": the diff is shown, the result has the change
        request.fill("put page numbers at the bottom of the annual report")
        page.locator("#send").click()
        expect(page.locator("#approve")).to_be_enabled(timeout=WAIT)
        expect(chat).to_contain_text("annual_report.pdf", timeout=WAIT)
        request.fill("put them at the top instead")
        page.locator("#revise").click()
        expect(chat).to_contain_text("What changed", timeout=WAIT)
        expect(chat).to_contain_text("top", timeout=WAIT)
        page.screenshot(path=str(shots / "two-files-2-revised.png"), full_page=True)
        page.locator("#approve").click()
        expect(page.locator("#downloads")).to_contain_text("annual_report_numbered", timeout=WAIT)
        [saved] = list(root.rglob("annual_report_numbered.pdf"))  # the result the link serves
        with pymupdf.open(saved) as doc:
            assert len(doc) == 3
            for pg in doc:
                numbers = [b for b in pg.get_text("blocks") if b[4].strip().isdigit()]
                assert numbers and all(b[1] < pg.rect.height / 2 for b in numbers), "numbers at the top only"
        browser.close()


@pytest.fixture
def local_app(tmp_path):
    """The app on the embedded model, made ready before it takes requests (as ``docpilot serve`` does)."""
    from docpilot.llm import local_available
    from docpilot.ui import launch

    if not local_available():
        pytest.skip("the embedded model is not installed")
    root = tmp_path / "sessions"
    running = launch(
        "127.0.0.1", free_port(), backend="local", idle_timeout=600, session_root=root, prevent_thread_lock=True
    )
    yield running, root
    running.close()


class ModelCalls:
    """How each of the app's model calls ended: "replied" or "stopped" (the real model, watched, not replaced)."""

    def __init__(self, running, monkeypatch) -> None:
        from docpilot.errors import Stopped

        llm = running.pilot.pilot.planner.llm
        chat = llm.chat
        self.ends: list[str] = []

        def watched(*args, **kwargs):
            try:
                reply = chat(*args, **kwargs)
            except Stopped:
                self.ends.append("stopped")
                raise
            self.ends.append("replied")
            return reply

        monkeypatch.setattr(llm, "chat", watched)


def _model_free() -> bool:
    """The model is not working for anyone: no call holds or waits for its turn (within half a second)."""
    from docpilot.llm.local_backend import queued_calls

    deadline = time.monotonic() + 0.5
    while queued_calls() and time.monotonic() < deadline:
        time.sleep(0.02)
    return queued_calls() == 0


@pytest.mark.llm
@pytest.mark.slow
def test_browser_cancel_stops_llm_planning(local_app, shots, make_pdf, monkeypatch):
    """Issue F item 5: while the model plans, the phase shows in the chat only; Cancel stops the model (its
    call ends stopped, not with a reply), the chat says Stopped, and the app is usable at once. How fast the
    chat says it is measured by ``bench/cancel.py``, not here."""
    expect = sync_api.expect
    running, _ = local_app
    calls = ModelCalls(running, monkeypatch)
    deck = make_pdf(["Quarterly results.", "Outlook."], name="deck.pdf")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(running.local_url)
        chat, request = page.locator("#chat"), page.locator("#request textarea")
        page.locator("#upload input[type=file]").set_input_files([deck])
        expect(chat).to_contain_text("deck.pdf", timeout=WAIT)

        request.fill("Tidy up this file for the board meeting")  # no rule reads it: the model plans
        page.locator("#send").click()
        expect(chat).to_contain_text("Planning", timeout=WAIT)
        expect(page.locator("#cancel")).to_be_enabled(timeout=WAIT)
        overlays = page.evaluate(
            "() => [...document.querySelectorAll('.progress-text, .eta-bar')].map(e => "
            "(e.closest('[id]') || {}).id + ':' + e.className + ':' + e.textContent)"
        )
        assert all(o.startswith("chat:") for o in overlays), overlays  # the phase shows in the chat only
        time.sleep(2.0)  # the model is reading the request
        assert calls.ends == [], calls.ends  # still working when Cancel is pressed
        page.screenshot(path=str(shots / "cancel-1-planning.png"), full_page=True)
        page.locator("#cancel").click()
        expect(chat).to_contain_text("Stopped: I cancelled the planning", timeout=WAIT)
        assert calls.ends == ["stopped"], calls.ends  # the model's call was stopped, it did not finish its plan
        assert _model_free(), "the model is still busy after Stopped"
        expect(page.locator("#approve")).to_be_disabled()  # no plan came of it
        page.screenshot(path=str(shots / "cancel-2-stopped.png"), full_page=True)

        request.fill("rotate page 2")  # usable at once: the fast path plans it
        page.locator("#send").click()
        expect(chat).to_contain_text("Rotate page 2 of deck.pdf", timeout=WAIT)
        expect(page.locator("#approve")).to_be_enabled(timeout=WAIT)
        browser.close()


def ask_in_browser(p, url: str, source: str, question: str):
    """A new browser on the app, ``source`` uploaded and ``question`` sent: (browser, page, chat)."""
    browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"])
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(url)
    chat = page.locator("#chat")
    page.locator("#upload input[type=file]").set_input_files(source)
    sync_api.expect(chat).to_contain_text(f"Added {Path(source).name}", timeout=WAIT)
    page.locator("#request textarea").fill(question)
    page.locator("#send").click()
    return browser, page, chat


def test_browser_answer_with_a_citation_opens_the_page_highlighted(app, shots, guard, make_pdf):
    expect = sync_api.expect
    running, _ = app
    source = guard(CONTRACT) if CONTRACT.exists() else pytest.skip("the corpus contract is needed")
    with sync_api.sync_playwright() as p:
        browser, page, chat = ask_in_browser(p, running.local_url, source, "When is the kick-off payment due?")
        expect(chat).to_contain_text("February 3, 2025", timeout=WAIT)
        expect(chat).to_contain_text("contract.pdf, page 3")
        chips = page.locator("#sources")
        expect(chips).to_be_visible()
        chips.get_by_text("1 · contract.pdf p. 3").click()
        view = page.locator("#page-view img")
        expect(view).to_have_attribute("src", re.compile(r"-v3-hl[0-9a-f]{10}\.png$"), timeout=WAIT)
        src = view.get_attribute("src") or ""
        pixels = page.request.get(src).body()  # the render the person sees: a highlight is on it
        import io

        from PIL import Image

        image = Image.open(io.BytesIO(pixels)).convert("RGB")
        yellow = sum(1 for r, g, b in image.get_flattened_data() if r > 200 and g > 200 and b < 120)
        assert yellow > 500, f"no highlight on the cited page ({yellow} yellow pixels)"
        page.screenshot(path=str(shots / "citation.png"), full_page=True)
        browser.close()


def test_browser_program_answer_shows_its_reading_and_opens_its_cells_highlighted(app, shots, guard, tmp_path):
    """Issue K: an answer computed by a program over a table shows its plain-language reading (which table, which
    rows, which operation) and the program; its source chips are the deciding cells, and one opens the page with
    the cell highlighted on the render."""
    from table_pdfs import DrawnTable, draw_pdf

    expect = sync_api.expect
    running, _ = app
    rows = [["Region", "Sales 2023", "Units"], ["North", "1,200", "14"], ["South", "300", "3"], ["West", "4,500", "40"]]
    rows.append(["East", "2,000", "22"])
    pages: list = ["Sales report 2023. The table follows on the next page."]
    pages.append([DrawnTable(rows, caption="Table 1: Sales by region (in thousands)")])
    source = guard(draw_pdf(tmp_path / "sales.pdf", pages))
    with sync_api.sync_playwright() as p:
        question = "Which region had the highest sales in 2023?"
        browser, page, chat = ask_in_browser(p, running.local_url, source, question)
        expect(chat).to_contain_text("How I worked it out", timeout=WAIT)
        expect(chat).to_contain_text("Table 1: Sales by region")  # which table
        expect(chat).to_contain_text("the row with the largest Sales 2023")  # which rows, which operation
        expect(chat).to_contain_text('idxmax(), "Region"]')  # the program itself
        expect(chat).to_contain_text("West")
        chips = page.locator("#sources")
        expect(chips).to_be_visible()
        labels = chips.get_by_text(re.compile(r"· sales\.pdf p\. 2"))
        expect(labels.first).to_be_visible()
        labels.first.click()
        view = page.locator("#page-view img")
        expect(view).to_have_attribute("src", re.compile(r"-v2-hl[0-9a-f]{10}\.png$"), timeout=WAIT)
        pixels = page.request.get(view.get_attribute("src") or "").body()
        import io

        from PIL import Image

        image = Image.open(io.BytesIO(pixels)).convert("RGB")
        yellow = sum(1 for r, g, b in image.get_flattened_data() if r > 200 and g > 200 and b < 120)
        assert yellow > 100, f"no cell highlighted on the cited page ({yellow} yellow pixels)"
        page.screenshot(path=str(shots / "program_answer.png"), full_page=True)
        browser.close()


@pytest.mark.llm
@pytest.mark.slow
def test_browser_answer_streams_in_then_its_citation_opens_the_page(local_app, shots, guard):
    """Issue G: the model's answer grows in the chat as it is written, then the checked answer with its
    sources replaces the draft; a source chip opens the cited page with the quote highlighted."""
    expect = sync_api.expect
    running, _ = local_app
    source = guard(CONTRACT) if CONTRACT.exists() else pytest.skip("the corpus contract is needed")
    with sync_api.sync_playwright() as p:
        question = "What must each party do with Confidential Information?"
        browser, page, chat = ask_in_browser(p, running.local_url, source, question)
        drafts: list[str] = []
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and not page.locator("#sources").is_visible():
            text = chat.inner_text()
            if "▍" in text:
                draft = text.rsplit("Writing", 1)[-1].strip()
                if not drafts or drafts[-1] != draft:
                    drafts.append(draft)
                    if len(drafts) == 2:
                        page.screenshot(path=str(shots / "answer-1-streaming.png"), full_page=True)
            time.sleep(0.05)
        print(f"\ndrafts seen: {drafts}")
        assert len(drafts) >= 3, drafts  # the answer grew in front of the person
        expect(chat).to_contain_text("keep Confidential Information secret", timeout=WAIT)
        expect(chat).not_to_contain_text("▍")  # the draft gave way to the checked answer
        page.screenshot(path=str(shots / "answer-2-answered.png"), full_page=True)
        chips = page.locator("#sources")
        chips.locator("label").first.click()
        view = page.locator("#page-view img")
        expect(view).to_have_attribute("src", re.compile(r"-v3-hl[0-9a-f]{10}\.png$"), timeout=WAIT)
        page.screenshot(path=str(shots / "answer-3-source.png"), full_page=True)
        browser.close()


def test_browser_cancel_stops_a_running_plan_and_the_session_goes_on(app, shots, real):
    """Issue L item 6: Cancel while a plan runs kills the run's sandbox, nothing is delivered, and the next
    request in the same session plans and runs."""
    expect = sync_api.expect
    running, root = app
    book = real("pdfjs__freeculture.pdf")  # 352 pages: converting it to Word takes a while
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(running.local_url)
        chat, request = page.locator("#chat"), page.locator("#request textarea")
        page.locator("#upload input[type=file]").set_input_files(book)
        expect(chat).to_contain_text("Added pdfjs__freeculture.pdf", timeout=WAIT)

        request.fill("convert it to Word")
        page.locator("#send").click()
        expect(page.locator("#approve")).to_be_enabled(timeout=WAIT)
        page.locator("#approve").click()
        pids: list[int] = []
        while not pids:  # until the run's sandbox worker runs the program (has the book open)
            pids = program_pids(os.getpid(), "pdfjs__freeculture.pdf")
            if "Done in" in chat.inner_text() or "failed" in chat.inner_text():
                pytest.fail("the run ended before the test could cancel it")
        page.screenshot(path=str(shots / "run-cancel-1-running.png"), full_page=True)
        page.locator("#cancel").click()
        expect(chat).to_contain_text("Stopped: I cancelled the run", timeout=WAIT)
        page.screenshot(path=str(shots / "run-cancel-2-stopped.png"), full_page=True)
        assert [pid for pid in pids if alive(pid)] == [], "the run's sandbox and worker are killed"
        [folder] = [d for d in root.iterdir() if d.is_dir() and not d.name.startswith(".")]
        assert [f for f in (folder / "outputs").rglob("*") if f.is_file()] == [], "nothing was delivered"
        expect(page.locator("#downloads a[data-testid='download-link']")).to_have_count(0)

        request.fill("rotate page 2 by 90 degrees")  # the same session goes on
        page.locator("#send").click()
        expect(chat).to_contain_text("Rotate page 2 of pdfjs__freeculture.pdf", timeout=WAIT)
        expect(page.locator("#approve")).to_be_enabled(timeout=WAIT)
        page.locator("#approve").click()
        expect(chat).to_contain_text("Done in 1 step", timeout=WAIT)
        expect(page.locator("#downloads")).to_contain_text("pdfjs__freeculture_rotated", timeout=WAIT)
        assert [d for d in root.iterdir() if d.is_dir() and not d.name.startswith(".")] == [folder]


@pytest.mark.llm
@pytest.mark.slow
def test_browser_cancel_stops_an_answer_being_written(local_app, shots, guard, monkeypatch):
    """Issue G: Cancel while the model writes an answer stops the model (its call ends stopped), the chat says
    so, no answer or sources appear, and the same session asks again and gets its answer."""
    expect = sync_api.expect
    import functools

    from docpilot import service
    from docpilot.understanding import answer as answering

    running, _ = local_app
    calls = ModelCalls(running, monkeypatch)
    # a machine busy with other work must not run into the 60 s of model time: stopping is what is tested here
    # (the request's limit and the question's own count of it, whose stop gave the closest passages instead)
    monkeypatch.setattr(service, "Stop", functools.partial(service.Stop, limit=600))

    class Patient(answering.QuestionModel):
        def __init__(self, llm, limit=600.0):
            super().__init__(llm, limit)

    monkeypatch.setattr(answering, "QuestionModel", Patient)
    source = guard(CONTRACT) if CONTRACT.exists() else pytest.skip("the corpus contract is needed")
    question = "What must each party do with Confidential Information?"
    with sync_api.sync_playwright() as p:
        browser, page, chat = ask_in_browser(p, running.local_url, source, question)
        expect(chat).to_contain_text("▍", timeout=240_000)  # the model is writing the answer
        expect(page.locator("#cancel")).to_be_enabled()
        page.screenshot(path=str(shots / "answer-cancel-1-writing.png"), full_page=True)
        before = len(calls.ends)
        page.locator("#cancel").click()
        expect(chat).to_contain_text("Stopped: I stopped answering", timeout=WAIT)
        assert calls.ends[before:] == ["stopped"], calls.ends  # the call writing it stopped; no other began
        assert _model_free(), "the model is still busy after Stopped"
        expect(chat).not_to_contain_text("▍")  # the draft is gone
        expect(chat).not_to_contain_text("Sources:")  # no answer with sources came of it
        expect(page.locator("#sources")).not_to_be_visible()
        page.screenshot(path=str(shots / "answer-cancel-2-stopped.png"), full_page=True)

        page.locator("#request textarea").fill(question)  # the session goes on: the same question again
        page.locator("#send").click()
        expect(page.locator("#sources")).to_be_visible(timeout=240_000)
        expect(chat).to_contain_text("keep Confidential Information secret", timeout=WAIT)
        assert calls.ends[-1] == "replied", calls.ends
        page.screenshot(path=str(shots / "answer-cancel-3-asked-again.png"), full_page=True)
        browser.close()
