"""What a markup, redaction or search clause is about: literal terms and pattern categories."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from docpilot.planning.fastpath.extract import categories_in

__all__ = ["Target", "target_in", "WHOLE_WORDS", "CASE_SENSITIVE"]

# "as a whole word", "whole words only", "not inside other words": match whole words only.
WHOLE_WORDS = (
    r"(?:as\s+)?(?:an?\s+)?(?:whole|complete|separate|standalone)[- ]words?(?:\s+only)?"
    r"|(?:and\s+)?not\s+(?:inside|within|as\s+part\s+of|part\s+of)\s+(?:other|longer|bigger)\s+words"
)
# "case-sensitive", "matching case", "only where it's written in capitals" (said of a term in capitals).
CASE_SENSITIVE = (
    r"case[- ]sensitive(?:ly)?|(?:with\s+)?(?:the\s+)?(?:exact|matching|same)\s+(?:case|capitali[sz]ation)"
    r"|match(?:ing)?\s+(?:the\s+)?case"
    # "matching upper and lower case exactly", "match the capital T exactly", "capitals only"
    r"|match(?:ing)?\s+(?:the\s+)?upper\s+and\s+lower\s*case(?:\s+exactly)?"
    r"|match(?:ing)?\s+the\s+(?:capital|upper\s*case)\s+(?:letters?\s+)?(?:[a-z]\s+)?exactly"
    r"|(?:in\s+)?(?:capitals|caps|capital\s+letters|upper\s*case)\s+only"
    r"|exactly\s+as\s+(?:written|typed|shown|given)"
    r"|(?:but\s+)?only\s+(?:where|when)\s+it(?:'s|\s+is)\s+(?:written\s+)?in\s+(?:all\s+)?(?:capitals|caps|"
    r"capital\s+letters|upper\s*case)"
)
_CAPITALS = re.compile(
    r"\bin\s+(?:all\s+)?(?:capitals|caps|capital\s+letters|upper\s*case)\b|^(?:capitals|caps|capital\s+letters|upper\s*case)"
    r"\s+only\b",
    re.IGNORECASE,
)
# "capitals only, not acme": the term in other letters, shown to say what is left out
_LOWER_COUNTER = re.compile(r"\s*,?\s*(?:but\s+)?not\s+([\w&.'-]+(?:\s+[\w&.'-]+)?)", re.IGNORECASE)
# "(not 'category' etc.)", "I don't want 'asterisk' lit up": a longer word shown to say what whole words mean.
_COUNTER = re.compile(
    r"\(?\s*\b(?:but\s+)?(?:not|never|rather\s+than|instead\s+of|(?:i\s+)?(?:don'?t|do\s+not)\s+(?:want|need|mean))"
    r"\s+(⟦\d+⟧(?:\s*(?:,|or|and|,\s*or)\s*⟦\d+⟧)*)(?:\s+(?:lit\s+up|highlighted|redacted|struck\s+out|crossed\s+out|"
    r"matched|included|counted|found|too|as\s+well))?(?:\s*,?\s*etc\.?|\s+and\s+so\s+on)?\s*\)?",
    re.IGNORECASE,
)

_STOP = (
    r"(?:\s+(?:in|on|from|throughout|across|within|everywhere|wherever|with|using|to|and then|then|"
    r"where|if|when|at|for)\b|,|$)"
)
_LEAD = r"(?:all\s+|every\s+|each\s+|any\s+)?(?:the\s+)?(?:(?:other\s+)?(?:mentions?|occurrences?|instances?|appearances?|uses?)\s+of\s+)?"  # noqa: E501 - one alternation reads best whole
_KIND_NOUN = r"(?:word|words|phrase|phrases|term|terms|name|names|text|string|company name|expression)"
_FUNCTION_WORDS = {"of", "in", "on", "at", "to", "for", "and", "or", "the", "a", "an", "that", "which", "with", "from"}
_PRONOUN = re.compile(r"\b(?:them|those|these|it|each of them|all of them|every one)\b", re.IGNORECASE)
_UNSUPPORTED = re.compile(
    r"\b(?:person|people|people's|client|customer|employee|individual|personal)\s+names?\b|\bnames?\s+of\b|"
    r"\b(?:the\s+)?(?:client|customer|company|vendor|employee|person)(?:'s)?\s+name\b|(?<!mail )(?<!web )(?<!ip )\baddress(?:es)?\b|"  # noqa: E501 - one alternation reads best whole
    r"\bheadings?\b|\borgani[sz]ations?\b|\bcompan(?:y|ies)\b(?!\s+name)",
    re.IGNORECASE,
)


# "$1,200", "the old price £45.99", "the fee of €300": an amount of money written out
_MONEY = re.compile(
    r"(?:\b(?:the\s+)?(?:(?:old|new|current|original|previous|listed)\s+)?(?:price|amount|figure|fee|total|sum|cost)\s+"
    r"(?:of\s+)?)?(?P<amount>[$€£]\s?\d{1,3}(?:,\d{3})*(?:\.\d+)?(?![\d,]))",
    re.IGNORECASE,
)


# Words that open a sentence in capitals ("Which pages have comments?"): never the first word of a term
_OPENERS = {
    "which", "what", "where", "when", "who", "whom", "whose", "why", "how", "does", "do", "did", "is", "are", "was",
    "were", "can", "could", "would", "will", "should", "please", "the", "a", "an", "i", "it", "this", "that", "these",
    "those", "there", "my", "our", "your", "any", "all", "every", "each", "some", "no",
}  # fmt: skip


@dataclass
class Target:
    terms: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    regex: str | None = None
    whole_words: bool = False
    case_sensitive: bool = False
    pronoun: bool = False
    unsupported: str | None = None
    words: set[str] = field(default_factory=set)  # words (and ⟦n⟧ markers) the target was read from

    @property
    def empty(self) -> bool:
        return not (self.terms or self.categories or self.regex)

    def args(self) -> dict[str, object]:
        out: dict[str, object] = {}
        if self.terms:
            out["terms"] = self.terms
        if self.categories:
            out["categories"] = self.categories
        if self.regex:
            out["regex"] = self.regex
        if self.whole_words:
            out["whole_words"] = True
        if self.case_sensitive:
            out["case_sensitive"] = True
        return out


_COMES_BEFORE = re.compile(r"appears?|shows?\s+up|occurs?|comes?\s+up", re.IGNORECASE)
_HOW_OFTEN = re.compile(
    r"^\s*(?:count\s+)?(?:how\s+(?:many\s+times|often)|the\s+number\s+of\s+times)\s+(?:does|do|did|is|are|will)?\s*",
    re.IGNORECASE,
)


_WHERE_DOES = re.compile(r"\b(?:where|on\s+(?:which|what)\s+pages?)\s+(?:does|do|did|will)\s+", re.IGNORECASE)
# "Tenant and Landlord", "Appendix C or Annex 3": more capitalised terms joined to the first
_MORE_TERMS = re.compile(
    r"\s*(?:,\s*(?:and|or)\s+|,\s*|\s+(?:and|or|&)\s+)([A-Z0-9][\w&.'-]*(?:\s+[A-Z0-9][\w&.'-]*)*)"
)


def _more_terms(after: str, end: int) -> list[str]:
    """The capitalised terms listed after the first one ends at ``end`` (none when one is a question word)."""
    found = []
    while m := _MORE_TERMS.match(after, end):
        if m.group(1).split()[0].lower() in _OPENERS | {"page", "pages"}:
            break
        found.append(m.group(1))
        end = m.end()
    return found


def target_in(clause: str, verb: str, quotes: list[str]) -> Target:
    """Terms (quoted, 'the word X', 'mentions of X', a capitalised name) and categories in a clause."""
    target = Target()
    quoted = [quotes[int(n)] for n in re.findall(r"⟦(\d+)⟧", clause)]
    before, *rest = re.split(rf"\b{verb}\b", clause, maxsplit=1, flags=re.IGNORECASE)
    after = rest[-1] if rest else before
    if rest and _COMES_BEFORE.fullmatch(verb):  # "how many times does the word X appear": X is before the verb
        after = _HOW_OFTEN.sub("", before)
        where = _WHERE_DOES.search(after)  # "between pages 5 and 15, where does ISO 9001 come up": what follows
        if where:
            after = after[where.end() :]
    if re.search(rf"\b(?:{WHOLE_WORDS})\b", clause, re.IGNORECASE):
        target.whole_words = True
    if quoted:
        target.terms = quoted
        if target.whole_words:
            _drop_counter_examples(clause, quotes, target)
    if not target.terms:
        _money_term(after, target)
    if not target.terms:
        after_kinds = _named_terms(after, target)  # "the name Deborah Okafor and the account number 4417-2290-18"
    else:
        after_kinds = after
    target.categories = [] if target.terms and _MONEY.search(after) else categories_in(after_kinds)
    unsupported = _UNSUPPORTED.search(after)
    if not target.terms and not (unsupported and not target.categories):
        m = re.search(rf"^\s*{_LEAD}(?:{_KIND_NOUN}\s+)?([A-Z0-9][\w&.'-]*(?:\s+[A-Z0-9][\w&.'-]*)*)", after)
        if m and not target.categories:
            words = m.group(1).split()
            while words and words[0].lower() in _OPENERS:  # "Does ACME appear?": the question's words go
                words.pop(0)
            candidate = " ".join(words)
            named = re.match(r"\s+(names?)\b", after[m.end() :], re.IGNORECASE)
            if named and re.search(r"['’]s$", candidate):  # "Eldred's name": the name is Eldred
                target.words |= {candidate.lower(), named.group(1).lower()}
                candidate = candidate[:-2]
            if candidate and candidate.lower() not in ("all", "every", "each", "any", "the", "page", "pages"):
                target.terms = [candidate, *_more_terms(after, m.end())]
        if not target.terms and not target.categories:
            m = re.search(
                rf"\b(?:mentions?|occurrences?|instances?)\s+of\s+(?:the\s+(?:{_KIND_NOUN})\s+)?(.+?){_STOP}",
                after,
                re.IGNORECASE,
            )
            if m and not _PRONOUN.fullmatch(m.group(1).strip()):
                target.terms = [m.group(1).strip()]
        if not target.terms and not target.categories:
            m = re.search(rf"\bthe\s+{_KIND_NOUN}\s+([\w&.'-]+)", after, re.IGNORECASE)
            if m and m.group(1).lower() not in _FUNCTION_WORDS:
                target.terms = [m.group(1)]  # "the word warranty": the word, not only where it stands alone
    case = re.search(rf"\b(?:{CASE_SENSITIVE})\b", clause, re.IGNORECASE)
    if case and not (_CAPITALS.search(case.group(0)) and not all(t.isupper() for t in target.terms or ["x"])):
        target.case_sensitive = True  # "only where it's written in capitals" means case only for a term in capitals
        _drop_other_case(clause[case.end() :], target)
    if target.empty and _PRONOUN.search(after):
        target.pronoun = True
    if unsupported and not target.terms and not target.categories:
        target.unsupported = unsupported.group(0)  # "the client name": which of the parties is the client
    return target


# "the name Deborah Okafor", "the account number 4417-2290-18": one name (capitalised words) or one number (a word
# with digits) given with what it is: the literal text to find, not every name or account number
_NAMED = re.compile(
    r"\bthe\s+(?:(?P<name>name)\s+(?P<who>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)*)|"
    r"(?P<number>(?:account|reference|invoice|policy|case|order|customer|member(?:ship)?|id|card|phone)\s+number)\s+"
    r"(?P<digits>[\w/-]*\d[\w/-]*))\b"
)


def _named_terms(after: str, target: Target) -> str:
    """Names and numbers given with what they are become the terms; what is left of ``after`` (for categories)."""
    found = list(_NAMED.finditer(after))
    if not found:
        return after
    target.terms = [m.group("who") or m.group("digits") for m in found]
    for m in found:
        target.words |= {"the", (m.group("name") or m.group("number")).lower()}
    return _NAMED.sub(" ", after)


def _money_term(after: str, target: Target) -> None:
    """'the old price $1,200': an amount written out is the literal text to find, not every price."""
    m = _MONEY.search(after)
    # (not "$…" yet: the plan builder reads any argument that starts with "$" as a step's result)
    if m and len(_MONEY.findall(after)) == 1 and not m.group("amount").startswith("$"):
        target.terms = [m.group("amount")]
        target.words |= {w.lower() for w in re.findall(r"[a-z]+", m.group(0), re.IGNORECASE)}


def _drop_other_case(rest: str, target: Target) -> None:
    """'capitals only, not acme': a term written in other letters right after says what case-sensitive leaves out."""
    m = _LOWER_COUNTER.match(rest)
    if not m:
        return
    shown = m.group(1)
    if any(shown.lower() == t.lower() and shown != t for t in target.terms):
        target.words |= {"not", "but", *(w.lower() for w in shown.split())}


def _drop_counter_examples(clause: str, quotes: list[str], target: Target) -> None:
    """'whole words only, not 'category'': a quoted longer word that holds a term shows what to leave alone."""
    for m in _COUNTER.finditer(clause):
        markers = re.findall(r"⟦\d+⟧", m.group(0))
        shown = [quotes[int(k[1:-1])] for k in markers if int(k[1:-1]) < len(quotes)]
        others = [t for t in target.terms if t not in shown]
        if not others or not all(any(t.lower() in s.lower() and t.lower() != s.lower() for t in others) for s in shown):
            continue  # not an illustration: "highlight 'risk', not 'danger'" stays unread
        target.terms = others
        target.words |= {w.lower() for w in re.findall(r"⟦\d+⟧|[\w']+", m.group(0))}
