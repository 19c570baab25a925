"""Cancel in the app (run by hand): the time from a click on Cancel to the chat's "Stopped" while the model plans.

    .venv/bin/python bench/cancel.py [--repeat 5] [--reading 2.0]

Starts the app on the embedded model (made ready before it takes requests, as ``docpilot serve`` does), drives
Debian's Chromium with Playwright, and per repetition: sends a request no rule reads (the model plans it), waits
``--reading`` seconds while the model reads it, clicks Cancel and times until the chat says "Stopped". The time
includes the browser's round trips. Writes ``bench/results/cancel.json``: median, min, max and every time.
The behaviour (the chat says Stopped, the model's call ends stopped, the session goes on) is checked by
``tests/ui/test_ui_browser.py::test_browser_cancel_stops_llm_planning``; this file only measures.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from results import write_result  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
REQUEST = "Tidy up this file for the board meeting"  # no rule reads it: the model plans
STOPPED = "Stopped: I cancelled the planning"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _deck(folder: Path) -> str:
    import pymupdf

    path = folder / "deck.pdf"
    with pymupdf.open() as doc:
        for text in ("Quarterly results.", "Outlook."):
            doc.new_page().insert_text((72, 72), text)
        doc.save(path)
    return str(path)


def measure(repeat: int, reading: float) -> list[float]:
    from playwright.sync_api import expect, sync_playwright

    from docpilot.ui import launch

    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        running = launch(
            "127.0.0.1", _free_port(), backend="local", idle_timeout=600, session_root=folder / "s",
            prevent_thread_lock=True,
        )  # fmt: skip
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(running.local_url)
                chat = page.locator("#chat")
                page.locator("#upload input[type=file]").set_input_files([_deck(folder)])
                expect(chat).to_contain_text("deck.pdf", timeout=30_000)
                for n in range(1, repeat + 1):
                    page.locator("#request textarea").fill(REQUEST)
                    page.locator("#send").click()
                    expect(page.locator("#cancel")).to_be_enabled(timeout=30_000)
                    time.sleep(reading)  # the model is reading the request
                    clicked = time.monotonic()
                    page.locator("#cancel").click()
                    page.wait_for_function(
                        "([text, n]) => document.querySelector('#chat').innerText.split(text).length - 1 >= n",
                        arg=[STOPPED, n],
                        timeout=60_000,
                        polling=10,
                    )
                    times.append(time.monotonic() - clicked)
                    print(f"{n}: {times[-1]:.2f} s", flush=True)
                browser.close()
        finally:
            running.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--reading", type=float, default=2.0, help="seconds the model reads before the click")
    opts = parser.parse_args()
    times = measure(opts.repeat, opts.reading)
    figures = {
        "click_to_stopped_median_s": round(statistics.median(times), 2),
        "click_to_stopped_min_s": round(min(times), 2),
        "click_to_stopped_max_s": round(max(times), 2),
        "times_s": [round(t, 3) for t in times],
        "repeat": opts.repeat,
        "reading_s": opts.reading,
    }
    print(f"click to 'Stopped': median {figures['click_to_stopped_median_s']} s over {len(times)}")
    write_result("cancel", figures, f"python bench/cancel.py --repeat {opts.repeat} --reading {opts.reading}")


if __name__ == "__main__":
    main()
