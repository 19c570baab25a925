"""No confident wrong answer: a rule answers only with a value of the kind asked, and a model-written answer only
with numbers and names its cited passages (or the program) support; otherwise the question is handed on or not
answered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fakes import ScriptedLLM
from table_pdfs import DrawnTable, draw_pdf

from docpilot.understanding.answer import NOT_SAID, answer_question
from docpilot.understanding.asked import answer_fits, asked_kind, asks_several, missing_kinds
from docpilot.understanding.cache import StructureCache
from docpilot.understanding.document import open_documents
from docpilot.understanding.support import unsupported, unsupported_names, unsupported_numbers

KINDS = [
    ("What percentage of total revenue is Cloud's?", "percent", "980", False),
    ("What fraction of the stock is mugs, as a percentage?", "percent", "4.49%", True),
    ("What is the largest value in the Sales column?", "amount", "Table 2: Sales by region", False),
    ("What is the total amount due?", "amount", "March 3, 2024", False),
    ("What is the total amount due?", "amount", "$1,250.00", True),
    ("I need the aggregate operating profit for Devices and Payments.", "amount", "(10.1%)", False),
    ("What is the difference in one-year return between A and B?", "amount", "8.4%", True),
    ("How many funds are described across all the filings?", "count", "18 (Cedar, Lakeshore)", True),
    ("How many funds are described across all the filings?", "count", "Table 3", False),
    ("In which years did revenue fall compared with the year before?", "date", "2020, 2023", True),
    ("In what year was the company founded?", "date", "Acme Corp", False),
    ("Which fund has the largest net assets?", "name", "Northgate Municipal Fund (2,849,333,333)", True),
    ("Which fund has the largest net assets?", "name", "2,849,333,333", False),
    ("Which farm harvested the most apples?", "name", "Total (5,645)", False),
    ("What is the series identifier of the Cedar Small Cap Fund?", None, "S000047002", True),
    ("When is the kick-off payment due?", None, "within 30 days of signing", True),
    ("For how many years do the obligations survive termination?", "count", "five years", True),  # qa_dev
    # a measure asked by its noun is a figure (q8 tuning: "BM25 + DPR" had been given for an accuracy)
    ("what top-20 retrieval accuracy did DPR get on TREC?", "amount", "BM25 + DPR", False),
    ("what top-20 retrieval accuracy did DPR get on TREC?", "amount", "79.8", True),
    ("What was the unemployment rate for under-25s in Finland in 2000?", "amount", "21.4", True),
    ("What tax form do I need to file?", None, "Form 1040", True),
    # an amount asked in its unit is an amount, not a count (q10, after its measurement)
    ("By how many $ million did adjusted EBITDA decline?", "amount", "99", True),
    ("How many dollars did the airfare cost?", "amount", "$618.00", True),
    # the most of a thing asked is its figure, not the row that has it (q10, after its measurement: "3rd Quarter")
    ("What was the most stores Ulta opened in any single quarter of fiscal 2022?", "count", "3rd Quarter", False),
    ("What was the most stores Ulta opened in any single quarter of fiscal 2022?", "count", "18", True),
    ("What is the most expensive item on the menu?", None, "Espresso", True),
    # the thing that ranks first asked, its percentage the measure (q13, after its measurement: "1.5%")
    ("In the 2005 table, which country has the largest percentage of adults with a degree?", "name", "1.5%", False),
    ("In the 2005 table, which country has the largest percentage of adults with a degree?", "name", "Norway", True),
    ("Which share of revenue came from Cloud?", "percent", "31%", True),
    # "who" answered with a sentence that names only what the question names (q9, tuning)
    ("Who is Free Culture dedicated to?", "name", "Free Culture is dedicated to leaving a great deal open.", False),
    ("Who is Free Culture dedicated to?", "name", "Eric Eldred", True),
    ("Who approves the annual budget?", "name", "the board of directors", True),
]


@pytest.mark.parametrize(("question", "kind", "answer", "fits"), KINDS)
def test_a_value_of_the_kind_asked(question: str, kind: str | None, answer: str, fits: bool) -> None:
    assert asked_kind(question) == kind
    assert answer_fits(question, answer) is fits


CONTACTS_AND_PARTS = [  # shapes of blind batch q1's confident wrong answers (after its first measurement)
    ("What email address does the customer have on this invoice?", "1800 208 9898", ["an email address"]),
    ("What email address does the customer have on this invoice?", "ana@example.com", []),
    ("What is the phone number of the office?", "+1 (555) 123-4567", []),
    ("What is the company's website?", "Acme Corp", ["a web address"]),
    ("Who sent the email?", "John Smith", []),  # a "who" question about an email asks for a name
    ("Who should investors contact, and what's the email?", "Priya Raman", ["an email address"]),
    ("Who should investors contact, and what's the email?", "Priya Raman, ir@northwind.com", []),
    ("When is the interim payment due and how much is it?", "April 21, 2025", ["an amount"]),
    ("When is the interim payment due and how much is it?", "April 21, 2025; $62,500", []),
    ("How much notice is needed, and when does it end otherwise?", "60 days", ["an answer to each of its 2 parts"]),
    ("How much notice is needed, and when does it end otherwise?", "60 days; December 31, 2026", []),
    ("How many stores opened, and which quarter had the most?", "47", ["a name"]),
    # an answer that only says again what the question names answers nothing
    ("Who bought Harbourline's warehouse business?", "Harbourline", ["something the question does not already say"]),
    ("Which AWS service cost the most?", "Amazon Web Services", ["something the question does not already say"]),
    ("Which AWS service cost the most?", "Amazon S3", []),
    ("Which is larger, revenue or profit?", "Revenue", []),  # a choice: the answer is one of the question's words
    ("What is the report's title?", "The Report", []),
    # a "where" question asks for a place: a date of birth is no birthplace (q3, after its measurement)
    ("Where was the visa applicant born?", "14 March 1988", ["a place"]),
    ("Where was the visa applicant born?", "Lyon, France", []),
    ("What is the visa applicant's place of birth?", "14 March 1988", ["a place"]),  # q6 tuning
    ("What is the visa applicant's place of birth?", "Lagos, Nigeria", []),
    ("Where is the head office?", "12 Main Street, Springfield", []),
    # where to mail something asks for the address, not only who receives it (q5 tuning)
    (
        "Where should I mail a claim for medical supplies?",
        "CGS Administrators, LLC",
        ["a postal address (its street number, box or postcode)"],
    ),
    ("Where should I mail a claim for medical supplies?", "CGS Administrators, P.O. Box 20010, Nashville, TN", []),
]


@pytest.mark.parametrize(("question", "answer", "missing"), CONTACTS_AND_PARTS)
def test_a_contact_asked_is_one_and_every_part_asked_is_answered(question: str, answer: str, missing: list) -> None:
    assert missing_kinds(question, answer)[: len(missing)] == missing
    assert answer_fits(question, answer) is not missing
    assert asks_several(question) is (" and " in question)


def test_each_part_of_a_question_is_asked_alone_and_the_answers_joined(
    segments: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the scripted model drives the loop: the program composed from a part's words is switched off
    monkeypatch.setattr("docpilot.understanding.programs.compose_program", lambda *args, **kwargs: None)
    # each part goes to the program job first (the model says the tables do not hold it), then to the passages
    replies = [
        "NOT IN TABLES",
        '{"answer": "2,410", "evidence": [1]}',
        "NOT IN TABLES",
        '{"answer": "8.8%", "evidence": [1]}',
    ]
    llm = ScriptedLLM(replies)
    out = answer_question(segments, "What is Consumer Devices' revenue, and what is its operating margin?", llm, None)
    asked = [call.messages[-1]["content"].rsplit("Question:", 1)[1].strip() for call in llm.calls]
    assert [a.split("?")[0] for a in asked] == ["What is Consumer Devices' revenue"] * 2 + [
        "what is its operating margin"
    ] * 2
    assert all("one part of the question" in a for a in asked)  # the whole question is there for context
    assert out.found and out.answer == "2,410; 8.8%", out.answer
    assert out.citations and out.citations[0]["page"] == 1


def test_a_part_over_table_values_is_computed_by_a_program(segments: list) -> None:
    program = 't1.loc[t1["Operating margin"].idxmax(), "Segment"]'
    llm = ScriptedLLM([program, "NOT IN TABLES", '{"answer": "NOT FOUND", "evidence": []}', '{"choice": 0}'])
    out = answer_question(segments, "Which segment has the best margin, and who runs it?", llm, None)
    assert out.answer.startswith("Enterprise Software. The documents do not answer"), out.answer
    assert not out.found  # nobody is named as its head: the whole is not answered
    assert any(c.get("quote") == "24.2%" for c in out.citations), out.citations  # the deciding cell


def test_a_part_left_unanswered_leaves_the_whole_unanswered_with_what_was_found(
    segments: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the scripted model drives the loop: the program composed from a part's words is switched off
    monkeypatch.setattr("docpilot.understanding.programs.compose_program", lambda *args, **kwargs: None)
    replies = ["NOT IN TABLES", '{"answer": "980", "evidence": [1]}', "NOT IN TABLES"]
    llm = ScriptedLLM(replies + ['{"answer": "NOT FOUND", "evidence": []}', '{"choice": 0}'])
    out = answer_question(segments, "What is Cloud's revenue, and who runs it?", llm, None)
    assert not out.found and out.answer.startswith("980. The documents do not answer"), out.answer
    assert '"who runs it?"' in out.answer


def test_a_part_answered_with_the_wrong_kind_goes_back_then_is_not_given(segments: list) -> None:
    replies = ["NOT IN TABLES", '{"answer": "Cloud", "evidence": [1]}', "NOT IN TABLES"]
    llm = ScriptedLLM(replies + ['{"answer": "980", "evidence": [1]}'] * 2 + ['{"choice": 0}'])
    out = answer_question(segments, "Which segment is smallest, and what's the email of its head?", llm, None)
    told = [c.messages[-1]["content"] for c in llm.calls if "does not give" in c.messages[-1]["content"]]
    assert len(told) == 1 and "an email address" in told[0]  # said to the model once
    assert not out.found  # never a number for an email


def test_numbers_must_be_produced_or_written_in_a_source() -> None:
    sources = ["Revenue was $1,203.5 million in 2023", "(300)"]
    assert unsupported_numbers("Revenue was 1,203.5 million", sources) == []
    assert unsupported_numbers("It fell by 300", sources) == []  # "(300)" is written, as a negative
    assert unsupported_numbers("13.1168%", [], [13.116847578]) == []  # the program's value, rounded to show
    assert unsupported_numbers("Revenue was 1,250 million", sources) == ["1,250"]


def test_names_must_be_text_of_a_source() -> None:
    passage = "The Consultant is represented by David Chen, Managing Partner of Brightline LLP."
    assert unsupported_names("David Chen, Managing Partner.", [passage]) == []
    assert unsupported_names("The Consultant is represented by Maria Lopez.", [passage]) == ["Maria", "Lopez"]
    assert unsupported_names("Yes. It is due in March.", ["due in march"]) == []  # a sentence's first word is no name
    assert unsupported("Maria Lopez, 45", [passage]) == ["45", "Maria", "Lopez"]


@pytest.fixture
def segments(tmp_path: Path) -> list:
    rows = [
        ["Segment", "Revenue", "Operating profit", "Operating margin"],
        ["Consumer Devices", "2,410", "212", "8.8%"],
        ["Payments", "1,515", "(153)", "(10.1%)"],
        ["Enterprise Software", "1,603", "388", "24.2%"],
        ["Cloud", "980", "97", "9.9%"],
    ]
    path = draw_pdf(tmp_path / "segments.pdf", [[DrawnTable(rows, caption="Table 3: Results by segment ($ millions)")]])
    return open_documents({"segments.pdf": path}, StructureCache(None))


def test_a_rule_answer_of_another_kind_is_handed_on(segments: list) -> None:
    # without a model the rules answer what they can read; a share asked for is not a cell's amount, but the
    # share computed (980 of 6,508) by the program composed from the question's words
    assert answer_question(segments, "What is the revenue of Cloud?", None, None).answer == "980"
    share = answer_question(segments, "What percentage of total revenue is Cloud's?", None, None)
    assert share.found and share.answer == "15.06%", share.answer


def test_a_model_answer_naming_someone_the_passages_do_not_is_not_given(make_pdf) -> None:
    path = make_pdf(["Consulting agreement. The Consultant is represented by David Chen, Managing Partner."])
    documents = open_documents({"fixture.pdf": path}, StructureCache(None))
    invented = '{"answer": "The Consultant is represented by Maria Lopez", "evidence": [1]}'
    llm = ScriptedLLM([invented, invented, '{"choice": 0}'])
    answer = answer_question(documents, "Who represents the Consultant?", llm, embed=None)
    assert not answer.found and "Lopez" not in answer.answer
    right = '{"answer": "David Chen, Managing Partner", "evidence": [1]}'
    answer = answer_question(documents, "Who represents the Consultant?", ScriptedLLM([right]), embed=None)
    assert answer.found and answer.answer == "David Chen, Managing Partner"


def test_a_model_answer_from_a_passage_about_something_else_than_the_name_asked_is_not_given(make_pdf) -> None:
    """ "What share of net sales came from Flexibles?" answered "3%" from a sentence about shares bought back (q3,
    after its measurement): the cited passage must mention the names the question is about."""
    path = make_pdf(
        [
            "Share repurchases. The company repurchased 41 million shares, about 3% of the shares outstanding.",
            "Segment review. The Flexibles segment had net sales of $11.2 billion, 76% of the group's net sales.",
        ]
    )
    documents = open_documents({"fixture.pdf": path}, StructureCache(None))
    other = '{"answer": "3%", "evidence": []}'
    llm = ScriptedLLM([other, other, '{"choice": 0}', other, other])
    question = "What share of net sales came from the Flexibles segment?"
    answer = answer_question(documents, question, llm, embed=None)
    assert not answer.found and "3%" not in answer.answer, answer.answer
    assert "do not mention Flexibles" in llm.calls[1].messages[-1]["content"]
    right = '{"answer": "76%", "evidence": []}'
    answer = answer_question(documents, question, ScriptedLLM([right]))
    assert answer.found and answer.answer == "76%"


def test_one_value_is_not_given_for_a_total_of_several(make_pdf) -> None:
    """ "The combined monthly average net assets of all the funds" answered with one fund's figure (q3, after its
    measurement): a number printed only on lines that state no total is not a total."""
    path = make_pdf(
        [
            "Fund report.\nAlder Fund monthly average net assets: 1,200,000\nBirch Fund monthly average net "
            "assets: 800,000\nThe funds are managed by Harbour Advisers."
        ]
    )
    documents = open_documents({"fixture.pdf": path}, StructureCache(None))
    one = '{"answer": "1,200,000", "evidence": []}'
    llm = ScriptedLLM([one, one, '{"choice": 0}', one, one])
    question = "What are the combined monthly average net assets of the funds?"
    answer = answer_question(documents, question, llm, embed=None)
    assert not answer.found and "1,200,000" not in answer.answer, answer.answer
    assert any("not their total" in call.messages[-1]["content"] for call in llm.calls)


def test_one_value_is_not_given_for_an_average_of_several(make_pdf) -> None:
    """ "The average price of the pizzas on this menu" answered "12" from one pizza's line (q4, after its
    measurement); an average a line states is taken."""
    menu = "Pizzas\nMargherita 10$ tomato, mozzarella\nLa appetitosa 12$ anchovies, olives\nDiavola 14$ salami, chili"
    documents = open_documents({"menu.pdf": make_pdf([menu])}, StructureCache(None))
    one = '{"answer": "12", "evidence": []}'
    llm = ScriptedLLM([one, one, '{"choice": 0}', one, one])
    question = "What is the average price of the pizzas on this menu?"
    answer = answer_question(documents, question, llm, embed=None)
    assert not answer.found and answer.answer == NOT_SAID, answer.answer
    assert any("not their average" in call.messages[-1]["content"] for call in llm.calls)
    stated = open_documents({"menu.pdf": make_pdf([menu + "\nOur pizzas cost 12$ on average."])}, StructureCache(None))
    answer = answer_question(stated, question, ScriptedLLM([one]), embed=None)
    assert answer.found and answer.answer == "12", answer.answer


def test_which_ranks_first_is_not_taken_from_a_model_reading_table_rows(segments: list) -> None:
    """Which of many rows ranks first is a comparison code makes; a model that reads the rows and names one is
    too often wrong (blind q1/q2: 4 of 5 such answers), so only a sentence that says it is taken."""
    llm = ScriptedLLM(["NOT IN TABLES", '{"answer": "Payments", "evidence": [1]}', '{"choice": 0}'])
    out = answer_question(segments, "Which segment brought in the most money from customers?", llm, None)
    assert not out.found and out.answer == NOT_SAID, out.answer


def test_a_sentence_that_says_which_ranks_first_is_taken(make_pdf: Any, tmp_path: Path) -> None:
    path = make_pdf(
        ["Segment review.\nOf our four segments, Cloud grew the fastest in 2024, by 31%.\nPayments shrank."]
    )
    docs = open_documents({"review.pdf": path}, StructureCache(None))
    llm = ScriptedLLM(['{"answer": "Cloud", "evidence": [1]}'])
    out = answer_question(docs, "Which segment grew the fastest in 2024?", llm, None)
    assert out.found and out.answer == "Cloud", out.answer


def test_a_number_that_names_a_line_of_a_form_is_no_value(make_pdf) -> None:
    """ "What adjusted gross income is reported on this 1040?" answered "37" from "Amount from line 37 (adjusted
    gross income)" on a form left blank (q4, after its measurement): a line's number is not its amount."""
    path = make_pdf(["Form 1040 (2017) Page 2\nTax and Credits 38 Amount from line 37 (adjusted gross income) ____"])
    documents = open_documents({"f1040.pdf": path}, StructureCache(None))
    line = '{"answer": "37", "evidence": [1]}'
    answer = answer_question(documents, "What adjusted gross income is reported?", ScriptedLLM([line] * 4), None)
    assert not answer.found and "37" not in answer.answer, answer.answer
    form = '{"answer": "Form 1040", "evidence": [1]}'
    answer = answer_question(documents, "Which tax form is this?", ScriptedLLM([form]), embed=None)
    assert answer.found and answer.answer == "Form 1040", answer.answer


def test_a_code_that_no_names_is_a_value(make_pdf) -> None:
    """ "What is the docket number of Knowles v. Mirzayance?" answered "07-1315" from "v. : No. 07-1315" (q10 asked
    again, tuning: sent back as a number that only names a thing, then "The document does not say")."""
    path = make_pdf(["IN THE SUPREME COURT\nMICHAEL A. KNOWLES, Petitioner v. No. 07-1315 ALEXANDRE MIRZAYANCE"])
    documents = open_documents({"t.pdf": path}, StructureCache(None))
    reply = '{"answer": "07-1315", "evidence": [1]}'
    question = "What is the docket number of Knowles v. Mirzayance?"
    answer = answer_question(documents, question, ScriptedLLM([reply]), None)
    assert answer.found and answer.answer == "07-1315", answer.answer


def test_a_count_of_another_thing_than_the_one_asked_is_no_answer() -> None:
    """ "How many employees" answered "40 million Ultamate Rewards members" (q5, an unanswerable row, after its
    measurement), or from a passage that never mentions employees, is not given; counts of the thing asked are."""
    from docpilot.understanding.asked import count_unsaid, counts_other

    question = "How many employees did Ulta Beauty have at the end of fiscal 2022?"
    assert counts_other(question, "40 million Ultamate Rewards members") == "ultamate rewards members"
    assert counts_other(question, "approximately 53,000 employees") is None
    assert counts_other(question, "53,000") is None
    assert counts_other("How many full-time employees?", "798,000 employees") is None
    assert counts_other("How many stores?", "1,355 stores in 50 states") is None
    assert count_unsaid(question, ["Total current liabilities 1,681,775 1,424,003"]) == "employees"
    assert count_unsaid(question, ["We employed approximately 53,000 associates and employees."]) is None
    assert count_unsaid("What was the revenue?", ["Total current liabilities"]) is None


def test_a_question_led_by_a_clause_keeps_its_kind() -> None:
    from docpilot.understanding.asked import asked_kind

    assert asked_kind("In the detailed SunSpider trace statistics, how many benchmarks show a speedup?") == "count"
    assert asked_kind("In the 2005 comparison, which country had the highest share?") == "name"
    assert asked_kind("What is the total, and how many items?") == "amount"  # a question first: not a lead


def test_a_rank_is_said_only_by_a_sentence_of_the_same_sense() -> None:
    from docpilot.understanding.asked import states_rank

    question = "Which country had the highest share of adults with lower secondary education?"
    other = "Among the countries in PISA, Finland had the lowest ratio of low-achievers in reading."
    assert not states_rank("Finland", other, question)  # a superlative, but the other way (q5 tuning)
    assert states_rank("Spain", "Spain had the largest share of adults with lower secondary education.", question)
    assert states_rank("Bolt", "The cheapest pizza is the Bolt.", "Which pizza is the cheapest?")
    assert not states_rank("Bolt", "The longest pizza is the Bolt.", "Which pizza is the cheapest?")


def test_a_name_on_most_pages_is_what_they_are_about_and_need_not_be_cited(tmp_path) -> None:
    """ "By what date must the FAA receive comments on this 737 MAX directive?": "MAX" is on most pages of the
    directive, so a passage giving the date without it still answers (q6 tuning: the right date had been sent back);
    a name on one page of four still has to be in the cited passage."""
    from table_pdfs import draw_pdf

    from docpilot.understanding.answer import _Evidence, _names_unsaid
    from docpilot.understanding.cache import StructureCache
    from docpilot.understanding.document import Document, Unit, open_documents

    pages = [
        "The Zephyr airworthiness directive applies to all Zephyr aeroplanes of the fleet.",
        "Send your comments by September 21, 2020 to the Docket Management Facility.",
        "The Zephyr wiring change takes about 79 work-hours per aeroplane.",
        "The Zephyr sensor test is described in the Harbour service bulletin.",
    ]
    path = draw_pdf(tmp_path / "directive.pdf", pages)
    documents: list[Document] = open_documents({"directive.pdf": path}, StructureCache(None))
    cited = [_Evidence(Unit("directive.pdf", 2, pages[1], "chunk"), pages[1])]
    assert _names_unsaid("By what date must comments on this Zephyr directive be received?", cited, documents) == []
    assert _names_unsaid("When must comments on the Harbour bulletin be sent?", cited, documents) == ["Harbour"]
    # a name of the document asked about ("this proposed 737 MAX AD", "according to Lessig"), q14 tuning
    assert _names_unsaid("When must comments on this proposed Harbour bulletin be sent?", cited, documents) == []
    assert _names_unsaid("When must comments be sent, according to Harbour?", cited, documents) == []


def test_a_count_said_in_other_words_beside_its_number_is_said() -> None:
    """ "How many people died in the accident?" answered 157 from "resulting in 157 fatalities" (q8 tuning: sent back
    because no passage said "people" or "died"): the words beside the answer's number mean what is counted. Words
    beside it that count something else ("1,200 members" for employees) are still not it."""
    from docpilot.understanding.answer import embed_texts
    from docpilot.understanding.asked import count_unsaid

    accident = ["The airplane crashed after takeoff from Addis Ababa, resulting in 157 fatalities."]
    question = "How many people died in the accident?"
    assert count_unsaid(question, accident, "157") == "people died"  # word for word: not said
    assert count_unsaid(question, accident, "157", embed_texts) is None
    members = ["At year end the association had 1,200 members in four countries."]
    assert count_unsaid("How many employees does it have?", members, "1,200", embed_texts) == "employees"


def test_a_count_from_passages_in_another_language_is_not_held_to_the_questions_words() -> None:
    """An English question over a French report: "residents answered" cannot be found word for word in
    "263 personnes ont répondu" (q8 tuning), so the words are not held against the answer."""
    from docpilot.understanding.asked import count_unsaid

    french = [
        "En tout, 263 personnes ont répondu au questionnaire en ligne sur Survey Monkey, et la plupart de ces "
        "personnes habitent dans le village depuis plus de dix ans, selon les résultats du sondage."
    ]
    english = [
        "In all, 263 people filled in the online questionnaire on Survey Monkey, and most of these people have "
        "lived in the village for more than ten years, according to the results of the survey."
    ]
    question = "How many residents answered the Survey Monkey questionnaire?"
    assert count_unsaid(question, french, "263") is None
    assert count_unsaid(question, english, "263") == "residents answered"


def test_a_name_said_just_before_the_passage_on_its_page_is_what_it_is_about(tmp_path) -> None:
    """A resolution opens with its subject ("… pour le 1069, boulevard de Sainte-Adèle") and its clauses do not
    repeat it (q8 tuning: "43 logements" was sent back for not mentioning Sainte-Adèle). A name said on another
    page, or far before on the page, is not the passage's subject."""
    from table_pdfs import draw_pdf

    from docpilot.understanding.answer import _Evidence, _names_unsaid
    from docpilot.understanding.cache import StructureCache
    from docpilot.understanding.document import Document, Unit, open_documents

    clause = "ATTENDU QUE le projet prévoit un agrandissement permettant l'ajout de 43 logements."
    pages = [
        "Demande de démolition pour le 1069, boulevard de Sainte-Adèle. Résolution DM-2023-001. " + clause,
        "Demande pour le 12, rue Morin. " + clause.replace("43", "12"),
        "The Harbour project was discussed first. " + "Other business was discussed at length. " * 30 + clause,
    ]
    path = draw_pdf(tmp_path / "minutes.pdf", pages)
    documents: list[Document] = open_documents({"minutes.pdf": path}, StructureCache(None))
    cited = [_Evidence(Unit("minutes.pdf", 1, clause, "chunk"), clause)]
    assert _names_unsaid("Combien de logements au boulevard de Sainte-Adèle?", cited, documents) == []
    cited = [_Evidence(Unit("minutes.pdf", 2, clause, "chunk"), clause.replace("43", "12"))]
    assert _names_unsaid("Combien de logements au boulevard de Sainte-Adèle?", cited, documents) == ["Sainte-Adèle"]
    far = [_Evidence(Unit("minutes.pdf", 3, clause, "chunk"), clause)]
    assert _names_unsaid("How many homes does the Harbour project add?", far, documents) == ["Harbour"]


def test_rows_past_a_threshold_are_not_counted_from_passages_that_do_not_say_it(make_pdf: Any) -> None:
    """ "How many states had over 100,000 total checks?" answered "4" by a model counting rows in passages (q9,
    after its measurement: seven do), or "100,000 or more"; a passage that says the threshold is taken."""
    rows = "Checks by state, November\nState Permit Handgun Totals\nTexas 10,447 55,341 146,982\nOhio 12,001 2,560 4"
    documents = open_documents({"checks.pdf": make_pdf([rows])}, StructureCache(None))
    four = '{"answer": "4", "evidence": [1]}'
    question = "How many states had over 100,000 total checks that month?"
    # "30% or more" is a threshold too (q10, after its measurement: a count of 2 for 3 countries)
    for asked in (question, "How many states had 100,000 or more total checks that month?"):
        llm = ScriptedLLM(["NOT IN TABLES", four, '{"choice": 0}', four])
        answer = answer_question(documents, asked, llm, None)
        assert not answer.found and answer.answer == NOT_SAID, (asked, answer.answer)
    said = rows + "\nIn November, 4 states had over 100,000 total checks."
    documents = open_documents({"checks.pdf": make_pdf([said])}, StructureCache(None))
    answer = answer_question(documents, question, ScriptedLLM(["NOT IN TABLES", four]), None)
    assert answer.found and answer.answer == "4", answer.answer


def test_a_rate_is_not_given_for_an_amount_of_money(make_pdf: Any) -> None:
    """ "By how many $ million did adjusted EBITDA decline?" answered 100 from "approximately 100 basis points"
    (q10, after its measurement: the decline is 99); the same number stated as money is taken."""
    rate = "Adjusted EBITDA margin of 12.8% includes an adverse impact of approximately 100 basis points."
    documents = open_documents({"amcor.pdf": make_pdf([rate])}, StructureCache(None))
    hundred = '{"answer": "100", "evidence": [1]}'
    question = "By how many $ million did adjusted EBITDA decline?"
    llm = ScriptedLLM([hundred, '{"answer": "NOT FOUND", "evidence": []}', '{"choice": 0}'])
    answer = answer_question(documents, question, llm, None)
    assert not answer.found, answer.answer
    assert any("100 basis points, a rate" in call.messages[-1]["content"] for call in llm.calls)
    money = "Adjusted EBITDA declined by $100 million to $2,018 million."
    documents = open_documents({"amcor.pdf": make_pdf([money])}, StructureCache(None))
    answer = answer_question(documents, question, ScriptedLLM([hundred]), None)
    assert answer.found and answer.answer == "100", answer.answer


def test_a_figure_printed_in_another_scale_than_asked_goes_back(make_pdf: Any) -> None:
    """ "Net sales for the quarter, in millions of dollars" answered 3.2 from a headline's "$3.2 Billion" (q17,
    tuning: the statement prints 3,226.8 in millions); the figure printed in millions is taken."""
    headline = "Harrow Outfitters Announces Fourth Quarter Results.\nNet Sales of $4.7 Billion for the quarter."
    documents = open_documents({"harrow.pdf": make_pdf([headline])}, StructureCache(None))
    question = "What were Harrow's net sales for the fourth quarter, in millions of dollars?"
    llm = ScriptedLLM(['{"answer": "4.7", "evidence": [1]}', '{"answer": "NOT FOUND", "evidence": []}'])
    answer = answer_question(documents, question, llm, None)
    assert not answer.found, answer.answer
    assert any("print 4.7 billion, but the question asks in millions" in c.messages[-1]["content"] for c in llm.calls)
    stated = headline + "\nNet sales were $4,712.3 million in the fourth quarter."
    documents = open_documents({"harrow.pdf": make_pdf([stated])}, StructureCache(None))
    answer = answer_question(documents, question, ScriptedLLM(['{"answer": "4,712.3", "evidence": [1]}']), None)
    assert answer.found and answer.answer == "4,712.3", answer.answer


def test_a_date_answered_as_a_piece_of_the_date_its_passage_prints_is_that_whole_date(make_pdf: Any) -> None:
    """q17, tuning: "what fiscal year end does the report cover?" answered "2024" from "the fiscal year ended
    December 31, 2024", and "when was the call?" answered with its day alone; the whole date is given."""
    text = "Annual report of the Fennwick Trust for the fiscal year ended June 30, 2031.\n"
    text += "A call for holders is set for tomorrow, July 9, 2031, at 10:00 a.m. ET, by telephone."
    documents = open_documents({"fennwick.pdf": make_pdf([text])}, StructureCache(None))
    for question, reply, whole in [
        ("What fiscal year end does the Fennwick report cover?", "2031", "June 30, 2031"),
        ("When is the call for Fennwick holders?", "July 9, 2031", "July 9, 2031, at 10:00 a.m. ET"),
    ]:
        llm = ScriptedLLM([f'{{"answer": "{reply}", "evidence": [1]}}'])
        answer = answer_question(documents, question, llm, None)
        assert answer.found and answer.answer == whole, (question, answer.answer)


def test_a_name_read_from_a_sentence_about_another_defined_party_goes_back(make_pdf: Any) -> None:
    """q17, tuning: "who is the contact person for <the consultant>?" answered with the client's representative,
    from "The Client is represented by …": a contract names each party once, then by its defined term."""
    text = 'This Supply Agreement is made between Quillfeather Mills Ltd, 4 Dock Road, Leeds ("Buyer") and\n'
    text += 'Tannery Row Hides Inc., 9 Elm Street, York ("Supplier").\n'
    text += "The Buyer is represented by Ottilie Marsh. The Supplier is represented by Rufus Penhallow."
    documents = open_documents({"supply.pdf": make_pdf([text])}, StructureCache(None))
    question = "Who is the contact person for Tannery Row?"
    wrong, right = (f'{{"answer": "{n}", "evidence": [1]}}' for n in ("Ottilie Marsh", "Rufus Penhallow"))
    llm = ScriptedLLM([wrong, right])
    answer = answer_question(documents, question, llm, None)
    assert answer.found and answer.answer == "Rufus Penhallow", answer.answer
    sent = [c.messages[-1]["content"] for c in llm.calls]
    assert any("about the Buyer, but the question asks about the Supplier" in m for m in sent), sent
    answer = answer_question(documents, "Who represents Quillfeather Mills?", ScriptedLLM([wrong]), None)
    assert answer.found and answer.answer == "Ottilie Marsh", answer.answer


def test_after_a_failed_program_a_number_is_taken_only_from_words_not_a_tables_figures(make_pdf: Any) -> None:
    """After the program over a table failed, "what share of net sales came from Flexibles" answered 4% from the
    table's figures printed in a row ("Reported Growth % (6) (5) (6) — 4 1"; q10, after its measurement: 75.9%);
    a sentence that says it is taken."""
    from docpilot.understanding.answer import Answer, _stated_in_words

    figures = "Components of growth\nReported Growth % (6) (5) (6) — 4 1\nFX % 1 (1) — (4) (1) (3)"
    path = make_pdf([figures])
    documents = open_documents({"amcor.pdf": path}, StructureCache(None))
    cited = [{"file": documents[0].path, "page": 1, "quote": "Components of growth"}]
    assert not _stated_in_words(Answer("4%", cited), documents)
    documents = open_documents(
        {"amcor.pdf": make_pdf([figures + "\nFlexibles made up 4% of net sales this year."])}, StructureCache(None)
    )
    cited = [{"file": documents[0].path, "page": 1, "quote": "Flexibles made up 4% of net sales"}]
    assert _stated_in_words(Answer("4%", cited), documents)


def test_a_name_found_away_from_the_cited_passage_must_stand_by_the_questions_words(make_pdf: Any) -> None:
    """ "Who signed the N-CEN report on behalf of the registrant?" answered "Northern Trust Company", citing the
    signature passage (which names no one) while the name stands on another page as the administrator (q10, after
    its measurement: a confident wrong answer to a question the filing does not answer). A name found in another
    passage than the one cited is taken only where that passage says how it stands to the question."""
    pages = [
        "Part G: Attachments and signature. The registrant has duly caused this report to be signed on its behalf "
        "by the undersigned, thereunto duly authorized.",
        "Item C.1 Fund: Silver Bond Fund.\nAdministrator: Northern Trust Company\nPricing service: ICE Data",
    ]
    documents = open_documents({"ncen.pdf": make_pdf(pages)}, StructureCache(None))
    named = '{"answer": "Northern Trust Company", "evidence": [1]}'
    question = "Who signed the Silver Bond Fund report on behalf of the registrant?"
    llm = ScriptedLLM([named, '{"answer": "NOT FOUND", "evidence": []}', '{"choice": 0}'])
    answer = answer_question(documents, question, llm, None)
    assert not answer.found, answer.answer
    assert any("says nothing of signed" in call.messages[-1]["content"] for call in llm.calls)
    answer = answer_question(documents, "Who administers the Silver Bond Fund?", ScriptedLLM([named]), None)
    assert answer.found and answer.answer == "Northern Trust Company", answer.answer


def test_a_name_from_a_part_read_second_must_stand_by_the_questions_words(make_pdf: Any) -> None:
    """ "Who is Free Culture dedicated to?" answered "Middlemarch" from a part the model chose to read after the
    first passages (q9, tuning: a confident wrong answer; the dedication names Eric Eldred): there, a name is taken
    only where the passage says how it stands to the question; in the first passages it is checked as before."""
    from docpilot.understanding.answer import _compose, _Evidence
    from docpilot.understanding.document import Unit

    text = "Lastly, I have the permission to use the Read Aloud button to hear Middlemarch read to me."
    documents = open_documents({"book.pdf": make_pdf([text])}, StructureCache(None))
    evidence = [_Evidence(Unit("book.pdf", 1, text, "chunk"), text)]
    named = '{"answer": "Middlemarch", "evidence": [1]}'
    llm = ScriptedLLM([named, '{"answer": "NOT FOUND", "evidence": []}'])
    question = "Who is Free Culture dedicated to?"
    answer = _compose(llm, question, evidence, documents, fetched=True)
    assert answer is not None and not answer.found, answer
    assert "says nothing of dedicated" in llm.calls[1].messages[-1]["content"]
    dedication = "To Eric Eldred, whose work first drew me to this cause, this book is dedicated."
    documents = open_documents({"book.pdf": make_pdf([dedication])}, StructureCache(None))
    evidence = [_Evidence(Unit("book.pdf", 1, dedication, "chunk"), dedication)]
    answer = _compose(
        ScriptedLLM(['{"answer": "Eric Eldred", "evidence": [1]}']), question, evidence, documents, fetched=True
    )
    assert answer is not None and answer.found and answer.answer == "Eric Eldred", answer


def test_a_figure_to_compute_copied_from_a_sentence_that_does_not_state_it_is_no_answer(make_pdf) -> None:
    """ "Free cash flow (operating cash flow minus capex)" answered from the passages with "the $104.2 million
    increase" of another thing (q12, tuning; five more such in q11 and q12): a figure a question asks to compute
    is taken from a passage only when a sentence states it by the question's words."""
    text = (
        "Quarterly letter of Larkspur Goods.\nOperating expenses rose; the $104.2 million increase was due to 47 new "
        "shops.\nNet cash from operating activities was $610.5 million and capital expenditures were $120.0 "
        "million.\nFree cash flow for the year was $490.5 million."
    )
    documents = open_documents({"letter.pdf": make_pdf([text])}, StructureCache(None))
    question = "What was the free cash flow for the year (operating cash flow minus capex), in $ million?"
    copied = '{"answer": "104.2", "evidence": [1]}'
    answer = answer_question(documents, question, ScriptedLLM([copied, copied, '{"choice": 0}']), embed=None)
    assert not answer.found and "104.2" not in answer.answer, answer.answer
    said = '{"answer": "490.5", "evidence": [1]}'
    answer = answer_question(documents, question, ScriptedLLM([said, said, '{"choice": 0}']), embed=None)
    assert answer.found and answer.answer == "490.5", answer
