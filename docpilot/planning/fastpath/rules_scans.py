"""Rules for scanned pages: setting pages the right way up (fix_orientation) and straightening them (deskew)."""

from __future__ import annotations

import re

from docpilot.planning.fastpath.rules import Context, Intent, _pages, _with_output

__all__: list[str] = []

# Pages said to lie the wrong way without saying how far to turn them: "turn them the right way up",
# "some pages are upside down", "fix the orientation", "auto-rotate the scan".
_UPRIGHT = re.compile(
    r"\b(?:the\s+)?(?:right|correct|proper)\s+way\s+up\b|\bupright\b|"
    r"\b(?:fix|correct|repair|sort(?:\s+out)?|detect|straighten\s+out)\s+(?:the\s+|their\s+|its\s+)?"
    r"(?:page\s+)?orientations?\b|\borientations?\s+(?:fixed|corrected|sorted)\b|\bauto-?\s?rotat\w*\b"
)
# "some pages are upside down", "a few of the scans are sideways": a state of some pages, which ones unsaid
_SOME_TURNED = re.compile(
    r"\b(?:some|a\s+few|several|certain|a\s+couple|one\s+or\s+two|many|most|half|a\s+number)\s+(?:of\s+)?"
    r"(?:(?:the|my|these|those|its|his|her|our|their)\s+)?(?:pages|scans|sheets|ones)\s+(?:\w+\s+){0,3}?"
    r"(?:are|were|got|came\s+out|lie|look|seem|have\s+been)\s+(?:\w+\s+){0,2}?"
    r"(?:upside[- ]down|sideways|the\s+wrong\s+way(?:\s+(?:up|round|around))?|rotated|turned|flipped)\b"
)
# "rotate the upside-down pages": pages chosen by how they lie, which ones unsaid
_THE_TURNED = re.compile(r"\bthe\s+(?:upside[- ]down|sideways)\s+(?:pages|ones|scans|sheets)\b")
# "the wrong way up", "the wrong way round" said of pages, with no page number: which way is for detection
_WRONG_WAY = re.compile(r"\b(?:wrong\s+way\s+(?:up|round|around)|upside[- ]down\s+or\s+sideways)\b")

# "straighten the scan", "deskew it", "the pages are crooked, fix the skew"
_STRAIGHTEN = re.compile(
    r"\bde-?skew\w*|\bun-?skew\w*|\bstraighten(?!\s+out\s+(?:the\s+)?orientation)\w*|"
    r"\b(?:fix|correct|remove|undo)\s+(?:the\s+|its\s+|their\s+)?(?:skew|tilt|slant)\w*\b"
)
# "the scan is crooked, can you fix it?": a crooked scan, and a fix asked for in the same clause
_CROOKED = re.compile(
    r"\b(?:crooked|skewed|askew|tilted|slanted|wonky|not\s+straight)\b.*\b(?:fix|correct|sort|repair)\b|"
    r"\b(?:fix|correct|sort\s+out|repair)\b.*\b(?:crooked|skewed|askew|tilted|slanted|wonky)\b"
)
_NOT_SCANS = re.compile(r"\bstraighten\w*\s+(?:the\s+)?(?:table|line|margin|column|text\s+box)", re.IGNORECASE)


def fix_orientation(c: str, low: str, ctx: Context) -> list[Intent] | None:
    said = _UPRIGHT.search(low) or _SOME_TURNED.search(low) or _WRONG_WAY.search(low) or _THE_TURNED.search(low)
    if not said:
        return None
    words = set(re.findall(r"[\w'-]+", said.group(0)))
    words |= {"upside", "down", "sideways", "way", "up", "round", "around", "right", "wrong", "turn", "them", "it"}
    words |= {"fix", "correct", "sort", "repair", "pages", "ones"}  # "some pages are upside down, can you fix that?"
    return [Intent("fix_orientation", _with_output({"pages": _pages(c, ctx)}, c, ctx), words=words)]


def deskew(c: str, low: str, ctx: Context) -> list[Intent] | None:
    said = _STRAIGHTEN.search(low) or _CROOKED.search(low)
    if not said or _NOT_SCANS.search(low):
        return None
    words = set(re.findall(r"[\w'-]+", said.group(0))) | {"crooked", "skewed", "tilted", "wonky", "askew", "fix"}
    return [Intent("deskew", _with_output({"pages": _pages(c, ctx)}, c, ctx), words=words)]
