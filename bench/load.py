"""Twenty people on one server: latency, the model's line, leaks between sessions and memory (issue L item 5).

    .venv/bin/python bench/load.py [--sessions 20] [--model-sessions 5] [--name load]

Starts one app server in its own process, as ``make serve`` does (``docpilot.ui.launch`` with the embedded
model made ready before it takes requests) on a free port, and drives ``--sessions`` concurrent sessions
through the app's own API with gradio_client, the calls the browser makes: upload, send, plan (its streamed
chat read as it comes) and, for a plan, approve. Every session uploads its own small PDF and puts its own
canary string in the file's text, its name and its request. All sessions upload first, then send their
requests at the same moment. ``--model-sessions`` of them need the model (a request no rule reads, planned
by the model and run; a question about the document's content, answered by the model); the others take
the fast path (runs with file outputs, and a counting question answered by a run).

Measured: each request's latency from Send to its last reply (plan and run), p50/p95 for fast and model
requests apart; every place in the model's line the chats showed ("Waiting for the model: 2 requests ahead
of yours"); the server process's peak RSS (the kernel's high-water mark, VmHWM, and a 0.25 s sample, alone
and with its sandbox children); the models loaded in the server (``loaded_models()``, asked of the server
process itself). Checked after all finish: each session's canary is searched in every other session's chat
(every message shown, logs, plan), downloads (PDF text, raw bytes, the members of zips and Office files)
and session folder on the server (0 found); each session's own canary is found in its own chat, and in its
own downloads for a run (the positive control: a search that cannot find anything proves nothing); every
run the app said was done delivered its files (0 lost). Requests the app did not carry out (the model's
60 s ran out, a model's plan failed when run: the chat says why, nothing is delivered) are counted apart
(``done``, ``not_done`` with the app's reply). Writes ``bench/results/<name>.json`` (label "measure");
exit status 1 when a leak, a lost output, a failed session, a second model or more than 8 GB was seen.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from load_search import canaries_in_files, texts_of_chat  # noqa: E402
from load_server import Server, serve  # noqa: E402
from results import write_result  # noqa: E402

WAITING = re.compile(r"Waiting for the model: (\d+) requests? ahead of yours")
RSS_LIMIT_MB = 8 * 1024
# the app's replies that say a request was not carried out (each with why, and nothing delivered)
REFUSALS = ("I can't do that", "I could not", "Stopped", "Something went wrong", "The run failed")
# (action, request): "run" approves the plan and expects files; "question" reads the reply in the chat (and
# approves a plan, when the question is answered by one). {c} is the session's canary.
FAST = [
    ("run", "add a watermark saying {c}"),
    ("question", "how many times does {c} appear?"),
    ("run", "highlight {c}"),
    ("run", "convert it to Word"),
]
MODEL = [  # no rule reads these runs: the model plans them; the question is answered by the model from the page
    ("run", "I need the first leaf only, as its own file"),
    ("question", "What is the reference of this agreement?"),
    ("run", "Stamp it with the text {c} in the corner of each sheet"),
]


# --- the sessions -----------------------------------------------------------------------------------------


@dataclass
class Session:
    """One person: a canary, a PDF carrying it, one request; what the app showed and gave back."""

    number: int
    kind: str  # "fast" or "model"
    action: str  # "run" or "question"
    canary: str
    request: str
    pdf: Path
    downloads_dir: Path
    latency: float | None = None
    places: list[int] = field(default_factory=list)  # the places in the model's line the chat showed, in order
    shown: list[str] = field(default_factory=list)  # every text the app showed this session
    downloads: list[str] = field(default_factory=list)
    reply: str | None = None  # the chat's last message
    approved: bool = False  # a plan was approved and run
    client: Any = None  # kept open until the end: a client that goes away ends its session on the server
    error: str | None = None

    @property
    def done(self) -> bool:
        """The request was carried out: a run delivered files, a question got a reply that is not a refusal."""
        if self.error is not None or self.latency is None:
            return False
        if self.action == "run":
            return bool(self.downloads)
        return not (self.reply or "").startswith(REFUSALS)


def make_sessions(count: int, model_count: int, folder: Path) -> list[Session]:
    """``count`` sessions, ``model_count`` of them spread among the others, each with a canary in its own PDF."""
    import pymupdf

    model_at = {round(i * count / model_count) for i in range(model_count)} if model_count else set()
    sessions, fast_n, model_n = [], 0, 0
    for n in range(count):
        canary = "LC" + secrets.token_hex(5).upper()
        if n in model_at:
            (action, request), kind, model_n = MODEL[model_n % len(MODEL)], "model", model_n + 1
        else:
            (action, request), kind, fast_n = FAST[fast_n % len(FAST)], "fast", fast_n + 1
        own = folder / f"s{n:02d}"
        (own / "downloads").mkdir(parents=True)
        pdf = own / f"load-{canary}.pdf"
        with pymupdf.open() as doc:
            doc.new_page().insert_text(
                (72, 72),
                f"Service agreement between Alder Ltd and Birch GmbH, reference {canary}.\n"
                "The Consultant is represented by Dana Frost.",
                fontsize=11,
            )
            doc.new_page().insert_text((72, 72), f"Payment is due within 30 days. Notices go to desk {canary}.")
            doc.save(pdf)
        sessions.append(Session(n, kind, action, canary, request.format(c=canary), pdf, own / "downloads"))
    return sessions


OUT = {  # what each endpoint returns, in order (as tests/ui/test_ui_app.py lists them)
    "/upload": ["chat", "files", "doc", "thumbs", "page", "before_after", "logs", "upload"],
    "/send": ["chat", "request"],
    "/plan": ["chat", "editor", "plan_json", "logs", "sources"],
    "/approve": ["chat", "editor", "plan_json", "files", "doc", "thumbs", "page", "before_after", "downloads", "logs"],
}


def _named(api: str, values: Any) -> dict[str, Any]:
    values = values if isinstance(values, list | tuple) else [values]
    return dict(zip(OUT[api], values, strict=False))


def _value(output: Any) -> Any:
    return output.get("value") if isinstance(output, dict) and output.get("__type__") == "update" else output


def _note(session: Session, result: dict[str, Any]) -> None:
    """Keep every text a result shows (chat, logs, plan, file names) and the places in the model's line."""
    chat = _value(result.get("chat"))
    texts = texts_of_chat(chat)
    if chat:
        session.reply = texts_of_chat(chat[-1:])[0]
    for text in texts:
        found = WAITING.search(text)
        if found and (not session.places or session.places[-1] != int(found.group(1))):
            session.places.append(int(found.group(1)))
    session.shown += texts
    for key in ("logs", "plan_json", "files"):
        value = _value(result.get(key))
        if isinstance(value, str):
            session.shown.append(value)


def drive(session: Session, url: str, start: threading.Barrier, timeout: float) -> None:
    """One person's visit: upload, wait for everyone, send the request, read the reply, approve a plan."""
    from gradio_client import Client, handle_file

    try:
        client = session.client = Client(url, verbose=False, download_files=str(session.downloads_dir))
        _note(session, _named("/upload", client.predict([handle_file(str(session.pdf))], api_name="/upload")))
    except Exception as exc:  # noqa: BLE001 - one failed session is reported, the others go on
        session.error = f"upload: {type(exc).__name__}: {exc}"
    start.wait(timeout)  # every session sends its request at the same moment
    if session.error is not None:
        return
    try:
        began = time.monotonic()
        _note(session, _named("/send", client.predict(session.request, api_name="/send")))
        job = client.submit(api_name="/plan")
        seen = 0
        while not job.done():  # the streamed chat: the place in the model's line as it moves
            time.sleep(0.25)
            outputs = job.outputs()
            for output in outputs[seen:]:
                _note(session, _named("/plan", output))
            seen = len(outputs)
            if time.monotonic() - began > timeout:
                raise TimeoutError(f"no plan after {timeout:.0f} s")
        planned = _named("/plan", job.result())
        _note(session, planned)
        editor = _value(planned.get("editor"))  # the plan editor's table, as the browser would send it back
        if isinstance(editor, dict) and editor.get("data"):  # a plan waits for approval: run it
            ran = _named("/approve", client.predict(editor, api_name="/approve"))
            session.approved = True
            _note(session, ran)
            session.downloads = [str(_value(d)) for d in _value(ran.get("downloads")) or []]
        session.latency = time.monotonic() - began
    except Exception as exc:  # noqa: BLE001 - one failed session is reported, the others go on
        session.error = f"{type(exc).__name__}: {exc}"


# --- the run and its figures ------------------------------------------------------------------------------


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))], 2)


def _latency(sessions: list[Session]) -> dict[str, Any]:
    times = [s.latency for s in sessions if s.latency is not None]
    return {
        "count": len(times),
        "p50_seconds": _percentile(times, 0.5),
        "p95_seconds": _percentile(times, 0.95),
        "max_seconds": round(max(times), 2) if times else None,
        "mean_seconds": round(statistics.fmean(times), 2) if times else None,
    }


def leaks(sessions: list[Session], server_root: Path) -> dict[str, Any]:
    """Every canary of one session found in what another was shown, downloaded or keeps on the server; and
    each session's own canary in its own chat and a run's own downloads (the search's positive control)."""
    canaries = {s.canary: s.number for s in sessions}
    found: list[str] = []
    own_chat = own_downloads = 0
    for s in sessions:
        chat = "\n".join(s.shown)
        found += [
            f"session {s.number}'s chat shows session {n}'s canary"
            for c, n in canaries.items()
            if n != s.number and c in chat
        ]
        own_chat += s.canary in chat
        held = canaries_in_files([Path(p) for p in s.downloads] + list(s.downloads_dir.rglob("*")), canaries)
        found += [f"session {s.number}'s downloads hold session {canaries[c]}'s canary" for c in held - {s.canary}]
        own_downloads += s.action == "run" and s.canary in canaries_in_files([Path(p) for p in s.downloads], canaries)
    folders = [p for p in server_root.iterdir() if p.is_dir() and not p.name.startswith(".")]
    for folder in folders:
        owners = {c for c in canaries if any(c in p.name for p in (folder / "inputs").glob("*"))}
        held = canaries_in_files(list(folder.rglob("*")), canaries)
        found += [f"server folder {folder.name} of {sorted(owners)} holds {c}" for c in held - owners]
    runs = sum(s.action == "run" and s.error is None for s in sessions)
    return {
        "found": found,
        "own_canary_in_own_chat": f"{own_chat}/{len(sessions)}",
        "own_canary_in_own_downloads": f"{own_downloads}/{runs}",
        "server_folders": len(folders),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--model-sessions", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=1200, help="seconds one session may take")
    parser.add_argument("--name", default="load", help="the results file: bench/results/NAME.json")
    parser.add_argument("--no-write", action="store_true", help="print the figures only")
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--root", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        return serve(args.serve, args.root)
    if not 0 <= args.model_sessions <= args.sessions:
        parser.error("--model-sessions must be between 0 and --sessions")

    from results import load_average

    load = load_average()
    with tempfile.TemporaryDirectory(prefix="docpilot-load-") as tmp:
        folder = Path(tmp)
        server_root = folder / "server-sessions"
        sessions = make_sessions(args.sessions, args.model_sessions, folder / "clients")
        started = time.monotonic()
        server = Server(server_root, folder / "server.log")
        try:
            ready = server.next_message(timeout=900)
            if ready.get("backend") != "local":
                raise SystemExit(f"the server plans with {ready.get('backend')!r}, not the embedded model")
            ready_seconds = time.monotonic() - started
            server.sample_memory()
            start = threading.Barrier(len(sessions))
            threads = [threading.Thread(target=drive, args=(s, ready["ready"], start, args.timeout)) for s in sessions]
            began = time.monotonic()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            wall = time.monotonic() - began
            report = server.ask("report")
            found = leaks(sessions, server_root)
            high_water = server.high_water_mb()
        finally:
            server.stop()
            if any(s.error for s in sessions):
                print("the server's log ends:\n" + (folder / "server.log").read_text()[-4000:], file=sys.stderr)
        figures = _figures(sessions, report, found, server, high_water, wall, ready_seconds)  # downloads still here
    print(json.dumps(figures, indent=1))
    if not args.no_write:
        write_result(args.name, figures, load=load, notes=_notes(figures))
    return 0 if figures["ok"] else 1


def _figures(
    sessions: list[Session],
    report: dict[str, Any],
    found: dict[str, Any],
    server: Server,
    high_water: float,
    wall: float,
    ready_seconds: float,
) -> dict[str, Any]:
    fast = [s for s in sessions if s.kind == "fast"]
    model = [s for s in sessions if s.kind == "model"]
    runs = [s for s in sessions if s.action == "run"]
    # a run the app said was done whose files did not arrive (a run that failed says so and delivers nothing)
    lost = [
        s.number
        for s in runs
        if s.approved
        and not (s.reply or "").startswith(REFUSALS)
        and not (s.downloads and all(Path(p).is_file() for p in s.downloads))
    ]
    not_done = {str(s.number): (s.reply or "")[:200] for s in sessions if s.error is None and not s.done}
    failed = {str(s.number): s.error for s in sessions if s.error}
    peak = max(high_water, server.peak_mb)
    places = {str(s.number): s.places for s in sessions if s.places}
    figures = {
        "sessions": len(sessions),
        "fast_sessions": len(fast),
        "model_sessions": len(model),
        "runs": len(runs),
        "questions": len(sessions) - len(runs),
        "latency_fast": _latency(fast),
        "latency_model": _latency(model),
        "queue_places_seen": places,
        "most_ahead_seen": max((max(p) for p in places.values()), default=0),
        "peak_rss_mb": round(peak, 1),
        "peak_rss_sampled_mb": round(server.peak_mb, 1),
        "peak_rss_with_sandboxes_mb": round(server.peak_with_children_mb, 1),
        "rss_limit_mb": RSS_LIMIT_MB,
        "models_loaded": len(report.get("loaded_models", [])),
        "loaded_models": report.get("loaded_models", []),
        "leaks": len(found["found"]),
        "leaks_found": found["found"],
        "own_canary_in_own_chat": found["own_canary_in_own_chat"],
        "own_canary_in_own_downloads": found["own_canary_in_own_downloads"],
        "server_session_folders": found["server_folders"],
        "lost_outputs": len(lost),
        "done": f"{sum(s.done for s in sessions)}/{len(sessions)}",
        "not_done": not_done,
        "failed_sessions": failed,
        "wall_seconds": round(wall, 1),
        "server_ready_seconds": round(ready_seconds, 1),
        "requests": {
            str(s.number): {
                "kind": s.kind,
                "action": s.action,
                "request": s.request,
                "latency_seconds": round(s.latency, 2) if s.latency is not None else None,
                "last_reply": (s.reply or "")[:300],
                "downloads": [Path(p).name for p in s.downloads],
            }
            for s in sessions
        },
    }
    figures["ok"] = (
        not found["found"]
        and not lost
        and not failed
        and figures["models_loaded"] == 1
        and peak <= RSS_LIMIT_MB
        and found["own_canary_in_own_chat"] == f"{len(sessions)}/{len(sessions)}"
    )
    return figures


def _notes(figures: dict[str, Any]) -> str:
    return (
        f"{figures['sessions']} concurrent sessions ({figures['fast_sessions']} fast path, {figures['model_sessions']} "
        "through the embedded model) against one server process started as `make serve` does; latency from Send "
        "to the last reply (plan, and the run for a plan); peak RSS is the server process's VmHWM (sandbox "
        "children apart, in peak_rss_with_sandboxes_mb, sampled every 0.25 s)."
    )


if __name__ == "__main__":
    raise SystemExit(main())
