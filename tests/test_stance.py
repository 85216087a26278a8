"""The case's learned stance model (grill.grader.stance, rule `case.stance`)."""

from __future__ import annotations

import json

import pytest

from grading import train_stance
from grill.deck import load_library
from grill.grader import _analyse, _unasked, _view, case_phrases, grade_case, red_flag_hits
from grill.grader.stance import WEIGHTS, features, probability
from grill.model import Case

_PLAN = " Roll back to the last good checkpoint, skip the bad batch, add clipping."


@pytest.fixture(scope="module")
def case() -> Case:
    library = load_library(user_decks=False)
    return next(c for d in library.decks for c in d.cases)


@pytest.fixture(scope="module")
def examples() -> list[train_stance.Example]:
    return train_stance.examples(train_stance.TUNING)


def _flags(case: Case, answer: str) -> list[str]:
    return [f.id for f in grade_case(case, answer).red_flags]


def test_the_shipped_model_is_the_one_the_tuning_sets_train(
    examples: list[train_stance.Example],
) -> None:
    shipped = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    bias, weights = train_stance.train(examples)
    assert shipped["trained_on"] == list(train_stance.TUNING)
    assert shipped["examples"] == len(examples)
    assert shipped["bias"] == pytest.approx(bias, abs=2e-3)
    assert set(shipped["weights"]) == set(weights)
    assert all(shipped["weights"][k] == pytest.approx(v, abs=2e-3) for k, v in weights.items())


def test_a_model_trained_without_a_set_reads_its_refusals_better_than_the_rules(
    examples: list[train_stance.Example],
) -> None:
    """Leave-one-set-out on the four sets weighted toward the case: the learned model, trained
    on the other sets, decides more of their red-flag ideas right than the rules do."""
    left_out = ("fresh38", "fresh39", "fresh40", "fresh34")
    learned = rules = 0
    for name in left_out:
        model = train_stance.train([e for e in examples if e.set != name])
        held = [e for e in examples if e.set == name]
        learned += sum(train_stance.predict(model, e) != e.put for e in held)
        rules += sum(e.rules != e.put for e in held)
    assert learned < rules


def test_a_refusal_no_rule_names_is_no_red_flag(
    case: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = _PLAN + " Blaming bit flips is what you do when you haven't looked."
    assert _flags(case, answer) == []
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "case.stance")
    assert _flags(case, answer) == ["blame_bitflips"]


@pytest.mark.parametrize(
    ("answer", "flag"),
    [
        ("I'd restart from scratch to be safe." + _PLAN, "restart_from_scratch"),
        ("It is probably a cosmic-ray bit flip, so I'd rerun it." + _PLAN, "blame_bitflips"),
        ("Just lower the learning rate and keep going.", "only_lower_lr"),
        ("I'd increase the batch size so the gradients are less noisy.", "increase_batch_size"),
    ],
)
def test_an_idea_put_forward_is_still_a_red_flag(case: Case, answer: str, flag: str) -> None:
    assert flag in _flags(case, answer)


def test_features_read_the_words_on_each_side_of_the_idea(case: Case) -> None:
    answer = "Honestly? We would never restart from scratch here, it wastes weeks. Then clip."
    phrases = case_phrases(case)
    flag_view = _unasked(_view(_analyse(answer), phrases))
    found = [(f, h, r) for f, h, r in red_flag_hits(case, flag_view) if h is not None]
    assert [f.id for f, _, _ in found] == ["restart_from_scratch"]
    flag, hit, rules = found[0]
    names = features(flag_view, hit, rules, flag.id)
    assert {"FLAG:restart_from_scratch", "NEG", "NORULES"} <= set(names)
    assert {"BC:negation.hard", "A:week"} <= set(names)  # "never" is a trigger
    assert "P:honest" in names  # the sentence before
    assert "N:clip" not in names  # a word of the case's own phrases is its topic
    assert not any(n.endswith(":restart") for n in names)  # nor the idea itself
    assert 0.0 <= probability(names) < 0.5


def test_a_no_inside_a_clause_is_no_retraction_feature(case: Case) -> None:
    # "no evidence needed" retracts nothing; "no, wait" as a clause of its own does
    phrases = case_phrases(case)

    def names(answer: str) -> set[str]:
        flag_view = _unasked(_view(_analyse(answer), phrases))
        (flag, hit, rules), *_ = [x for x in red_flag_hits(case, flag_view) if x[1] is not None]
        return set(features(flag_view, hit, rules, flag.id))

    inside = names("It was a bit flip, I'm sure, no evidence needed.")
    assert "AC:negation.hard" in inside
    assert not {"AC:retraction", "AC:retraction.words"} & inside
    alone = names("Bit flips. No, wait, a bad batch.")
    assert "NC:retraction" in alone
