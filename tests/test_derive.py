"""Rubrics derived from a card's own text (`grill.grader.derive`): key points from the answer's
items, phrasings from their words and the explanation, contradiction checks for order and
numbers; `grill decks rubric`, the validate warnings and the drill's note on unreviewed rubrics."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from grill.cli import app
from grill.deck import dump_deck, load_library, parse_deck
from grill.grader import grade
from grill.grader.derive import derive_rubric, items_of, rubric_warnings
from grill.model import Card, Rating, Verdict
from grill.ui.drill import render_feedback

runner = CliRunner()


def _card(question: str, answer: str, explanation: str | None = None) -> Card:
    data = {
        "deck": "mine",
        "title": "Mine",
        "sections": [{"key": "A", "title": "A"}],
        "cards": [
            {
                "id": "c",
                "n": 1,
                "section": "A",
                "question": question,
                "answer": answer,
                **({"explanation": explanation} if explanation else {}),
                "rubric": derive_rubric(question, answer, explanation),
            }
        ],
    }
    return parse_deck(dump_deck(data), "mine.yaml").cards[0]


def _verdict(card: Card, answer: str) -> str:
    return grade(card, answer).verdict.label


def _judged(card: Card, right: Sequence[str], wrong: Sequence[str], flag: str) -> None:
    """Every right answer graded correct; every wrong one flagged `flag` (a flag id or a rule)."""
    for answer in right:
        assert _verdict(card, answer) == "correct", answer
    for answer in wrong:
        flags = grade(card, answer).flags
        assert flag in [f.id for f in flags] + [f.rule for f in flags], answer


def test_an_answer_splits_into_items_with_brackets_as_other_wordings() -> None:
    assert items_of("Loss > some threshold (e.g., 10× average). Skip update.") == [
        ("Loss > some threshold", ["e.g., 10× average"]),
        ("Skip update", []),
    ]
    assert [m for m, _ in items_of("Warmup → steady descent → plateau")] == [
        "Warmup",
        "steady descent",
        "plateau",
    ]


def test_half_of_an_items_words_state_it_but_never_without_its_direction() -> None:
    card = _card("LR too low symptoms?", "Loss decreases very slowly; underutilized compute.")
    assert _verdict(card, "the loss goes down slowly and compute is underutilized") == "correct"
    assert _verdict(card, "compute is underutilized") == "partial"
    oscillation = _card("Periodic oscillation in loss?", "LR too high; bad scheduler.")
    assert _verdict(oscillation, "the lr is too low, and a bad scheduler") != "correct"


def test_weighted_by_is_not_said_by_naming_the_weights() -> None:
    # "weighted by Fisher information" is a point about Fisher, not about the weights
    card = _card(
        "EWC?",
        "Regularize toward old weights, weighted by Fisher information.",
        "A penalty for moving weights away from their old values, weighted by how important each"
        " weight was, importance being estimated by the Fisher information.",
    )
    assert _verdict(card, "it keeps the weights close to the old ones") == "partial"
    assert _verdict(card, "a pull toward the old weights, scaled by the Fisher") == "correct"


def test_a_sequence_said_out_of_order_is_wrong() -> None:
    card = _card("Healthy loss curve phases?", "Warmup → steady descent → plateau.")
    assert _verdict(card, "warmup, then steady descent, then a plateau") == "correct"
    assert _verdict(card, "steady descent, then warmup, then a plateau") == "wrong"


def test_the_cards_opening_yes_alone_is_partial_credit() -> None:
    card = _card(
        "Does Adam need bias correction?",
        "Yes. Divide each moment by one minus beta to the t.",
        "Early on the moving averages start at zero and are biased toward it.",
    )
    assert _verdict(card, "yes, it does need it") == "partial"
    assert _verdict(card, "yes: divide each moment by one minus beta to the t") == "correct"
    assert _verdict(card, "no, never") == "wrong"
    assert _verdict(card, "bias what?") == "wrong"
    assert grade(card, "yes, it does").missed  # what was asked is still shown as missed


def test_an_items_own_word_alone_is_partial_credit() -> None:
    card = _card(
        "Why keep an FP32 master copy of the weights?",
        "Numerical precision for small updates; BF16 weights drift.",
    )
    assert _verdict(card, "it's for the precision, basically") == "partial"
    assert _verdict(card, "so the optimizer runs faster") == "wrong"
    # a word the question asks, or one common to the field, is no credit
    assert _verdict(card, "to keep a copy of the weights") == "wrong"


def test_a_number_far_from_the_cards_own_is_wrong() -> None:
    card = _card("Standard warmup?", "2-8k steps.")
    assert _verdict(card, "about 4000 steps") == "correct"
    assert _verdict(card, "around 200k steps") == "wrong"
    assert grade(card, "around 200k steps").flags[0].id.startswith("number")
    rate = _card("Replay ratio?", "~5-15% old / 85-95% new.")
    assert grade(rate, "85-95% old").flags[0].id == "number-out-of-range"
    assert _verdict(rate, "5-15 old / 85-95 new") == "correct"
    assert grade(rate, "85-95 old / 5-15 new").flags[0].id == "number-out-of-range"


def test_the_explanation_restates_a_point_in_other_words() -> None:
    card = _card(
        "Why warmup?",
        "Stabilizes early gradients; optimizer state forms.",
        "Ramping in lets the optimizer state settle before you push.",
    )
    assert "optst settl" in card.rubric.points[1].match
    assert _verdict(card, "early gradients stabilise and adam's moments settle") == "correct"


def test_what_the_explanation_denies_said_as_so_is_wrong() -> None:
    card = _card(
        "LR finder method?",
        "Sweep LR exponentially; plot loss; pick LR ~order of magnitude below divergence.",
        "You sweep the learning rate and plot loss. You don't pick the minimum, you pick"
        " roughly an order of magnitude below where it diverges.",
    )
    said_so = "sweep the lr exponentially, plot loss, pick the lr at the loss minimum"
    assert _verdict(card, said_so) == "wrong"
    assert "denied-by-explanation" in [f.id for f in grade(card, said_so).flags]
    denied = "sweep it exponentially, plot loss, don't pick the minimum, go 10x below divergence"
    assert _verdict(card, denied) == "correct"


def test_what_a_cause_says_is_missing_turned_off_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = ("Loss spikes mid-training?", "Bad batch; numerical instability; missing gradient clip.")
    assert _verdict(_card(*text), "a bad batch, fp16 instability, or no clipping") == "correct"
    trap = "a bad batch or fp16 instability; clipping set too tight, so disable the clip"
    assert "needed-thing-disabled" in [f.id for f in grade(_card(*text), trap).flags]
    # the trap's "too tight" is derive.overdone-missing's
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.disabled-missing,derive.overdone-missing")
    assert _verdict(_card(*text), trap) == "correct"


def test_an_explanation_that_walks_through_a_sequence_restates_each_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = (
        "Healthy loss curve phases?",
        "Warmup → steady descent → plateau.",
        "Three phases. First a steep drop while the model learns the trivially easy structure."
        " Then a long smooth descent. Then a flattening where each additional step buys less.",
    )
    said = (
        "a steep drop on the easy structure, then it flattens as each additional step buys little"
    )
    assert _verdict(_card(*text), said) == "correct"
    backwards = (
        "it flattens, each additional step buying little, then a steep drop on easy structure"
    )
    assert _verdict(_card(*text), backwards) == "wrong"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.ordinal")
    assert _verdict(_card(*text), said) != "correct"


def test_a_number_with_the_last_word_of_its_noun_states_the_item(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = ("Detect bad batch?", "Loss > threshold (e.g. 10x recent moving average). Skip update.")
    said = "keep a running mean of losses; if one comes in at ten times that average, skip it"
    assert _verdict(_card(*text), said) == "correct"
    assert _verdict(_card(*text), "skip it if it is ten times anything at all") == "partial"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.number-head")
    assert _verdict(_card(*text), said) == "partial"


def test_an_item_that_prevents_a_thing_is_said_by_any_prevention_of_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = ("FP16 needs loss scaling?", "Multiply loss by large constant. Prevents underflow.")
    card = _card(*text)
    for said in ("avoids underflow", "stops underflow", "so the grads don't underflow"):
        assert _verdict(card, f"multiply the loss by a large constant; {said}") == "correct", said
    assert _verdict(card, "multiply the loss by a large constant; underflow is fine") == "partial"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.prevented")
    negated = "multiply the loss by a large constant; so grads don't underflow"
    assert _verdict(_card(*text), negated) == "partial"


def test_a_growth_the_explanation_denies_said_in_any_words_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    memory = (
        "Memory cost of doubling batch?",
        "Linear (2x activations).",
        "Optimizer state and gradients don't grow with batch size; they grow with parameter count.",
    )
    assert _verdict(_card(*memory), "linear: the activations double, one set per example") == (
        "correct"
    )
    trap = "linear, because the gradients double along with the batch"
    assert "denied-by-explanation" in [f.id for f in grade(_card(*memory), trap).flags]
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.denied-growth")
    assert _verdict(_card(*memory), trap) == "correct"


def test_what_the_explanation_passes_over_said_as_so_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    high = (
        "LR too high symptoms?",
        "Loss bouncing, NaN, gradient explosions.",
        "Bouncing loss that won't settle, gradient norms that spike rather than decay.",
    )
    card = _card(*high)
    assert _verdict(card, "loss bouncing, nans, exploding grad norms") == "correct"
    for trap in (
        "loss bouncing and NaNs, while the gradient norms shrink towards zero",
        "bouncing loss, nans, gradient explosions, then grad norms that slowly decay",
    ):
        assert _verdict(card, trap) == "wrong", trap
    oscillation = (
        "Periodic oscillation?",
        "LR too high.",
        "It's distinguishable from ordinary batch noise because it's periodic rather than random.",
    )
    assert not derive_rubric(*oscillation).get("wrong")  # no subject of its own in its clause
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.passed-over")
    trap = "loss bouncing and NaNs, while the gradient norms shrink towards zero"
    assert _verdict(_card(*high), trap) == "correct"


def test_the_opposite_of_the_word_the_card_prefers_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clip = (
        "Standard clip value?",
        "1.0 by global norm.",
        "Global rather than per-parameter matters, because clipping per-tensor changes the"
        " direction of the update.",
    )
    card = _card(*clip)
    assert _verdict(card, "1.0 on the global norm") == "correct"
    assert _verdict(card, "1.0 on the global norm, not per layer") == "correct"
    assert _verdict(card, "1.0, applied per layer to each layer's own norm") == "wrong"
    # a card that sees it reads the preference as its own ("Clip value?" "1.0.")
    seen = "1.0 by global norm.\n" + clip[2]
    quick = derive_rubric("Clip value?", "1.0.", context=seen)
    assert "per layer" in [m for w in quick.get("wrong", []) for m in w["match"]]
    # a preferred word the card does not say itself opens nothing ("periodic rather than random")
    assert "per layer" not in str(derive_rubric("Clip value?", "1.0.", "Global rather than local."))
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.passed-over-partner")
    assert _verdict(_card(*clip), "1.0, applied per layer to each layer's own norm") != "wrong"


def test_what_the_card_reveals_said_hidden_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    axis = ("Why log y-axis?", "Reveals early dynamics; small differences visible.")
    card = _card(*axis)
    assert _verdict(card, "it reveals early dynamics and small differences stay visible") == (
        "correct"
    )
    for trap in (
        "it compresses the early dynamics so small differences are visible",
        "the early phase gets hidden; small differences visible",
        "early dynamics revealed, but it squashes the small differences",
    ):
        assert _verdict(card, trap) == "wrong", trap
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.opposites")
    trap = "it compresses the early dynamics so small differences are visible"
    assert _verdict(_card(*axis), trap) != "wrong"


def test_a_denial_under_a_condition_or_a_contrast_is_no_misconception() -> None:
    rubric = derive_rubric(
        "Healthy loss curve?",
        "Warmup; steady descent; plateau.",
        "If you don't see phase one, something is broken. Re-warm rather than don't restart.",
    )
    assert [w["id"] for w in rubric.get("wrong", [])] == []


def test_an_explanation_clause_restates_only_the_item_it_shares_most_with() -> None:
    rubric = derive_rubric(
        "EWC?",
        "Regularize toward old weights; weighted by Fisher information.",
        "It adds a penalty for moving weights away from their old values.",
    )
    regularize, fisher = rubric["points"]
    assert "old penalty" in regularize["match"]
    assert not [m for m in fisher["match"] if "penalty" in m]


def test_a_clause_that_says_something_grows_or_shrinks_does_not_restate_an_item_that_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    speed = (
        "Mixed precision speed gain?",
        "1.5-2x on Volta+ for matmul-heavy workloads.",
        "The gain is smaller for workloads bottlenecked on memory bandwidth.",
    )
    [point] = derive_rubric(*speed)["points"]
    assert not [m for m in point["match"] if "bandwidth" in m]
    trap = "about 15x on matmul-heavy workloads, and it halves activation memory bandwidth"
    assert _verdict(_card(*speed), trap) == "wrong"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.restate-direction")
    [point] = derive_rubric(*speed)["points"]
    assert [m for m in point["match"] if "bandwidth" in m]


def test_an_operation_the_card_makes_done_the_other_way_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scaling = (
        "FP16 needs loss scaling?",
        "Yes. Multiply loss by large constant; divide grad before optimizer step.",
    )
    card = _card(*scaling)
    right = "yes: multiply the loss by a big constant, divide the grads before the optimizer step"
    assert _verdict(card, right) == "correct"
    trap = "yes, divide the loss by a large constant, then multiply the gradients back"
    assert _verdict(card, trap) == "wrong"
    # the same answer also has each operation act on the other quantity (`object`)
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.operations,object")
    assert _verdict(_card(*scaling), trap) != "wrong"


def test_a_direction_is_also_said_down_or_up_but_never_alone() -> None:
    card = _card("Overfitting signal?", "Train loss decreasing, val loss flat or increasing.")
    assert _verdict(card, "train down, val flat or up") == "correct"
    assert all(m != "(decreas|down|drop)" for p in card.rubric.points for m in p.match)


def test_which_opens_what_an_item_says_not_a_reason_to_cut() -> None:
    card = _card(
        "Per-layer grad norm tracking?", "Useful for diagnosing which layers explode / vanish."
    )
    assert _verdict(card, "to see which layer explodes or vanishes") == "correct"


def test_a_share_decayed_to_is_wrong_said_by() -> None:
    card = _card("Cosine decay common?", "Yes. Decay to 10% of peak typically.")
    assert _verdict(card, "yes, it decays to a tenth of the peak") == "correct"
    assert _verdict(card, "yes, cosine, it brings the lr down by ten percent") == "wrong"
    quick = _card("Decay to?", "~10%.")
    assert _verdict(quick, "by 10% from the peak") == "wrong"
    assert _verdict(quick, "down ten percent from the peak") == "wrong"
    assert _verdict(quick, "down to ten percent of the peak") == "correct"
    assert _verdict(quick, "knock ten percent off the peak") == "wrong"
    assert _verdict(quick, "to 10% of the peak") == "correct"
    assert _verdict(quick, "the lr loses some 10% by the end") == "wrong"
    assert _verdict(quick, "it sheds 10% of the peak") == "wrong"
    assert _verdict(quick, "it ends 10% below the peak") == "wrong"
    assert _verdict(card, "yes, cosine, finishing about 10% under the peak value") == "wrong"


def test_a_share_decayed_to_is_wrong_said_as_where_it_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    card = _card("Cosine decay common?", "Yes. Decay to 10% of peak typically.")
    assert _verdict(card, "yes, from the peak down to 10% of it") == "correct"
    assert _verdict(card, "yes: it starts at peak and ends near 10% of peak") == "correct"
    trap = "yes, cosine starts at 10% of peak and climbs to the full peak by the end"
    assert _verdict(card, trap) == "wrong"
    assert _verdict(card, "yes, it goes from 10% of peak up to peak") == "wrong"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.to-from")
    again = _card("Cosine decay common?", "Yes. Decay to 10% of peak typically.")
    assert _verdict(again, trap) != "wrong"


def test_two_shares_of_partner_words_said_swapped_are_wrong() -> None:
    card = _card("Replay ratio?", "~40% old / 60% new.")
    assert _verdict(card, "about 40% old, 60% new") == "correct"
    assert _verdict(card, "60% of the original mix with 40% new data") == "wrong"
    assert _verdict(card, "about 40% old, everything else new") == "correct"
    # each share's source said with "from"
    said = "60 percent from the original mix and 40 percent from the new data"
    assert _verdict(card, said) == "wrong"
    assert _verdict(card, "40 percent from the original mix and 60 percent from the new data") == (
        "correct"
    )


def test_a_number_in_a_bracket_is_checked_too() -> None:
    card = _card("Compute cost of doubling batch?", "Linear in batch (2x compute per step).")
    assert _verdict(card, "linear, about four times the compute per step") == "wrong"


def test_two_partner_words_keep_their_roles() -> None:
    card = _card("Catastrophic forgetting?", "New task wipes out old capability.")
    assert _verdict(card, "training on a new task wipes out old skills") == "correct"
    assert _verdict(card, "the old capabilities wipe out the new task") == "wrong"


def test_where_a_point_is_common_qualifies_it_and_is_not_needed() -> None:
    card = _card(
        "Catastrophic forgetting?", "New task wipes out old capability. Common in fine-tuning."
    )
    assert card.rubric.requires == ("new-task-wipes",)
    assert _verdict(card, "a new task wipes out old capability") == "correct"


def test_a_growth_the_card_names_said_as_another_is_wrong() -> None:
    card = _card("Linear scaling rule?", "Scale LR linearly with batch size.")
    assert _verdict(card, "the lr scales linearly with the batch") == "correct"
    assert _verdict(card, "scale the lr with the square root of the batch size") == "wrong"
    assert _verdict(card, "lr scales linearly with the batch, not its square root") == "correct"
    for wrong in ("lr ∝ 1/B", "the lr is inversely proportional to the batch"):
        assert _verdict(card, wrong) == "wrong", wrong
    # a growth the question names is the card's too, whatever the short answer says
    quick = _card("Linear scaling on batch?", "Scale LR.")
    assert _verdict(quick, "scale the lr with the batch") == "correct"
    for wrong in (
        "η ∝ 1/B",
        "lr scales with the inverse of the batch",
        "grow the lr quadratically",
    ):
        assert _verdict(quick, wrong) == "wrong", wrong
    assert _verdict(quick, "keep the LR where it is and only lengthen warmup") == "wrong"
    # every family of a card is checked, not only the first that names one
    both = _card("After a spike?", "Restart from checkpoint; scale the LR linearly with batch.")
    assert _verdict(both, "restart from checkpoint and scale the lr linearly") == "correct"
    assert _verdict(both, "restart from scratch and scale the lr linearly") == "wrong"


def test_cards_with_nothing_to_derive_from_load_and_are_warned_about() -> None:
    number = _card("Clip value?", "1.0")
    assert number.rubric.points and number.rubric.generated
    assert "only numbers" in rubric_warnings(number)[0]
    word = _card("Decay shape?", "Cosine.")
    assert "one-word answer ('Cosine')" in rubric_warnings(word)[0]
    assert rubric_warnings(_card("Why clip?", "Bounds the update", "Clipping bounds it.")) == []
    assert rubric_warnings(_card("Standard warmup?", "2-8k steps.")) == []


def test_decks_rubric_shows_what_a_card_is_graded_by_and_validate_warns(
    tmp_path: Path, grill_home: Path
) -> None:
    source = tmp_path / "q.csv"
    source.write_text("Clip value?,1.0\nWarmup?,2-8k steps; linear ramp\n", encoding="utf-8")
    assert runner.invoke(app, ["decks", "new", "q", "--from-csv", str(source)]).exit_code == 0
    shown = runner.invoke(app, ["decks", "rubric", "2", "--deck", "q"])
    assert shown.exit_code == 0, shown.output
    assert "{2000-8000}" in shown.output and "not yet reviewed" in shown.output
    assert "= {16000-1000000000} step" in shown.output
    checked = runner.invoke(app, ["decks", "validate", str(grill_home / "decks" / "q.yaml")])
    assert checked.exit_code == 0
    assert "clip-value: the answer gives only numbers" in checked.output
    assert "2 card(s) with a rubric derived from the card's text" in checked.output
    assert "grill decks rederive" in " ".join(checked.output.split())


def test_a_named_method_is_also_said_by_what_the_card_it_sees_says_it_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ask = ("Big batch on a small GPU?", "Gradient accumulation.")
    seen = "Sum gradients over micro-batches; step once.\nEach micro-batch adds its gradient."
    rubric = derive_rubric(*ask, context=seen)
    described = "sum the gradients over a few micro-batches"
    # the seen card's item that shares a word ("gradients") and opens with another
    [point] = rubric["points"]
    assert "sum .. grad" in point["match"]
    data = {
        "deck": "mine",
        "title": "Mine",
        "sections": [{"key": "A", "title": "A"}],
        "cards": [{"id": "c", "n": 1, "section": "A", "question": ask[0], "answer": ask[1]}],
    }
    data["cards"][0]["rubric"] = rubric
    made = parse_deck(dump_deck(data), "mine.yaml").cards[0]
    assert _verdict(made, described) == "correct"
    # a name that is a negation names no method; without the rule, nothing is added
    nothing = derive_rubric("BF16 needs?", "Nothing extra.", context="No loss scaling.\nx")
    assert all(".." not in m for p in nothing["points"] for m in p["match"])
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.seen-named")
    assert "sum .. grad" not in derive_rubric(*ask, context=seen)["points"][0]["match"]


def test_decks_rubric_names_the_card_a_card_sees(grill_home: Path) -> None:
    shown = runner.invoke(app, ["decks", "rubric", "qf-critical-batch"])
    assert shown.exit_code == 0, shown.output
    assert "checked against what card critical-batch-size says" in " ".join(shown.output.split())
    alone = runner.invoke(app, ["decks", "rubric", "critical-batch-size"])
    assert "checked against" not in alone.output


def test_the_drill_says_when_a_rubric_is_derived_and_not_yet_reviewed() -> None:
    card = _card("Standard warmup?", "2-8k steps.")
    console = Console(file=io.StringIO(), width=100, color_system=None)
    whens = dict.fromkeys(Rating, "1d")
    render_feedback(console, card, grade(card, "4k steps"), Rating.GOOD, whens)
    first = console.file.getvalue().strip().splitlines()[0]  # type: ignore[attr-defined]
    assert first == "✓ correct  (rubric derived from the card's text, not yet reviewed)"


def test_every_rule_is_documented_with_examples() -> None:
    from grill.grader import swap_ids
    from grill.grader.context import TRIGGERS
    from grill.grader.derive import RULES
    from grill.grader.match import MATCH_RULES

    doc = (Path(__file__).parents[1] / "docs" / "grader-rules.md").read_text(encoding="utf-8")
    from grill.grader import CARD_CHECKS, CASE_RULES, EXEMPTIONS

    for rule in (
        [t.id for t in TRIGGERS]
        + swap_ids()
        + list(MATCH_RULES)
        + list(RULES)
        + list(CARD_CHECKS)
        + list(CASE_RULES)
        + list(EXEMPTIONS)
    ):
        assert f"`{rule}`" in doc, rule
    assert all(t.examples for t in TRIGGERS)


_BF16 = (
    "FP16 vs BF16?",
    "BF16 has FP32-equivalent exponent range; no loss scaling needed.",
    "FP16 gives you more mantissa, more precision, with a narrow exponent range. BF16 keeps"
    " FP32's exponent range and sacrifices mantissa bits.",
)


def test_a_comparison_said_of_the_other_partner_or_the_other_way_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    card = _card(*_BF16)
    right = "bf16 keeps the fp32 exponent range, no loss scaling; fp16 has more mantissa bits"
    assert _verdict(card, right) == "correct"
    assert (
        _verdict(
            card,
            "BF16 has more mantissa bits than FP16, FP32's exponent range, and no loss scaling",
        )
        == "wrong"
    )
    assert (
        _verdict(card, "bf16: fp32 exponent range, no loss scaling. fp16 has fewer mantissa bits")
        == "wrong"
    )
    # (the subject check also reads "than FP16, FP32's exponent range" as said of FP16)
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.comparatives,derive.subject-swapped")
    card = _card(*_BF16)
    assert (
        _verdict(
            card,
            "BF16 has more mantissa bits than FP16, FP32's exponent range, and no loss scaling",
        )
        == "correct"
    )


def test_a_partner_outdone_by_a_pronoun_is_the_comparison_turned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    card = _card(*_BF16)
    trap = "bf16 keeps fp32's exponent range, no loss scaling; it also has more mantissa than fp16"
    assert _verdict(card, trap) == "wrong"
    fewer = (
        "bf16 keeps fp32's exponent range, no loss scaling; it has fewer mantissa bits than fp16"
    )
    assert _verdict(card, fewer) == "correct"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.comparatives")
    assert _verdict(_card(*_BF16), trap) != "wrong"


def test_what_the_card_calls_common_called_rare_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    forgetting = ("Catastrophic forgetting?", "New task wipes out old capability. Common in SFT.")
    card = _card(*forgetting)
    assert _verdict(card, "a new task wipes out old capability; common in sft") == "correct"
    assert _verdict(card, "a new task wipes out old capability, common in sft, rare in rl") == (
        "correct"
    )
    trap = "a new task wipes out old capability; mostly in pretraining, rare in sft"
    assert _verdict(card, trap) == "wrong"
    assert _verdict(card, "new task wipes out old capability; uncommon in sft") == "wrong"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.opposites")
    assert _verdict(_card(*forgetting), trap) != "wrong"


_GAP = (
    "Validation gap widening?",
    "Overfitting — regularize, more data, early stop.",
    "The fixes are: more data, more regularisation — weight decay or dropout — or early stopping.",
)


def test_a_change_the_card_makes_made_the_other_way_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    card = _card(*_GAP)
    assert _verdict(card, "overfitting: more data, early stopping, more weight decay") == "correct"
    trap = "overfitting; more data, early stopping, and turning weight decay and dropout down"
    assert _verdict(card, trap) == "wrong"
    assert (
        _verdict(card, "overfitting, so lower the weight decay, more data, stop early") == "wrong"
    )
    scaling = (
        "Linear scaling rule?",
        "Scale LR linearly with batch size.",
        "Double the batch, double the learning rate.",
    )
    assert (
        _verdict(_card(*scaling), "scale it linearly: double the batch, halve the learning rate")
        == "wrong"
    )
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.remedies")
    assert _verdict(_card(*_GAP), trap) == "correct"


def test_a_change_inside_a_sentence_of_the_explanation_made_the_other_way_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = (
        "Mitigations?",
        "Weight decay, dropout, early stopping.",
        "On small fine-tuning sets the most effective lever is usually training for fewer epochs.",
    )
    assert _verdict(_card(*text), "weight decay, dropout, early stopping, fewer epochs") == (
        "correct"
    )
    trap = "weight decay, dropout, early stopping; and train for more epochs so it settles"
    assert [f.id for f in grade(_card(*text), trap).flags] == ["reversed-remedy"]
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.remedies-inline")
    assert _verdict(_card(*text), trap) == "correct"


_MITIGATIONS = (
    "Mitigations?",
    "Weight decay, dropout, augmentation, early stopping, smaller model, more data.",
    "Weight decay and dropout are the cheap first moves, or simply more data.",
)


def test_a_remedy_of_a_generic_word_made_the_other_way_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    card = _card(*_MITIGATIONS)
    assert _verdict(card, "weight decay, dropout, a smaller model, early stopping") == "correct"
    for trap in (
        "weight decay, dropout, early stopping, and a bigger model for capacity",
        "weight decay, dropout, early stopping, and scale the model up",
    ):
        assert _verdict(card, trap) == "wrong", trap  # "more data" right after guards nothing
    # a remedy the explanation alone gives ("or a smaller model"): only this rule turns it round
    gap = (
        "Validation gap widening?",
        "Overfitting — regularize, more data, early stop.",
        "The fixes in rough order of cost are: more data, more regularisation, early stopping at"
        " the validation minimum, or a smaller model.",
    )
    trap = "overfitting: more data, early stopping, or a bigger model so it has the capacity"
    assert _verdict(_card(*gap), trap) == "wrong"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.remedy-generic")
    assert _verdict(_card(*gap), trap) == "correct"


_PREVENT = (
    "Prevention for spikes?",
    "Gradient clipping, warmup, BF16, periodic checkpoints for fast rollback.",
    "Clip at 1.0, use BF16, warm up long enough, and checkpoint often.",
)


def test_the_other_partner_chosen_over_the_cards_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    card = _card(*_PREVENT)
    assert (
        _verdict(card, "clip grads, warm up, bf16 rather than fp16, checkpoint often") == "correct"
    )
    trap = "clip at 1.0, warm up, train in FP16 rather than BF16, checkpoint often"
    assert _verdict(card, trap) == "wrong"
    assert _verdict(card, "clip, warm up, checkpoints, and switch from bf16 to fp16") == "wrong"
    for beats in ("clip, warm up, fp16 beats bf16", "checkpoints, warmup; fp16 over bf16"):
        assert _verdict(card, beats) == "wrong", beats
    # the check on the card's text (`replaced`: BF16 put aside "rather than") catches it too
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.preferences,replaced")
    assert _verdict(_card(*_PREVENT), trap) == "correct"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "replaced")
    assert _verdict(_card(*_PREVENT), trap) == "wrong"


def test_the_cards_number_counted_in_another_unit_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    card = _card("Warmup length?", "2-8k steps.")
    assert _verdict(card, "about 2000 to 8000 steps") == "correct"
    for wrong in ("About 2-8k tokens.", "2-8k epochs", "roughly 2,000 to 8,000 samples"):
        assert _verdict(card, wrong) == "wrong", wrong
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.units")
    assert _verdict(_card("Warmup length?", "2-8k steps."), "About 2-8k tokens.") == "correct"


def test_a_rate_the_card_gives_per_unit_said_per_another_unit_is_wrong() -> None:
    compute = ("Compute cost of doubling batch?", "Linear in batch (2x compute per step).")
    card = _card(*compute)
    right = "linear, twice the compute per step, and per token it is the same, half the steps"
    assert _verdict(card, right) == "correct"
    for trap in (
        "linear: doubling the batch doubles the compute per epoch",
        "linear per step, and per-token compute doubles too",
        "linear, 2x per step, so the compute per token also doubles",
        "Linear: doubling the batch doubles the compute spent per token.",
    ):
        assert _verdict(card, trap) == "wrong", trap


def test_what_the_card_says_is_needed_turned_off_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    question, answer = "Gradient norm spike?", "Bad batch; instability; need clipping."
    card = _card(question, answer)
    assert _verdict(card, "a bad batch or instability, so make sure clipping is on") == "correct"
    for wrong in (
        "a bad batch or instability; the fix is to turn clipping off",
        "bad batch or instability, best handled by disabling clipping",
        "bad batch, instability: switch off the clipping for a while",
    ):
        assert _verdict(card, wrong) == "wrong", wrong
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.disabled")
    off = "a bad batch or instability; the fix is to turn clipping off"
    assert _verdict(_card(question, answer), off) == "correct"


def test_another_member_of_the_cards_family_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    shape = _card("Decay shape?", "Cosine.")
    assert _verdict(shape, "cosine, annealed to the floor") == "correct"
    assert _verdict(shape, "Linear, it beats cosine on the final loss.") == "wrong"
    assert _verdict(shape, "step decay at fixed milestones") == "wrong"
    sweep = _card("LR finder?", "Sweep LR exponentially; plot loss; pick LR below divergence.")
    assert _verdict(sweep, "sweep the lr linearly, plot loss, pick below divergence") == "wrong"
    ramp = _card("Warmup?", "2-8k steps, linear from zero.")
    assert _verdict(ramp, "2-8k steps, linear ramp from zero, then a cosine decay") == "correct"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.schedules")
    assert _verdict(_card("Decay shape?", "Cosine."), "Linear, it beats cosine.") == "correct"


def test_what_depends_on_something_said_to_be_the_same_for_all_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    question, answer = (
        "Critical batch size?",
        "Beyond it, doubling batch doesn't double progress. Task-dependent.",
    )
    card = _card(question, answer)
    assert (
        _verdict(card, "past it doubling the batch doesn't double progress; task dependent")
        == "correct"
    )
    for wrong in (
        "beyond it doubling doesn't double progress; a universal constant, the same for every task",
        "beyond it doubling doesn't double progress, roughly 4k whatever the task",
        "beyond it doubling doesn't double progress; it does not depend on the task",
        "beyond it doubling doesn't double progress; identical across tasks",
    ):
        assert _verdict(card, wrong) == "wrong", wrong
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.dependence,absolute")
    same = "beyond it doubling doesn't double progress, roughly 4k whatever the task"
    assert _verdict(_card(question, answer), same) != "wrong"


def test_a_change_the_card_makes_kept_or_turned_end_to_end_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rule = _card("Linear scaling rule?", "Scale LR linearly with batch size.")
    assert _verdict(rule, "scale the lr in proportion to the batch") == "correct"
    for wrong in ("keep the lr fixed and scale the warmup", "scale warmup; the LR stays the same"):
        assert _verdict(rule, wrong) == "wrong", wrong
    # the thing and "unchanged" next to it, as a formula's aside says it
    short = _card("Linear scaling on batch?", "Scale LR.")
    for wrong in ("lr unchanged; the warmup grows with the batch", "T_warm ∝ B, lr unchanged"):
        assert _verdict(short, wrong) == "wrong", wrong
    assert _verdict(short, "scale the lr; the warmup stays unchanged") == "correct"
    ramp = _card("Warmup length?", "2-8k steps. Linear ramp from 0 to peak.")
    assert _verdict(ramp, "2-8k steps, linear from zero up to the peak") == "correct"
    assert _verdict(ramp, "2-8k steps, ramping linearly down from the peak to zero") == "wrong"
    # a word of direction between the ends does not hide the swap
    assert _verdict(ramp, "2-8k steps, linear from the peak down to zero") == "wrong"
    assert _verdict(ramp, "2-8k steps, ramping down from the peak LR toward zero") == "wrong"
    # ... nor does starting at the far end without "from"
    started = "2-8k steps, starting at the peak LR and ramping linearly down to zero"
    assert _verdict(ramp, started) == "wrong"
    assert _verdict(ramp, "2-8k steps: start at zero and ramp linearly up to the peak") == (
        "correct"
    )
    cost = _card("Compute of doubling batch?", "Linear in batch (2x compute per step).")
    assert _verdict(cost, "sublinear, about 1.3x per step") == "wrong"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.kept,derive.ends")
    assert _verdict(_card(*("Linear scaling rule?", "Scale LR.")), "keep the lr fixed") != "wrong"
    again = _card("Warmup length?", "2-8k steps. Linear ramp from 0 to peak.")
    assert _verdict(again, "2-8k steps, ramping linearly from the peak to zero") != "wrong"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.ends-started")
    assert _verdict(
        _card("Warmup length?", "2-8k steps. Linear ramp from 0 to peak."), started
    ) != ("wrong")


def test_two_partners_given_each_others_directions_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    question, answer = "Overfitting signal?", "Train loss decreasing, val loss flat or increasing."
    card = _card(question, answer)
    for right in ("train loss keeps falling while val loss turns up", "train ↓, val flat/↑"):
        assert _verdict(card, right) == "correct", right
    for wrong in (
        "val loss keeps decreasing while train loss goes up",
        "Training loss going up while the validation loss goes down.",
    ):
        assert _verdict(card, wrong) == "wrong", wrong
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.swapped-directions")
    swapped = "val loss keeps decreasing while train loss goes up"
    assert _verdict(_card(question, answer), swapped) != "wrong"


def test_pulling_toward_another_point_than_the_cards_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ewc = ("What does EWC do?", "Regularize toward old weights, weighted by Fisher information.")
    card = _card(*ewc)
    assert _verdict(card, "pulls weights back toward the old ones, weighted by Fisher") == "correct"
    for wrong in (
        "regularizes weights toward zero, weighted by the Fisher information",
        "a penalty pulling each weight toward its initialisation, Fisher-weighted",
    ):
        assert _verdict(card, wrong) == "wrong", wrong
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.targets")
    assert _verdict(_card(*ewc), "regularizes toward zero, weighted by Fisher info") != "wrong"


def test_an_explanation_restating_the_answers_number_bounds_its_word_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cost = (
        "Memory cost of a longer context?",
        "Linear (2x tokens, 2x cache).",
        "Twice the context holds twice the attention cache per layer.",
    )
    card = _card(*cost)
    assert _verdict(card, "linear: double the cache, twice the attention state") == "correct"
    for wrong in ("linear, but it quadruples the attention cache", "linear: 5x attention cache"):
        assert _verdict(card, wrong) == "wrong", wrong
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.numbers-restated")
    assert _verdict(_card(*cost), "linear, but it quadruples the attention cache") != "wrong"


def test_an_older_gpu_generation_than_the_cards_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    tf32 = ("Where does TF32 run natively?", "Ampere and later tensor cores.")
    card = _card(*tf32)
    for right in ("A100s and later tensor cores", "ampere and later; volta has none of it"):
        assert _verdict(card, right) == "correct", right
    for wrong in ("Volta and later tensor cores", "V100 and later tensor cores"):
        assert _verdict(card, wrong) == "wrong", wrong
    assert _verdict(card, "the tensor cores of pre-Ampere cards") == "wrong"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.hardware")
    assert _verdict(_card(*tf32), "Volta and later tensor cores") != "wrong"


def test_what_is_missing_said_to_be_set_too_hard_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    stalls = ("Why does a deep net stall early?", "Dead units; missing normalization.")
    card = _card(*stalls)
    assert _verdict(card, "dead units, and no normalization layers") == "correct"
    for wrong in (
        "dead units, and normalization set too strict",
        "dead units; an over-aggressive normalization",
    ):
        assert _verdict(card, wrong) == "wrong", wrong
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.overdone-missing")
    assert _verdict(_card(*stalls), "dead units, and normalization set too strict") != "wrong"


def test_done_by_something_the_card_never_names_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    norm = (
        "What does layer norm do?",
        "Rescales activations, divided by their standard deviation.",
        "Each activation is centred and divided by how spread out the layer's values are.",
    )
    card = _card(*norm)
    for right in (
        "rescales activations, divided by sigma, their standard deviation",
        "rescales activations divided by how spread out they are",
    ):
        assert _verdict(card, right) == "correct", right
    wrong = "rescales activations, divided by the batch size"
    assert _verdict(card, wrong) == "wrong"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "agent")
    assert _verdict(_card(*norm), wrong) != "wrong"


def test_an_operation_said_to_act_on_another_quantity_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the check alone: `derive.object` reads some of the same answers from the card's rubric
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.object")
    accumulate = (
        "How do you fit a big batch in memory?",
        "Accumulate gradients over micro-batches.",
        "Run several small batches, summing their gradients, then take one optimizer step.",
    )
    card = _card(*accumulate)
    for right in (
        "accumulate the gradients over a few micro-batches, then step",
        "gradient accumulation over micro-batches",
        "accumulate over micro-batches: the grads add up, one step at the end",
        # a quantity named beside it in a list, or denied, is not what it acts on
        "accumulate, and loss stays the same: gradients summed over micro-batches",
        "don't accumulate activations, accumulate gradients over micro-batches",
    ):
        assert _verdict(card, right) == "correct", right
    for wrong in (
        "accumulate the activations over micro-batches, then step",
        "activation accumulation over micro-batches",
        "accumulate the learning rate over micro-batches",
    ):
        got = grade(card, wrong)
        assert got.verdict is Verdict.WRONG, wrong
        assert [f.rule for f in got.flags] == ["object"], wrong
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "object,derive.object")
    assert _verdict(_card(*accumulate), "activation accumulation over micro-batches") != "wrong"


def test_an_operation_on_another_quantity_is_wrong_on_the_built_in_deck() -> None:
    from grill.deck import load_library

    lib = load_library(user_decks=False)
    scaling = lib.card("fp16-loss-scaling")
    right = "Yes: scale the loss up before backward, unscale the gradients before the step."
    assert grade(scaling, right).verdict is Verdict.CORRECT
    wrong = "Yes: multiply the gradients by a big constant after backward so tiny values survive."
    [flag] = grade(scaling, wrong).flags
    assert flag.rule == "object"
    # the reason shown names things in words, not the lexicon's stems
    assert flag.says == "puts multiplying on the gradients, where the card puts it on the loss"
    rule = lib.card("linear-scaling-rule")
    assert "object" in [f.rule for f in grade(rule, "scale the batch size with the lr").flags]


def test_a_setting_turned_that_the_card_never_touches_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spike = (
        "Sudden grad norm spike?",
        "Bad batch; instability; need clipping.",
        "Almost always a bad batch: repeated text, a weird encoding. It can also be an FP16"
        " instability. The response is to make sure clipping is on and look at the data there.",
    )
    card = _card(*spike)
    for right in (
        "a bad batch or an fp16 instability; make sure clipping is on",
        # a change denied, dismissed or supposed is not made
        "bad batch or instability: clip, don't raise the batch size",
        "bad batch, fp16 instability; clipping on. Raising the LR would only make it worse",
        # a setting after a preposition or a list is not what is turned
        "bad batch or instability, worse after more batches of junk; need clipping",
        "bad batch, instability, need clipping, more data, dropout: no",
        # dropping or adding a batch takes one away or adds one, it turns no setting
        "bad batch or fp16 instability: drop the bad batch and make sure clipping is on",
    ):
        assert _verdict(card, right) == "correct", right
    for wrong in (
        "a bad batch or fp16 instability; raise the batch size so one document gets diluted",
        "bad batch or instability, so double the batch and clip",
        "bad batch, instability, clipping; then cut the lr tenfold and keep going",
        "bad batch or instability; clipping on, and shorten the warmup",
        "bad batch or instability; clipping on, and slash the lr",
    ):
        got = grade(card, wrong)
        assert got.verdict is Verdict.WRONG, wrong
        assert [f.rule for f in got.flags] == ["change"], wrong
    flag = grade(card, "bad batch or instability, clipping; and more dropout").flags[0]
    assert flag.says == "raises dropout, which the card's text never changes"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "change")
    assert _verdict(_card(*spike), "bad batch or instability, so double the batch and clip") == (
        "correct"
    )


def test_a_setting_the_card_changes_or_names_may_be_turned() -> None:
    # the card's own direction ("LR too low"), the schedule (the LR without its name), an item
    # of the short answer by itself ("dropout")
    flat = _card("Flat early loss?", "LR too low; frozen weights.", "Check the obvious things.")
    assert _verdict(flat, "lr too low, so raise the lr; or a frozen layer") == "correct"
    warmup = _card("Standard warmup?", "2-8k steps, linear from 0 to peak.", "A ramp to the peak.")
    assert _verdict(warmup, "2-8k steps, raising the learning rate linearly from zero") == (
        "correct"
    )
    fixes = _card("Mitigations?", "Weight decay, dropout, early stopping.", "Cheap moves first.")
    assert _verdict(fixes, "more dropout and weight decay, then early stopping") == "correct"
    assert _verdict(fixes, "weight decay, dropout, and a bigger batch size") == "wrong"


def test_what_the_card_prefers_its_own_word_over_is_wrong_said(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clip = _card(
        "Standard clip value?",
        "1.0 by global norm.",
        "Global rather than per-parameter matters, because clipping per-tensor changes the"
        " direction of the update.",
    )
    assert _verdict(clip, "1.0 on the global norm across all the parameters") == "correct"
    assert _verdict(clip, "1.0 on the global norm, not per parameter") == "correct"
    trap = "1.0 norm, applied per parameter tensor on its own"
    assert [f.id for f in grade(clip, trap).flags] == ["denied-by-explanation"]
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.passed-over-own")
    again = _card(clip.question, clip.answer, clip.explanation)
    assert [f.id for f in grade(again, trap).flags] == []


def test_each_thing_the_explanation_denies_to_grow_is_wrong_said_to_grow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    memory = (
        "Memory cost of doubling batch?",
        "Linear (2x activations).",
        "Activations dominate, one set per example. Optimizer state and gradients don't grow"
        " with batch size, they grow with parameter count, so those are fixed.",
    )
    _judged(
        _card(*memory),
        right=(
            "linear: twice the activations, one set per example",
            # "up" after a verb is a particle, not a growth
            "linear, 2x activations; accumulation works by adding up the gradients of small"
            " batches",
        ),
        wrong=(
            "linear: doubling the batch doubles the optimizer state, and 2x activations",
            "linear, 2x activations, and the optimizer state doubles too",
            "linear, 2x activations; more gradients to hold as well",
        ),
        flag="denied-by-explanation",
    )
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.denied-growth-each")
    again = _card(*memory)
    assert _verdict(again, "linear, 2x activations, and the optimizer state doubles too") == (
        "correct"
    )


def test_a_restart_the_explanation_passes_over_is_wrong_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    high = (
        "LR too high symptoms?",
        "Loss bouncing, NaN, gradient explosions.",
        "Bouncing loss that won't settle, gradient norms that spike, and eventually NaNs. If you"
        " see it, halve the learning rate and re-warm rather than restarting cold.",
    )
    _judged(
        _card(*high),
        right=(
            "bouncing loss, NaNs, exploding grads; halve the lr and re-warm rather than restart",
            # a clause ending on "not required" with no verb before it is not needed
            "loss bouncing, NaN, gradient explosions. Halve the LR and re-warm. Cold restart not"
            " required.",
        ),
        wrong=(
            "bouncing loss, NaN, grad explosions; restart the run from scratch at half the lr",
            "loss bouncing, NaNs, exploding gradients: a cold restart from random init fixes it",
        ),
        flag="denied-by-explanation",
    )
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.passed-over-restart")
    again = _card(*high)
    trap = "loss bouncing, NaNs, exploding gradients: a cold restart from random init fixes it"
    assert _verdict(again, trap) == "correct"


def test_what_the_explanation_says_depends_is_wrong_said_the_same_whatever() -> None:
    # the dependence is read from the explanation too, not only the short answer
    critical = _card(
        "Critical batch?",
        "Saturation point.",
        "Past it, doubling the batch stops paying. It's task-dependent, from around a thousand"
        " tokens for easy tasks to millions for hard ones.",
    )
    _judged(
        critical,
        right=("the saturation point; where it sits depends on the task",),
        wrong=(
            "the saturation point, and it's a fixed number, about 4M tokens, no matter the task",
            "saturation point: the same 8M tokens whatever the task",
        ),
        flag="dependence-denied",
    )


def test_a_batch_the_card_counts_is_data_not_the_setting() -> None:
    # "skip bad batch; ... lower LR": the change word belongs to the LR, the batch is data
    recovery = _card(
        "Recovery strategies for loss spike?",
        "Skip bad batch; restart from earlier checkpoint; lower LR; ensure clipping enabled.",
        "Roll back to the last good checkpoint, skip the batches around the spike, drop the"
        " learning rate and re-warm, and confirm clipping is on.",
    )
    _judged(
        recovery,
        right=(
            "roll back to a checkpoint, skip the bad batch, lower the lr, make sure clipping is on",
            # plural batches after a verb are data taken away, not the batch size cut
            "back to the last good ckpt, cut the offending batches, lr down, clipping on",
        ),
        wrong=(
            "roll back, skip the bad batch, lower the lr, and raise the batch size to smooth it",
            "roll back, skip the bad data, lower the lr, clipping on, then use bigger batches",
        ),
        flag="change",
    )
    # a change word right beside the batch in the card's text makes it the card's own setting,
    # and a word relating two settings touches both
    noisy = _card(
        "Noisy loss?", "Raise the batch; lower LR.", "A larger batch averages the noise out."
    )
    assert _verdict(noisy, "raise the batch size, and lower the lr") == "correct"
    scaling = _card("Linear scaling rule?", "Scale LR linearly with batch size.", "It holds.")
    assert _verdict(scaling, "double the batch, double the lr: linear") == "correct"


def test_a_setting_turned_that_the_card_never_touches_is_wrong_on_the_built_in_deck() -> None:
    from grill.deck import load_library

    lib = load_library(user_decks=False)
    spike = lib.card("grad-norm-spike")
    assert grade(spike, "Bad batch or FP16 instability; make sure clipping is on.").verdict is (
        Verdict.CORRECT
    )
    wrong = "Bad batch or FP16 instability; make sure clipping is on, then more weight decay."
    assert [f.rule for f in grade(spike, wrong).flags] == ["change"]


def test_two_things_the_card_pairs_paired_the_other_way_round_are_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scaling = _card(
        "Linear scaling rule?",
        "Scale LR linearly with batch size.",
        "Double the batch, double the learning rate. A larger batch is a lower-noise estimate of"
        " the same gradient, so you can trust it further.",
    )
    wrong = (
        "scale the lr linearly with batch size, because a bigger batch gives a noisier gradient",
        "lr linear in batch size: small batches have less noise, so they can take big steps",
    )
    _judged(
        scaling,
        right=(
            "scale the lr linearly with the batch size: a bigger batch gives a lower-noise"
            " gradient",
            "lr linear in batch size; the gradient gets less noisy with a larger batch",
            # denied or supposed, the other way round is not claimed
            "lr linear in batch size; a larger batch does not give a noisier gradient",
            "lr linear in batch size, and it's a myth that a larger batch means more noise",
        ),
        wrong=wrong,
        flag="pairing",
    )
    for answer in wrong:  # the only flag, and its reason quotes what the card's text pairs
        (flag,) = grade(scaling, answer).flags
        assert "larger batch is a lower-noise" in flag.says, answer
    # in different clauses nothing is paired
    assert _verdict(scaling, "lr linear in batch size; use a larger batch, then less noise") == (
        "correct"
    )
    # a card whose text pairs nothing checks nothing
    plain = _card("Linear scaling rule?", "Scale LR linearly with batch size.", "It holds well.")
    assert _verdict(plain, "lr linear in batch size: a bigger batch gives a noisier gradient") == (
        "correct"
    )
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "pairing")
    wrong = "scale the lr linearly with batch size, because a bigger batch gives a noisier gradient"
    assert _verdict(scaling, wrong) == "correct"


def test_a_measure_the_card_names_stands_for_what_it_measures() -> None:
    """ "importance being estimated by the Fisher information": "high-Fisher weights" say as
    much as "important weights" do, paired with free or anchored."""
    ewc = _card(
        "EWC?",
        "Regularize toward old weights, weighted by Fisher information.",
        "The penalty is weighted by how important each weight was to the old task, importance"
        " being estimated by the Fisher information. So unimportant weights are free to move"
        " and critical ones are anchored.",
    )
    _judged(
        ewc,
        right=(
            "regularize toward old weights, fisher weighted: high-fisher weights are anchored,"
            " low-fisher ones are free",
        ),
        wrong=(
            "regularize toward old weights, fisher weighted: high-fisher weights are left free"
            " to move and low-fisher ones are anchored",
            "regularize toward old weights; the weights with low Fisher information get pinned",
        ),
        flag="pairing",
    )
    # a card that names no measure reads "high-fisher" as nothing of importance
    plain = _card(
        "EWC?",
        "Regularize toward old weights, weighted by Fisher information.",
        "So unimportant weights are free to move and critical ones are anchored.",
    )
    said = "regularize toward old weights, fisher weighted: high-fisher weights are left free"
    assert _verdict(plain, said) == "correct"


def test_how_much_a_thing_matters_paired_the_other_way_round_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ewc = _card(
        "EWC?",
        "Regularize toward old weights, weighted by Fisher information.",
        "The penalty is weighted by how important each weight was to the old task. So"
        " unimportant weights are free to move and critical ones are anchored.",
    )
    _judged(
        ewc,
        right=(
            "regularize toward the old weights weighted by fisher info, so the crucial weights"
            " stay pinned and unimportant ones are free",
            "regularize toward old weights, fisher weighted: the weights that mattered most are"
            " anchored",
            # denied, the other way round is not claimed
            "regularize toward old weights, fisher weighted; important weights are not free",
        ),
        wrong=(
            "regularize toward old weights weighted by fisher info, so the most important"
            " weights are the freest to move",
            "regularize toward old weights, fisher weighted: the least important weights are"
            " anchored hardest",
            "regularize toward old weights, fisher weighted; the weights that mattered most are"
            " left free",
            "regularize toward old weights, fisher weighted, so unimportant weights get pinned",
        ),
        flag="pairing",
    )
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "pairing")
    wrong = "regularize toward old weights, fisher weighted, so unimportant weights get pinned"
    assert _verdict(ewc, wrong) == "correct"


_FORMATS = (
    "FP16 vs BF16?",
    "BF16 has FP32-equivalent exponent range; no loss scaling needed; safer.",
    "FP16 gives you more mantissa with a narrow exponent range, so you bolt on loss scaling. For"
    " training, range matters far more than precision, which is why BF16 is the default.",
)


def test_what_the_card_ranks_first_said_to_matter_less_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    card = _card(*_FORMATS)
    _judged(
        card,
        right=(
            "bf16 keeps fp32's exponent range, no loss scaling needed, safer: range matters more",
            "bf16: fp32 range, no loss scaling, safer; precision matters, but range matters more",
        ),
        wrong=(
            "bf16 keeps fp32's exponent range, no loss scaling, safer, because in training"
            " precision matters more than range",
            "bf16: fp32 range, no loss scaling, safer; precision is more important than range",
            "bf16: fp32 range, no loss scaling, safer; range matters less than precision",
        ),
        flag="ranked-other-way",
    )
    # the reason quotes what the card ranks
    (flag,) = grade(card, "bf16: fp32 range, no loss scaling, safer; precision matters more").flags
    assert "range matters far more than precision" in flag.says
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.priority")
    wrong = "bf16: fp32 range, no loss scaling, safer; precision is more important than range"
    assert _verdict(_card(*_FORMATS), wrong) == "correct"


def test_what_the_card_says_is_not_needed_said_to_be_needed_still_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    card = _card(*_FORMATS)
    _judged(
        card,
        right=(
            "bf16 keeps fp32's exponent range, so no loss scaling needed, and it's safer",
            "bf16: fp32 range, safer; fp16 needs loss scaling, bf16 doesn't",
        ),
        wrong=(
            "bf16 keeps fp32's exponent range and is safer, but it still needs loss scaling",
            "bf16: fp32 range, safer, though loss scaling is needed too",
            "both need loss scaling; bf16 just has fp32's exponent range, so it's safer",
        ),
        flag="needed-after-all",
    )
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.needed-still")
    wrong = "bf16 keeps fp32's exponent range and is safer, but it still needs loss scaling"
    assert _verdict(_card(*_FORMATS), wrong) == "correct"


def test_what_the_card_does_to_one_thing_done_to_another_it_never_names_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clipping = (
        "Gradient clipping?",
        "Clip the global gradient norm at 1.0.",
        "Take the norm of all the gradients together and rescale them when it exceeds 1.0.",
    )
    _judged(
        _card(*clipping),
        right=("clip the global grad norm at 1.0", "1.0, clipping the gradients' global norm"),
        wrong=(
            "clip the learning rate at 1.0, globally",
            "clip the weights to 1.0 across the whole model",
            "global clipping of the loss at 1.0",
        ),
        flag="object-swapped",
    )
    # the question's verbs are the card's too: "tracking" the grad norm, not the weights'
    tracking = _card("Per-layer grad norm tracking?", "Shows which layers explode or vanish.")
    assert _verdict(tracking, "track per-layer weight norms: shows which explode") == "wrong"
    scaled = _card("FP16 needs?", "Loss scaling: multiply the loss by a large constant.")
    assert _verdict(scaled, "scale the learning rate up by a large constant") == "wrong"
    # a thing the card names is its own, whatever is done to it
    assert _verdict(scaled, "multiply the loss by a big constant before backward") == "correct"
    # the batch size is one of the things a method acts on
    finder = _card("LR finder method?", "Sweep LR exponentially; plot loss; pick LR 10x lower.")
    assert _verdict(finder, "sweep the batch size exponentially, plot loss, pick 10x lower") == (
        "wrong"
    )
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.object")
    flags = grade(_card(*clipping), "clip the learning rate at 1.0, globally").flags
    assert "object-swapped" not in [f.id for f in flags]


def test_what_the_explanation_says_a_thing_is_not_said_as_so_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log_axis = (
        "Why log y-axis for loss plots?",
        "Reveals early dynamics; small differences visible.",
        "Because loss improvements are multiplicative, not additive. On a linear axis the first"
        " steps dominate the plot.",
    )
    card = _card(*log_axis)
    _judged(
        card,
        right=(
            "it reveals early dynamics and makes small differences visible",
            "reveals early dynamics, small differences visible: improvements are multiplicative,"
            " not additive",
        ),
        wrong=(
            "it reveals early dynamics and small differences, because loss improvements are"
            " additive, the same drop every step",
        ),
        flag="denied-by-explanation",
    )
    # "it's A, not B" has no subject of its own: nothing is derived from it
    plumbing = _card(
        "Flat early loss?",
        "LR too low; frozen layers; broken graph.",
        "If you can't overfit ten examples, it's a plumbing bug, not a hyperparameter.",
    )
    right = "lr too low, frozen layers or a broken graph: check the plumbing, then hyperparameters"
    assert _verdict(plumbing, right) == "correct"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.comma-not")
    wrong = "reveals early dynamics and small differences: loss improvements are additive"
    assert _verdict(_card(*log_axis), wrong) == "correct"


def test_the_loser_said_to_do_the_losing_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    drift = ("What is drift in continual learning?", "New data overwrites old skills.")
    card = _card(*drift)
    assert _verdict(card, "the new data overwrites the old skills") == "correct"
    swapped = "the model overwrites the new data with its old skills"
    assert _verdict(card, swapped) == "wrong"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.lost-swapped")
    assert _verdict(_card(*drift), swapped) != "wrong"


def test_drawn_toward_the_other_kind_of_minimum_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    noise = ("Why can gradient noise help?", "It biases SGD toward flat minima.")
    card = _card(*noise)
    assert _verdict(card, "the noise nudges sgd towards flatter minima") == "correct"
    assert _verdict(card, "noise keeps sgd out of sharp minima, toward flat ones") == "correct"
    for wrong in (
        "the noise nudges sgd toward sharp minima",
        "biased towards sharp, tight minima",
        "the noise nudges sgd toward sharper minima",
        "it biases sgd toward the sharpest minima",
    ):
        assert _verdict(card, wrong) == "wrong", wrong
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.minima")
    assert _verdict(_card(*noise), "the noise nudges sgd toward sharp minima") != "wrong"


def test_restarting_from_another_point_or_dropping_a_remedy_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = _card("Spike — first action?", "Restart from checkpoint.")
    assert _verdict(first, "reload the last good checkpoint and restart from it") == "correct"
    assert _verdict(first, "begin by restarting from the last checkpoint") == "correct"
    for wrong in (
        "restart from scratch",
        "restart training from step zero with a fresh seed",
        "reinitialise the model and begin afresh",
    ):
        assert _verdict(first, wrong) == "wrong", wrong
    prevent = _card(
        "Prevention for spikes?", "Gradient clipping, warmup, BF16, periodic checkpoints."
    )
    assert _verdict(prevent, "clip the gradients, warm up, use bf16, checkpoint often") == "correct"
    for wrong in (
        "clipping, bf16, frequent checkpoints, and skip warmup altogether",
        "turn off gradient clipping, use BF16, warm up, checkpoint often",
    ):
        assert _verdict(prevent, wrong) == "wrong", wrong
    phases = _card("Healthy loss curve phases?", "Warmup → steady descent → plateau.")
    assert _verdict(phases, "warmup with a steep drop, steady descent, plateau") == "correct"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.origins,derive.remedy-dropped")
    assert (
        _verdict(_card("Spike — first action?", "Restart from checkpoint."), "restart from scratch")
        != "wrong"
    )
    skipped = "clipping, bf16, frequent checkpoints, and skip warmup altogether"
    again = _card(
        "Prevention for spikes?", "Gradient clipping, warmup, BF16, periodic checkpoints."
    )
    assert _verdict(again, skipped) != "wrong"


def test_what_the_card_says_of_one_partner_said_of_the_other_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    card = _card(
        "FP16 vs BF16?", "BF16 has FP32-equivalent exponent range; no loss scaling needed."
    )
    right = "bf16 keeps the fp32 exponent range, so no loss scaling is needed"
    assert _verdict(card, right) == "correct"
    swapped = "FP16 keeps FP32's exponent range, so no loss scaling is needed"
    assert _verdict(card, swapped) == "wrong"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.subject-swapped")
    again = _card(
        "FP16 vs BF16?", "BF16 has FP32-equivalent exponent range; no loss scaling needed."
    )
    assert _verdict(again, swapped) != "wrong"


def test_a_deck_made_from_the_seed_csv_passes_its_own_checks() -> None:
    # `grill decks validate` on a deck just made by `grill decks new --from-csv` finds nothing
    from grading.agreement import SEED_CSV, csv_library
    from grill.grader import check_deck

    library, _ = csv_library(SEED_CSV)
    problems = [p for deck in library.decks for p in check_deck(deck)]
    assert problems == []


def test_a_missing_thing_is_also_said_with_a_negator(monkeypatch: pytest.MonkeyPatch) -> None:
    causes = (
        "Loss spikes mid-training?",
        "Bad batch; numerical instability; missing gradient clip.",
    )
    card = _card(*causes)
    for right in (
        "a bad batch, fp16 numerics blowing up, or the run going w/o grad clipping",
        "bad batch, numerical instability, no gradient clipping",
        "bad batch, numerical instability, missing gradient clipping",
    ):
        assert _verdict(card, right) == "correct", right
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.absent")
    assert _verdict(_card(*causes), "a bad batch, or training w/o grad clipping") != "correct"


def test_more_savings_of_a_thing_is_less_of_it() -> None:
    card = _card(
        "FP8 training?",
        "Hopper/Blackwell native. Even more memory savings; needs per-tensor scale.",
    )
    for right in (
        "native on Hopper and Blackwell, halves memory again vs bf16, needs per-tensor scaling",
        "H100/B200 native, less mem, per-tensor scale",
        "native on hopper and blackwell; saves even more memory than bf16; per-tensor scales",
    ):
        assert _verdict(card, right) == "correct", right
    assert (
        _verdict(card, "native on hopper, uses more memory than bf16, per-tensor scaling")
        == "wrong"
    )


def test_the_other_side_of_a_pair_the_card_names_one_side_of_is_wrong() -> None:
    card = _card(
        "BF16 needs?",
        "Nothing extra.",
        "BF16 has FP32's exponent range, so small gradients don't underflow; no loss scaler.",
    )
    assert _verdict(card, "nothing extra, the exponent range is wide") == "correct"
    assert [f.rule for f in grade(card, "loss scaling, same as fp16").flags] == ["partner"]
    # set apart, or denied: no flag
    for fine in (
        "nothing extra: unlike fp16 there is no loss scaler, the range is wide",
        "nothing extra; don't reach for the fp16 tricks",
    ):
        assert "partner" not in [f.rule for f in grade(card, fine).flags], fine


@pytest.mark.parametrize("check", ["partner", "restriction"])
def test_a_card_text_check_can_be_turned_off_for_an_ablation(
    check: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    card = _card("BF16 needs?", "Nothing extra.", "BF16 has FP32's exponent range.")
    answer = {
        "partner": "loss scaling, same as fp16",
        "restriction": "nothing extra, but only for models above 7B parameters",
    }[check]
    assert check in [f.rule for f in grade(card, answer).flags]
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", check)
    assert check not in [f.rule for f in grade(card, answer).flags]


def test_opposites_said_together_are_no_load_bearing_words() -> None:
    """ "which layers explode / vanish" names both sides: an answer need not say both, and
    saying one is not the other swapped; partners apart keep their roles (old / new)."""
    per_layer = _card(
        "Why per-layer grad norms?", "Useful for diagnosing which layers explode / vanish."
    )
    assert grade(per_layer, "pinpoints which layer explodes/vanishes").verdict is Verdict.CORRECT
    assert "explod .. vanish" in per_layer.rubric.points[0].match
    forgetting = _card("Catastrophic forgetting?", "New task wipes out old capabilities.")
    assert grade(forgetting, "the old task wipes out new capabilities").verdict is not (
        Verdict.CORRECT
    )


def test_an_items_direction_turned_round_is_wrong_whatever_else_it_says() -> None:
    healthy = _card(
        "Healthy gradient norm trajectory?",
        "Steady decrease over training.",
        "It should drift downward and stay smooth.",
    )
    assert grade(healthy, "starts big, drifts down, smooth").verdict is Verdict.CORRECT
    climbing = grade(healthy, "it should climb steadily, the key thing is it stays smooth")
    assert climbing.verdict is Verdict.WRONG
    assert [f.id for f in climbing.flags] == ["reversed-direction"]
    both = _card("Overfitting signal?", "Train loss decreasing, val loss increasing.")
    assert not [w for w in both.rubric.wrong if w.id == "reversed-direction"]


_SMALL_BATCH = (
    "Small batch generalization advantage?",
    "Empirically sometimes better — implicit regularization toward flat minima.",
    "Gradient noise acts as an implicit regulariser pushing you toward flatter minima.",
)


def test_a_gain_asked_about_is_also_said_as_the_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    card = _card(*_SMALL_BATCH)
    assert _verdict(card, "sometimes yes: grad noise = implicit reg -> flat minima") == "correct"
    assert _verdict(card, "sometimes better: grad noise = implicit reg -> flat minima") == "correct"
    # a question that asks no gain keeps "better" to itself: "yes" says nothing of it
    other = _card("FP16 vs BF16 for a long run?", "BF16 better: FP32's range, no loss scaling.")
    points = derive_rubric(other.question, other.answer)["points"]
    assert not any("yes" in p.split() for point in points for p in point["match"])
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.verdict")
    card = _card(*_SMALL_BATCH)
    assert _verdict(card, "sometimes yes: grad noise = implicit reg -> flat minima") == "partial"


_LR_LOW = (
    "LR too low symptoms?",
    "Loss decreases very slowly; underutilized compute.",
    "A loss curve that descends far too slowly, and gradient norms that stay high because you're"
    " barely moving. Nothing looks broken; it's just wasting your compute budget.",
)


def test_what_the_card_says_stays_high_said_to_collapse_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    card = _card(*_LR_LOW)
    right = "loss creeps down far too slowly and compute is wasted; grad norms stay high"
    assert _verdict(card, right) == "correct"
    trap = "loss creeps down far too slowly and compute is wasted; grad norms collapse to ~0"
    assert _verdict(card, trap) == "wrong"
    # said the way the card says it, or denied, the norm's fall is no claim
    denied = "loss decreases very slowly, compute wasted, and grad norms don't drop"
    assert _verdict(card, denied) == "correct"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.states")
    assert _verdict(_card(*_LR_LOW), trap) == "correct"


_EWC = (
    "EWC (Elastic Weight Consolidation)?",
    "Regularize toward old weights, weighted by Fisher information. Prevents drift on important"
    " parameters.",
    "A penalty for moving weights away from their old values, weighted by how important each"
    " weight was. So unimportant weights are free to move and critical ones are anchored.",
)


def test_a_claim_of_an_un_word_said_of_the_bare_word_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    card = _card(*_EWC)
    right = "pull toward the old weights, weighted by Fisher, so important params don't drift"
    assert _verdict(card, right) == "correct"
    trap = "pull toward the old weights, weighted by Fisher, so the important weights move freely"
    assert _verdict(card, trap) == "wrong"
    # the card's own claim, and the bare word with another claim, are no slip
    said = "pull toward old weights, weighted by Fisher; unimportant weights are free to move"
    assert _verdict(card, said) == "correct"
    kept = "pull toward old weights by Fisher: important weights stay anchored, the rest move"
    assert _verdict(card, kept) == "correct"
    # the pairing check reads the same slip from "important" and "free" as poles
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.unprefixed,pairing")
    assert _verdict(_card(*_EWC), trap) == "correct"


_WARMUP = (
    "Why warmup?",
    "Stabilizes early gradients; optimizer state forms; prevents divergence at full LR.",
    "At initialisation the model is random and Adam hasn't got reliable estimates of gradient"
    " mean and variance, so full-size early updates can throw you somewhere unrecoverable.",
)


def test_a_state_not_formed_at_init_is_still_to_form_not_denied() -> None:
    card = _card(*_WARMUP)
    typed = "adam moments not formed at init + early grads unstable -> full lr diverges/NaN"
    assert _verdict(card, typed) == "correct"
    # denied outright, it still contradicts the card
    assert _verdict(card, "early grads unstable, the optimizer state never forms") == "wrong"


_SPIKES = (
    "Loss spikes mid-training?",
    "Bad batch; numerical instability; missing gradient clip.",
    "Usually a pathological batch, numerical instability in FP16, or clipping that isn't on. The"
    " first response is not to restart from scratch. If it keeps happening in the same place,"
    " it's the data, not the optimizer.",
)


def test_a_restart_the_explanation_denies_is_wrong_from_any_zero(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    card = _card(*_SPIKES)
    lead = "Bad batch, numerical instability, or no gradient clipping; "
    for restart in ("restart the run from step zero", "start over from square one"):
        assert _verdict(card, lead + restart) == "wrong", restart
    assert _verdict(card, lead + "roll back to the checkpoint from step 40k") == "correct"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.from-zero")
    assert _verdict(_card(*_SPIKES), lead + "restart the run from step zero") == "correct"


def test_a_denied_restart_from_scratch_is_wrong_by_any_verb_that_begins_the_run_again() -> None:
    card = _card(*_SPIKES)
    lead = "Bad batch, numerical instability, or no gradient clipping; "
    for restart in (
        "launch it again from step zero with bf16",
        "start fresh from step 0 with a lower LR",
        "kill it and begin the run from scratch",
    ):
        assert _verdict(card, lead + restart) == "wrong", restart
    # a start that is not the run's: the verb alone, without "from scratch", says nothing
    assert _verdict(card, lead + "start by rolling back to the last checkpoint") == "correct"


def test_what_the_card_switches_to_switched_away_from_is_wrong_and_a_skip_is_said_of_its_object(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recovery = (
        "Recovery strategies for loss spike?",
        "Skip bad batch; restart from earlier checkpoint; lower LR; switch BF16; ensure clipping"
        " enabled.",
        "In order: don't restart from scratch. Roll back to the most recent good checkpoint, skip"
        " or filter the batches around the spike, drop the learning rate and re-warm into it,"
        " confirm gradient clipping is actually enabled, and if you're on FP16, move to BF16.",
    )
    card = _card(*recovery)
    lead = "Roll back to the last good checkpoint, skip the bad data, drop the LR, clip, "
    assert _verdict(card, lead + "and move from BF16 down to FP16.") == "wrong"
    assert _verdict(card, lead + "and switch from fp16 to bf16.") == "correct"
    # a skip earlier in the answer skips nothing said later; "skip the switch" does
    assert _verdict(card, lead + "switch to bf16.") == "correct"
    assert _verdict(card, lead + "but skip the switch to bf16.") == "wrong"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.switched-away")
    assert _verdict(_card(*recovery), lead + "and move from BF16 down to FP16.") == "correct"


def test_one_that_stands_for_a_thing_named_before_is_no_number() -> None:
    from grill.grader import normalise

    assert normalise("for the fp16 case, that one.") == [["fp16", "cas"]]
    assert normalise("clip at one") == [["clip", "{1}"]]
    assert "{1}" in normalise("give each one its own lr")[0]  # not the end of its clause
    assert "{1}" in normalise("just the one, on the global norm")[0]


def _seed_cards() -> dict[str, Card]:
    """The cards of the deck `grill decks new` makes from the seed CSV (tests/grading), by
    question, derived under the rules on now."""
    from grill.export.csv_deck import deck_data, read_csv

    seed = Path(__file__).parent / "grading" / "seed-questions.csv"
    made = parse_deck(dump_deck(deck_data("seed", "Seed", read_csv(seed))), "seed.yaml")
    return {c.question: c for c in made.cards}


def _seed_card(question: str) -> Card:
    """A card of the deck `grill decks new` makes from the seed CSV (tests/grading)."""
    return _seed_cards()[question]


def test_the_global_norm_said_as_all_the_parameters_together() -> None:
    """ "Global" is also said by what it spans: a norm over all the parameters together, across
    every parameter, of the whole gradient. The deck `decks new` makes from the seed CSV reads
    all of them as its clip card's "global norm", and a number the card does not give is still
    wrong."""
    clip = _seed_card("Standard clip value?")
    for said in (
        "Clip the gradient norm computed over all parameters together to one.",
        "You clip so that the norm of all gradients together, computed across every parameter,"
        " is at most one.",
        "One, on the norm of the whole gradient vector.",
        "clip the grad norm over all params together at 1.0",
    ):
        assert _verdict(clip, said) == "correct", said
    assert _verdict(clip, "Clip at 10, on the norm over all parameters together.") == "wrong"


def test_saturation_said_as_what_stops_paying() -> None:
    """ "Saturation point" is also said by what stops: bigger batches that stop buying faster
    training, stop speeding things up, stop paying for themselves. On the built-in card the
    same words past the critical batch are no claim that it still scales."""
    sat = _seed_card("Critical batch?")
    for said in (
        "the batch size where bigger batches stop speeding things up",
        "The batch size past which bigger batches stop buying you faster training.",
        "The batch size where going bigger stops paying for itself.",
    ):
        assert _verdict(sat, said) == "correct", said
    assert _verdict(sat, "the batch size where bigger batches speed things up") != "correct"
    built = load_library(user_decks=False).card("qf-critical-batch")
    said = "The batch size past which bigger batches stop buying a proportional speed-up."
    assert grade(built, said).verdict is Verdict.CORRECT


def test_a_card_with_an_explanation_reads_the_claims_of_the_card_beside_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What a neighbouring card says is true of the same thing: the deck `decks new` makes from
    the seed CSV lets "Mitigations?" read "Validation gap widening?" (regularise more: weight
    decay up), "Prevention for spikes?" read the recovery card (lower the LR) and "LR too high
    symptoms?" the too-low card (its norms decay), for their claims turned round."""
    cases = (
        ("Mitigations?", "Lower the weight decay, add dropout, stop early and get more data."),
        (
            "Prevention for spikes?",
            "Clip at 1.0, warm up, use bf16, and nudge the step size up whenever things look calm.",
        ),
        (
            "LR too high symptoms?",
            "Loss bouncing, NaNs showing up, and grad norms quietly sinking toward zero.",
        ),
    )
    cards = _seed_cards()
    for question, said in cases:
        assert _verdict(cards[question], said) == "wrong", question
    right = "More weight decay, dropout, early stopping, more data."
    assert _verdict(cards["Mitigations?"], right) == "correct"
    # the reason says whose claim it is
    [flag] = grade(cards["Mitigations?"], cases[0][1]).flags
    assert flag.says.endswith("(as the card beside it has it)")
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.sibling-claims")
    cards = _seed_cards()
    for question, said in cases:
        assert _verdict(cards[question], said) != "wrong", question


def test_a_card_without_an_explanation_reads_the_answer_of_the_card_it_sees(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ "Standard warmup? 2-8k steps." sees "Standard LLM warmup? ... Linear ramp from 0 to
    peak.": the ramp's ends turned round are wrong on the quick-fire card too."""
    trap = "2-8k steps, linear from the peak lr down to 0"
    cards = _seed_cards()
    assert _verdict(cards["Standard warmup?"], trap) == "wrong"
    assert _verdict(cards["Standard warmup?"], "2-8k steps, linear from 0 up to peak") == "correct"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.sibling-claims")
    assert _verdict(_seed_cards()["Standard warmup?"], trap) == "correct"


def test_two_steps_the_card_orders_told_the_other_way_round_are_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    too_high = _card(
        "What happens when the LR is far too high?",
        "Loss bounces, grad norm spikes, NaN.",
        "The loss bounces and won't settle, gradient norms spike, and eventually you get NaNs.",
    )
    wrong = (
        "first it NaNs, then the loss bounces and grad norms spike",
        "the loss bounces and grad norms spike only after it NaNs",
        "NaN -> loss bounces -> grad norm spikes",
    )
    _judged(
        too_high,
        right=(
            "loss bounces, grad norm spikes, then eventually NaN",
            "the loss bounces and grad norms spike; after a while it NaNs",
            "NaN, loss bouncing, grad norm spikes",  # a list tells no order
            "if you see NaN, then the lr was too high: loss bounces, grad norms spike",
            "it does not NaN first and then bounce. the loss bounces, grad norms spike, then NaN",
        ),
        wrong=wrong,
        flag="sequence",
    )
    # an order the card ranks by cost is a priority: another one is no false sequence
    fixes = _card(
        "Overfitting fixes?",
        "Weight decay, dropout, more data.",
        "Weight decay and dropout are the cheap first moves, then more data.",
    )
    assert _verdict(fixes, "more data first, then weight decay and dropout") == "correct"
    # a card whose text orders nothing checks nothing
    plain = _card("LR too high symptoms?", "Loss bounces, grad norm spikes, NaN.")
    assert _verdict(plain, "first it NaNs, then the loss bounces and grad norms spike") == (
        "correct"
    )
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "sequence")
    for answer in wrong:
        assert _verdict(too_high, answer) == "correct", answer


def test_the_built_in_card_reads_its_order_from_its_explanation() -> None:
    card = next(c for c in load_library(user_decks=False).cards() if c.id == "lr-too-high")
    assert grade(card, "first it NaNs, then later the loss starts bouncing").verdict is (
        Verdict.WRONG
    )
    assert grade(card, "the loss bounces, grad norms spike, and eventually NaN").verdict is (
        Verdict.CORRECT
    )


def test_a_thing_the_card_says_there_is_almost_none_of_said_to_be_ample_is_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fp8 = _card(
        "FP8 training?",
        "Hopper/Blackwell native; needs per-tensor scaling.",
        "FP8 is native on Hopper and Blackwell. The catch is that 8 bits has almost no dynamic"
        " range, so you need per-tensor scaling factors.",
    )
    wrong = (
        "native on hopper/blackwell, needs per-tensor scaling, and has more dynamic range than"
        " bf16",
        "native on Hopper and Blackwell; it has plenty of dynamic range, so per-tensor scaling"
        " is just a safety net",
        "native on hopper, per-tensor scales because fp8 has too much dynamic range",
        "native on hopper, per-tensor scales, since fp8 has so much dynamic range",
    )
    _judged(
        fp8,
        right=(
            "native on hopper and blackwell, needs per-tensor scaling: little dynamic range",
            # a bare "much" says no degree of its own
            "native on hopper and blackwell, per-tensor scaling: fp8 doesn't have much dynamic"
            " range",
            # said of the other format, or turned down, it is not said of FP8
            "native on hopper; bf16 has far more dynamic range, so fp8 needs per-tensor scaling",
            "native on hopper and blackwell, per-tensor scaling; it does not have more dynamic"
            " range than bf16",
        ),
        wrong=wrong,
        flag="degree",
    )
    masters = _card(
        "Why FP32 master weights?",
        "Precision for accumulated updates.",
        "Updates are tiny relative to the weights, so in BF16 they round away.",
    )
    assert _verdict(
        masters, "precision for accumulating updates: they are tiny next to the weights"
    ) == ("correct")
    (flag,) = grade(
        masters, "precision for accumulated updates: the updates are huge relative to the weights"
    ).flags
    assert flag.rule == "degree" and "“Updates are tiny”" in flag.says
    # only a card that says a great deal or very little is read for it: "small" is no claim
    plain = _card(
        "Why FP32 master weights?",
        "Precision for accumulated updates.",
        "Updates are small relative to the weights, so in BF16 they round away.",
    )
    assert _verdict(
        plain, "precision for accumulated updates: the updates are huge relative to the weights"
    ) == ("correct")
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "degree")
    for answer in wrong:
        assert _verdict(fp8, answer) == "correct", answer


def test_a_degree_said_in_a_setting_or_through_an_intensifier_is_the_things() -> None:
    """ "in BF16 the updates are huge" says it of the updates (BF16 is where, not what), and "the
    updates are too large" of the updates, with "too" between; "BF16 has more range" is still
    said of BF16."""
    masters = _card(
        "Why FP32 master weights?",
        "Precision for accumulated updates.",
        "Updates are tiny relative to the weights, so in BF16 they round away.",
    )
    for answer in (
        "precision for accumulated updates: in bf16 the updates are huge relative to the weights",
        "precision for accumulated updates: the updates are too large relative to the weights",
    ):
        (flag,) = grade(masters, answer).flags
        assert flag.rule == "degree", answer
    assert _verdict(
        masters, "precision for accumulated updates: in bf16 the updates are tiny next to them"
    ) == ("correct")
    assert _verdict(
        masters, "precision for accumulated updates; bf16 has more range but rounds them away"
    ) == ("correct")


_FORMATS = (
    "FP16 vs BF16?",
    "BF16 has FP32-equivalent exponent range; no loss scaling needed; safer.",
    "FP16 gives you more mantissa — more precision — with a narrow exponent range. BF16"
    " keeps FP32's range and needs no scaling. For training, range matters far more than"
    " precision.",
)


def test_a_direction_said_of_a_partner_or_compared_is_no_change_to_reverse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ "FP16 gives you more precision" describes FP16 and "range matters more than precision"
    compares: neither is a change the card makes, so "BF16: less precision" reverses nothing."""
    right = "BF16 has FP32's range, less precision, and needs no loss scaling; safer."
    assert _verdict(_card(*_FORMATS), right) == "correct"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.described")
    assert [f.id for f in grade(_card(*_FORMATS), right).flags] == ["reversed-remedy"]


@pytest.mark.parametrize(
    ("question", "answer", "deepened", "relieved"),
    [
        (
            "LR too low symptoms?",
            "Loss decreases very slowly; underutilized compute.",
            "loss decreases very slowly, compute underused; the fix is to drop the LR further",
            "loss decreases very slowly, compute underused; the fix is to raise the LR",
        ),
        (
            "Batch too small?",
            "Noisy gradients, unstable loss.",
            "noisy gradients and an unstable loss, so shrink the batch further",
            "noisy gradients and an unstable loss, so increase the batch",
        ),
    ],
)
def test_a_setting_the_question_calls_too_low_or_high_moved_further_is_wrong(
    monkeypatch: pytest.MonkeyPatch, question: str, answer: str, deepened: str, relieved: str
) -> None:
    c = _card(question, answer)
    assert [f.id for f in grade(c, deepened).flags] == ["deepened-premise"]
    assert "deepened-premise" not in [f.id for f in grade(c, relieved).flags]
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "derive.premise")
    assert "deepened-premise" not in [f.id for f in grade(_card(question, answer), deepened).flags]
