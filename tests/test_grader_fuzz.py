"""Property tests of the grader: any text, to any built-in card or case, gets a sound grade.

(Plus one small deck of this file's own, so that cases are covered while the built-in deck has
none.)

Two kinds of answers are generated: arbitrary Unicode (control characters, lone surrogates,
right-to-left text and emoji included), and answers assembled from the rubrics' own words,
numbers, negators and punctuation, so that matching, negation, ranges and order checks run
rather than being skipped for want of a matching word. For each the grade must be a Grade (or
CaseGrade) for that card, with a valid verdict and a finite score in [0, 1], consistent with
itself (matched + missed = the card's points; a flag means wrong; anything but wrong scores
above 0), the same when asked twice, and never an exception.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grill.deck import load_deck, parse_deck
from grill.grader import grade, grade_case
from grill.model import Card, Case, CaseGrade, Grade, Point, Verdict
from grill.paths import builtin_decks_dir

# a case in the deck format, so cases are fuzzed even while the built-in deck has none
CASE_DECK = """\
deck: fuzz
title: Fuzz
sections: [{key: A, title: A}]
cards:
  - id: fuzz-clip
    n: 1
    section: A
    question: Standard clip value?
    answer: 1.0 by global norm.
    rubric:
      points:
        - {id: one, says: clip at 1.0, match: ["{1}"]}
        - {id: global, says: on the global norm, match: ["global norm"]}
      wrong:
        - {id: per-layer, says: clips each layer on its own, match: ["per layer"]}
cases:
  - id: fuzz-spike
    title: Spikes
    question: What causes loss spikes, and what do you do?
    tests: t
    covers: c
    wrong_answers: w
    parts:
      - id: culprits
        says: causes
        items:
          - {id: overflow, says: fp16 overflow, match: ["(fp16|half precision) overflow"]}
          - {id: batch, says: a bad batch, match: ["bad batch", "outlier .. data"]}
      - id: triage
        says: triage
        need: 2
        items:
          - {id: gradnorm, says: check the grad norm, match: ["grad norm"]}
          - {id: rollback, says: roll back, match: ["roll back", "rollback"]}
          - {id: lr, says: lower the LR, match: ["(lower|reduce) lr", "lr {2-10x} lower"]}
    red_flags:
      - {id: restart_from_scratch, says: restarts, match: ["restart .. scratch"]}
      - {id: ignore, says: ignores it, match: ["(ignore|ignoring) (it|spike)"]}
    follow_ups_text: f
    example: e
    source: s
"""
DECKS = [load_deck(p, builtin=True) for p in sorted(builtin_decks_dir().glob("*.yaml"))]
DECKS.append(parse_deck(CASE_DECK, "fuzz.yaml"))
CARDS: list[Card] = [c for d in DECKS for c in d.cards]
CASES: list[Case] = [c for d in DECKS for c in d.cases]


def _texts(points: Iterable[Point]) -> list[str]:
    return [t for p in points for t in (p.says, *p.match, *p.vague)]


def _card_texts(card: Card) -> list[str]:
    return [card.answer, *_texts((*card.rubric.points, *card.rubric.wrong))]


def _case_texts(case: Case) -> list[str]:
    return _texts((*(i for p in case.parts for i in p.items), *case.red_flags))


SPICE = [
    "not", "no", "never", "isn't", "doesn't", "without", "instead of", "but", "however", "so",
    "if", "check", "twice", "an order of magnitude", "10x", "2k", "2-8k", "10%", "0.1", "1e-4",
    "two thousand", "between 2000 and 8000", ".", ",", ";", "!", "?", "\n", "..", "(", ")", "|",
    "{1-2}", "idk", "…", "—", "→", "×",
]  # fmt: skip

ANY_TEXT = st.text(alphabet=st.characters(blacklist_categories=()), max_size=300)


def _wordy(texts: list[str]) -> st.SearchStrategy[str]:
    """Answers made of the rubric's own phrases and words, shuffled with negators, numbers,
    punctuation and noise: they match, half-match and contradict the rubric."""
    words = sorted({w for t in texts for w in re.findall(r"[^\s(){}|.,;:]+", t.lower())})
    parts = st.one_of(
        st.sampled_from(texts), st.sampled_from(words), st.sampled_from(SPICE), st.text(max_size=4)
    )
    return st.lists(parts, max_size=40).map(" ".join)


CARD_ANSWERS = st.sampled_from(CARDS).flatmap(
    lambda card: st.tuples(st.just(card), st.one_of(ANY_TEXT, _wordy(_card_texts(card))))
)
CASE_ANSWERS = st.sampled_from(CASES).flatmap(
    lambda case: st.tuples(st.just(case), st.one_of(ANY_TEXT, _wordy(_case_texts(case))))
)
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_there_are_built_in_cards_to_fuzz() -> None:
    assert len(CARDS) >= 45


@FUZZ
@given(CARD_ANSWERS)
def test_any_answer_to_any_card_gets_a_sound_grade(pair: tuple[Card, str]) -> None:
    card, answer = pair
    result = grade(card, answer)
    assert isinstance(result, Grade) and result.card == card.id
    assert result.verdict in tuple(Verdict)
    assert math.isfinite(result.score) and 0.0 <= result.score <= 1.0
    ids = sorted(p.id for p in card.rubric.points)
    assert sorted(p.id for p in (*result.matched, *result.missed)) == ids
    if result.flags:
        assert result.verdict == Verdict.WRONG and result.score == 0.0
    if result.verdict != Verdict.WRONG:
        assert result.score > 0.0
    assert grade(card, answer) == result  # pure: the same answer, the same grade


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CASE_ANSWERS)
def test_any_answer_to_any_case_gets_a_sound_grade(pair: tuple[Case, str]) -> None:
    case, answer = pair
    result = grade_case(case, answer)
    assert isinstance(result, CaseGrade) and result.case == case.id
    assert result.verdict in tuple(Verdict)
    assert math.isfinite(result.score) and 0.0 <= result.score <= 1.0
    assert [p.part for p in result.parts] == [p.id for p in case.parts]
    if result.red_flags:
        assert result.verdict == Verdict.WRONG
    assert grade_case(case, answer) == result


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(CARDS),
    st.sampled_from(
        ["lr ", "warmup. ", "not no ", "2k-8k ", "é ", "don't a b, ", "never x, y or "]
    ),
)
def test_an_answer_at_the_length_limit_gets_a_sound_grade(card: Card, unit: str) -> None:
    """10,000 characters of one repeated phrase: the worst case the length cap lets through.
    How long grading takes is measured by `scripts/bench`, not here."""
    result = grade(card, (unit * 10_000)[:10_000])
    assert result.verdict in tuple(Verdict) and 0.0 <= result.score <= 1.0
