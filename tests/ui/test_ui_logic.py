"""The web app's logic without a browser: real planner (rules backend), real tools, real files."""

from __future__ import annotations

import json
import stat
import time
import zipfile
from pathlib import Path

import pymupdf
import pytest

from docpilot.planning.planner import make_planner
from docpilot.running.executor import Executor
from docpilot.service import DocPilot
from docpilot.ui.actions import (
    PLANNING,
    UPLOAD_FIRST,
    SharedPilot,
    add_message,
    approve,
    cancel,
    handle_message,
    handle_revise,
    handle_upload,
    mask_text,
    respond,
    safely,
)
from docpilot.ui.panels import chat_of, render, select_doc, select_page
from docpilot.ui.session import SessionStore, safe_file_name
from pdftools.masking import MASK

PAGES = ["Page one: the parties.", "Page two: the terms.", "Page three: signatures."]


@pytest.fixture(scope="module")
def pilot(tmp_path_factory) -> SharedPilot:
    records = tmp_path_factory.mktemp("records")  # run records stay out of the user's cache
    return SharedPilot(DocPilot(make_planner("rules", {}), Executor(records=records)))


@pytest.fixture
def store(tmp_path: Path) -> SessionStore:
    s = SessionStore(tmp_path / "sessions", idle_timeout=60)
    yield s
    s.close_all()


@pytest.fixture
def session(store, make_pdf):
    s = store.create()
    handle_upload(s, [make_pdf(PAGES, name="contract.pdf")])
    return s


def last(session) -> str:
    return session.history[-1]["content"]


def edit(rows: list[list[str]], param: str, value: str, step: str = "1") -> list[list[str]]:
    out = [list(r) for r in rows]
    for row in out:
        if row[0] == step and row[2] == param:
            row[3] = value
            return out
    raise AssertionError(f"no row for step {step} {param}: {rows}")


def everything_shown(session, pilot) -> str:
    view = render(session, pilot)
    return json.dumps([view.chat, view.rows, view.plan_json, view.logs], ensure_ascii=False)


# --- upload ---------------------------------------------------------------------------------------------------


def test_upload_copies_pdf_and_image_into_a_private_folder(pilot, store, make_pdf, synthetic):
    pdf = make_pdf(PAGES, name="my contract.pdf")
    image = synthetic("signature.png")
    s = store.create()
    added = handle_upload(s, [pdf, image, pdf])
    assert added == ["my_contract.pdf", "signature.png", "my_contract-2.pdf"]
    assert s.files["my_contract.pdf"].pages == 3 and s.files["signature.png"].kind == "image"
    for info in s.files.values():
        assert Path(info.path).parent == s.folder / "inputs"
    assert stat.S_IMODE(s.folder.stat().st_mode) == 0o700
    assert "Added my_contract.pdf (3 pages)" in last(s)
    view = render(s, pilot)
    assert [c for _, c in view.thumbs] == ["Page 1", "Page 2", "Page 3"]
    assert view.page and Path(view.page).is_file() and view.docs[:2] == ["my_contract.pdf", "signature.png"]


def test_bad_files_are_refused_with_a_clear_message(store, tmp_path):
    fake = tmp_path / "notes.pdf"
    fake.write_text("just some text, not a PDF")
    other = tmp_path / "notes.txt"
    other.write_text("text")
    s = store.create()
    assert handle_upload(s, [str(fake), str(other)]) == []
    assert "notes.pdf cannot be used" in last(s) and "not a PDF" in last(s)
    assert "notes.txt is not a PDF or an image" in last(s)
    assert s.files == {} and not list((s.folder / "inputs").iterdir())
    handle_message(None, s, "rotate page 1 by 90 degrees")
    assert "Upload a PDF first" in last(s) and s.outcome is None


@pytest.mark.parametrize(
    "name, safe",
    [
        ("../../etc/passwd", "passwd"),
        ("a b/c d.pdf", "c_d.pdf"),
        ("x\\..\\y.PDF", "y.PDF"),
        ("...", "file"),
        ("é.pdf", "file.pdf"),
    ],
)
def test_safe_file_name(name, safe):
    assert safe_file_name(name) == safe


# --- plan, edit, approve -----------------------------------------------------------------------------------------


def test_edited_page_is_the_one_rotated(pilot, session):
    handle_message(pilot, session, "rotate page 2 by 90 degrees")
    assert session.outcome is not None and "Rotate page 2" in session.history[-2]["content"]
    assert session.history[-1]["metadata"]["title"] == "Exact plan"
    rows = render(session, pilot).rows
    assert ["1", "rotate_pages", "pages", "2"] in rows
    approve(pilot, session, edit(rows, "pages", "3"))
    assert session.outcome is None, last(session)
    [output] = session.outputs
    with pymupdf.open(output) as doc:
        assert [p.rotation for p in doc] == [0, 0, 90]
    assert any("pages 2 → 3" in line for line in session.logs)
    with zipfile.ZipFile(session.zip_path) as archive:
        assert archive.namelist() == [Path(output).name]
    view = render(session, pilot)
    assert view.downloads == [output, session.zip_path]
    assert [c for _, c in view.before_after] == ["Page 3 before", "Page 3 after"]
    assert view.doc == "result: " + Path(output).name


def test_edited_password_and_output_name_are_used_and_never_shown(pilot, session):
    handle_message(pilot, session, "encrypt with password abc123")
    rows = render(session, pilot).rows
    assert ["1", "add_password", "password", MASK] in rows
    assert "abc123" not in everything_shown(session, pilot)
    rows = edit(edit(rows, "password", "s3cret-Edit"), "output", "locked.pdf")
    approve(pilot, session, rows)
    [output] = session.outputs
    assert Path(output).name == "locked.pdf"
    with pymupdf.open(output) as doc:
        assert doc.needs_pass and not doc.authenticate("abc123") and doc.authenticate("s3cret-Edit")
    assert "s3cret-Edit" not in everything_shown(session, pilot)
    assert render(session, pilot).thumbs, "the viewer unlocks the session's own output"


def test_watermark_text_edit(pilot, session):
    handle_message(pilot, session, "add a DRAFT watermark")
    approve(pilot, session, edit(render(session, pilot).rows, "text", "REVIEWED"))
    [output] = session.outputs
    with pymupdf.open(output) as doc:
        text = doc[0].get_text()
    assert "REVIEWED" in text and "DRAFT" not in text


def test_an_invalid_edit_is_reported_and_nothing_runs(pilot, session):
    handle_message(pilot, session, "rotate page 2 by 90 degrees")
    rows = edit(render(session, pilot).rows, "pages", "9")
    approve(pilot, session, rows)
    assert "nothing was run" in last(session) and "9" in last(session)
    assert session.outputs == [] and session.outcome is not None
    assert render(session, pilot).rows == rows, "the user's edit stays in the editor"
    approve(pilot, session, edit(rows, "pages", "1"))
    with pymupdf.open(session.outputs[0]) as doc:
        assert [p.rotation for p in doc] == [90, 0, 0]


def test_revise_through_a_critique(pilot, session):
    handle_message(pilot, session, "add a DRAFT watermark")
    handle_revise(pilot, session, "also encrypt with password abc")
    assert [s.task for s in session.outcome.plan.steps] == ["add_watermark", "add_password"]
    assert "revised plan" in session.history[-2]["content"]
    assert session.history[-3] == {"role": "user", "content": "also encrypt with password ***"}
    approve(pilot, session, None)
    with pymupdf.open(session.outputs[-1]) as doc:
        assert doc.needs_pass and doc.authenticate("abc")


def test_cancel_and_nothing_to_approve(pilot, session):
    handle_message(pilot, session, "delete page 1")
    cancel(session)
    assert session.outcome is None and "Cancelled" in last(session)
    approve(pilot, session)
    assert "no plan to approve" in last(session) and session.outputs == []
    handle_revise(pilot, session, "page 2 instead")
    assert "no plan to revise" in last(session)


def test_questions_are_answered_with_page_citations(pilot, session):
    handle_message(pilot, session, "what does it say about the terms?")
    assert session.outcome is None, "a content question is answered, not planned"
    assert "Sources:" in last(session) and "contract.pdf, page 2" in last(session), last(session)
    assert (session.folder / "structure").is_dir(), "the structure is cached inside the session's own folder"
    handle_message(pilot, session, "how many pages?")
    assert session.outcome is not None, "a question a tool answers is planned"
    approve(pilot, session)
    assert "3 pages" in last(session)


@pytest.mark.parametrize(
    "text, shown",
    [
        ("encrypt with password abc123", "encrypt with password ***"),
        ('the password is "hunter 2"', 'the password is "***"'),
        (
            'add_password(f, password="s3", owner_password="o9")',
            'add_password(f, password="***", owner_password="***")',
        ),
        ("password protect it", "password protect it"),
        ("remove the password", "remove the password"),
    ],
)
def test_mask_text(text, shown):
    assert mask_text(text) == shown


def test_a_password_in_a_failed_request_is_masked_too(pilot, session):
    handle_message(pilot, session, "rotate page 9 and encrypt with password zebra77")
    assert "zebra77" not in everything_shown(session, pilot)


def test_page_past_the_end_is_explained_and_the_next_request_works(pilot, session):
    handle_message(pilot, session, "rotate page 9 by 90 degrees")
    assert "can't do that" in last(session) and "out of range" in last(session) and session.outcome is None
    handle_message(pilot, session, "rotate page 1 by 90 degrees")
    approve(pilot, session)
    with pymupdf.open(session.outputs[0]) as doc:
        assert doc[0].rotation == 90


def test_unexpected_failures_become_a_message(session):
    def boom() -> None:
        raise RuntimeError("internal detail")

    safely(session, boom)
    assert "went wrong" in last(session) and "Traceback" not in last(session)


def test_viewer_only_shows_the_sessions_own_files(session, pilot, tmp_path):
    other = tmp_path / "secret.pdf"
    other.write_bytes(Path(session.files["contract.pdf"].path).read_bytes())
    select_doc(session, str(other))
    select_doc(session, "../secret.pdf")
    assert render(session, pilot).doc == "contract.pdf"
    select_page(session, 2)
    assert render(session, pilot).page.endswith("-v3.png")


# --- session lifecycle -------------------------------------------------------------------------------------------


def test_reset_removes_the_session_folder(store, session, make_pdf):
    folder, sid = session.folder, session.id
    fresh = store.reset(sid)
    assert not folder.exists() and store.get(sid) is None
    assert fresh.id != sid and fresh.folder.is_dir() and fresh.files == {} and fresh.history == []


def test_idle_sessions_expire_and_their_folders_go(tmp_path, make_pdf):
    store = SessionStore(tmp_path / "idle", idle_timeout=0.3)
    idle, busy = store.create(), store.create()
    handle_upload(idle, [make_pdf(PAGES)])
    with store.use(busy.id) as (same, expired):
        assert same is busy and not expired
        time.sleep(0.5)
        assert store.expire_idle() == [idle.id]
        assert not idle.folder.exists() and busy.folder.exists(), "a session in use is never expired"
    assert store.expire_idle(time.time() + 1) == [busy.id] and not busy.folder.exists()
    with store.use(idle.id) as (new, expired):
        assert expired and new.id != idle.id
    store.close_all()
    assert list((tmp_path / "idle").iterdir()) == []


def test_sessions_are_isolated(store, make_pdf):
    a, b = store.create(), store.create()
    path = make_pdf(PAGES, name="same.pdf")
    handle_upload(a, [path])
    handle_upload(b, [path])
    assert a.folder != b.folder and a.files["same.pdf"].path != b.files["same.pdf"].path
    store.remove(a.id)
    assert Path(b.files["same.pdf"].path).is_file()
    assert store.remove_owner(None) == 0


def test_images_become_a_pdf_and_sign_a_page(pilot, store, synthetic, make_pdf):
    s = store.create()
    handle_upload(s, [synthetic("photo1.jpg"), synthetic("photo2.jpg")])
    assert render(s, pilot).thumbs == [(s.files["photo1.jpg"].path, "photo1.jpg")]
    handle_message(pilot, s, "combine the images into a PDF")
    approve(pilot, s)
    [pdf] = s.outputs
    with pymupdf.open(pdf) as doc:
        assert doc.page_count == 2
    signer = store.create()
    handle_upload(signer, [make_pdf(PAGES, name="contract.pdf"), synthetic("signature.png")])
    handle_message(pilot, signer, "add the signature on page 1")
    approve(pilot, signer)
    [signed] = signer.outputs
    with pymupdf.open(signed) as doc:
        assert doc[0].get_images() and not doc[1].get_images()
    assert [c for _, c in render(signer, pilot).before_after] == ["Page 1 before", "Page 1 after"]


def test_the_message_shows_before_planning_starts(pilot, session):
    assert add_message(session, "rotate page 2 by 90 degrees")
    assert session.history[-2] == {"role": "user", "content": "rotate page 2 by 90 degrees"}
    assert session.history[-1]["content"] == PLANNING and session.outcome is None, "nothing planned yet"
    respond(pilot, session)
    assert session.outcome is not None and "Rotate page 2" in session.history[-2]["content"]
    assert all(m["content"] != PLANNING for m in session.history)
    respond(pilot, session)  # nothing is waiting any more: no second plan
    assert sum(m["role"] == "user" for m in session.history) == 1


def test_a_new_message_turns_the_plan_buttons_off_until_it_is_planned(pilot, session):
    handle_message(pilot, session, "rotate page 2 by 90 degrees")
    assert render(session, pilot).pending
    add_message(session, "add a DRAFT watermark")
    assert not render(session, pilot, pictures=False).pending, "the old plan cannot be approved meanwhile"
    respond(pilot, session)
    assert render(session, pilot).pending and "DRAFT" in session.outcome.explanation


def test_two_files_and_no_mention_asks_which_then_changes_only_that_one(pilot, store, make_pdf):
    s = store.create()
    handle_upload(s, [make_pdf(PAGES, name="contract.pdf"), make_pdf(PAGES, name="memo.pdf")])
    handle_message(pilot, s, "rotate page 1 by 90 degrees")
    assert s.outcome is None and "Which file" in last(s) and "memo.pdf" in last(s)
    handle_message(pilot, s, "memo.pdf")
    assert s.outcome is not None and "memo.pdf" in s.history[-2]["content"]
    approve(pilot, s)
    assert [Path(p).name for p in s.outputs] == ["memo_rotated.pdf"], last(s)


def test_the_upload_hint_is_not_masked_as_if_it_held_a_password():
    assert mask_text(UPLOAD_FIRST) == UPLOAD_FIRST


class _Waits:
    """A model that works until it is told to stop (drives the Cancel wiring; the real model's stopping is
    checked in tests/llm/test_stopping.py and the browser test)."""

    name = "scripted"

    def __init__(self) -> None:
        from docpilot.llm.base import Usage

        self.usage = Usage()

    def chat(
        self,
        messages,
        *,
        schema=None,
        max_tokens=512,
        temperature=0.0,
        should_stop=None,
        on_text=None,
        grammar=None,
        on_wait=None,
    ):
        from docpilot.errors import Stopped

        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if should_stop is not None and should_stop():
                raise Stopped("The model was stopped.", cancelled=False)
            time.sleep(0.01)
        raise AssertionError("the model was never told to stop")


def test_cancel_stops_planning_without_the_session_lock(store, make_pdf, tmp_path) -> None:
    import threading

    from docpilot.planning.planner import Planner
    from docpilot.ui.actions import STOPPED, stop_planning

    waiting = SharedPilot(DocPilot(Planner(llm=_Waits()), Executor(records=tmp_path / "records")))
    session = store.create()
    handle_upload(session, [make_pdf(PAGES, name="contract.pdf")])
    assert not stop_planning(session)  # nothing is being planned
    assert add_message(session, "Tidy up this file for the board meeting")
    worker = threading.Thread(target=lambda: respond(waiting, session))
    with session.lock:  # as the app's planning event holds it
        worker.start()
        deadline = time.monotonic() + 10
        while session.stop is None and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.2)
        assert worker.is_alive() and stop_planning(session)  # reached without the lock
        started = time.monotonic()
        worker.join(5)
    assert not worker.is_alive() and time.monotonic() - started < 2.0
    assert last(session) == STOPPED and session.outcome is None and session.stop is None


class _RemotePilot(SharedPilot):
    """The real rules service, reporting a remote server as an OpenAI-compatible backend would."""

    def remote_server(self) -> str | None:
        return "https://llm.example.net/v1"


def test_a_remote_server_is_named_once_per_session_before_text_leaves(store, make_pdf, tmp_path):
    pilot = _RemotePilot(DocPilot(make_planner("rules", {}), Executor(records=tmp_path / "records")))
    s = store.create()
    handle_upload(s, [make_pdf(PAGES, name="contract.pdf")])
    handle_message(pilot, s, "what does it say about the terms?")
    notices = [m["content"] for m in s.history if "llm.example.net" in str(m["content"])]
    assert len(notices) == 1 and "sent there" in notices[0]
    handle_message(pilot, s, "what does it say about the parties?")
    assert len([m for m in s.history if "llm.example.net" in str(m["content"])]) == 1
    assert "Sources:" in last(s)


def test_a_source_opens_its_page_with_the_quote_highlighted(pilot, session):
    from docpilot.ui.panels import select_source, source_labels

    handle_message(pilot, session, "what does it say about the terms?")
    labels = source_labels(session)
    assert labels and labels[0].startswith("1 · contract.pdf p. ")
    select_source(session, labels[0])
    cite = session.citations[0]
    assert (session.view_page, session.view_quote) == (cite["page"], cite["quote"])
    view = render(session, pilot)
    assert view.source == labels[0] and "-hl" in Path(view.page).name
    select_source(session, "9 · elsewhere.pdf p. 1")  # not a source of this session: nothing opens
    assert session.view_quote == cite["quote"]
    select_page(session, 0)
    assert session.view_quote is None and "-hl" not in Path(render(session, pilot).page).name


class _Watching:
    """A scripted model (loop logic only) that notes what the chat shows each time it writes a piece."""

    name = "scripted"

    def __init__(self, session, replies) -> None:
        from tests.fakes import ScriptedLLM

        self.inner, self.session, self.shown = ScriptedLLM(replies), session, []
        self.usage = self.inner.usage

    def chat(self, messages, **kwargs):
        on_text = kwargs.pop("on_text", None)

        def watch(text: str) -> None:
            on_text(text)
            self.shown.append(chat_of(self.session)[-1]["content"])

        return self.inner.chat(messages, **kwargs, on_text=watch if on_text else None)


def test_an_answer_is_shown_as_it_is_written_then_replaced_by_the_checked_one(store, synthetic, tmp_path):
    from docpilot.planning.planner import Planner

    s = store.create()
    handle_upload(s, [synthetic("contract.pdf")])
    model = _Watching(s, ['{"answer": "David Chen", "evidence": [1]}'])
    streaming = SharedPilot(DocPilot(Planner(llm=model), Executor(records=tmp_path / "records")))
    handle_message(streaming, s, "Who represents the Consultant?")
    drafts = [text for text in model.shown if text.endswith("▍")]
    assert len(drafts) >= 2 and drafts[-1] == "David Chen ▍", model.shown  # grows in the chat as written
    assert s.draft is None and "David Chen" in last(s) and "Sources:" in last(s)
    assert not any(str(m["content"]).endswith("▍") for m in chat_of(s))  # the draft is gone


class _SharedModel:
    """A scripted model (loop logic only) taking turns in the real line (FairQueue) as the embedded model does;
    each call holds the model until ``release`` is set."""

    name = "scripted"

    def __init__(self) -> None:
        import threading

        from docpilot.llm.base import Usage
        from docpilot.llm.queue import FairQueue

        self.usage, self.queue = Usage(), FairQueue(poll=0.02)
        self.serving, self.release = threading.Event(), threading.Event()

    def chat(self, messages, *, on_wait=None, **kwargs):
        from docpilot.llm.base import Reply

        with self.queue.turn(on_wait):
            self.serving.set()
            assert self.release.wait(10), "the test never let the model answer"
            return Reply('{"answer": "The terms are on page two.", "evidence": [1]}')


def test_a_question_waiting_for_the_model_shows_its_place_and_can_leave_the_line(store, make_pdf, tmp_path):
    import threading

    from docpilot.planning.planner import Planner
    from docpilot.ui.actions import ANSWER_STOPPED, stop_planning
    from docpilot.ui.panels import waiting_text

    model = _SharedModel()
    shared = SharedPilot(DocPilot(Planner(llm=model), Executor(records=tmp_path / "records")))
    first, second, third = (store.create() for _ in range(3))
    for s in (first, second, third):
        handle_upload(s, [make_pdf(PAGES, name="contract.pdf")])
    question = "what does it say about the terms?"

    def ask(s):
        worker = threading.Thread(target=lambda: handle_message(shared, s, question), daemon=True)
        worker.start()
        return worker

    def shown(s) -> str:
        return str(chat_of(s)[-1]["content"])

    def until(condition) -> None:
        deadline = time.monotonic() + 10
        while not condition():
            assert time.monotonic() < deadline, "timed out"
            time.sleep(0.01)

    workers = [ask(first)]
    until(model.serving.is_set)  # the first question has the model
    workers.append(ask(second))
    until(lambda: shown(second) == waiting_text(1))
    workers.append(ask(third))
    until(lambda: shown(third) == waiting_text(2))
    assert waiting_text(2).startswith("Waiting for the model: 2 requests ahead of yours")
    assert waiting_text(1).startswith("Waiting for the model: 1 request ahead of yours")

    assert stop_planning(second)  # Cancel while waiting: the second leaves the line at once
    until(lambda: not workers[1].is_alive())
    assert last(second) == ANSWER_STOPPED and second.queued is None
    until(lambda: shown(third) == waiting_text(1))  # the third moved up; the first still has the model
    assert workers[0].is_alive()

    model.release.set()
    for worker in workers:
        worker.join(10)
        assert not worker.is_alive()
    for s in (first, third):
        assert "The terms are on page two." in last(s) and s.queued is None
        assert not any("Waiting for the model" in str(m["content"]) for m in chat_of(s))
