"""The scope algorithm on its own: trigger cues on a sentence's tokens -> typed spans."""

from __future__ import annotations

import os
import subprocess
import sys

from grill.grader.context import Category
from grill.grader.scope import Span, spans
from grill.grader.text import _analyse, _read_sentence


def _spans(text: str, wide: bool = False) -> list[tuple[str, str, list[str]]]:
    """(category, trigger, the words in scope) of each span of a one-sentence text."""
    toks, full = _read_sentence(text.lower(), 0)
    return [_show(s, toks) for s in spans(full, wide)]


def _show(span: Span, toks: list) -> tuple[str, str, list[str]]:  # type: ignore[type-arg]
    return span.category.value, span.trigger, [t.word for t in toks[span.start : span.end]]


def test_a_forward_negation_is_cut_by_a_termination_word() -> None:
    found = _spans("no warmup and bf16 is safer")
    assert ("negation", "negation.hard", ["warmup"]) in found
    assert not any("safer" in words for _, _, words in found)


def test_a_backward_trigger_reaches_the_claim_before_it() -> None:
    found = _spans("warmup is not needed")
    assert ("negation", "negation.verbal", ["warmup"]) in found
    assert _spans("warmup does not diverge") == [("negation", "negation.hard", ["diverg"])]


def test_the_window_limits_a_scope_and_misconceptions_read_it_wider() -> None:
    text = "not warmup decay clipping adam dropout bf16"
    key = [w for _, t, w in _spans(text) if t == "negation.hard"]
    wide = [w for _, t, w in _spans(text, wide=True) if t == "negation.hard"]
    assert key == [["warmup", "decay", "clip"]]
    assert wide == [["warmup", "decay", "clip", "adam", "dropout"]]


def test_an_infinitive_to_takes_no_room_in_the_window() -> None:
    # "no need to touch clipping" denies the clipping as "no clipping" does
    assert ("negation", "negation.hard", ["need", "to", "touch", "clip"]) in _spans(
        "no need to touch clipping"
    )
    found = [w for _, t, w in _spans("not warmup decay clipping adam") if t == "negation.hard"]
    assert found == [["warmup", "decay", "clip"]]


def test_a_pseudo_trigger_suppresses_the_negation_before_it() -> None:
    assert _spans("not only the lr but also clipping") == []
    assert _spans("not the lr") == [("negation", "negation.hard", ["lr"])]
    toks, _ = _read_sentence("not only the lr", 0)
    assert [t.word for t in toks] == ["lr"]  # its words take no room in the windows


def test_two_triggers_in_one_clause_each_open_a_span() -> None:
    found = _spans("check the lr isn't tiny")
    assert ("suspect", "suspect.check", ["lr", "not", "low"]) in found  # `tiny` folds to `low`
    assert ("negation", "negation.hard", ["low"]) in found
    [scope] = _analyse("check the lr isn't tiny").scopes
    assert scope.suspect == (False, True, True, True)  # the negator is under the check


def test_a_negation_ending_in_yet_names_what_is_still_to_come() -> None:
    [scope] = _analyse("adam state not formed yet, full lr diverges").scopes
    assert scope.suspect[:4] == (True, True, True, False)  # optst not form | yet
    [cut] = _analyse("not formed, yet it diverges").scopes  # `yet` as `but`
    assert not any(cut.suspect)
    [early] = _analyse("not yet formed").scopes  # `not yet` before the claim: a plain negation
    assert not any(early.suspect)


def test_a_checks_list_goes_on_through_a_link_word_only() -> None:
    [linked] = _analyse("check the lr isn't tiny, that nothing is frozen").scopes
    [cut] = _analyse("check the lr isn't tiny, and nothing is frozen").scopes
    assert all(linked.suspect[1:]) and not any(cut.suspect[-2:])
    [sure] = _analyse("make sure the loss scale isn't stuck").scopes
    assert all(sure.suspect)


def test_a_retraction_takes_back_the_clause_before_it() -> None:
    [scope] = _analyse("cosine - no, inverse sqrt").scopes
    [span] = scope.carried
    assert (span.category, span.trigger, span.start, span.end) == (
        Category.RETRACTION,
        "retraction",
        0,
        1,
    )
    question = _analyse("cosine? no - inverse sqrt")
    assert [s.trigger for s in question.scopes[0].carried] == ["retraction"]
    assert _analyse("cosine. it is inverse sqrt").scopes[0].carried == ()


def test_a_clause_of_a_verbal_negation_refuses_the_sentence_before_it() -> None:
    found = _spans("restart from scratch to be safe, so i wouldn't")
    assert ("soft-negation", "refusal", ["restart", "from", "scratch", "to", "saf"]) in found
    assert ("condition", "condition.purpose", ["not"]) in found


def test_a_condition_marks_its_clause_until_the_main_clause_starts() -> None:
    [scope] = _analyse("if you never hit the plateau you are data limited").scopes
    toks = _analyse("if you never hit the plateau you are data limited").sentences[0]
    assert [t.word for t, c in zip(toks, scope.cond, strict=True) if c] == ["not", "hit", "plateau"]
    assert scope.sub[: len(scope.cond)] == (True, True, True, False, False)


def test_a_negated_list_lead_in_rejects_every_item() -> None:
    found = _spans("what i would not do: restart from scratch, blame bit flips")
    [items] = [w for _, t, w in found if t == "negation.list"]
    assert items == ["restart", "from", "scratch", "blam", "bitflip"]


def test_a_claim_made_without_evidence_is_refused() -> None:
    found = _spans("you could pin it on flaky gpus without any proof, but")
    assert ("soft-negation", "refusal.without-evidence", ["pin", "flaky", "gpus", "not"]) in found
    assert not [t for _, t, _ in _spans("no bit flips") if t == "refusal.without-evidence"]
    [question, reply] = _analyse("Bit flips? Not without evidence.").scopes
    assert [s.trigger for s in question.carried] == ["refusal.no-evidence"]


def test_a_trigger_switched_off_opens_no_span() -> None:
    code = (
        "from grill.grader.text import _analyse\n"
        "for text in ('warmup is not needed', 'not only the lr', 'cosine - no, inverse sqrt'):\n"
        "    a = _analyse(text)\n"
        "    print(sorted({s.trigger for sc in a.scopes for c in sc.key for s in c}"
        " | {s.trigger for sc in a.scopes for s in sc.carried}))\n"
    )
    off = "negation.verbal,pseudo.not-only,retraction"
    env = {**os.environ, "GRILL_GRADER_WITHOUT": off}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    # switched on: negation.hard and negation.verbal; none; retraction
    assert run.stdout.splitlines() == ["['negation.hard']", "['negation.hard']", "[]"]
    code = code.replace(
        "('warmup is not needed', 'not only the lr', 'cosine - no, inverse sqrt')",
        "('pin it on flaky gpus without any proof',)",
    )
    env["GRILL_GRADER_WITHOUT"] = "refusal.without-evidence"
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["['negation.hard']"]  # on: and refusal.without-evidence


def test_the_folded_negated_predicates_are_the_triggers_words() -> None:
    from grill.grader.context import trigger
    from grill.grader.lexicon import _NEGATED_PREDICATES

    assert set(_NEGATED_PREDICATES) == trigger("negation.predicate").words
