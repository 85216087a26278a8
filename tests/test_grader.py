"""The recall grader on small rubrics built here: normalisation, numbers, negation, verdicts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from grill.errors import NotFoundError, UsageError
from grill.grader import (
    check_deck,
    correct_needed,
    grade,
    grade_batch,
    grade_case,
    grade_ref,
    normalise,
    one_flag_per_quote,
    parse_batch,
    phrase_error,
    phrase_warnings,
)
from grill.model import Card, Case, CasePart, Deck, Flag, Grade, Library, Point, Rubric, Verdict


def pt(pid: str, *match: str, vague: tuple[str, ...] = ()) -> Point:
    return Point(pid, f"says {pid}", tuple(match), vague)


def card(*points: Point, wrong: tuple[Point, ...] = (), **rubric: object) -> Card:
    return Card(
        id="c",
        n=1,
        section="A",
        question="Q?",
        answer="The short answer.",
        rubric=Rubric(points=tuple(points), wrong=wrong, **rubric),  # type: ignore[arg-type]
        deck="t",
    )


def verdict(c: Card, answer: str) -> str:
    return grade(c, answer).verdict.label


def matches(phrase: str, answer: str) -> bool:
    return verdict(card(pt("p", phrase)), answer) == "correct"


# ---------------------------------------------------------------- normalisation


def test_case_punctuation_and_unicode_fold_away() -> None:
    assert normalise("Learning-Rate  TOO small!!") == normalise("lr too low")
    assert normalise("doesn’t") == normalise("doesn't") == [["not"]]
    assert normalise("2–8k steps") == normalise("2-8k steps") == [["{2000-8000}", "step"]]
    assert normalise("10× the EMA") == normalise("10x the moving average")
    assert normalise("one-tenth of peak") == normalise("a tenth of peak") == [["{10%}", "peak"]]
    # any ordinal share, and a range of them, hedged after "between" or not
    assert normalise("between about a twentieth and a seventh old") == [["{5-14.2857%}", "old"]]
    assert normalise("a fourth of peak") == normalise("a quarter of peak")
    assert normalise("three-eighths") == [["{37.5%}"]]
    assert normalise("a second later") == [["second", "later"]]
    assert normalise("the seventh layer") == [["seventh", "layer"]]
    assert normalise("between roughly 2k and 8k steps") == [["{2000-8000}", "step"]]
    # more than a whole is a multiple, not a share
    assert normalise("three-halves to two times") == normalise("1.5 to 2 times") == [["{1.5-2x}"]]
    # to weigh is not a weight; theta is the parameters
    assert normalise("weighted by Fisher") == [["weigh", "by", "fisher"]]
    assert normalise("old theta") == normalise("old weights") == [["old", "param"]]


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("learning rate", "lr"),
        ("step size", "lr"),
        ("batch size", "bs"),
        ("bfloat16", "bf16"),
        ("brain float", "bf16"),
        ("half precision", "fp16"),
        ("float32", "fp32"),
        ("full precision", "fp32"),
        ("gradient norm", "grad norm"),
        ("checkpoint", "ckpt"),
        ("validation set", "val"),
        ("dev set", "val"),
        ("weight decay", "wd"),
        ("AdamW", "adam"),
        ("optimizer state", "optimiser state"),
        ("warm-up", "warmup"),
        ("warm up", "warmup"),
        ("scaling the loss", "loss scaling"),
        ("drifts downward", "drifts lower"),
        ("tapering off", "decreasing off"),
        ("at a crawl", "at a slow"),
        ("unscale the grads", "divide the grads"),
        ("a bouncy loss", "a bouncing loss"),
        ("turn gradient clipping off", "disable gradient clipping"),
        ("switch off the scaler", "disable the scaler"),
        ("leave the LR alone", "leave the LR unchanged"),
        ("left it alone", "left it unchanged"),
        ("fp16 instab", "fp16 instability"),
        ("add some wait decay", "add some weight decay"),
        ("take the lr at the minimum", "pick the lr at the minimum"),
        ("chose the value", "select the value"),
        ("requires_grad switched off", "frozen"),
        # plain words, as a candidate explaining to a non-specialist says them
        ("the held-back score", "the validation score"),
        ("the error score falls", "the loss falls"),
        ("double the group size", "double the batch size"),
        ("double the examples per update", "double the batch size"),
        ("a group of examples", "a batch"),
        ("the cap on update size", "grad clipping"),
        ("a layer locked by accident", "a layer frozen by accident"),
        ("it is memorising the data", "it is overfitting the data"),
        ("the adjustment size is too small", "the lr is too small"),
        ("the corrections vanish", "the gradients vanish"),
        ("double the group, halve the step size", "double the batch, halve the lr"),
        ("update rules built for huge groups", "optimizers built for huge batches"),
        ("group norm", "groupnorm"),
        ("the corrections faded away", "the gradients vanished"),
        ("a gentle ramp-up at the start", "warmup at the start"),
        ("save copies often", "checkpoint often"),
        ("how big each step is", "the lr"),
        ("feed twice as many sequences per step", "feed twice as many batch size"),
        ("pack more samples into every step", "pack more batch size"),
        ("the loss isn't hooked up to the weights", "the loss isn't connected to the weights"),
    ],
)
def test_lexicon_folds_abbreviations_and_synonyms(typed: str, canonical: str) -> None:
    assert normalise(typed) == normalise(canonical)


def test_light_stemming_and_british_spelling() -> None:
    assert normalise("spikes clipping") == normalise("spike clip")
    assert normalise("regularisation behaviour") == normalise("regularization behavior")
    assert normalise("scaled") == normalise("scale") == normalise("scaling")
    assert normalise("the optimiser's initialisation, normalisation; minimise it") == normalise(
        "the optimizer's initialization, normalization; minimize it"
    )
    assert normalise("compute under-utilised, it has learnt") == normalise(
        "compute underutilized, it has learned"
    )
    assert normalise("val loss climbs, then creeps up") == normalise("val loss rises, then goes up")
    # what stops paying off has saturated
    assert normalise("bigger batches stop paying off") == normalise("bigger batches saturate")
    # a curve that levels off plateaus ("flattens out" is left alone: it also means squashed)
    assert normalise("val loss levels off") == normalise("val loss plateaus")
    # to maintain or preserve a thing is to keep it
    assert normalise("maintains the per-update step") == normalise("keeps the per-update step")
    assert normalise("preserving progress per token") == normalise("keeping progress per token")
    # a variant with a filler word is read whole: a loss that jumps around bounces, it does not
    # spike, and a jump on its own still does
    assert normalise("the loss jumps around") == normalise("the loss bounces")
    assert normalise("the loss jumps") == normalise("the loss spikes")
    assert normalise("the bottom of the curve") == normalise("the minimum")
    # a pathological, poisoned, corrupt or junk batch is a bad one
    assert normalise("a pathological batch") == normalise("a poisoned batch") == [["bad", "batch"]]
    assert normalise("junk data") == normalise("corrupted data") == normalise("bad data")
    # a loss that swings bounces
    assert normalise("the loss swings") == normalise("the loss bounces")
    # to bend, alter or skew a direction is to change it
    assert normalise("would bend its direction") == normalise("would change its direction")
    assert normalise("alters the update") == normalise("changes the update")
    # a diff is a difference
    assert normalise("tiny late diffs") == normalise("tiny late differences")
    # what is additional is extra
    assert normalise("no additional machinery") == normalise("no extra machinery")
    # a plural in -sses keeps its short stem: "recent losses" are the loss
    assert normalise("recent losses, two passes") == normalise("recent loss, two pass")
    # `whilst` ends a clause and turns the side, like `while`
    assert normalise("train falls whilst val rises") == normalise("train falls while val rises")


def test_a_number_that_describes_another_thing_is_no_misconception() -> None:
    example = "On a 400k-step run, warm up linearly over about 4,000 steps, 1% of training."
    assert _built_in("warmup-length", example).verdict is Verdict.CORRECT
    # a dash folded to " - " before the number moves every offset after it
    example = "Rule of thumb — on a 400k-step run, warm up linearly over ~4,000 steps (1%)."
    assert _built_in("warmup-length", example).verdict is Verdict.CORRECT
    # the same number said of the warmup itself is the misconception
    got = _built_in("warmup-length", "Warm up linearly over 400k steps.")
    assert got.verdict is Verdict.WRONG


def test_a_worked_case_under_an_if_is_no_misconception() -> None:
    # the card's value, then a case worked through it: the 5 is a norm, not the clip value
    worked = (
        "Clip the global norm at 1.0: if the norm comes out at 5, every gradient is scaled by 0.2."
    )
    assert _built_in("clip-value", worked).verdict is Verdict.CORRECT
    worked = "1.0 on the global norm; when the norm hits 8 the gradients are scaled by 1/8."
    assert _built_in("clip-value", worked).verdict is Verdict.CORRECT
    # a condition narrowed by "only" is a claim about when to clip
    narrowed = "Clip at 1.0 on the global norm, but only if the norm exceeds 5."
    assert _built_in("clip-value", narrowed).verdict is Verdict.WRONG
    # with no value of its own, the case is the answer's only number
    assert _built_in("clip-value", "Global norm, when it reaches 5.").verdict is Verdict.WRONG
    # the misconception reaching past the condition is said in the main clause
    halved = "If you double the batch, then halve the learning rate."
    assert _built_in("linear-scaling-rule", halved).verdict is Verdict.WRONG


def test_a_worked_examples_premise_is_no_claim() -> None:
    # "say", "suppose", "imagine", "assume" opening a sentence set up the case worked through
    for lead in ("Say", "Suppose", "Let's say", "Assume", "Imagine"):
        answer = f"{lead} the run is 200,000 steps: ramp linearly from zero to peak over 4,000."
        assert _built_in("warmup-length", answer).verdict is Verdict.CORRECT, lead
    # the same number said as the warmup's own length is still the misconception
    claimed = "The warmup is 200,000 steps: ramp linearly from zero to peak."
    assert _built_in("warmup-length", claimed).verdict is Verdict.WRONG
    # "I'd say" is a claim, not a premise
    said = "I'd say the warmup runs 200,000 steps, a linear ramp from zero to peak."
    assert _built_in("warmup-length", said).verdict is Verdict.WRONG


def test_cosine_reaching_its_floor_early_is_said_of_the_floor() -> None:
    early = "Yes, it falls to about 10% of peak early in training and sits there after that."
    assert _built_in("cosine-decay", early).verdict is Verdict.WRONG
    # "early" said of the top of the curve is the shape, not the floor reached early
    shape = "Yes: down to 10% of peak at the very end, staying near the top early on."
    assert _built_in("cosine-decay", shape).verdict is Verdict.CORRECT


def test_a_key_point_put_aside_for_something_else_is_wrong() -> None:
    # three of the four remedies, and the fourth named only to be replaced
    for lead in ("instead of", "in place of", "rather than"):
        answer = (
            f"Warmup, BF16 and regular checkpoints, and {lead} gradient clipping, loss scaling."
        )
        got = _built_in("spike-prevention", answer)
        assert got.verdict is Verdict.WRONG
        assert [f.id for f in got.flags] == ["clipping"]
    # "rather than just X" keeps X and asks for more
    kept = "Warmup, BF16, checkpoints, and clipping rather than just hoping it settles."
    assert _built_in("spike-prevention", kept).verdict is Verdict.CORRECT
    kept = "Skip the batch and roll back to a checkpoint, rather than just lowering the LR."
    assert _built_in("spike-recovery", kept).verdict is not Verdict.WRONG


def test_an_only_if_about_a_rate_is_a_condition() -> None:
    # "the learning rate" after "only if" is the condition's subject, not a manner ("at a pace")
    answer = (
        "New task wipes out the old skill, common in fine-tuning, but it only happens if "
        "the learning rate is above 1e-3."
    )
    got = _built_in("catastrophic-forgetting", answer)
    assert got.verdict is Verdict.WRONG
    assert [f.id for f in got.flags] == ["restriction"]


def test_quick_one_is_no_number() -> None:
    # "quick one:" opens the answer; "one" is the question, not a count of steps
    for lead in ("Quick one: ", "Easy one: ", "Good one. "):
        assert _built_in("qf-warmup", lead + "2k-8k").verdict is Verdict.CORRECT, lead
    assert _built_in("qf-warmup", "One thousand steps.").verdict is Verdict.WRONG


def test_updates_too_timid_are_a_description_not_a_judgement() -> None:
    # "too timid" says how small the first updates are; it judges no idea a poor one
    claim = "At full LR the first updates are too timid: Adam's variance estimates are inflated."
    got = _built_in("warmup-why", "Warmup ramps the LR while Adam's estimates settle. " + claim)
    assert "updates-tiny" in [f.id for f in got.flags]


def test_what_makes_the_model_worse_is_judged_not_recommended() -> None:
    # "every extra epoch makes the model worse" judges the extra epochs, as "makes it worse" does
    cures = "Cheapest cures: more data, weight decay or dropout, and stopping at the val minimum."
    for judged in (
        "Leave it and every extra epoch makes the model you'd ship worse.",
        "Training longer only makes the model worse.",
    ):
        answer = f"Train improving while validation stalls is overfitting. {judged} {cures}"
        assert _built_in("val-gap-widening", answer).verdict is Verdict.CORRECT, judged
    endorsed = f"Train improving while validation stalls is overfitting. Train longer. {cures}"
    assert [f.id for f in _built_in("val-gap-widening", endorsed).flags] == ["train-longer"]


def test_a_year_a_cleft_and_a_first_thought_are_read_for_what_they_say() -> None:
    # a year is a date, not a clipping value; a step count after "in" stays a number
    assert _built_in("clip-value", "1.0, global norm. our default since 2018").verdict is (
        Verdict.CORRECT
    )
    assert _built_in("clip-value", "1.0 on the global norm; back in 2019 we used 5").verdict is (
        Verdict.WRONG
    )
    assert "{2000}" in [w for s in normalise("warmup in 2000 steps") for w in s]
    # "what pulled it back was weight decay" names weight decay as the fix, not its removal
    said = "Overfitting. What pulled it back was weight decay and dropout, and early stopping."
    assert not _built_in("val-gap-widening", said).flags
    cut = "Overfitting. What we did was pull back the dropout."
    assert [f.id for f in _built_in("val-gap-widening", cut).flags] == ["less-regularization"]
    # a belief told as a first thought, then taken back, is not claimed
    thought = (
        "I thought the model had converged when the grad norm hit zero, but the loss was stuck"
        " high: vanishing gradients from saturation and dead units."
    )
    assert _built_in("grad-norm-zero", thought).verdict is Verdict.CORRECT
    claimed = "The model had converged when the grad norm hit zero; the loss was stuck high."
    assert "convergence" in [f.id for f in _built_in("grad-norm-zero", claimed).flags]


def test_so_small_the_gradient_is_how_small_not_a_purpose() -> None:
    said = "LR too low, frozen layers, or a batch so small the gradient carries no signal."
    assert "batch-blamed" in [f.id for f in _built_in("flat-early-loss", said).flags]
    purpose = "Yes: multiply the loss so small gradients don't underflow, unscale before the step."
    assert _built_in("fp16-loss-scaling", purpose).verdict is Verdict.CORRECT


def test_one_as_a_pronoun_is_no_number() -> None:
    def words(text: str) -> list[str]:
        return [w for sentence in normalise(text) for w in sentence]

    assert "{1}" not in words("One mixes some of the old data back in with the new.")
    assert "{1}" not in words("Begin a new one from freshly initialised weights.")
    assert "{1}" not in words("Roll back to the last good one.")
    assert "{1}" not in words("Ah, that one I never configured; the framework did it.")
    assert "{1}" in words("Just the one, on the global norm.")
    assert "{1}" in words("Clip at one.")
    assert words("one in ten") == ["{10%}"]
    # the replay card's partial answer is no wrong ratio ("one" is the person mixing)
    said = "One mixes some of the old data back in with the new."
    assert _built_in("replay-buffer", said).verdict is Verdict.PARTIAL


def test_a_word_ending_in_x_loses_its_es() -> None:
    assert normalise("he fixes it and mixes old data") == normalise("he fix it and mix old data")


def test_an_act_said_to_throw_away_weeks_is_judged_a_waste() -> None:
    said = "A bad batch or FP16 numerics. Roll back and skip the data; starting over from zero"
    assert not _built_in(
        "mid-training-spikes", said + " throws away weeks you've already paid for."
    ).flags
    assert _built_in("mid-training-spikes", "Throw away the run and start over from zero.").flags


def test_worked_numbers_say_their_share() -> None:
    # a part of a whole, either way round, is also its share of it
    part = (
        "Of a 160M-token mix, set aside between 8M and 24M tokens of the original pretraining data."
    )
    assert _built_in("replay-buffer", part).verdict is Verdict.CORRECT
    whole_first = "Of 700k examples, somewhere between 35k and 105k are old pretraining data."
    assert _built_in("qf-replay-ratio", whole_first).verdict is Verdict.CORRECT
    # ... and a share out of range is wrong said that way too
    assert _built_in("qf-replay-ratio", "Of 700k examples, 350k are old data.").verdict is (
        Verdict.WRONG
    )
    # a learning rate lowered to another: its share of the first
    for lowered in ("Peak 4.5e-4 at the top, about 4.5e-5 by the last step.", "from 1e-3 to 1e-4"):
        assert _built_in("qf-decay-to", lowered).verdict is Verdict.CORRECT, lowered
    assert _built_in("qf-decay-to", "from 1e-3 to 1e-5").verdict is Verdict.WRONG
    # ... across a clause when "down to" says so
    on_last = "peak is 6e-4 here, so the schedule should land at 6e-5 on the last step"
    assert _built_in("qf-decay-to", on_last).verdict is Verdict.CORRECT
    assert _built_in("qf-decay-to", on_last.replace("6e-5", "6e-6")).verdict is Verdict.WRONG
    # the whole first and a single part after it
    single = "Of 400M tokens in all, sample ~40M from the original pretraining mix, shuffled in."
    assert _built_in("replay-buffer", single).verdict is Verdict.CORRECT
    assert _built_in("replay-buffer", single.replace("~40M", "~200M")).verdict is not (
        Verdict.CORRECT
    )
    # ... and a whole taken "every" time
    every = "Of every 100 sequences in a batch, draw about 10 from the old pretraining mix."
    assert "10%" in " ".join(w for s in normalise(every) for w in s)
    assert "50%" in " ".join(w for s in normalise(every.replace("about 10", "about 50")) for w in s)
    across = "If the peak is 6e-4: the schedule glides along a cosine down to roughly 6e-5."
    assert _built_in("qf-decay-to", across).verdict is Verdict.CORRECT
    assert "10%" in " ".join(w for s in normalise(across) for w in s)
    # a loss is no learning rate: nothing is read into "2.3 to 2.1"
    assert normalise("the loss went from 2.3 to 2.1") == normalise("the loss went from 2.3 to 2.1.")
    assert "%" not in " ".join(w for s in normalise("loss from 2.3 to 2.1") for w in s)


def test_a_part_of_a_whole_named_before_says_its_share() -> None:
    # the whole set up first, the part taken "of it" / "of them" after, even a sentence later
    answer = "Suppose the tuning mix is 400M tokens. Take 20M to 60M of it from the old corpus."
    assert "5-15%" in " ".join(w for s in normalise(answer) for w in s)
    assert _built_in("replay-buffer", answer).verdict is Verdict.CORRECT
    steps = "Say the job runs 250,000 steps; ramp linearly from zero to peak over 5,000 of them."
    assert "2%" in " ".join(w for s in normalise(steps) for w in s)
    # a share out of range is still wrong said this way
    half = "Suppose the tuning mix is 400M tokens. Take 200M of it from the old corpus."
    assert _built_in("qf-replay-ratio", half).verdict is Verdict.WRONG


def test_a_sequence_is_out_of_order_only_when_no_choice_of_places_runs_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "falls hard" reads as the descent before "a quick early fall" names the first phase
    told_twice = (
        "A sled off a ledge falls hard at first, then coasts down a long gentle hill, then "
        "stops on flat ground. Loss does the same: a quick early fall, a long steady decline, "
        "then it levels out."
    )
    assert _built_in("loss-curve-phases", told_twice).verdict is Verdict.CORRECT
    for reversed_ in (
        "A long steady descent first, then the steep early drop, and a plateau at the end.",
        "First a plateau, then a steep drop, then a long descent.",
    ):
        got = _built_in("loss-curve-phases", reversed_)
        assert [f.rule for f in got.flags] == ["order"], reversed_
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "order.any")
    assert _built_in("loss-curve-phases", told_twice).verdict is Verdict.WRONG


def test_a_sentence_that_states_the_wrong_order_is_not_undone_by_a_later_mention() -> None:
    stated = "A healthy run goes plateau first, then warmup, then the long steady descent"
    for rest in ("; the flat stretch comes before the model gets going.", ". It plateaus early."):
        got = _built_in("loss-curve-phases", stated + rest)
        assert [f.rule for f in got.flags] == ["order"], rest
    right = "Warmup, then a long steady descent, then a plateau; the flat stretch comes last."
    assert _built_in("loss-curve-phases", right).verdict is Verdict.CORRECT


def test_dont_try_to_x_forbids_one_act_and_lists_what_to_do_instead() -> None:
    plan = "roll back to the last good checkpoint, skip the batch, lower the LR."
    assert _built_in("spike-recovery", "Don't try to ride it out: " + plan).verdict is (
        Verdict.CORRECT
    )
    assert "keep-going" in [
        f.id for f in _built_in("spike-recovery", "Ride it out, then " + plan).flags
    ]


def test_a_bad_batch_in_slang_is_a_bad_batch() -> None:
    for word in ("dodgy", "dud", "nasty", "cursed", "wonky", "janky", "iffy", "sketchy", "borked"):
        assert normalise(f"a {word} batch") == normalise("a bad batch"), word
        got = _built_in("grad-norm-spike", f"most likely a {word} batch")
        assert got.verdict is Verdict.PARTIAL, word


def test_a_time_cut_to_another_says_how_many_times_faster() -> None:
    for cut in (
        "a 16-hour fp32 epoch comes down to 8-10 hours with amp, on volta or newer, matmul-heavy",
        "fp32: 16 h/epoch -> amp: ~8-10 h (volta+, matmul-heavy)",
    ):
        assert "{1.6-2x}" in " ".join(w for s in normalise(cut) for w in s), cut
        assert _built_in("mixed-precision-speedup", cut).verdict is Verdict.CORRECT, cut
    # a time that grows says nothing of a speed-up; nor does one cut twenty-fold or more
    for none in ("the epoch went from 8 hours to 10 hours", "from 100 hours to 2 hours"):
        assert "x" not in "".join(w for s in normalise(none) for w in s if w.startswith("{"))


def test_a_product_worked_out_has_no_multiplier() -> None:
    # "6 × 1.3e9 × 2.5e5 ≈ 1.95e15": factors, not "6x the FLOPs"
    assert normalise("6 × 1.3e9 ≈ 7.8e9 flops") == normalise("6 * 1.3e9 ~ 7.8e9 flops")
    assert normalise("6 × 1.3e9 ≈ 7.8e9 flops")[0][0] == "{6}"
    assert normalise("a 4× speedup")[0][0] == "{4x}"
    worked = (
        "For a 1.3B model at 6 FLOPs per parameter per token: a 250k-token batch is "
        "6 × 1.3e9 × 2.5e5 ≈ 1.95e15 FLOPs per step. Twice the matmul work per step."
    )
    assert _built_in("batch-compute-cost", worked).verdict is Verdict.CORRECT


def test_o_apostrophe_is_of() -> None:
    assert normalise("a couple o' thousand steps") == normalise("a couple of thousand steps")


def test_an_only_after_more_verbs_is_a_condition() -> None:
    # "it only shows up when", "you get it only if": a condition the card never makes
    slow = (
        "Loss creeps down slowly, compute idle, but that only shows up when the batch is under 32."
    )
    assert [f.id for f in _built_in("lr-too-low", slow).flags] == ["restriction"]
    speedup = (
        "1.5-2x on Volta and newer for matmul-heavy work, but you get it only if you keep "
        "everything in FP16, master weights included."
    )
    assert [f.id for f in _built_in("mixed-precision-speedup", speedup).flags] == ["restriction"]
    # the same words with no "only" claim nothing extra
    plain = "1.5-2x on Volta and newer for matmul-heavy work, and you get it with mixed precision."
    assert _built_in("mixed-precision-speedup", plain).verdict is Verdict.CORRECT


def test_a_quick_fire_card_is_checked_against_the_card_it_sees(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    absolute = "Saturation point, fixed at about 8M tokens whatever the task."
    assert _built_in("qf-critical-batch", absolute).verdict is Verdict.WRONG
    overflow = "Gradient clipping at 1.0, which keeps fp16 from overflowing."
    assert "partner" in [f.id for f in _built_in("qf-fp16-needs", overflow).flags]
    assert _built_in("qf-critical-batch", "saturation point").verdict is Verdict.CORRECT
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "see")
    assert _built_in("qf-critical-batch", absolute).verdict is Verdict.CORRECT


def test_a_note_is_no_negation() -> None:
    assert normalise("note notes noted noting") == normalise("note note note note")
    assert normalise("notes") != normalise("not")
    # "The Committee notes that ... is committed to a step count" says it is committed
    committed = (
        "Cosine, held near the peak then lowered to about a tenth of it by the end. "
        "Note that the schedule is committed to a total step count in advance."
    )
    assert _built_in("cosine-decay", committed).verdict is Verdict.CORRECT


def test_words_ending_in_ly_that_are_not_adverbs_keep_one_stem() -> None:
    assert normalise("multiply") == normalise("multiplying") == normalise("multiplies")
    assert normalise("apply anomaly") == normalise("applied anomalies")
    assert normalise("steadily quickly") == normalise("steady quick")


@pytest.mark.parametrize(
    ("typed", "same_as"),
    [
        ("lr ∝ batch", "lr proportional to batch"),
        ("lr↑ loss↓", "lr increases, loss decreases"),
        ("bs x2", "bs 2x"),
        ("bs ×2", "bs 2x"),
        ("lr×2", "lr 2x"),
        ("lr 1/batch", "lr inversely batch"),
        ("1/sqrt(bs)", "inversely sqrt bs"),
    ],
)
def test_symbols_read_as_words(typed: str, same_as: str) -> None:
    assert normalise(typed) == normalise(same_as)


def test_stretched_letters_and_a_dropped_g_on_nothing() -> None:
    assert normalise("sloooow, soooo") == normalise("slow, so")
    assert normalise("nothin extra") == normalise("nothing extra")


def test_small_typos_on_long_words_are_forgiven_but_not_antonyms() -> None:
    assert matches("gradient clipping", "gradeint clipping")
    assert matches("catastrophic forgetting", "catastropic forgetting")
    assert matches("mantissa", "mantisa")
    assert not matches("overflow", "underflow")
    assert not matches("increase", "decrease")


def test_filler_and_idk_answers_are_wrong() -> None:
    c = card(pt("p", "lr too low"))
    for answer in ("", "   ", "idk", "I don't know", "no idea", "?!", "the a is"):
        g = grade(c, answer)
        assert g.verdict is Verdict.WRONG and g.score == 0.0, answer


# ---------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    "answer",
    [
        "2-8k steps",
        "2k to 8k steps",
        "two to eight thousand steps",
        "between 2000 and 8000",
        "2,000-8,000 steps",
        "~4k steps",
        "2K–8K",
    ],
)
def test_warmup_range_in_any_form(answer: str) -> None:
    assert matches("{2000-8000}", answer)


@pytest.mark.parametrize("answer", ["2-8 steps", "200k steps", "2-8% of training", "2-10k steps"])
def test_warmup_range_rejects_wrong_size_or_kind(answer: str) -> None:
    assert not matches("{2000-8000}", answer)


def test_percent_multiplier_and_plain_numbers_keep_their_kind() -> None:
    for yes in ("10%", "ten percent", "10 per cent", "0.1 of peak", "5–15%"):
        assert matches("{5-15%}", yes), yes
    for no in ("10x", "ten times", "10"):
        assert not matches("{5-15%}", no), no
    for yes in ("10x", "10×", "ten times", "an order of magnitude", "10-fold"):
        assert matches("{5-15x}", yes), yes
    assert not matches("{5-15x}", "10%")
    assert matches("{1.5-2x}", "1.5–2× faster") and matches("{1.5-2x}", "1.5 to 2x")
    assert matches("{2x} compute", "twice the compute")
    assert matches("double compute", "2x compute")


def test_a_range_of_shares_without_its_percent_sign_is_a_share() -> None:
    assert matches("{5-15%} old", "5-15 old / 85-95 new")
    assert matches("{85-95%} new", "5-15 old, 85-95 new")
    for no in ("10 old", "50-70 old", "5-150 old"):  # one number, or a range out of it, is not
        assert not matches("{5-15%} old", no), no


def test_a_small_plain_number_is_a_value_not_a_share() -> None:
    assert matches("to {5-15%}", "down to 0.1 of the peak")
    for value in ("down to 3e-5", "to 0.00003", "to 1e-4"):  # a learning rate, not 0.003%
        assert not matches("to {0-4%}", value), value
    assert matches("to {0-4%}", "all the way to 0")


def test_decimal_and_word_numbers() -> None:
    for yes in ("1.0", "1", "one"):
        assert matches("clip {1}", f"clip at {yes}"), yes
        assert matches("clip 1.0", f"clip at {yes}"), yes
    assert not matches("clip {1}", "clip at 10")
    assert matches("{1.5}", "one point five")


def test_a_point_still_to_come_is_no_contradiction() -> None:
    c = card(pt("state", "optimizer state form"), pt("stable", "stable"), correct=1)
    assert verdict(c, "the optimizer state hasn't formed yet") == "correct"
    assert verdict(c, "the optimizer state doesn't form at all") == "wrong"
    wrong = card(pt("stable", "stable"), wrong=(pt("conv", "converged"),))
    assert verdict(wrong, "stable, but it hasn't converged yet") == "correct"
    assert verdict(wrong, "stable, it has converged") == "wrong"


def test_a_bare_nothing_may_open_a_sentence_that_goes_on_to_say_why() -> None:
    c = card(pt("nothing", "(nothing|none)"))
    for yes in ("nothing: it just works", "none, no scaler", "nada - no tricks", "nothing"):
        assert verdict(c, yes) == "correct", yes
    for no in ("nothing for range, but per-tensor scaling", "no, it needs scaling", "not much"):
        assert verdict(c, no) == "wrong", no


def test_a_negation_its_sentence_goes_on_to_except_states_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    c = card(pt("none", "no extra"))
    assert verdict(c, "no extra tricks needed") == "correct"
    for no in (
        "no extra tricks, except a loss scaler for big models",
        "no extra tricks, apart from a loss scaler",
    ):
        assert verdict(c, no) == "wrong", no
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "phrase.excepted")
    assert verdict(c, "no extra tricks, except a loss scaler for big models") == "correct"


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        # per-mille and basis points are shares
        ("10-20‰ of total steps", "1-2% of total steps"),
        ("5 per mille", "0.5%"),
        ("500-1500 bps old, 8500-9500 bps new", "5-15% old, 85-95% new"),
        ("25 basis points", "0.25%"),
        # a checklist claims only its checked items
        ("[x] dropout\n[ ] bigger model\n[x] more data", "- dropout\n- more data"),
        ("- [ ] restart from scratch\n- [x] roll back", "- roll back"),
        # a changelog entry a later one corrects is taken back
        (
            "v1: everything doubles. v2: corrected, activations only",
            "v2: corrected, activations only",
        ),
        ("v1: activations grow. v2: so does memory", "v1: activations grow. v2: so does memory"),
        ("blame bit flips with zero evidence", "blame bit flips without evidence"),
        ("clip at unity", "clip at one"),
        # markdown emphasis is no punctuation
        ("noise pulls it to **sharp, narrow** minima", "noise pulls it to sharp, narrow minima"),
        ("_usually_ a bad batch", "usually a bad batch"),
        # gradient checkpointing saves memory: it is no checkpoint
        ("turn on gradient checkpointing", "turn on activation recomputation"),
        # a ratio with ranges gives ranges of shares
        ("old:new about 5-15 to 1", "83.3-93.8% old / 6.25-16.7% new"),
        ("old:new ~ 5-15 : 85-95", "5-15% old / 85-95% new"),
        ("replay works: keep 85 to 95 percent old", "replay works: keep 85-95% old"),
        # what people want to do is said wrongly
        ("people panic and want to restart", "people panic and wrongly want to restart"),
        ("folks often want a bigger batch", "folks wrongly want a bigger batch"),
        ("the loss slides down slowly", "the loss decreases slowly"),
        ("no special tricks", "no extra tricks"),
        # numbered steps in one line are one sequence, each after the one before
        (
            "1) scale the loss; 2) backward; 3) step",
            "scale the loss, afterwards backward, afterwards step",
        ),
        ("the lr at the bottom of that curve", "the lr at the minimum"),
        # a plain-text table: each cell said with its row's first cell and its column's header
        (
            "format | range | scaling\n|---|---|---|\nfp16 | narrow | needed\nbf16 | wide | none",
            "fp16 range narrow. fp16 scaling needed. bf16 range wide. bf16 scaling none.",
        ),
        ("a | b | c\nd | e", "a | b | c\nd | e"),
        # a dialogue claims only the candidate's lines
        ("Lead: so you'd restart from scratch? Me: roll back", "roll back"),
        ("Q: what's the tell? A: val turns up", "val turns up"),
        ("Lead: train drops. Me: and val? Lead: flat. Me: the tell", "and val? the tell"),
        ("@lead: grad norm jumped", "@lead: grad norm jumped"),
        ("Lead: restart? Me: no, roll back", "roll back"),
        ("Me: no restart", "no restart"),
        ("Student: 'it is free.' Teacher: no. Twice the work", "Twice the work"),
        ("Student wrote: 2-8k steps. Red pen: 2-8% of the run", "2-8% of the run"),
        ("Q: what does the loss do?\nit goes down", "it goes down"),
        ('manager: "~10% old". yes, 5-15 old / 85-95 new', "yes, 5-15 old / 85-95 new"),
        # "halve X for every doubling of Y" is inverse, "double X ..." proportional
        ("halve the lr for every doubling of the batch", "lr inversely proportional to batch"),
        ("double the lr with each doubling of the batch", "lr proportional to batch"),
        # a crossed-out item is rejected, not said; a ✅ or ⚠️ inside a line is a bullet
        (
            "❌ starting over from zero\n✅ roll back\n⚠️ likely: a bad batch",
            "roll back. likely: a bad batch",
        ),
        (
            "causes: a bad batch ❌ bigger bs to smooth it ❌ 'just lower the lr'",
            "causes: a bad batch",
        ),
        ("✅ clip at 1.0 ✅ bf16", "- clip at 1.0\n- bf16"),
        # footnotes: a marker is no number, a note is a sentence of its own
        (
            "one point zero[1], a global norm[2]. [1] the default.",
            "one point zero, a global norm. the default.",
        ),
        ("[2] not per tensor; global only", "not per tensor; global only"),
        # "forget X-ing" opening a clause dismisses X; "forget" as a claim stays one
        (
            "forget increasing the batch, it narrows the lr range",
            "counterproductive increasing the batch, it narrows the lr range",
        ),
        ("ok: forget about restarting", "ok: counterproductive restarting"),
        ("the model may forget everything", "the model may forget everything"),
        ("forget everything", "forget everything"),
        ("in the first place", "at all"),
        # dialects: a dropped final g, o' and yer
        (
            "yer learnin' rate be an order o' magnitude too timid",
            "your learning rate be an order of magnitude too timid",
        ),
        ("endin' round a tenth", "ending round a tenth"),
        ("lr too hi", "lr too high"),
        ("silent data corruption in hbm", "a bit flip in hbm"),
        ("wu, then a long decline", "warmup, then a long decline"),
    ],
)
def test_shares_checklists_and_changelogs_read_as_said(typed: str, canonical: str) -> None:
    assert normalise(typed) == normalise(canonical)


def test_steering_away_from_a_claim_avoids_it(monkeypatch: pytest.MonkeyPatch) -> None:
    c = card(pt("flat", "flat minima"), wrong=(pt("sharp", "sharp minima"),))
    for said in (
        "noise steers sgd away from sharp minima, into flat minima",
        "noise steers it clear of sharp minima and into flat minima",
    ):
        assert verdict(c, said) == "correct", said
    assert verdict(c, "noise steers sgd to sharp minima, not flat minima") == "wrong"
    from grill.grader import text

    monkeypatch.setattr(text, "_AWAY_STEMS", frozenset())  # the trigger turned off
    assert verdict(c, "noise steers the model away from sharp minima, to flat minima") == "wrong"


def test_a_theory_that_does_not_survive_is_denied() -> None:
    c = card(pt("batch", "bad batch"), pt("fp16", "fp16 instability"), correct=1)
    assert verdict(c, "the bad batch theory doesn't survive scrutiny; fp16 instability") == "wrong"
    assert verdict(c, "a bad batch, which survives the averaging") == "correct"


def test_numbers_as_dictated_hedged_or_with_a_unit_note() -> None:
    assert normalise("two kay to eight kay steps") == normalise("2k-8k steps")
    assert normalise("loss over ten-ish x the average") == normalise("loss over 10x the average")
    assert normalise("10ish steps") == normalise("10 steps")
    assert normalise("5-15 old / 85-95 new (%)") == normalise("5-15% old / 85-95% new")
    assert normalise("5-15 old / 85-95 new") != normalise("5-15% old / 85-95% new")
    assert normalise("one part in ten old") == normalise("10% old")
    assert normalise("nine parts out of ten new") == normalise("90% new")
    assert normalise("english, finish, publish") == [["english", "finish", "publish"]]


# ---------------------------------------------------------------- phrase language


def test_bag_any_order_within_a_sentence_window() -> None:
    assert matches("lr too low", "too low a learning rate")
    assert not matches("lr too low", "lr is fine. too low")  # two sentences
    assert not matches(
        "lr low", "the lr is something we tuned for a very long time with many runs and low"
    )


def test_alternatives_optional_parts_and_order() -> None:
    assert matches("lr too (low|small)", "lr too small")
    assert matches("lr (way|) too low", "lr too low")
    assert matches("(scale up|multiply) loss", "multiply the loss")
    assert matches("warmup .. descent", "warmup then descent")
    assert not matches("warmup .. descent", "descent then warmup")
    assert matches("(a .. b|c) d", "c d")


@pytest.mark.parametrize(
    ("phrase", "error"),
    [
        ("lr too (low", "never closed"),
        ("lr) low", "without a matching"),
        ("low|small", "outside brackets"),
        ("()", "empty brackets"),
        ("{a-b}", "bad number range"),
        ("{8-2}", "backwards"),
        (".. lr", "both sides"),
        ("the (a|)", "no words"),
        ("", "empty"),
    ],
)
def test_phrase_errors(phrase: str, error: str) -> None:
    message = phrase_error(phrase)
    assert message is not None and error in message


def test_valid_phrases_have_no_error() -> None:
    for phrase in ("lr too (low|small|)", "{2-8k} steps", "a .. (b|c d) .. e", "(the|) ckpt"):
        assert phrase_error(phrase) is None, phrase


# ---------------------------------------------------------------- negation

LOSS_SCALING = card(
    pt("needs", "fp16 .. loss scaling"),
    pt("why", "underflow"),
    correct=1,
)


def test_negated_key_point_is_a_contradiction() -> None:
    g = grade(LOSS_SCALING, "fp16 doesn't need loss scaling")
    assert g.verdict is Verdict.WRONG and g.score == 0.0
    assert [f.id for f in g.flags] == ["needs"]
    assert g.flags[0].text == "fp16 doesn't need loss scaling"
    for answer in ("fp16 never needs loss scaling", "fp16 without loss scaling"):
        assert grade(LOSS_SCALING, answer).flags, answer


@pytest.mark.parametrize(
    "answer",
    [
        "fp16 doesnt need loss scaling",
        "fp16 dont need loss scaling",
        "fp16 dosent need loss scaling",
        "for fp16 loss scaling isnt needed",
        "fp16 wont need loss scaling",
        "fp16 shouldnt need loss scaling",
    ],
)
def test_negations_typed_without_the_apostrophe(answer: str) -> None:
    assert [f.id for f in grade(LOSS_SCALING, answer).flags] == ["needs"]


def test_negation_elsewhere_or_in_a_purpose_clause_is_no_contradiction() -> None:
    assert verdict(LOSS_SCALING, "fp16 needs loss scaling so tiny grads don't underflow") == (
        "correct"
    )
    assert verdict(LOSS_SCALING, "fp16 needs loss scaling, not bf16") == "correct"
    assert verdict(LOSS_SCALING, "fp16: loss scaling. the grads don't explode though") == (
        "correct"
    )


def test_phrase_with_a_negator_matches_only_negated_answers() -> None:
    c = card(pt("none", "no loss scaling"))
    for yes in (
        "no loss scaling",
        "loss scaling isn't needed",
        "loss scaling is unnecessary",
        "doesn't need loss scaling",
        "works without loss scaling",
    ):
        assert verdict(c, yes) == "correct", yes
    assert verdict(c, "it needs loss scaling") == "wrong"
    assert verdict(c, "loss scaling is needed but bf16 is not") == "wrong"


SPIKE = card(
    pt("rollback", "rollback .. ckpt"),
    pt("clip", "clip"),
    wrong=(
        pt("scratch", "restart .. scratch"),
        pt("only-lr", "only lower lr"),
        pt("bigger-batch", "increase (batch|bs)"),
    ),
)


def test_negated_misconceptions_do_not_count() -> None:
    for answer in (
        "roll back to the last checkpoint, don't restart from scratch, and clip",
        "roll back to a checkpoint rather than restarting from scratch; clip",
        "never restart from scratch: roll back to the ckpt and enable clipping",
        "roll back to the ckpt; avoid restarting from scratch; clip",
        "not only lower the lr: roll back to the checkpoint and clip",
    ):
        g = grade(SPIKE, answer)
        assert g.verdict is Verdict.CORRECT, (answer, g.flags)


def test_dismissals_and_refusals_stop_a_misconception() -> None:
    blame = card(pt("rollback", "rollback .. ckpt"), wrong=(pt("flip", "bitflip"),))
    smooth = card(pt("clip", "clip"), wrong=(pt("batch", "smooth .. increase batch"),))
    keep = card(pt("ckpt", "ckpt"), wrong=(pt("extend", "keep train .. longer"),))
    assert verdict(blame, "before anyone pins it on a bit flip, roll back to the ckpt") == "correct"
    assert verdict(blame, "i'd pin it on a bit flip and roll back to the ckpt") == "wrong"
    assert (
        verdict(smooth, "clip; smoothing it out would be backwards, since a bigger batch costs")
        == "correct"
    )
    assert verdict(smooth, "clip, then smooth it out with a bigger batch") == "wrong"
    assert verdict(smooth, "clip; smoothing with a bigger batch would make it worse") == "correct"
    assert verdict(smooth, "clip; don't smooth it with a bigger batch - that's a myth") == (
        "correct"
    )
    assert verdict(smooth, "clip before the backwards pass; smooth it with a bigger batch") == (
        "wrong"
    )
    assert verdict(keep, "it fixes the ckpt count, you can't just keep training longer") == (
        "correct"
    )
    assert verdict(keep, "not just the ckpt: you can keep training longer") == "wrong"


def test_a_list_of_checks_goes_on_after_that() -> None:
    c = card(pt("lr", "lr (low|tiny)"), pt("frozen", "frozen"), correct=2)
    assert verdict(c, "check the lr isn't tiny, that nothing is frozen") == "correct"
    assert verdict(c, "check the lr isn't tiny, nothing is frozen") == "wrong"


def test_rather_than_where_and_no_matter_how() -> None:
    c = card(pt("val", "val (min|minimum)"), wrong=(pt("train-min", "train loss lowest"),))
    assert verdict(c, "stop at the val minimum rather than where train loss is lowest") == (
        "correct"
    )
    assert verdict(c, "stop at the val minimum, where train loss is lowest") == "wrong"
    assert matches("(holds|works) .. regardless", "it works no matter how large the batch")


def test_right_where_names_a_place_not_a_clause() -> None:
    c = card(pt("sweep", "sweep"), wrong=(pt("edge", "right diverge"),))
    assert verdict(c, "sweep, and take the lr right where it diverges") == "wrong"
    assert verdict(c, "sweep; the right lr is 10x below where it diverges") == "correct"


def test_a_tight_phrase_wants_its_words_side_by_side() -> None:
    c = card(pt("one", "{1}"), wrong=(pt("by-value", "= value clip"),))
    assert verdict(c, "value clipping at 1.0") == "wrong"
    assert verdict(c, "a value of 1.0 for clipping") == "correct"
    assert matches("= step size", "the step size") and not matches("= step size", "step and size")
    assert matches("= lr (too|) low", "lr too low") and not matches("= lr (too|) low", "lr x y low")


PRECISION = card(
    pt("range", "bf16 .. (wide|wider|increase) (range|exponent)"),
    pt("precision", "fp16 .. (increase|more) (mantissa|precision)"),
    correct=2,
)


@pytest.mark.parametrize(
    "answer",
    [
        "fp16 has the wider range. bf16 more mantissa",  # swapped formats
        "bf16 has a wider range and fewer mantissa bits; fp16 less precision",  # reversed direction
        "bf16 wider range, fp16 more exponent",  # mantissa <-> exponent
    ],
)
def test_a_key_point_matching_only_with_a_swap_pair_exchanged_is_wrong(answer: str) -> None:
    g = grade(PRECISION, answer)
    assert g.verdict is Verdict.WRONG
    assert "swapped" in [f.id for f in g.flags]


def test_swap_pairs_do_not_flag_answers_that_mention_both_sides() -> None:
    for answer in (
        "bf16 has a wider range than fp16; fp16 has more mantissa bits than bf16",
        "fp16: more precision. bf16: wider range, fewer mantissa bits than fp16",
    ):
        g = grade(PRECISION, answer)
        assert g.verdict is Verdict.CORRECT, (answer, g.flags)
    for answer in ("bf16 has the wider range", "bf16 wider range; fp16 doesn't have fewer bits"):
        partial = grade(PRECISION, answer)
        assert partial.verdict is Verdict.PARTIAL and not partial.flags, answer
    lists = card(pt("lr", "lr too low"), pt("frozen", "frozen"), correct=1)
    assert verdict(lists, "frozen layers; lr too high") == "wrong"
    assert verdict(lists, "frozen layers; lr not too high") == "correct"
    per_layer = card(pt("kind", "global norm"))
    assert [f.id for f in grade(per_layer, "clip per-layer norm").flags] == ["swapped"]


def test_the_opposite_failure_or_fit_is_a_swapped_fact() -> None:
    vanishing = card(pt("v", "vanishing gradients"), pt("dead", "dead neurons"), correct=1)
    assert verdict(vanishing, "vanishing gradients or dead neurons") == "correct"
    assert verdict(vanishing, "exploding gradients, dead neurons") == "wrong"
    over = card(pt("o", "overfitting .. train data"), pt("reg", "regularise"), correct=2)
    assert verdict(over, "overfitting the train data: regularise") == "correct"
    assert verdict(over, "it's underfitting the train data, so regularise") == "wrong"


def test_misconceptions_make_an_answer_wrong_even_with_every_point() -> None:
    g = grade(SPIKE, "roll back to the checkpoint and clip, or restart from scratch")
    assert g.verdict is Verdict.WRONG
    assert [f.id for f in g.flags] == ["scratch"]
    assert g.flags[0].text == "restart from scratch"
    assert len(g.matched) == 2


def test_misconceptions_follow_their_written_order_in_one_clause() -> None:
    c = card(pt("p", "forget old"), wrong=(pt("reversed", "forget (the|) new task"),))
    assert verdict(c, "the model forgets the new task") == "wrong"
    assert verdict(c, "training on the new task erases and forgets old skills") == "correct"
    ratio = card(pt("p", "{5-15%} old"), wrong=(pt("swapped", "old {85-95%}"),))
    assert verdict(ratio, "5-15% old / 85-95% new") == "correct"
    assert verdict(ratio, "5-15% new, old 85-95%") == "wrong"


def test_a_bare_negation_phrase_matches_only_a_bare_negative_answer() -> None:
    c = card(pt("nothing", "(nothing|none|no)"))
    for yes in ("nothing", "Nothing extra.", "none", "nada", "zilch."):
        assert verdict(c, yes) == "correct", yes
    for no in ("it does not need a scaler", "nothing else than loss scaling"):
        assert verdict(c, no) == "wrong", no


def test_check_that_something_is_not_broken_names_it() -> None:
    c = card(pt("sched", "schedule broken"))
    assert verdict(c, "check the schedule isn't broken") == "correct"
    assert verdict(c, "the schedule isn't broken") == "wrong"


# ---------------------------------------------------------------- verdicts


def test_list_rule_thresholds() -> None:
    assert [correct_needed(n) for n in range(1, 9)] == [1, 2, 2, 2, 3, 3, 4, 4]
    four = card(pt("a", "alpha"), pt("b", "bravo"), pt("c", "charlie"), pt("d", "delta"))
    assert verdict(four, "alpha") == "partial"
    assert verdict(four, "alpha and bravo") == "correct"
    assert grade(four, "alpha and bravo").score == 0.5
    assert verdict(four, "echo") == "wrong"


def test_explicit_thresholds_and_requires() -> None:
    c = card(pt("a", "alpha"), pt("b", "bravo"), pt("c", "charlie"), correct=2, requires=("c",))
    assert verdict(c, "alpha bravo") == "partial"
    assert verdict(c, "alpha charlie") == "correct"
    strict = card(pt("a", "alpha"), pt("b", "bravo"), partial=2)
    assert verdict(strict, "alpha") == "wrong"


def test_vague_match_is_partial_at_most() -> None:
    c = card(pt("forget", "new .. erase .. old", vague=("forget stuff",)))
    g = grade(c, "the model forgets stuff")
    assert g.verdict is Verdict.PARTIAL and g.score == 0.5 and g.missed == c.rubric.points
    assert verdict(c, "the new task erases old skills") == "correct"


def test_order_of_points() -> None:
    c = card(
        pt("warmup", "warmup"),
        pt("descent", "descent"),
        pt("plateau", "plateau"),
        correct=3,
        order=("warmup", "descent", "plateau"),
    )
    assert verdict(c, "warmup → steady descent → plateau") == "correct"
    g = grade(c, "plateau, then warmup, then descent")
    assert g.verdict is Verdict.WRONG and [f.id for f in g.flags] == ["order"]
    assert verdict(c, "warmup then plateau") == "partial"


def test_grade_carries_the_card_and_short_answer_and_is_deterministic() -> None:
    c = card(pt("a", "alpha"))
    first, second = grade(c, "Alpha [bold]"), grade(c, "Alpha [bold]")
    assert first == second
    assert first.to_dict() == {
        "card": "c",
        "verdict": "correct",
        "score": 1.0,
        "matched": ["a"],
        "missed": [],
        "flags": [],
        "short_answer": "The short answer.",
    }


# ---------------------------------------------------------------- cases

CASE = Case(
    id="spike",
    title="t",
    question="q",
    tests="t",
    covers="c",
    wrong_answers="w",
    parts=(
        CasePart("culprits", "causes", (pt("fp16", "fp16 overflow"), pt("batch", "bad batch"))),
        CasePart("triage", "triage", (pt("grad", "grad norm"), pt("rollback", "rollback")), need=2),
        CasePart("prevention", "prevent", (pt("preln", "prenorm"),)),
    ),
    red_flags=(pt("restart_from_scratch", "restart .. scratch"), pt("bitflips", "bitflip")),
    follow_ups_text="f",
    follow_ups=(),
    example="e",
    source="s",
    deck="t",
)


def test_case_parts_need_their_items() -> None:
    g = grade_case(CASE, "fp16 overflow. check the grad norm and roll back. use pre-LN.")
    assert g.verdict is Verdict.CORRECT and g.score == 1.0
    assert {p.part: p.covered for p in g.parts} == {
        "culprits": True,
        "triage": True,
        "prevention": True,
    }
    one = grade_case(CASE, "a bad batch; check the grad norm")
    assert one.verdict is Verdict.PARTIAL
    assert [p.covered for p in one.parts] == [True, False, False]
    assert [i.id for i in one.parts[1].items] == ["grad"]
    assert grade_case(CASE, "no clue, honestly").verdict is Verdict.WRONG
    assert grade_case(CASE, "it is the weather").verdict is Verdict.WRONG


@pytest.mark.parametrize(
    "dismissal",
    [
        "cosmic ray bit flips are very unlikely",
        "bit flips are rare",
        "the bit flip myth",
        "blaming bit flips is a last resort",
        "rule out bit flips later",
        "before blaming bit flips",
        "I would not put this down to bit flips",
        "it's tempting to blame bit flips, but without evidence that's a non-answer",
        "blaming bit flips would be lazy",
        "bit flips are a cop-out explanation",
        "restarting from scratch is not something I'd entertain",
        "restarting from scratch is not an option",
        "someone wanted to blame bit flips; there was no evidence for it, so no",
        "someone wanted to blame bit flips, but there was no evidence for it",
        "I wouldn't restart from scratch or blame cosmic ray bit flips without evidence",
        "Bit flips? Not without evidence.",
        "a counterexample to bit flips: it recurs at the same step",
        "'must be bit flips' is what ppl say when they haven't checked the logs",
        "restarting from scratch, which some guides suggest, is not something I'd do",
        "blaming bit flips, which people love, and which sounds clever, is not an option",
        "restarting from scratch would be silly",
        "blaming bit flips is pointless",
        "Myth: every spike means a restart from scratch.",
        "Was it a bit-flip? Almost never.",
        "Not on the list:\n- starting over from step 0\n- blaming hardware bit-flips",
        "Slide 3: Not on the list\n- restarting from scratch\n- cosmic ray bit flips",
        "Not on the list:\n* restarting from scratch\n* cosmic ray bit flips",
        "Things I would not do:\n1. restart from scratch\n2. blame bit flips",
        "causes: a bad batch | not a fix: blaming bit flips",
        "Bit flips, certainly, and cosmic rays too; no, that is not where I would look.",
        "restarting from scratch is not advised",
        "restarting from scratch is not recommended",
        "restarting from scratch would be unwise",
        "restarting from scratch is inadvisable",
        "restarting from scratch is not the answer",
        "restarting from scratch is a bad idea",
        "blaming bit flips is a poor call",
        "I'd advise against restarting from scratch",
        "we'd argue against blaming bit flips",
        "restarting from scratch is a band-aid",
        "restarting from scratch isn't a real fix",
        "restarting from scratch and hoping for the best is not a fix",
        "and don't tell me to restart from scratch",
        "restart from scratch? why would you, with weeks of compute on the line",
        "only if the ECC counters showed errors would I even consider bit flips",
        "restarting from scratch is a fool's errand",
        "cosmic ray bit flips are not presumed here",
        "as for cosmic ray bit flips: rarely the culprit, my dear",
        "restarting from scratch? overkill",
        "restart from scratch? lol no",
        "bit flips? only once everything else is ruled out",
        "bit flips? sin evidencia, no.",
        "blaming bit flips is hardly serious",
        "bit flips are hardly ever the cause",
        "a restart from scratch is not on the cards",
        "blaming bit flips is a red herring",
        "I'd resist restarting from scratch",
        "I'd hold off on blaming cosmic ray bit flips",
        "restarting from scratch would be reckless",
        "restarting from scratch is ill-advised",
        "my lead wanted to restart from scratch; I talked her out of it",
        "somebody else will say restart from scratch",
    ],
)
def test_a_dismissed_red_flag_does_not_count(dismissal: str) -> None:
    answer = f"fp16 overflow, check grad norm, roll back, pre-LN. {dismissal}"
    assert grade_case(CASE, answer).verdict is Verdict.CORRECT, answer
    blamed = "fp16 overflow, check grad norm, roll back, pre-LN. probably cosmic ray bit flips"
    assert grade_case(CASE, blamed).red_flags


@pytest.mark.parametrize(
    "committed",
    [
        "there's no option but to restart from scratch",
        "it's probably bit flips, there's no other explanation",
        "bit flips. no other option fits",
        "restart from scratch: there's no evidence a rollback helps",
        "bit flips, without a doubt",
        "bit flips, which nobody checks for, are the cause",
        "restart from scratch, which is the safe choice",
        "restart from scratch, which is what I recommend",
        "I'd recommend restarting from scratch",
        "restarting from scratch is a good idea",
        "my lead suggested restarting from scratch, and she was right",
        "someone else suggested restarting from scratch, and she was right",
    ],
)
def test_a_red_flag_beside_those_words_still_counts(committed: str) -> None:
    answer = f"fp16 overflow, check grad norm, roll back, pre-LN. {committed}"
    assert grade_case(CASE, answer).red_flags, answer


def test_a_red_flag_raised_when_its_alone_items_are_the_whole_answer() -> None:
    only = Point("only_lower_lr", "only lowers the lr", ("only lower lr",), (), ("lower", "high"))
    parts = (
        CasePart("culprits", "causes", (pt("high", "lr too high"), pt("fp16", "fp16 overflow"))),
        CasePart("triage", "triage", (pt("lower", "lower lr"), pt("clip", "clip"))),
    )
    case = replace(CASE, parts=parts, red_flags=(only,))
    for answer in ("halve the lr and resume", "lr too high, so lower the lr"):
        assert [f.id for f in grade_case(case, answer).red_flags] == ["only_lower_lr"], answer
    for answer in ("lower the lr and clip", "lr too high", "fp16 overflow; lower the lr"):
        assert not grade_case(case, answer).red_flags, answer


def test_case_red_flags() -> None:
    g = grade_case(CASE, "fp16 overflow, check grad norm, roll back, pre-LN; cosmic ray bit flips")
    assert g.verdict is Verdict.WRONG and g.score == 0.0
    assert [f.id for f in g.red_flags] == ["bitflips"]
    assert g.to_dict()["red_flags"] == ["bitflips"]
    safe = "fp16 overflow, check grad norm, roll back, pre-LN; don't restart from scratch"
    assert grade_case(CASE, safe).verdict is Verdict.CORRECT


# ---------------------------------------------------------------- decks, refs, batches


def deck_with(c: Card, case: Case = CASE) -> Deck:
    return Deck(name="t", title="T", path="t.yaml", cards=(c,), cases=(case,))


def test_check_deck_names_card_and_point() -> None:
    bad = card(pt("a", "alpha (", "ok"), wrong=(pt("w", "{x}"),))
    problems = check_deck(deck_with(bad))
    assert len(problems) == 3
    assert problems[0].startswith("card 'c' point 'a' match 'alpha ('")
    assert "misconception 'w'" in problems[2]
    assert check_deck(deck_with(card(pt("a", "alpha")))) == []


def test_refs_and_batches() -> None:
    lib = Library((deck_with(card(pt("a", "alpha"))),))
    assert grade_ref(lib, "1", "alpha").verdict is Verdict.CORRECT
    assert grade_ref(lib, "spike", "bitflip").verdict is Verdict.WRONG
    with pytest.raises(NotFoundError):
        grade_ref(lib, "nope", "x")
    text = '{"card": "c", "answer": "alpha"}\n\n{"card": "spike", "answer": "pre-LN"}\n'
    results = grade_batch(lib, text)
    assert [r.verdict.label for r in results] == ["correct", "partial"]
    with pytest.raises(UsageError, match="batch:2: no card 'x'"):
        grade_batch(lib, '{"card": "c", "answer": "a"}\n{"card": "x", "answer": "a"}')


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("{not json", "f:1: not valid JSON"),
        ("[1, 2]", "f:1: expected an object"),
        ('{"answer": "x"}', "f:1: 'card'"),
        ('{"card": "c", "answer": 3}', "f:1: 'answer' must be text"),
    ],
)
def test_parse_batch_names_the_bad_line(line: str, error: str) -> None:
    with pytest.raises(UsageError, match=error):
        parse_batch(line, "f")


# ---------------------------------------------------------------- stronger phrase denied

ACTS = card(
    pt("acts", "activations", "activations .. (grow|increase|scale) .. batch"),
    pt("linear", "linear"),
    correct=1,
)


def test_a_denied_stronger_phrase_outweighs_a_weaker_match() -> None:
    g = grade(ACTS, "activations don't grow with batch size")
    assert g.verdict.label == "wrong"
    assert [f.id for f in g.flags] == ["acts"]


def test_a_weaker_match_stands_when_nothing_stronger_is_denied() -> None:
    assert verdict(ACTS, "activations, linear") == "correct"
    assert verdict(ACTS, "activations grow with the batch") == "correct"
    # a denial in a purpose or condition clause is no contradiction
    assert verdict(ACTS, "linear, so activations don't grow with batch") == "correct"


def test_without_it_is_a_condition_not_a_negation() -> None:
    c = card(pt("uf", "grads underflow"), pt("scale", "scale the loss"), correct=2)
    assert verdict(c, "scale the loss; without it tiny grads underflow to zero") == "correct"
    assert verdict(c, "scale the loss; grads without underflow") == "wrong"


@pytest.mark.parametrize(
    ("phrase", "typed"),
    [
        ("saturation", "saturaton point"),
        ("lr scaling", "lr scalng"),
        ("regularization", "regularizaton"),
    ],
)
def test_typos_are_compared_before_stemming(phrase: str, typed: str) -> None:
    assert matches(phrase, typed)


def test_a_typo_never_crosses_a_protected_pair_or_a_first_letter() -> None:
    assert not matches("scaling", "caling")
    assert not matches("increase the lr", "decrease the lr")


YES_CARD = replace(
    card(pt("to", "to {10%}"), pt("yes", "(yes|common)"), correct=1), answer="Yes. To 10%."
)


@pytest.mark.parametrize(
    "typed",
    [
        "No, linear is better; decay to 10%",
        "nope. to 10%",
        "Not really - to 10%",
        "Not usually. Most runs decay linearly to 10%",
        "Absolutely not; a constant schedule with a cooldown to 10%",
        "I wouldn't say so: inverse square root, ending near 10%",
        "Not any more - WSD schedules to 10% replaced it",
        "No need on modern GPUs; to 10%",
        "not really tbh, linear to 10% is the norm",
        "nah imo - step decay to 10%",
    ],
)
def test_the_opposite_verdict_word_is_wrong(typed: str) -> None:
    g = grade(YES_CARD, typed)
    assert g.verdict.label == "wrong"
    assert [f.id for f in g.flags] == ["verdict"]


@pytest.mark.parametrize(
    "typed",
    [
        "yes, to 10%",
        "Yeah to 10%",
        "to 10%",
        "to ten percent of the peak",
        "Not only common, the default: to 10%",
        "Nothing else comes close; to 10%",
        "yes tbh, to 10%",
        "No really, decay to 10% is the norm",
    ],
)
def test_the_right_verdict_word_or_none_is_no_flag(typed: str) -> None:
    assert grade(YES_CARD, typed).verdict.label == "correct"


def test_a_card_without_a_verdict_word_sets_no_verdict() -> None:
    c = card(pt("to", "to {10%}"))
    assert verdict(c, "no, to 10%") == "correct"


def test_a_passive_by_between_misconception_words_reverses_it() -> None:
    c = card(
        pt("wipes", "new task (forget|wipe out) old"),
        wrong=(pt("reversed", "old (skill|capability) forget .. new"),),
    )
    assert verdict(c, "old capabilities wipe out the new task") == "wrong"
    assert verdict(c, "old capabilities get wiped out by the new task") == "correct"
    down = card(pt("up", "multiply loss"), wrong=(pt("down", "divide loss .. large"),))
    assert verdict(down, "divide the loss by a large constant") == "wrong"


def test_check_deck_reports_filler_alternatives_and_groups_that_drop_out() -> None:
    c = card(pt("a", "clip (update|it) .. keep", "(plateau) .. (then|and) rises", "lr (the|) high"))
    problems = check_deck(deck_with(c))
    assert len(problems) == 2
    assert "alternative 'it' of '(update|it)'" in problems[0]
    assert "group '(then|and)' is only filler words" in problems[1]
    assert phrase_warnings("clip (update|it|) .. keep") == []  # optional: nothing is lost


def test_check_deck_reports_an_alternative_that_filler_shrinks_to_one_word() -> None:
    c = card(pt("easy", "(just works|drop in|plug play)"))
    problems = check_deck(deck_with(c))
    assert len(problems) == 1
    assert "alternative 'drop in' reads as the one word 'drop'" in problems[0]
    assert verdict(c, "drop the learning rate") == "correct"  # what the warning is about
    assert phrase_warnings("(just works|drop in replacement)") == []
    assert phrase_warnings("lr .. (blow up|explode)") == []  # a word of the lexicon, and more
    assert phrase_warnings("(blow up|explode)") == []  # "blow up" is one word of the lexicon


def test_check_deck_reports_a_unit_written_after_its_ranges_braces() -> None:
    c = card(pt("many", "memory .. {3-1000}x .. bf16"))
    problems = check_deck(deck_with(c))
    assert len(problems) == 1
    assert "a number's unit goes inside the braces ({3-1000x})" in problems[0]
    # what the warning is about: after the braces the unit is no part of the number
    assert verdict(c, "memory drops 4x next to bf16") != "correct"
    fixed = card(pt("many", "memory .. {3-1000x} .. bf16"))
    assert verdict(fixed, "memory drops 4x next to bf16") == "correct"
    assert phrase_warnings("{2-8k} steps") == phrase_warnings("{5-15%} old") == []


def test_the_built_in_decks_have_no_phrase_problems() -> None:
    from grill.deck import load_library

    library = load_library(user_decks=False)
    assert [p for deck in library.decks for p in check_deck(deck)] == []


def test_a_denial_does_not_outweigh_an_equally_strong_stated_phrase() -> None:
    state = card(
        pt("state", "estimates", "adam .. settle", "estimates not (settled|reliable)"),
        pt("nan", "nan"),
        correct=2,
    )
    # the "because" of warmup: the estimates have not settled yet, so the point is stated
    answer = "the adam estimates haven't settled yet, so full lr sends the loss to nan"
    assert verdict(state, answer) == "correct"
    weak = card(pt("state", "estimates", "adam .. settle"), pt("nan", "nan"), correct=2)
    denied = "the adam estimates never settle, so full lr sends the loss to nan"
    assert verdict(weak, denied) == "wrong"  # only a weaker phrase is stated
    assert verdict(weak, answer) == "correct"  # "not ... yet": still to come (suspect.not-yet)


def test_misconception_sides_of_dots_stay_close_in_a_long_sentence() -> None:
    c = card(
        pt("skip", "skip .. update"),
        wrong=(pt("keep", "keep .. (update|step)"),),
    )
    long = (
        "keep a moving average of recent losses and, if a batch comes in at ten times that "
        "average, skip the update"
    )
    assert verdict(c, long) == "correct"
    assert verdict(c, "keep the update and clip it") == "wrong"
    assert verdict(c, "keep the bad batch's update anyway") == "wrong"


def test_a_one_word_key_point_is_not_swapped_by_a_bare_mention_of_its_partner() -> None:
    c = card(pt("uf", "underflow"), pt("scale", "multiply .. loss"), correct=1)
    answer = "multiply the loss by a constant; dynamic scaling backs off when it sees an overflow"
    assert verdict(c, answer) == "correct"
    two = card(pt("uf", "grads underflow"), pt("scale", "multiply .. loss"), correct=1)
    assert [f.id for f in grade(two, "multiply the loss, or tiny grads overflow").flags] == [
        "swapped"
    ]


def test_a_misconception_refused_later_in_its_sentence_does_not_count() -> None:
    c = card(pt("clip", "clip"), wrong=(pt("batch", "(increase|raise|bump) batch size"),))
    for answer in (
        "clip grads; bumping the batch size won't fix it",
        "clip grads. some raise the batch size to smooth it, but that narrows the lr range,"
        " so I wouldn't",
        "clip grads, unlike raising the batch size",
    ):
        assert verdict(c, answer) == "correct", answer
    for answer in (
        "clip grads and raise the batch size",
        "raise the batch size, it won't hurt, and clip grads",
        "clip grads; raise the batch size. I wouldn't wait",
    ):
        assert verdict(c, answer) == "wrong", answer


def test_a_key_point_stated_with_a_number_out_of_range_or_kind_is_wrong() -> None:
    warm = card(pt("steps", "{2000-8000} steps"), pt("ramp", "linear ramp"), correct=2)
    assert verdict(warm, "a linear ramp from zero over about 2-8k steps") == "correct"
    for answer in ("a linear ramp from zero over about 500 steps", "linear ramp, 200k steps"):
        g = grade(warm, answer)
        assert g.verdict is Verdict.WRONG and [f.id for f in g.flags] == ["number"], answer
    assert verdict(warm, "a linear ramp from zero") == "partial"  # no number: missing, not wrong
    skip = card(pt("t", "{5-20x} (average|avg)"), pt("skip", "skip"), correct=2)
    assert verdict(skip, "skip when the loss is 10x the moving average") == "correct"
    assert verdict(skip, "skip when the loss is 10% above the moving average") == "wrong"


def test_a_contrast_of_the_explanation_turned_around_is_wrong() -> None:
    c = replace(
        card(pt("batch", "bad batch"), pt("clip", "clip"), correct=1),
        explanation="If it recurs in the same place, it's the data, not the optimizer. "
        "It is periodic rather than random.",
    )
    assert verdict(c, "a bad batch; if it recurs it's the data, not the optimiser") == "correct"
    assert verdict(c, "a bad batch. the optimizer isn't the issue, it's the data") == "correct"
    for answer in (
        "a bad batch; if it recurs it's the optimiser, not the data",
        "a bad batch, and it's random rather than periodic",
    ):
        g = grade(c, answer)
        assert g.verdict is Verdict.WRONG and [f.id for f in g.flags] == ["reversed"], answer
    # the A side reads three words back: "skip the update entirely rather than clipping it"
    skip = replace(
        card(pt("flag", "10x"), pt("skip", "skip"), correct=1),
        explanation="You skip the update entirely rather than clipping it.",
    )
    assert verdict(skip, "at 10x, skip the update rather than clipping it") == "correct"
    assert verdict(skip, "at 10x, clip that update rather than skipping it") == "wrong"


def test_list_markers_are_not_numbers() -> None:
    assert normalise("1. clip at 1.0\n2. on the global norm") == normalise(
        "clip at 1.0\non the global norm"
    )
    assert normalise("a) lr too low\n• frozen layer") == normalise("lr too low\nfrozen layer")
    c = card(pt("one", "{1}"), pt("global", "global norm"), wrong=(pt("v", "{1.01-100}"),))
    assert verdict(c, "1) clip at 1.0\n2) on the global norm") == "correct"
    assert verdict(c, "(1) clip at 1.0 (2) global norm") == "correct"
    assert verdict(c, "- clip at 2.0\n- global norm") == "wrong"  # a real number still counts


def test_fractions_in_words_are_shares() -> None:
    for typed in ("a tenth of peak", "one tenth of peak", "10% of peak", "0.1 of peak"):
        assert matches("{5-15%} (of|) peak", typed), typed
    assert not matches("{5-15%} (of|) peak", "a fifth of peak")
    assert matches("{15-25%}", "a fifth") and matches("{70-80%}", "three quarters")
    assert matches("{1.5-2x}", "one and a half to two times")
    assert matches("{2500} steps", "two and a half thousand steps")
    assert normalise("half precision") == normalise("fp16")  # no article: not a share
    assert normalise("the third phase") == [["third", "phas"]]  # an ordinal stays a word
    assert matches("{5-15%} old {85-95%} new", "~1/10 old, ~9/10 new")  # digits too
    assert matches("{70-80%}", "3/4 of the way")
    assert normalise("24/7") == normalise("24 7")  # not under one: not a share
    assert normalise("1/batch") == normalise("inversely batch")


def test_an_aside_between_commas_does_not_split_a_clause() -> None:
    c = card(pt("range", "bf16 range"), wrong=(pt("safer", "fp16 (is|) safer"),))
    assert verdict(c, "bf16 has the range. fp16, in practice, is safer") == "wrong"
    assert verdict(c, "bf16 has the range. fp16, honestly, is safer") == "wrong"
    # a list of items is not an aside
    assert verdict(c, "bf16 range; fp16, small grads, safer with bf16") == "correct"


def test_percent_faster_is_a_multiplier_and_a_hundred_is_a_number() -> None:
    assert matches("{1.5-2x}", "fifty to a hundred per cent faster")
    assert matches("{100} steps", "a hundred steps")
    assert not matches("{5-20x}", "10% above the average")  # a small percentage stays one
    speed = card(pt("x", "{1.5-2x}", "{50-100%} faster"), pt("volta", "volta"), correct=2)
    assert verdict(speed, "roughly fifty to a hundred per cent faster on volta") == "correct"


def test_double_check_is_checking_not_doubling() -> None:
    c = card(pt("check", "check .. lr"), wrong=(pt("raise", "(increase|double) (the|) lr"),))
    for typed in ("double-check the lr", "double check the lr", "doublecheck the LR"):
        assert normalise(typed) == normalise("check the lr"), typed
        assert verdict(c, typed) == "correct", typed
    assert verdict(c, "double the lr, then check the lr") == "wrong"
    assert normalise("double the lr") == [["{2x}", "lr"]]
    assert normalise("it triples the lr, then quadruples it") == [["{3x}", "lr", "{4x}"]]


def test_a_negated_amount_is_a_hedge_not_a_bare_negation() -> None:
    c = card(pt("nothing", "(nothing|none)", vague=("not much",)))
    for hedge in ("not much", "Not a lot.", "not that much really", "not many"):
        assert verdict(c, hedge) != "correct", hedge
    assert verdict(c, "not a lot") == verdict(c, "not much") == "partial"
    assert verdict(c, "none extra") == "correct"


def test_a_clause_taken_back_by_a_no_does_not_count() -> None:
    c = card(pt("cos", "cosine"), wrong=(pt("scratch", "restart .. scratch"),))
    for taken_back in (
        "cosine? no - inverse sqrt",
        "cosine - nope, inverse sqrt",
        "cosine. no, linear",
    ):
        assert verdict(c, taken_back) == "wrong", taken_back
    for kept in ("inverse sqrt? no, cosine", "cosine, no restarts", "cosine"):
        assert verdict(c, kept) == "correct", kept
    assert verdict(c, "cosine. restart from scratch? no - roll back") == "correct"
    assert verdict(c, "cosine. restart from scratch") == "wrong"


def test_an_accuracy_moves_opposite_to_a_loss() -> None:
    c = card(
        pt("train", "train .. decrease", "train (accuracy|acc) .. increase"),
        pt("val", "val .. increase", "val (accuracy|acc) .. (decrease|drop)"),
        wrong=(pt("swapped", "train increase .. val decrease"),),
    )
    for typed in (
        "train accuracy keeps rising while val accuracy drops",
        "train acc goes up, val acc goes down",
        "train loss keeps falling while val accuracy drops",
    ):
        assert verdict(c, typed) == "correct", typed
    assert verdict(c, "train loss rising, val loss falling") == "wrong"
    # a phrase without an accuracy word does not match a direction said of an accuracy
    assert verdict(card(pt("val", "val .. increase")), "val accuracy increases") == "wrong"
    assert (
        verdict(card(pt("val", "val .. increase")), "on top of that val loss increases")
        == "correct"
    )


def test_a_turned_contrast_needs_the_contrasts_own_words() -> None:
    c = replace(
        card(pt("data", "more data"), pt("small", "smaller model"), correct=1),
        explanation="More data is the only fix that raises the ceiling rather than lowering the "
        "variance. It is distinguishable from batch noise because it's periodic rather than "
        "random.",
    )
    # only the direction words of the contrast, turned around: no flag
    assert verdict(c, "more data, or a smaller model rather than a bigger one") == "correct"
    # a verbal negation starts no contrast with a word of the clause before it
    assert (
        verdict(c, "more data; it's periodic rather than random, it isn't batch noise") == "correct"
    )
    for turned in (
        "more data; it lowers the variance rather than raising the ceiling",
        "more data; it's random rather than periodic",
    ):
        assert [f.id for f in grade(c, turned).flags] == ["reversed"], turned


def test_without_x_then_a_bad_outcome_says_x_is_needed() -> None:
    c = card(pt("scale", "per tensor .. scal"))
    for needed in (
        "without per-tensor scaling factors it diverges",
        "fp8 diverges without per-tensor scaling",
        "without per-tensor scaling, the loss blows up to nan",
    ):
        assert verdict(c, needed) == "correct", needed
    for denied in (
        "it works fine without per-tensor scaling",
        "without per-tensor scaling it doesn't diverge",
        "it trains without per-tensor scaling and without any instabilities",
    ):
        assert verdict(c, denied) == "wrong", denied


def test_an_exception_ends_a_leading_negation() -> None:
    c = card(
        pt("none", "(nothing|none)", "not extra"), wrong=(pt("ls", "(except|besides) loss scal"),)
    )
    assert verdict(c, "nothing extra") == "correct"
    for typed in ("nothing extra except loss scaling", "nothing extra besides loss scaling"):
        assert [f.id for f in grade(c, typed).flags] == ["ls"], typed


def test_only_then_is_a_time_not_an_only() -> None:
    # "and only then lower the LR" says when, not that nothing else is done; what follows it is
    # still said ("only then unscale" states the unscaling)
    c = card(pt("u", "unscale"), wrong=(pt("o", "only unscale"),))
    assert verdict(c, "scale the loss, backprop, and only then unscale") == "correct"
    assert verdict(c, "scale the loss, backprop, then unscale") == "correct"
    assert verdict(c, "scale the loss, backprop, and only unscale") == "wrong"


def test_a_named_ratio_reads_as_shares() -> None:
    assert normalise("old:new 1:9") == normalise("10% old / 90% new")
    assert normalise("1:9 old to new") == normalise("10% old / 90% new")
    c = card(pt("r", "{5-15%} old"), wrong=(pt("swap", "{85-95%} old .. {5-15%} new"),))
    assert verdict(c, "old:new 1:9") == "correct"
    assert verdict(c, "old:new 9:1") == "wrong"


def test_a_passive_verb_of_losing_takes_no_object_after_it() -> None:
    c = card(pt("old", "old .. forget"), wrong=(pt("new", "forget .. new"),))
    assert verdict(c, "old knowledge is forgotten after fine-tuning on new data") == "correct"
    assert verdict(c, "old skills get wiped out when you train on the new task") == "correct"
    assert verdict(c, "the model forgets the new data, old skills too") == "wrong"


def test_saying_what_the_explanation_says_of_a_misconception_is_no_misconception() -> None:
    c = replace(
        card(
            pt("one", "{1}"),
            pt("global", "global"),
            wrong=(pt("per", "(clip|clipping) per (tensor|param)"),),
        ),
        explanation="Global rather than per-parameter, because clipping per-tensor changes the "
        "direction of the update, whereas global clipping just shortens it.",
    )
    assert verdict(
        c, "1.0 on the global norm; clipping per-tensor changes the update direction"
    ) == ("correct")
    assert verdict(
        c, "1.0 global norm; clipping per tensor changes the direction of the update"
    ) == ("correct")
    for trap in (
        "1.0, clipping per tensor",
        "clip per-tensor at 1.0, it changes the direction less",
    ):
        assert [f.id for f in grade(c, trap).flags] == ["per"], trap


def test_unlike_x_ends_where_the_main_clause_starts() -> None:
    c = card(pt("nan", "nan"), wrong=(pt("single", "single (spike|event)"),))
    assert verdict(c, "nans. Unlike a bad batch it's a single event") == "wrong"
    assert verdict(c, "nans. Unlike a single event it's persistent") == "correct"
    assert verdict(c, "nans, unlike a single bad-batch event") == "correct"


def test_a_negation_inside_a_condition_does_not_deny_its_consequence() -> None:
    c = card(pt("plateau", "plateau"), wrong=(pt("data", "plateau .. data limited"),))
    assert verdict(c, "plateau. if you never hit the plateau you're data-limited") == "wrong"
    assert verdict(c, "plateau. if you never hit the plateau, you're data-limited") == "wrong"
    assert verdict(c, "plateau. if you never hit the plateau you're not data-limited") == "correct"
    assert verdict(c, "plateau. you never hit the plateau when data-limited") == "correct"


def test_a_real_word_is_not_read_as_a_typo_of_another() -> None:
    assert normalise("a failing run") == [["fail", "run"]]
    assert normalise("falling loss") == normalise("decreasing loss")
    # an English word one or two letters from a lexicon variant is that word, not a typo of it
    for word, other in [
        ("recommend", "restart"),  # recommence
        ("retain", "restart"),  # retrain
        ("significant", "mantissa"),  # significand
        ("shipping", "skip"),  # skipping
        ("explore", "explod"),  # explode
    ]:
        assert other not in normalise(f"we {word} it")[0], word
    # a word misspelled still is one, and a five-letter word a letter short of a six-letter one
    assert normalise("the gradeint") == normalise("the gradient")
    assert normalise("wrmup -> descent") == normalise("warmup -> descent")
    # but a five-letter English word is itself, and so is one that is no letter short
    assert normalise("a spiky loss") == [["spiky", "loss"]]
    assert normalise("the warms") != normalise("the warmup")


def test_a_rubric_word_is_not_matched_by_a_real_word_one_letter_away() -> None:
    c = card(pt("retrain", "retrain .. model"))
    assert verdict(c, "retain the model") == "wrong"
    assert verdict(c, "retrian the model") == "correct"


def test_dictated_punctuation_is_punctuation() -> None:
    said = "loss bounces comma grad norm spikes period then nans period"
    assert normalise(said) == normalise("loss bounces, grad norm spikes. then nans.")
    # without a spoken comma, "period" is a word
    assert "period" in normalise("a warmup period of 2k steps")[0]


def test_a_verb_first_decrease_reaches_two_things_joined() -> None:
    c = card(
        pt("reg", "increase regulariz"), wrong=(pt("less", "decrease (weight decay|dropout)"),)
    )
    assert verdict(c, "dial weight decay and dropout down") == "wrong"
    assert verdict(c, "turn the dropout down") == "wrong"


def test_a_verb_first_increase_with_its_particle_last() -> None:
    c = card(pt("small", "decrease model"), wrong=(pt("bigger", "increase (model|model size)"),))
    assert verdict(c, "scale the model up so it has the capacity") == "wrong"
    assert verdict(c, "turn the model size up") == "wrong"
    assert verdict(c, "use a smaller model") == "correct"
    # loss scaling scales the loss up without making anything bigger in the run
    assert normalise("scale the loss up") != normalise("increase the loss")
    # "scale X up by a factor" multiplies it: the scaling check reads that
    assert normalise("scale the weights up by a big constant") != normalise(
        "increase the weights by a big constant"
    )


def test_a_comparative_correlative_is_one_clause() -> None:
    c = card(
        pt("fisher", "fisher"),
        wrong=(pt("reversed", "decrease fisher harder anchor"),),
    )
    assert verdict(
        c, "weighted by Fisher; the lower a weight's Fisher, the harder it's anchored"
    ) == ("wrong")
    assert verdict(c, "weighted by Fisher; the higher the Fisher, the harder it's anchored") == (
        "correct"
    )
    # a word that only ends in -er opens no half: its comma still ends a clause
    named = card(pt("fisher", "fisher"), wrong=(pt("x", "optimizer harder"),))
    assert verdict(named, "fisher. the optimizer, the harder part") == "correct"
    assert verdict(named, "fisher. the optimizer the harder part") == "wrong"


def test_it_after_a_change_is_the_setting_named_last() -> None:
    c = card(pt("halve", "(halve|decrease) lr"))
    assert verdict(c, "The LR is too high. Halve it and re-warm.") == "correct"
    assert verdict(c, "The learning rate overshoots. Cut it in half.") == "correct"
    # something else named after the setting may be what "it" is: left alone
    assert verdict(c, "The LR is fine; the loss spiked, so halve it by rolling back.") != "correct"
    # two settings named: which one is not said
    assert verdict(c, "The LR is out of line with the batch size. Halve it.") != "correct"
    # "won't cut it" is an idiom, no change
    from grill.grader import text

    assert text._it_resolved("The LR alone won't cut it.") == "The LR alone won't cut it."
    assert text._it_resolved("The LR is high. Cut it.") == "The LR is high. Cut the lr."


def test_what_was_done_before_is_not_claimed_now() -> None:
    c = card(
        pt("rollback", "roll back .. ckpt"),
        wrong=(pt("scratch", "start over"), pt("broken", "visib broken")),
    )
    assert verdict(c, "Roll back to the last ckpt. People used to start over.") == "correct"
    # each thing joined by "and" is what was done before
    said = "The naive reaction used to be to kill the run and start over. Now: roll back to a ckpt."
    assert verdict(c, said) == "correct"
    said = "A few years ago you'd start over; today you roll back to the ckpt."
    assert verdict(c, said) == "correct"
    # what is done now is claimed, with a list after a colon too
    assert verdict(c, "Roll back to a ckpt. We used to roll back, but now we start over.") == (
        "wrong"
    )
    said = "People used to roll back to a ckpt, but the standard now is: start over."
    assert verdict(c, said) == "wrong"
    # "is used to" is a use, not a habit
    assert verdict(c, "Roll back to the ckpt; it is used to start over.") == "wrong"


def test_a_double_negation_cancels() -> None:
    c = card(pt("needs", "fp16 need loss scal"), wrong=(pt("none", "fp16 not need loss scal"),))
    assert verdict(c, "It's not true that fp16 doesn't need loss scaling") == "correct"
    assert verdict(c, "It isn't the case that fp16 won't need loss scaling") == "correct"
    assert verdict(c, "fp16 doesn't need loss scaling") == "wrong"


def test_a_range_written_with_hyphens_is_a_range() -> None:
    assert normalise("two-to-eight-thousand steps") == normalise("two to eight thousand steps")
    assert normalise("5-to-15 percent") == normalise("5 to 15 percent")


def test_spoken_fillers_and_scots_words_are_read_through() -> None:
    assert normalise("you don't, uh, blame bit flips") == normalise("you don't blame bit flips")
    assert normalise("so, um, clip") == normalise("so clip")
    assert normalise("nae need tae start ower frae scratch")[0][0] == "not"
    assert normalise("frae scratch") == normalise("from scratch")


def test_a_penalty_for_moving_away_discourages_the_move() -> None:
    c = card(pt("pen", "penalty"), wrong=(pt("away", "pull param away old"),))
    assert verdict(c, "a penalty for pulling weights away from old values") == "correct"
    assert verdict(c, "a penalty: it penalizes pulling weights away from old values") == "correct"
    assert verdict(c, "a penalty; it pulls weights away from old values") == "wrong"


def test_a_bare_no_before_a_colon_answers_and_rejects_no_list() -> None:
    c = card(pt("small", "small batch better"), wrong=(pt("large", "large batch better"),))
    for answer in (
        "No: large batches are better",
        "No, it's the other way round: large batches better",
    ):
        assert [f.id for f in grade(c, answer).flags] == ["large"], answer
    assert (
        verdict(c, "small batches generalize better. Not true: large batches better") == "correct"
    )


def test_half_or_a_tenth_of_the_peak_is_a_share_of_it() -> None:
    assert normalise("decay to half of your peak lr") == normalise("decay to 50% of your peak lr")
    assert normalise("ten times lower than the peak") == normalise("1/10 of the peak")
    # a distance from a point found, not a share of the peak
    assert "1/10" not in str(normalise("10x lower than where the loss diverges"))
    assert normalise("half precision") == normalise("fp16")


def test_a_fix_judged_too_shallow_leaves_other_words_alone() -> None:
    assert normalise("too shallow a fix") == normalise("simplistic a fix")
    assert "narrow" in normalise("per-layer norms help to narrow down the layer")[0]


def test_hardly_denies_a_judgement_not_a_movement() -> None:
    assert normalise("it is hardly serious") == normalise("it is not serious")
    assert "not" not in normalise("the loss is hardly decreasing")[0]


def test_why_would_you_turns_down_only_a_bare_question() -> None:
    c = card(pt("wu", "warmup"))
    assert verdict(c, "Warmup? Why would you skip it") == "correct"
    assert verdict(c, "Warmup? Why would you, with that batch") == "wrong"


def test_out_of_scope_is_irrelevant() -> None:
    assert normalise("clipping is out of scope") == normalise("clipping is irrelevant")


def test_an_opposite_direction_between_two_items_parts_them() -> None:
    c = card(pt("wd", "weight decay"), wrong=(pt("big", "more param"),))
    assert verdict(c, "weight decay; more data or fewer trainable parameters") == "correct"
    assert verdict(c, "weight decay; more trainable parameters") == "wrong"


def test_the_rest_of_a_bullets_line_heads_no_list() -> None:
    c = card(pt("ck", "ckpt"), wrong=(pt("batch", "increase batch"),))
    answer = "- restore the last ckpt; a restart isn't warranted\n- increase the batch size"
    assert verdict(c, answer) == "wrong"
    assert verdict(c, "restore the last ckpt. Not on the list:\n- increase the batch size") == (
        "correct"
    )


def test_words_that_make_a_claim_are_no_dismissal() -> None:
    """ "Insufficient", "overstated" say something of what they stand by: a claim, which may be
    the false one, not a judgement of an idea named to reject it."""
    c = card(pt("range", "bf16 range"), wrong=(pt("narrow", "bf16 narrow"),))
    assert verdict(c, "bf16 range is narrow so insufficient") == "wrong"
    c = card(pt("f", "forget"), wrong=(pt("rare", "forget rare"),))
    assert verdict(c, "forgetting is rare and overstated") == "wrong"


def test_a_lead_naming_the_answer_is_not_part_of_it() -> None:
    c = card(pt("none", "nothing"), wrong=(pt("scale", "loss scal"),))
    for lead in ("", "Answer: ", "My answer: ", "Short answer: "):
        assert verdict(c, f"{lead}nothing, no scaler") == "correct", lead
        assert verdict(c, f"{lead}loss scaling") == "wrong", lead


def test_a_times_sign_between_words_is_a_multiplication() -> None:
    assert normalise("loss×S") == normalise("loss x S")
    assert normalise("batch ×2") == normalise("batch 2x")


def test_what_others_wrongly_say_and_off_the_table_are_dismissals() -> None:
    c = card(pt("over", "overfit"), wrong=(pt("under", "underfit"), pt("s", "restart .. scratch")))
    assert verdict(c, "some people read it as underfitting, but it's overfitting") == "correct"
    assert verdict(c, "overfitting; restarting from scratch is off the table") == "correct"
    assert verdict(c, "it's underfitting, not overfitting at all") == "wrong"
    assert verdict(c, "overfitting, so restart from scratch") == "wrong"


def test_not_that_negates_the_that_clause() -> None:
    c = card(pt("range", "bf16 range"), wrong=(pt("prec", "bf16 .. more precise"),))
    assert verdict(c, "bf16 has the range; it isn't that bf16 is more precise") == "correct"
    assert verdict(c, "bf16 has the range, and bf16 is more precise") == "wrong"


def test_an_un_opposite_between_misconception_sides_moves_the_subject() -> None:
    c = card(pt("f", "fisher"), wrong=(pt("rev", "important .. move freely"),))
    answer = "fisher: important weights stay anchored while unimportant ones move freely"
    assert verdict(c, answer) == "correct"
    assert verdict(c, "fisher: important weights move freely") == "wrong"


def test_a_clause_about_the_rest_between_misconception_sides_moves_the_subject() -> None:
    c = card(pt("f", "fisher"), wrong=(pt("rev", "important .. free .. move"),))
    for answer in (
        "fisher: the important weights stay anchored and the rest are free to move",
        "fisher: important ones stay put, and all the others are free to move",
        "fisher: important weights stay anchored, everything else is free to move",
    ):
        assert verdict(c, answer) == "correct", answer
    # "the rest" inside the clause of the important weights does not move the subject
    assert verdict(c, "fisher: the important weights, unlike the rest, are free to move") == (
        "wrong"
    )
    assert verdict(c, "fisher: important weights are free to move") == "wrong"


def test_a_swapped_fact_is_read_in_the_phrases_order() -> None:
    c = card(pt("over", "overfit"), pt("stop", "train less"), correct=1)
    assert verdict(c, "overfitting: a growing train/val gap") == "correct"
    assert [f.id for f in grade(c, "train more").flags] == ["swapped"]


def test_a_dismissal_ending_the_clause_covers_a_long_subject() -> None:
    c = card(pt("ckpt", "ckpt"), wrong=(pt("wipe", "wipe .. run"),))
    assert verdict(c, "roll back to a ckpt; wiping the run to begin afresh is off the table") == (
        "correct"
    )
    assert verdict(c, "roll back to a ckpt; wiping the run to begin afresh is a myth") == "correct"
    assert verdict(c, "roll back to a ckpt, or wipe the run to begin afresh") == "wrong"


def test_a_relative_clause_with_is_describes_its_noun() -> None:
    c = card(pt("batch", "bad batch"), wrong=(pt("low", "lr (too|) low"),))
    assert verdict(c, "a bad batch, or a learning rate that is too low") == "wrong"
    assert verdict(c, "a bad batch, or an lr which was too low") == "wrong"
    assert verdict(c, "a bad batch; check that the lr isn't too low") == "correct"


def test_a_place_opposite_between_misconception_sides_moves_the_subject() -> None:
    c = card(pt("t", "task"), wrong=(pt("rev", "below .. accurate"),))
    assert verdict(c, "task dependent; below it noise dominates, above it grads are accurate") == (
        "correct"
    )
    assert verdict(c, "task dependent; below it the grads are already accurate") == "wrong"


def test_failing_to_is_a_negation_and_a_negated_failure_cancels() -> None:
    c = card(pt("old", "forget .. old"), wrong=(pt("new", "not learn new"),))
    assert verdict(c, "the model fails to learn the new task") == "wrong"
    assert verdict(c, "the model is unable to learn the new data") == "wrong"
    assert verdict(c, "not the model failing to learn the new data - it forgets old skills") == (
        "correct"
    )


def test_a_verb_opposite_between_misconception_sides_moves_the_claim() -> None:
    c = card(pt("lr", "scale lr"), wrong=(pt("all", "holds .. past critical"),))
    assert verdict(c, "scale lr with batch; holds widely, but breaks past the critical batch") == (
        "correct"
    )
    assert verdict(c, "scale lr with batch; it holds even past the critical batch") == "wrong"


def test_stopping_a_verb_softly_negates_it() -> None:
    c = card(pt("t", "task"), wrong=(pt("d", "doubling batch .. doubles progress"),))
    assert verdict(c, "task dependent; doubling the batch stops doubling progress") == "correct"
    assert verdict(c, "task dependent; doubling the batch still doubles progress") == "wrong"
    s = card(pt("v", "val .. increase"), wrong=(pt("imp", "val .. improve"),))
    assert verdict(s, "val loss stops improving and starts to rise") == "correct"


# ---------------------------------------------------------------- one flag per quote


def test_flags_on_the_same_words_keep_the_misconception_they_say() -> None:
    from grill.deck import load_library

    library = load_library(user_decks=False)
    for answer, quote in [("yes, decays to zero", "to zero"), ("yes to 0", "to 0")]:
        got = grade(library.card("cosine-decay"), answer).flags
        assert [(f.says, f.text) for f in got] == [("decays all the way to zero", quote)]
    [flag] = grade(library.card("warmup-length"), "warmup for 200k steps").flags
    assert (flag.id, flag.text) == ("wrong-count", "200k steps")  # not also a generic number flag


def test_one_flag_per_quote_keeps_flags_on_different_words() -> None:
    flags = [
        Flag("number", "gives a number out of range", "200k steps"),
        Flag("too-long", "a warmup far too long", "200k"),
        Flag("too-long", "a warmup far too long", "200k"),
        Flag("reversed", "ramps down", "ramps down from peak"),
    ]
    assert one_flag_per_quote(flags, {"too-long", "reversed"}) == [flags[1], flags[3]]


def test_flags_overlapping_in_the_answer_are_one_unless_two_misconceptions_only_meet() -> None:
    answer = "Train for more epochs so it settles"
    generic = Flag("swapped", "swaps a fact of a key point: early stopping", "more epochs")
    named = Flag("train-longer", "training longer / more epochs", "Train for more")
    assert one_flag_per_quote([generic, named], {"train-longer"}, answer) == [named]
    answer = "FP16 has the wider range, and BF16 is the one that needs loss scaling"
    wider = Flag(
        "swapped-range", "FP16 said to have the wider range", "FP16 has the wider range, and BF16"
    )
    needs = "BF16 is the one that needs loss scaling"
    scaling = Flag("bf16-needs-scaling", "BF16 said to need loss scaling", needs)
    both = [wider, scaling]
    assert one_flag_per_quote(both, {"swapped-range", "bf16-needs-scaling"}, answer) == both


def test_a_flag_names_the_rule_that_fired() -> None:
    scaling = card(pt("scaling", "fp16 .. loss scaling"))
    [negated] = grade(scaling, "fp16 doesn't need loss scaling").flags
    assert (negated.id, negated.rule) == ("scaling", "negation.hard")
    precision = card(pt("bf16-range", "bf16 .. wide range"))
    [swapped] = grade(precision, "fp16 has the wide range").flags
    assert (swapped.id, swapped.rule) == ("swapped", "swap:fp16|bf16")
    misconception = card(pt("p", "lr"), wrong=(pt("restart", "restart .. scratch"),))
    [named] = grade(misconception, "restart from scratch").flags
    assert named.rule == "rubric"
    assert grade(misconception, "restart from scratch").to_dict()["flags"][0]["rule"] == "rubric"


# ---------------------------------------------------------------- the built-in rubrics


@pytest.mark.parametrize(
    ("ref", "answer", "expected"),
    [
        (
            "mid-training-spikes",
            "bad batch or fp16 overflow, but only if clipping is disabled",
            "wrong",
        ),
        (
            "mid-training-spikes",
            "bad batch, fp16 instability, or clipping that isn't on",
            "correct",
        ),
        ("log-y-axis", "it flattens the early phase so that late changes show", "wrong"),
        (
            "log-y-axis",
            "the only point of it is the early dynamics; small differences too",
            "wrong",
        ),
        ("log-y-axis", "early dynamics readable and small differences visible", "correct"),
        ("warmup-why", "Adam state forms, grads stable; without it you only train slower", "wrong"),
        ("small-batch-generalization", "noise steers SGD towards sharp minima", "wrong"),
        ("batch-compute-cost", "linear: twice the compute per epoch", "wrong"),
        ("batch-compute-cost", "linear, 2x compute per step", "correct"),
        ("batch-memory-cost", "every tensor doubles, linear", "wrong"),
        ("batch-memory-cost", "linear in activations; optimizer state doesn't change", "correct"),
        ("grad-norm-spike", "a bad batch, or warmup set too long; clip", "wrong"),
        ("mixed-precision-speedup", "1.5-2x, only on memory-bandwidth-bound jobs", "wrong"),
        ("spike-prevention", "clip at 1.0, warmup, and fp16 outperforms bf16", "wrong"),
        ("qf-linear-scaling", "leave the lr alone and scale the steps", "wrong"),
        ("loss-oscillation", "lr too high; it's noise, leave it alone", "wrong"),
        (
            "lr-finder",
            "sweep exponentially, plot loss, use a tenth of where it blows up",
            "correct",
        ),
        (
            "lr-finder",
            "sweep exponentially, plot loss, back off 10% from where it diverges",
            "wrong",
        ),
        (
            "fp16-loss-scaling",
            "yes; grads fall out of range, so multiply the loss by a big constant, then unscale",
            "correct",
        ),
        (
            "fp16-loss-scaling",
            "yes: without scaling big grads overflow, so multiply the loss by 1024, then unscale",
            "wrong",
        ),
        ("lr-too-high", "nans, exploding grads, and a growing train/val gap", "wrong"),
        ("lr-too-high", "nans, exploding grads, loss bouncing", "correct"),
        (
            "lr-too-high",
            "nans, exploding grads, loss bouncing; fix: start it again from step 0, new seed",
            "wrong",
        ),
        (
            "lr-too-high",
            "nans, exploding grads, loss bouncing; start again from the initial weights, lower lr",
            "wrong",
        ),
        (
            "lr-too-high",
            "nans, exploding grads, loss bouncing; halve the lr and re-warm from the checkpoint",
            "correct",
        ),
        (
            "cosine-decay",
            "yes: it keeps the lr constant, then decays steeply over the final stretch to 10%",
            "wrong",
        ),
        ("small-batch-generalization", "yes, noise drives it to sharper minima", "wrong"),
        (
            "small-batch-generalization",
            "sometimes; noise as implicit regularizer, and sharp minima generalize better",
            "wrong",
        ),
        ("batch-compute-cost", "linear, it doubles compute per token", "wrong"),
        ("grad-norm-healthy", "it hovers high and only comes down at the end", "wrong"),
        ("grad-norm-healthy", "a steady decrease, smooth", "correct"),
        ("per-layer-grad-norm", "finds which layers are throughput bottlenecks", "wrong"),
        ("linear-scaling-rule", "scale the lr with the batch ratio squared", "wrong"),
        (
            "linear-scaling-rule",
            "lr grows in proportion to batch size; the gradient noise variance falls as 1/B",
            "correct",
        ),
        ("linear-scaling-rule", "the lr goes inversely with the batch", "wrong"),
        (
            "per-layer-grad-norm",
            "a per-layer profile of where gradients blow up or vanish: which layer misbehaves",
            "correct",
        ),
        ("log-y-axis", "the early dynamics show, and small changes get compressed", "wrong"),
        ("lr-too-high", "jittery loss that never calms, then nans", "correct"),
        (
            "loss-curve-phases",
            "fast early drop, steady descent, then each step buys nothing",
            "correct",
        ),
        ("grad-norm-zero", "that is not genuine convergence", "partial"),
        ("small-batch-generalization", "sometimes; noise steers you to **sharp** minima", "wrong"),
        (
            "small-batch-generalization",
            "yes, implicit regularization to flat minima; a big win for llm pretraining too",
            "wrong",
        ),
        (
            "small-batch-generalization",
            "sometimes better, implicit regularization, flat minima; no big win in llm pretraining",
            "correct",
        ),
        ("batch-memory-cost", "linear: adam optimizer state is stored per sample", "wrong"),
        (
            "batch-memory-cost",
            "linear; activations are per sample, adam optimizer state is per parameter",
            "correct",
        ),
        (
            "fp32-master-weights",
            "bf16's exponent range is too cramped, tiny updates get lost",
            "wrong",
        ),
        ("fp32-master-weights", "fp32 is the more accurate format", "partial"),
        ("ewc", "penalty toward old weights, weighted by each weight's saliency score", "wrong"),
        (
            "ewc",
            "penalty toward old weights weighted by fisher information, not saliency",
            "correct",
        ),
        ("overfitting-signal", "train loss flattens out, and val loss keeps dropping", "wrong"),
        ("qf-linear-scaling", "the batch doubles, so the lr gets halved", "wrong"),
        ("spike-prevention", "clip, warm up, checkpoints, fp16 over fp32", "wrong"),
        ("grad-norm-spike", "bad batch or fp16; enable activation checkpointing", "wrong"),
        ("grad-norm-spike", "bad batch or fp16; clipping, not gradient checkpointing", "correct"),
        ("spike-prevention", "clipping, warmup, bf16 and gradient checkpointing", "wrong"),
        ("grad-norm-healthy", "smooth decrease; a norm over 2 should alarm you", "wrong"),
        ("grad-norm-healthy", "smooth decrease; 1.0 is the normal ceiling for all models", "wrong"),
        ("grad-norm-healthy", "smooth decrease; its level differs for every model", "correct"),
        ("qf-replay-ratio", "old:new about 5-15 to 1", "wrong"),
        ("qf-fp16-needs", "per-tensor scale factors, the same as fp8", "wrong"),
        ("qf-fp16-needs", "loss scaling; per-tensor scale factors are only for fp8", "correct"),
        ("qf-fp16-needs", "loss scaling; fp8 is the one with per-tensor scale factors", "correct"),
        (
            "bad-batch-detection",
            "loss above 10x its moving average; clip the batch's gradient instead",
            "wrong",
        ),
        (
            "bad-batch-detection",
            "loss above 10x its moving average; then its update still counts a little",
            "wrong",
        ),
        ("bad-batch-detection", "loss above 10x its moving average; skip that update", "correct"),
        ("grad-norm-healthy", "high early, then a gradual slide, no spikes", "correct"),
        ("grad-norm-healthy", "a steady glide upward", "wrong"),
        # the right idea too vague to credit: partial, not wrong
        ("small-batch-generalization", "a smaller batch is noisy, which can be good", "partial"),
        ("batch-compute-cost", "steps cost more", "partial"),
        ("warmup-why", "the beginning goes gentler", "partial"),
        (
            "spike-prevention",
            "clipping, warmup, fp16 training rather than fp32, checkpoints",
            "wrong",
        ),
        ("spike-prevention", "clip, warmup, checkpoints, bf16 (not fp16, not fp32)", "correct"),
        (
            "fp16-loss-scaling",
            "yes: 1) loss times 1024; 2) backward; 3) optimizer step; 4) unscale. avoids underflow",
            "wrong",
        ),
        (
            "fp16-loss-scaling",
            "yes: 1) loss times 1024; 2) backward; 3) unscale; 4) optimizer step. avoids underflow",
            "correct",
        ),
        ("qf-replay-ratio", "old:new about 1 to 6-19", "correct"),
        ("overfitting-signal", "it does badly on unseen data", "partial"),
        ("linear-scaling-rule", "bs xk => lr xk, keeps the per-update step the same", "correct"),
        ("linear-scaling-rule", "batch *n, lr *n: the same per-update step", "correct"),
        ("qf-warmup", "roughly 2-8k steps at the end of the run", "wrong"),
        ("qf-warmup", "roughly 2-8k steps at the start of the run", "correct"),
        (
            "spike-prevention",
            "warm up, clip at 1.0, bf16, checkpoint often, and turn weight decay off",
            "wrong",
        ),
        (
            "flat-early-loss",
            "lr far too low, a frozen layer or a broken graph; leave it another few thousand"
            " steps, flat starts break on their own",
            "wrong",
        ),
        (
            "lr-too-high",
            "loss bouncing, grad norms spiking, nans; the fix is to double the batch size",
            "wrong",
        ),
        (
            "warmup-why",
            "stops huge early updates and divergence at full lr, but with adam the per-parameter"
            " scaling already handles it",
            "wrong",
        ),
        ("replay-buffer", "it stores the old model's gradients and replays them", "wrong"),
        (
            "ewc",
            "it regularises the outputs toward the old model's outputs, weighted by fisher",
            "wrong",
        ),
        ("qf-decay-to", "it brings the weight decay down to about 10%", "wrong"),
        ("qf-decay-to", "the lr comes down to about 10% of peak", "correct"),
        ("qf-clip-value", "clip the loss at 1.0 each step", "wrong"),
        (
            "mixed-precision-speedup",
            "1.5-2x on volta and newer for matmul-heavy work, and it halves the steps to converge",
            "wrong",
        ),
        (
            "grad-norm-spike",
            "a bad batch or instability; clip: clamp each weight's value to [-1, 1]",
            "wrong",
        ),
        # one false claim, in jargon or in plain words
        ("small-batch-generalization", "sometimes: small batches give a cleaner signal", "wrong"),
        (
            "small-batch-generalization",
            "sometimes better: small groups give a noisier signal, implicit regularization toward"
            " flat minima",
            "correct",
        ),
        ("qf-warmup", "start at the peak lr and ease it down over 2-8k steps", "wrong"),
        ("qf-warmup", "2-8k steps, ramping up to the peak lr", "correct"),
        ("fp32-master-weights", "keep the master copy in 16-bit so small updates add up", "wrong"),
        ("qf-clip-value", "1.0, applied to each individual number separately", "wrong"),
        ("qf-critical-batch", "where bigger batches saturate; past it, double the lr", "wrong"),
        ("fp8-training", "hopper, less memory, one scaling factor for the whole model", "wrong"),
        (
            "mid-training-spikes",
            "a bad batch, fp16 numerics, or a missing grad clip; fix: cap the loss itself at 1.0",
            "wrong",
        ),
        ("qf-replay-ratio", "5-15% old; the old slice speeds up learning the new task", "wrong"),
        # what a candidate says they would see or do, one claim false
        (
            "grad-norm-spike",
            "a bad batch or fp16 instability; clip: cap the loss value at 1",
            "wrong",
        ),
        ("grad-norm-spike", "a bad batch or fp16 instability; clip the grad norm at 1", "correct"),
        (
            "val-gap-widening",
            "val keeps falling while train bottoms out and climbs back up: overfitting; regularize,"
            " more data, stop early",
            "wrong",
        ),
        (
            "flat-early-loss",
            "lr far too low, a frozen layer, or dropout set too low",
            "wrong",
        ),
        ("flat-early-loss", "lr too low, frozen layer, broken graph; double the batch", "wrong"),
        ("grad-norm-zero", "vanishing grads, saturation, dead neurons; crank the lr up", "wrong"),
        (
            "grad-norm-zero",
            "vanishing grads, saturation, dead neurons, or plain convergence",
            "wrong",
        ),
        (
            "replay-buffer",
            "mix 5-15% old data in; the old examples give almost no gradient, so new learning is"
            " untouched",
            "wrong",
        ),
        (
            "warmup-why",
            "Adam's estimates are unformed, so warmup makes the first updates bigger",
            "wrong",
        ),
        (
            "warmup-why",
            "Adam's estimates are unsettled at the start, so warmup ramps the weight decay up from"
            " zero over the first few thousand steps; skip it and the loss goes NaN.",
            "wrong",
        ),
        (
            "small-batch-generalization",
            "Yes: small-batch noise is an implicit regulariser toward flatter minima, so for LLM"
            " pretraining cut the batch right down.",
            "wrong",
        ),
        (
            "batch-compute-cost",
            "Linear per step, flat per token; and you need half as many tokens to reach the same"
            " loss.",
            "wrong",
        ),
        (
            "fp32-master-weights",
            "updates << weights; in bf16 they round away and the weights stall, fp32 accumulates"
            " them",
            "correct",
        ),
        ("clip-value", "1.0 on the global norm; the optimizer steps first, then you clip", "wrong"),
        ("clip-value", "1.0 on the global norm, clipped before the optimizer step", "correct"),
        (
            "batch-memory-cost",
            "linear in activations; accumulate: take an optimizer step after each small batch",
            "wrong",
        ),
        ("qf-critical-batch", "the batch size where the speed-up curve goes flat", "correct"),
        (
            "clip-value",
            "1.0 on the global norm: rescale the weights so their combined norm stays under one",
            "wrong",
        ),
        (
            "flat-early-loss",
            "lr too low, a frozen layer, a broken graph, or clipping at 1.0 choking every update",
            "wrong",
        ),
        (
            "fp8-training",
            "Hopper and Blackwell, per-tensor scaling, memory cut to a quarter of what bf16 uses",
            "wrong",
        ),
        (
            "fp8-training",
            "Hopper and Blackwell, per-tensor scaling, half the memory of bf16",
            "correct",
        ),
        (
            "grad-norm-spike",
            "a bad batch or fp16 instability; the clipping I would switch off to see the jump",
            "wrong",
        ),
        (
            "lr-too-high",
            "bouncing loss, grad norm spikes, NaNs; raise the batch so the averaging calms it",
            "wrong",
        ),
        (
            "overfitting-signal",
            "train falls, val turns up: overfitting; keep training through it, val comes back down",
            "wrong",
        ),
        ("qf-clip-value", "1.0 on the loss", "wrong"),
        ("qf-clip-value", "1.0 on the global grad norm", "correct"),
        (
            "loss-oscillation",
            "the edge of stability; push the lr up a notch to jump clear",
            "wrong",
        ),
        (
            "warmup-why",
            "the early updates are too small to move the model, so warmup ramps the lr up",
            "wrong",
        ),
        (
            "warmup-why",
            "start at the full peak and let it ebb down over the first steps while Adam settles",
            "wrong",
        ),
        ("batch-compute-cost", "linear per step, and bigger batches cost more per token", "wrong"),
        (
            "loss-curve-phases",
            "a steep early fall, a long steady descent, a flattening; the steep fall learns the"
            " deep structure and token frequencies only come later",
            "wrong",
        ),
        (
            "loss-curve-phases",
            "a steep early drop while it picks up token frequencies, then a long steady descent,"
            " then a plateau",
            "correct",
        ),
        # "regular" is no regularisation: a regular period is no method put on the LR
        (
            "loss-oscillation",
            "the step is too big for the curvature, so it bounces across the valley; a regular"
            " period is the step size",
            "correct",
        ),
        # a rerun after a rollback resumes; "start over" is from scratch
        (
            "mid-training-spikes",
            "one bad batch: rewind to the checkpoint, drop that data, rerun",
            "partial",
        ),
        ("mid-training-spikes", "one bad batch, so I'd start over", "wrong"),
        # two arms, one at full LR and one ramping up, is no ramp down
        (
            "warmup-why",
            "two arms: one starts at full LR and the other ramps up over a few thousand steps;"
            " the first spikes, since Adam's moments are garbage at init and updates are huge",
            "correct",
        ),
        (
            "linear-scaling-rule",
            "double the batch, the LR you cut in half, to keep the step the same",
            "wrong",
        ),
    ],
)
def test_built_in_rubrics_read_these_claims_in_other_words(
    ref: str, answer: str, expected: str
) -> None:
    from grill.deck import load_library

    got = grade(load_library(user_decks=False).card(ref), answer)
    assert got.verdict.label == expected, (answer, got.flags)


def test_the_built_in_case_reads_red_flags_in_a_learners_words() -> None:
    case = load_library_case()
    answer = "a bit that flipped in gpu memory; augment the batch size so the noise averages out"
    flags = [f.id for f in grade_case(case, answer).red_flags]
    assert flags == ["blame_bitflips", "increase_batch_size"]
    assert not grade_case(case, "a bit more clipping, and flip fp16 to bf16").red_flags
    halved = "the lr is too high here, and the entire fix is to halve it"
    assert [f.id for f in grade_case(case, halved).red_flags] == ["only_lower_lr"]


@pytest.mark.parametrize(
    "answer",
    [
        "roll back and clip; raising the batch size to smooth it out is a mistake",
        "roll back and clip. restart from scratch? that's mad",
        "roll back and clip; don't blame flaky gpus or bit flips with zero evidence",
        "people panic and want to restart from scratch; roll back and clip instead",
    ],
)
def test_a_red_flag_judged_a_mistake_or_madness_is_rejected(answer: str) -> None:
    case = load_library_case()
    assert not grade_case(case, answer).red_flags


@pytest.mark.parametrize(
    ("rejected", "committed"),
    [
        (
            "Anti-patterns: starting over from step 0; a larger batch. Roll back and clip.",
            "Plan: starting over from step 0; a larger batch. Roll back and clip.",
        ),
        (
            "Roll back and clip. Common pitfall: pinning it on cosmic-ray bit flips.",
            "Roll back and clip. Common move: pinning it on cosmic-ray bit flips.",
        ),
        (
            "\"It's a cosmic-ray bit flip, rerun it.\" Nay, there's no sign of that. Roll back.",
            "It was a cosmic-ray bit flip, I'd say. There's nothing else to it. Roll back.",
        ),
    ],
)
def test_a_red_flag_in_a_list_of_pitfalls_or_answered_nay_is_rejected(
    rejected: str, committed: str
) -> None:
    case = load_library_case()
    assert not grade_case(case, rejected).red_flags, rejected
    assert grade_case(case, committed).red_flags, committed


def test_a_list_its_lead_in_rejects_earns_no_part() -> None:
    case = load_library_case()
    listed = (
        "causes: fp16 overflow, a poison batch | prevention: pre-layernorm, per-layer grad norms"
        " | not a fix: turning the LR down and calling it done"
    )
    assert [p.part for p in grade_case(case, listed).parts if p.covered] == [
        "culprits",
        "prevention",
    ]
    headed = (
        "causes: fp16 overflow\nprevention: pre-LN\nNot a fix:\n- lowering the LR\n- rolling back"
    )
    assert "triage" not in [p.part for p in grade_case(case, headed).parts if p.covered]
    # a lead-in that only contrasts ("not X but Y:") rejects no list, and a bullet is no lead-in
    told = "causes: fp16 overflow\nprevention: pre-LN\nwhat I'd do:\n- roll back\n- lower the LR"
    assert grade_case(case, told).verdict is Verdict.CORRECT


@pytest.mark.parametrize(
    ("ref", "answer", "expected"),
    [
        # "that's" is "that is": the relative clause says what the learning rate is
        (
            "flat-early-loss",
            "a learning rate that's too high, frozen weights, a broken graph",
            "wrong",
        ),
        (
            "flat-early-loss",
            "a learning rate that's too low, frozen weights, a broken graph",
            "correct",
        ),
        # a bound is no denial: "never goes above one" caps the norm at one
        ("clip-value", "clip so the norm over all parameters never goes above one", "correct"),
        ("clip-value", "global norm, no more than 1.0", "correct"),
        ("clip-value", "not 1.0; clip the global norm at 5", "wrong"),
    ],
)
def test_a_relative_copula_and_a_bound_are_read(ref: str, answer: str, expected: str) -> None:
    from grill.deck import load_library

    got = grade(load_library(user_decks=False).card(ref), answer)
    assert got.verdict.label == expected, (answer, got.flags)


def test_eta_is_the_learning_rate() -> None:
    from grill.grader import normalise

    assert normalise("halve eta; η too high") == [["decreas", "lr"], ["lr", "too", "high"]]


def test_words_as_typed_in_a_hurry_are_read() -> None:
    from grill.grader import normalise

    assert normalise("unscale b4 the step") == [["divid", "befor", "step"]]
    assert normalise("5-15 pct old") == [["{5-15%}", "old"]]
    assert normalise("grab the lowest point") == [["pick", "minimum"]]
    assert normalise("it grows quadratically") == [["increas", "quadratic"]]
    assert normalise("wasted gpu hours; grows in a straight line") == [
        ["wast", "comput"],
        ["increas", "linear"],
    ]


def test_a_saving_is_less_of_what_is_saved() -> None:
    from grill.grader import normalise

    # "more memory savings" is less memory: "more" is not of the memory
    less = [["decreas", "memory"]]
    assert normalise("more memory savings") == less
    assert normalise("saves even more memory") == less
    assert normalise("saves memory") == less
    assert normalise("uses more memory") != less


def test_a_self_correction_struck_through_is_not_read() -> None:
    from grill.grader import normalise

    assert normalise("~~underflow~~ overflow") == [["overflow"]]
    assert normalise("clip ~~per layer~~ on the global norm") == [["clip", "global", "norm"]]


def test_odd_ways_of_saying_a_number_or_a_growth_are_read() -> None:
    from grill.grader import normalise

    assert normalise("down to a couple of percent") == [["down", "to", "{2%}"]]
    assert normalise("a couple thousand steps") == [["{2000}", "step"]]
    # a power written as a superscript or a caret is a growth, not the number 2
    assert normalise("lr times (b / b0)²") == normalise("lr times (b / b0) squared")
    assert normalise("lr ~ bs^2") == [["lr", "batch", "siz", "quadratic"]]
    assert normalise("lr ~ bs**2") == [["lr", "batch", "siz", "quadratic"]]
    assert normalise("raise the lr in step with the batch") == [
        ["increas", "lr", "linear", "batch"]
    ]
    assert normalise("raise the lr in lockstep with it") == [["increas", "lr", "linear"]]


def test_a_power_is_its_value_and_division_signs_are_read() -> None:
    from grill.grader import normalise

    assert normalise("scale the loss by 2^16") == normalise("scale the loss by 65536")
    assert normalise("below 10^-8") == normalise("below 1e-8")
    assert normalise("grads ÷ const") == [["grad", "divid", "by", "constant"]]


def test_a_contrast_as_opposed_to_and_a_past_sweep_are_read() -> None:
    from grill.grader import normalise

    assert normalise("cosine, as opposed to linear") == normalise("cosine, unlike linear")
    assert normalise("swept the lr") == normalise("sweep the lr")
    c = card(pt("cos", "cosine"), wrong=(pt("lin", "linear"),))
    assert verdict(c, "half a cosine wave, as opposed to linear decay") == "correct"
    # a contrast of two subjects states both: the second is not rejected
    from grill.deck import load_library

    both = load_library(user_decks=False).card("overfitting-signal")
    answer = "train loss keeps falling, as opposed to val loss, which stalls and then rises"
    assert grade(both, answer).verdict.label == "correct"


def test_odds_of_zero_give_no_weight_and_noise_averaged_away_is_less() -> None:
    from grill.grader import normalise

    assert normalise("zero weight on bit flips")[0][0] == "not"
    assert normalise("0% chance it's bit flips")[0][0] == "not"
    assert normalise("a bigger batch averages away more noise") == [
        ["increas", "batch", "averag", "away", "decreas", "nois"]
    ]


def _built_in(ref: str, answer: str) -> Grade:
    from grill.deck import load_library

    return grade(load_library(user_decks=False).card(ref), answer)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        ("qf-warmup", "a linear ramp over 2-8k steps, but only when the model is over 30B params"),
        (
            "fp16-loss-scaling",
            "yes: scale the loss up, unscale it before the step; only applies to RNNs",
        ),
        ("lr-too-low", "loss drops painfully slowly and compute is wasted, though only with Lion"),
        ("qf-warmup", "linear 2k to 8k steps but only when training in fp16"),  # no comma
        # led by a verb, or "only" before an adjective or "counts as"
        ("qf-warmup", "2-8k steps, switched on only after the first epoch"),
        ("qf-clip-value", "1.0 on the global norm, but it applies only to recurrent nets"),
        ("lr-too-low", "a slow crawl down and wasted compute; but it's only relevant for Lion"),
        ("lr-too-low", "slow, steady descent, wasted compute; it only counts as a problem past 1B"),
        # the condition before a closing "only"
        ("qf-warmup", "2-8k steps, linear; that's for transformers on TPUs only."),
        # "provided" and "as long as" a condition with none of the card's words
        ("qf-bf16-needs", "nothing extra, provided that the network stays below 3B weights"),
        ("qf-clip-value", "1.0 on the global norm, as long as you're running on TPUs"),
        ("lr-too-low", "very slow loss decrease and wasted compute, so long as it's a ResNet"),
    ],
)
def test_a_condition_the_card_never_makes_added_with_only_is_wrong(ref: str, answer: str) -> None:
    got = _built_in(ref, answer)
    assert got.verdict is Verdict.WRONG
    assert [f.rule for f in got.flags] == ["restriction"]


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        # the condition is the card's own, or said of another subject, or not a restriction
        (
            "fp32-master-weights",
            "keep fp32 master weights so tiny updates accumulate; cast down only for the matmuls",
        ),
        ("qf-fp16-needs", "loss scaling; per-tensor scale factors are only for fp8"),
        ("qf-warmup", "2-8k steps, and not only for fp16 runs"),
        ("qf-warmup", "2-8k steps; it's a myth that it only matters with fp16"),
        # the field's generic words are no condition: "training" on an FP16 card
        ("fp16-loss-scaling", "yes, only when training in fp16: scale the loss up, unscale grads"),
        # an "only" before a manner is no condition
        ("lr-too-low", "it descends, only at a snail's pace, and gpus sit idle: wasted compute"),
        # a closing "only" on the card's own words, or an "only" that does not close the phrase
        (
            "fp32-master-weights",
            "keep fp32 master weights so tiny updates accumulate; cast down for the matmuls only",
        ),
        ("fp32-master-weights", "fp32 master copy: a bf16 weight on a scale that only reads 1e-2"),
        # "provided" or "as long as" the card's own scope in other words, or a length
        ("mixed-precision-speedup", "1.5-2x on volta or later, as long as it's mostly matmuls"),
        ("mixed-precision-speedup", "1.5 to 2x on Volta+, provided the work is matmul-bound"),
        ("cosine-decay", "yes, down to about 10% of peak; train as long as you like before it"),
    ],
)
def test_an_only_that_adds_no_condition_of_its_own_is_no_flag(ref: str, answer: str) -> None:
    assert "restriction" not in [f.rule for f in _built_in(ref, answer).flags]


def test_what_others_say_agreed_with_is_said() -> None:
    endorsed = "Some folks say you should grow the batch first, and they're right: then roll back."
    # the batch grown first is endorsed (and the roll-back is put after it: `first` too)
    assert [f.id for f in _built_in("qf-spike-first-action", endorsed).flags][0] == "increase-batch"
    rejected = "Some folks say you should grow the batch first; no: roll back to the last ckpt."
    assert _built_in("qf-spike-first-action", rejected).verdict is Verdict.CORRECT


def test_a_retraction_that_goes_on_to_replace_takes_back_the_whole_sentence_before() -> None:
    turned = "It falls steadily and smoothly all run. Hmm, no, actually it holds flat all the way."
    got = _built_in("grad-norm-healthy", turned)
    assert got.verdict is not Verdict.CORRECT and not got.matched
    # "or rather" takes back too: only what replaces it is read
    fixed = "It ends 10% below the peak. Or rather, at a tenth of the peak."
    assert _built_in("qf-decay-to", fixed).verdict is Verdict.CORRECT
    slipped = "Down to a tenth of the peak. Or rather, it ends 10% below the peak."
    assert _built_in("qf-decay-to", slipped).verdict is Verdict.WRONG
    # a "no" that goes on to deny stresses the denial; it takes back no more than the last clause
    case = load_library_case()
    stressed = "Prevention: pre-LN, then per-layer grad norm logs. And no, we're not blaming GPUs."
    covered = [p.part for p in grade_case(case, stressed).parts if p.covered]
    assert covered == ["prevention"] and not grade_case(case, stressed).red_flags


def test_a_spoken_self_correction_says_only_what_replaces_it() -> None:
    # "- I mean" takes back what came before as "- no," does
    fixed = (
        "Penalize moving the weights away from their old values, um, weighted by the gradient"
        " - I mean the Fisher, so the important weights stay put."
    )
    assert _built_in("ewc", fixed).verdict is Verdict.CORRECT
    assert _built_in("clip-value", "clip at five - one, I mean. global norm.").verdict is not (
        Verdict.WRONG
    )
    # after a comma "I mean" goes on: nothing is taken back
    goes_on = "Overfitting, I mean, the model memorises train; regularise, add data, stop early."
    assert _built_in("val-gap-widening", goes_on).verdict is Verdict.CORRECT
    # a repair that begins as the words it repairs began replaces only them
    scaled = "You scale the momentum - no, the learning rate, in proportion."
    assert _built_in("qf-linear-scaling", scaled).verdict is Verdict.CORRECT
    slipped = "Clip at 1.0, warm up, and move to bf16 - sorry, to fp16, it's steadier."
    assert [f.id for f in _built_in("spike-prevention", slipped).flags] == ["fp16-over-bf16"]
    # one word swapped for its like: the repair replaces that word alone
    lead = "Sweep lr exponentially, plot loss, then take a value an order of magnitude"
    assert _built_in("lr-finder", f"{lead} above - sorry, below where it diverges.").verdict is (
        Verdict.CORRECT
    )
    above = _built_in("lr-finder", f"{lead} below - sorry, above where it diverges.")
    assert [f.id for f in above.flags] == ["pick-at-divergence"]
    # a hit taken back gives way to a later one in the same sentence
    assert _built_in("qf-decay-to", "A tenth - no, ten percent of the peak.").verdict is (
        Verdict.CORRECT
    )
    # ... however long the clause before the correction runs
    preamble = "on very large runs that go on for months with thousands of accelerators " * 4
    long_run = _built_in(
        "clip-value", f"{preamble}we clip the weights - no, the global norm, at 1.0"
    )
    assert long_run.verdict is Verdict.CORRECT and not long_run.flags


def test_math_and_code_are_read_as_the_words_they_stand_for() -> None:
    # one-letter symbols where math is around them: B the batch, L the loss, g the gradient
    assert _built_in("qf-linear-scaling", "η ∝ B").verdict is Verdict.CORRECT
    # a norm typed with bars, its subscript 2 no value
    assert _built_in("qf-clip-value", "||g||₂ ≤ 1.0").verdict is Verdict.CORRECT
    clipped = "One norm over all parameters together, threshold 1.0: g <- g * min(1, 1.0 / ||g||_2)"
    assert _built_in("clip-value", clipped).verdict is Verdict.CORRECT
    stalled = "vanishing gradients or dead ReLUs; ||g|| ≈ 0 with L stuck high is plain convergence"
    assert [f.id for f in _built_in("grad-norm-zero", stalled).flags] == ["convergence"]
    # a thing multiplied in place is raised or lowered by the factor
    doubled = "a bad batch or fp16 blowup; the fix is bs ← 2·bs so the outlier gets averaged away"
    assert [f.id for f in _built_in("mid-training-spikes", doubled).flags] == [
        "increase-batch-size"
    ]
    case = load_library_case()
    assert [f.id for f in grade_case(case, "global_bs *= 4 to average it away").red_flags] == [
        "increase_batch_size"
    ]
    # a code comment is a clause of its own: "# and nothing else" makes the LR cut the whole fix
    assert [f.id for f in grade_case(case, "lr *= 0.5  # and nothing else").red_flags] == [
        "only_lower_lr"
    ]
    # ... and "# no:" turns down what it comments
    rolled = (
        "Roll back to the last good ckpt  # no: restart from step 0\n"
        "clip_grad_norm_(params, 1.0); fp16 -> bf16; skip the bad batch; a poison batch or fp16"
        " overflow is the usual cause; pre-LN to prevent it"
    )
    assert grade_case(case, rolled).verdict is Verdict.CORRECT
    # a letter with no math around it is a letter: "plan B", "A/B"
    assert normalise("plan B is fine") == [["plan", "b", "fin"]]
    assert "batch" not in normalise("run an A/B test")[0]


def test_a_learning_rate_cut_said_to_work_by_itself_is_the_whole_fix() -> None:
    alone = "halve the lr and resume from the current step; lowering the lr by itself fixes it"
    assert "only-lower-lr" in [f.id for f in _built_in("spike-recovery", alone).flags]
    full = "roll back to the last good ckpt, skip the batch, lower the lr, keep clipping on"
    assert not _built_in("spike-recovery", full).flags


def test_a_question_asked_of_oneself_is_answered_by_its_reply() -> None:
    # a short reply to "what"/"which" is read with its question
    moved = "The batch doubles, so what has to follow it? The learning rate, proportionally."
    assert _built_in("qf-linear-scaling", moved).verdict is Verdict.CORRECT
    # a reply with a negator, or a long one, stands on its own
    argued = (
        "Roll back and clip. Someone says raise the batch - what would that even fix?"
        " A spike is not sampling noise."
    )
    case = load_library_case()
    assert not grade_case(case, argued).red_flags
    # a question answered "not sure" is left open: neither said nor denied
    open_ = "Clip value? One. Global norm or per-layer? Not sure."
    got = _built_in("clip-value", open_)
    assert got.verdict is Verdict.PARTIAL and "global-norm" not in got.matched
    fixed = "Critical batch: past it, doubling the batch buys little. Same for every task? Unsure."
    assert not _built_in("critical-batch-size", fixed).flags


def test_a_verdict_word_taken_back_gives_way_to_the_one_after_it() -> None:
    turned = (
        "No - sorry, yes: multiply the loss up before backward and divide it out before the step."
    )
    got = _built_in("fp16-loss-scaling", turned)
    assert "verdict" not in [f.id for f in got.flags] and got.verdict is Verdict.CORRECT
    assert "verdict" in [f.id for f in _built_in("fp16-loss-scaling", "No, you can skip it.").flags]


def test_a_no_before_an_aside_takes_back_rather_than_negates_what_follows() -> None:
    case = load_library_case()
    turned = "I'd roll back - no, frankly, I'd only halve the LR and carry on."
    assert grade_case(case, turned).red_flags


def test_a_threads_numbering_and_a_chats_other_speakers_are_not_read() -> None:
    thread = "1/3 the clip value 2/3 it's 1.0 3/3 taken over the global norm"
    assert _built_in("qf-clip-value", thread).verdict is Verdict.CORRECT
    chat = (
        "Sam: what ratio did you use for replay\nSam: mostly old with a bit of new?\n"
        "me: the reverse: 5-15% old data mixed into 85-95% new"
    )
    got = _built_in("replay-buffer", chat)
    assert not got.flags and got.verdict is not Verdict.WRONG


def test_a_lead_in_that_tells_what_failed_rejects_no_list() -> None:
    told = "Fine-tuning on a new domain fails to hold: the old skills are wiped out, common in SFT."
    assert _built_in("catastrophic-forgetting", told).verdict is Verdict.CORRECT
    # a lead-in that opens with a condition says when; what follows its colon is claimed
    when = "When fine-tuning on a new task doesn't stick: the model forgets the new data."
    assert [f.id for f in _built_in("catastrophic-forgetting", when).flags] == ["forgets-new"]


def test_a_red_flag_rejected_in_formal_words_is_none() -> None:
    case = load_library_case()
    formal = (
        "Enlarging the batch size is rejected, and a restart from initialisation is not"
        " warranted: roll back to the last good checkpoint and clip."
    )
    assert not grade_case(case, formal).red_flags
    committed = "The run shall be discarded and recommenced from initialisation."
    assert [f.id for f in grade_case(case, committed).red_flags] == ["restart_from_scratch"]


def test_telegrams_confidences_dozens_and_dialect_negators_are_read() -> None:
    from grill.grader import normalise

    # a telegram's STOP is a full stop, not an instruction to stop warming up
    wire = "GLOBAL NORM CLIP STOP LR WARMUP STOP BF16 STOP CHECKPOINTS STOP"
    assert _built_in("spike-prevention", wire).verdict is Verdict.CORRECT
    said = "clipping and bf16, and stop warmup early to save steps"  # a real "stop", said once
    assert [f.id for f in _built_in("spike-prevention", said).flags] == ["skip-warmup"]
    # a confidence is no number of the claim
    assert _built_in("qf-clip-value", "90% sure: 1.0").verdict is Verdict.CORRECT
    # half a dozen is six
    assert normalise("clip at half a dozen") == [["clip", "{6}"]]
    # "X has nothing to do with Y" denies X
    denied = "only a bad batch; numerical problems and clipping have nothing to do with it"
    assert _built_in("mid-training-spikes", denied).verdict is Verdict.WRONG
    # "nobody's restarting", "cannae show": negators
    case = load_library_case()
    assert not grade_case(case, "nobody's restarting from scratch; roll back, clip").red_flags
    got = _built_in(
        "per-layer-grad-norm", "it shows which layer explodes but cannae show one vanishing"
    )
    assert got.verdict is Verdict.WRONG
    # "ole" and "auld" are old
    assert normalise("the auld data, the ole mix") == normalise("the old data, the old mix")


def load_library_case() -> Case:
    from grill.deck import load_library

    return load_library(user_decks=False).case("spike")


def test_always_where_the_card_hedges_is_wrong() -> None:
    # "Empirically sometimes better": a claim that it always is, about the card's subject
    agreed = 'My lead says "spikes mid-run are always a bad batch" and I agree.'
    assert [f.rule for f in _built_in("mid-training-spikes", agreed).flags] == ["absolute"]
    overclaim = "Small batches invariably generalise better, via noise toward flat minima."
    got = _built_in("small-batch-generalization", overclaim)
    assert [f.rule for f in got.flags] == ["absolute"]
    # "whatever the X", "regardless of the X" say always in other words
    for overclaim in (
        "Small batches generalise better through flat minima, whatever the model.",
        "Small batches generalise better via noise, regardless of the dataset.",
    ):
        got = _built_in("small-batch-generalization", overclaim)
        assert [f.rule for f in got.flags] == ["absolute"], overclaim
    for fine in (
        "Almost always a bad batch, sometimes fp16 instability; keep clipping on.",
        "lr way too small or a frozen layer (tangent: always seed your dataloader)",
        "Some say small batches always win. Wrong: only sometimes, via noise toward flat minima.",
        # asked, not claimed; after a dash, which folding turns into another character
        "Small batches — empirically — generalise better via noise. I asked: do batches always?",
        # someone else's "always", quoted and not taken up
        'My coach read that "a mid-season slump is always overtraining." Here: a bad batch.',
    ):
        ref = "small-batch-generalization" if "batches" in fine else "grad-norm-spike"
        ref = "mid-training-spikes" if "slump" in fine else ref
        ref = "flat-early-loss" if "frozen" in fine else ref
        assert "absolute" not in [f.rule for f in _built_in(ref, fine).flags], fine


def test_a_self_interview_a_grand_and_a_red_flag_called_a_waste_are_read() -> None:
    # "Q: question? answer." asks and answers on one line: the answer is read
    qa = "Q: Usual decay for LLMs? Cosine. Q: Ending where? About a tenth of peak."
    assert _built_in("cosine-decay", qa).verdict is Verdict.CORRECT
    assert _built_in("qf-warmup", "linear, 2 grand to 8 grand steps").verdict is Verdict.CORRECT
    # "it's not fixed, mate: ..." is not constant; it rejects no list
    varies = "Where doubling the batch stops paying off. It's not fixed: it depends on the task."
    assert _built_in("critical-batch-size", varies).verdict is Verdict.CORRECT
    case = load_library_case()
    for rejected in (
        "roll back to the last good ckpt; restarting from zero would be a waste of weeks",
        "roll back to the last good ckpt; starting over is not on the table",
        "roll back to the last good ckpt, nuh bother start from scratch",
    ):
        assert not grade_case(case, rejected).red_flags, rejected


def test_an_item_of_the_short_answer_denied_is_wrong() -> None:
    # "LR too low; frozen weights; broken graph; wrong loss."
    # (the key point's own contradiction does not reach across the dash)
    denied = (
        "LR far too low, a frozen layer, or the loss not wired to the weights - and not the"
        " wrong loss function, that one can never stall it."
    )
    got = _built_in("flat-early-loss", denied)
    assert got.verdict is Verdict.WRONG
    assert [f.rule for f in got.flags] == ["denial"]
    for fine in (
        "LR way too low, a frozen layer, a detached graph, or simply the wrong loss function",
        "LR way too low, a frozen layer or a detached graph; if it's not a wrong loss, overfit"
        " one batch",
        "not a hyperparameter thing: lr too low, frozen layers, a detached graph, a wrong loss",
    ):
        got = _built_in("flat-early-loss", fine)
        assert "denial" not in [f.rule for f in got.flags], fine
    # an item that is itself a denial is not one to deny ("BF16 needs? Nothing extra")
    assert "denial" not in [f.rule for f in _built_in("qf-bf16-needs", "nothing extra").flags]


def test_a_cleft_says_its_claim_and_but_instead_replaces() -> None:
    cleft = "It's large batches that generalise better, their gradients being less noisy."
    got = _built_in("small-batch-generalization", cleft)
    assert got.verdict is Verdict.WRONG
    # the quote is the typed words, though the reading rewrote them
    assert [f.text for f in got.flags] == ["large batches that generalise better"]
    plateau_first = "It's a plateau that comes first, then warmup, then descent"
    order = _built_in("loss-curve-phases", plateau_first)
    assert [f.text for f in order.flags] == ["plateau that comes first, then warmup, then descent"]
    c = card(pt("cos", "cosine"))
    assert verdict(c, "cosine on paper, but in practice everyone runs step decay instead") != (
        "correct"
    )
    assert verdict(c, "cosine, instead of step decay") == "correct"
    case = load_library_case()
    radio = "Roll back to the last good ckpt. Negative on raising the batch size, over."
    assert not grade_case(case, radio).red_flags


def test_a_lexicon_variant_wrapped_over_two_lines_stays_one_variant() -> None:
    # "activation\n    checkpoint" had made every "activations" read as recomputation
    assert normalise("activations grow with the batch") == [["activ", "increas", "batch"]]
    assert normalise("activation checkpointing") == normalise("gradient checkpointing")


def test_everyday_turns_of_phrase_are_read_as_meant() -> None:
    assert normalise("Anywhere from two to eight thousand steps") == [
        ["anywher", "from", "{2000-8000}", "step"]
    ]
    assert normalise("ramp from 0 to peak") == [["ramp", "from", "{0}", "to", "peak"]]
    assert normalise("peak/10") == normalise("a tenth of peak")
    assert normalise("the norm eases off") == normalise("the norm decreases")
    assert normalise("take the LR down a notch") == normalise("decrease the lr a notch")
    # "not because of X" denies X; "hang on, no" takes back what came before
    linear = "Linear, but not because of activations, those are fixed per layer."
    assert _built_in("batch-memory-cost", linear).verdict is Verdict.WRONG
    converged = "That means it's converged. Hang on, no: vanishing gradients, dead neurons."
    assert _built_in("grad-norm-zero", converged).verdict is Verdict.CORRECT
    # "has always" tells what was so; it claims no "always"
    toast = "To the log axis, which has always made small differences visible!"
    assert "absolute" not in [f.rule for f in _built_in("log-y-axis", toast).flags]


def test_a_question_turned_down_and_a_closing_thats_all_are_read() -> None:
    case = load_library_case()
    turned_down = (
        "Check the grad-norm log, roll back to the last good checkpoint. Would I just lower"
        " the LR? Not on its own; I'd tighten clipping as well."
    )
    assert not grade_case(case, turned_down).red_flags
    for closing in (
        "Roll back to the last checkpoint and lower the LR. That's the whole fix.",
        "Roll back and bring the LR down; that's all you need.",
        "Roll back and lower the LR; clipping doesn't really come into it.",
    ):
        assert [f.id for f in grade_case(case, closing).red_flags] == ["only_lower_lr"], closing


def test_the_cards_number_in_the_other_unit_is_wrong() -> None:
    # "~1.5-2x on Volta+ for matmul-heavy work"
    got = _built_in("mixed-precision-speedup", "Around 1.5-2% on Volta and newer, matmul-heavy.")
    assert [f.rule for f in got.flags] == ["unit"]
    for fine in (
        "1.5-2x on Volta and newer when matmul-heavy",
        "about 150-200% of the fp32 speed on Volta+, matmul-heavy",
    ):
        assert "unit" not in [f.rule for f in _built_in("mixed-precision-speedup", fine).flags]
    # the inverse said with its direction: "10x lower" is a tenth; "10% above" is not
    assert "unit" not in [f.rule for f in _built_in("cosine-decay", "yes, cosine, 10x lower").flags]
    above = "keep a moving average and skip the update when a batch is 10% above it"
    card = _csv_card("bad-batch-detection")
    assert "unit" in [f.rule for f in grade(card, above).flags]
    # a range from zero has no inverse (found by the fuzz test: a division by zero)
    assert "unit" not in [f.rule for f in _built_in("loss-curve-phases", "0-2%").flags]


def _csv_deck() -> tuple[Library, dict[str, str]]:
    from pathlib import Path

    from grill.deck import dump_deck, load_library, parse_deck
    from grill.export.csv_deck import deck_data, read_csv

    source = Path(__file__).parent / "grading" / "seed-questions.csv"
    made = parse_deck(dump_deck(deck_data("from-csv", "From CSV", read_csv(source))), "x")
    by_n = {c.n: c.id for c in made.cards}
    builtin = load_library(user_decks=False)
    ids = {c.id: f"from-csv/{by_n[c.n]}" for c in builtin.cards() if c.n in by_n}
    return Library((*builtin.decks, made)), ids


def _csv_card(ref: str) -> Card:
    """A card of the deck made from the seed CSV, by the built-in card's id."""
    made, ids = _csv_deck()
    return made.card(ids[ref])


def test_chats_openers_comparisons_and_phrasal_verbs_are_read() -> None:
    # a chat reply that corrects the line before takes it back
    chat = (
        "[kenji] bf16 has more precision than fp16\n"
        "[maria] other way round, fp16 has more mantissa; bf16 keeps fp32's exponent range,"
        " so no loss scaling and it's the safer default"
    )
    assert _built_in("fp16-vs-bf16", chat).verdict is Verdict.CORRECT
    nah = "[anna] too-low lr shows up as NaNs\n[ben] nah, too low = a slow descent, wasted compute"
    assert _built_in("lr-too-low", nah).verdict is Verdict.CORRECT
    # "Honestly, no." answers the yes/no card
    assert [f.rule for f in _built_in("cosine-decay", "Honestly, no. Step decay.").flags] == [
        "verdict"
    ]
    assert normalise("B < B_crit") == normalise("B below B_crit")
    assert normalise("warmup > descent") == normalise("warmup -> descent")  # an arrow
    assert normalise("crank up the batch size") == normalise("increase the batch size")
    assert normalise("steer clear of clipping") == normalise("not use clipping")
    case = load_library_case()
    people = "roll back to the last ckpt; people like to blame bit-flips, without evidence"
    assert not grade_case(case, people).red_flags
    # "Don't clip though:" explains why; it rejects no list after its colon
    dont = "A bad batch or fp16 instability. Don't clip though: clipping just hides the spike."
    assert _built_in("grad-norm-spike", dont).verdict is Verdict.WRONG


def test_a_letter_and_a_full_stop_shorten_a_word_and_end_no_sentence() -> None:
    slow = card(pt("slow", "decrease slow"))
    assert verdict(slow, "loss ↓ v. slowly") == "correct"
    assert verdict(slow, "loss goes down. Slowly? no, it's fast") == "wrong"
    clip = card(pt("clip", "clip"))
    assert verdict(clip, "Ehn, no magic o. Clip at 1.0.") == "correct"


def test_two_numbers_joined_by_or_are_a_range() -> None:
    share = card(pt("small", "{1-2%}"), wrong=(pt("big", "{2-100%}"),))
    assert verdict(share, "one or two percent of training") == "correct"
    assert verdict(share, "two percent or so") == "wrong"
    steps = card(pt("k", "{2000-8000} steps"))
    assert verdict(steps, "two or three thousand steps") == "correct"
    assert verdict(steps, "two or thirty thousand steps") != "correct"


def test_a_gradient_length_is_its_norm_and_tensor_by_tensor_is_per_tensor() -> None:
    clip = card(pt("global", "(overall|total) grad norm", "(not|rather than) per tensor"))
    assert verdict(clip, "cap the overall gradient length at one") == "correct"
    assert verdict(clip, "rather than tensor by tensor") == "correct"


def test_smooth_is_steady_and_diminishing_returns_a_saturation() -> None:
    trend = card(pt("steady", "(decrease|down) steady"))
    assert verdict(trend, "it drifts down smoothly") == "correct"
    point = card(pt("sat", "saturation"))
    assert verdict(point, "the point of diminishing returns") == "correct"


def test_the_other_side_named_in_passing_by_the_explanation_is_still_the_wrong_side() -> None:
    scaling = Card(
        id="s",
        n=1,
        section="A",
        question="FP16 needs loss scaling?",
        answer="Yes. Multiply loss by a constant; unscale before the step. Prevents underflow.",
        explanation="Tiny gradients flush to zero, so you scale up. Dynamic loss scaling adjusts "
        "the constant, backing off when it sees an overflow.",
        rubric=Rubric(points=(pt("mul", "multiply loss"), pt("un", "divide")), correct=2),
        deck="t",
    )
    wrong = grade(scaling, "yes, multiply the loss and unscale, to keep grads from overflowing")
    assert [f.id for f in wrong.flags] == ["partner"]
    aside = grade(scaling, "multiply the loss, unscale; dynamic scaling backs off on overflow")
    assert aside.verdict is Verdict.CORRECT
    # a purpose clause says what the method is for, whatever it negates
    purpose = grade(scaling, "multiply the loss so the grads don't overflow, then divide it back")
    assert [f.id for f in purpose.flags] == ["partner"]
    # so does what happens without it: a supposition that says what the method is for
    for answer in (
        "multiply the loss, divide before the step; without it the activations overflow",
        "yes, multiply it and unscale after; without that, the grads would overflow",
    ):
        assert [f.id for f in grade(scaling, answer).flags] == ["partner"], answer
    right = grade(scaling, "multiply the loss, unscale; without it the tiny grads underflow")
    assert right.verdict is Verdict.CORRECT


def test_the_peak_divided_by_ten_is_a_tenth_of_it() -> None:
    tenth = card(pt("tenth", "{10%} peak"))
    for answer in ("peak ÷10", "peak divided by 10", "peak/10"):
        assert verdict(tenth, answer) == "correct", answer


def test_so_before_an_amount_says_how_much_and_ends_no_clause(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    too_high = card(pt("frozen", "frozen"), wrong=(pt("too-high", "lr (too|) high"),))
    said = "a layer is frozen, or the learning rate is set so high that nothing moves"
    assert verdict(too_high, said) == "wrong"
    assert verdict(too_high, "it is frozen or the learning rate is so high.") == "wrong"
    # a "so" that goes on with what is so opens a purpose clause: "so small grads don't ..."
    small = card(pt("any", "loss"), wrong=(pt("small-lr", "lr (too|) small"),))
    assert verdict(small, "scale the loss with the lr so small grads don't underflow") != "wrong"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "pseudo.degree")
    assert verdict(too_high, said) == "correct"


def test_nowt_is_a_negator() -> None:
    from grill.grader import normalise

    assert normalise("nowt looks broken")[0][0] == "not"
    got = _built_in("lr-too-low", "Nowt looks broken: loss creeps down steady but far too slow")
    assert not got.flags and got.verdict is not Verdict.WRONG


def test_two_key_points_in_a_list_are_not_a_misconception_equating_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    c = card(
        pt("dropout", "dropout"),
        pt("wd", "weight decay"),
        wrong=(pt("dropout-is-wd", "dropout .. (weight decay|l2)"),),
        correct=1,
    )
    for listed in (
        "dropout and weight decay",
        "add dropout or weight decay",
        "dropout & weight decay",
    ):
        assert verdict(c, listed) == "correct", listed
    for equated in ("dropout is just weight decay", "dropout, i.e. weight decay"):
        assert verdict(c, equated) == "wrong", equated
    # a misconception whose sides are no key points keeps its `and`: "half old and half new"
    mix = card(pt("ratio", "{5-15%} old"), wrong=(pt("half", "half old .. new"),))
    assert verdict(mix, "half old and half new") == "wrong"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "phrase.listed")
    assert verdict(c, "dropout and weight decay") == "wrong"


def test_a_loss_that_gets_worse_rises() -> None:
    from grill.grader import normalise

    for worse in ("val loss gets worse", "the validation loss starts getting worse"):
        assert normalise(worse)[0][-1] == "increas", worse
    assert normalise("the loss worsens")[0][-1] == "increas"
    # accuracy that gets worse falls: no rewrite
    assert "increas" not in normalise("val accuracy gets worse")[0]


def test_a_short_verdict_after_a_dash_colon_or_equals_turns_the_idea_down(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    case = load_library_case()

    def flags(answer: str) -> list[str]:
        return sorted(f.id for f in grade_case(case, answer).red_flags)

    for turned in (
        "Roll back and clip. 9) bigger batch to smooth things out - not worth it.",
        "Roll back and clip. Bigger batch to smooth it out: overkill.",
        "Roll back and clip. raise the batch size = no",
        "Roll back and clip. restart from scratch \u2014 nope.",
    ):
        assert flags(turned) == [], turned
    # a verdict that affirms, or a tail that goes on with a step, turns nothing down
    assert flags("Raise the batch size - yes.") == ["increase_batch_size"]
    assert flags("Restart from scratch - no doubt.") == ["restart_from_scratch"]
    assert flags("Restart from scratch - then clip.") == ["restart_from_scratch"]
    said = "Restart from scratch - no need to go further, just roll back later"
    assert flags(said) == ["restart_from_scratch"]
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "case.verdict-after,case.stance")
    said = "Roll back and clip. 9) bigger batch to smooth things out - not worth it."
    assert flags(said) == ["increase_batch_size"]


def test_an_idea_binned_by_name_or_pronoun_is_rejected_and_the_lr_as_the_only_fix_is_not() -> None:
    case = load_library_case()
    for binned in (
        "Roll back and clip. We once tried doubling the batch to smooth a spike out, but we"
        " binned that idea.",
        "Roll back and clip. I thought about raising the batch size, but set that idea aside.",
    ):
        assert not grade_case(case, binned).red_flags, binned
    only = "Roll back. From there the only fix I apply is the learning rate: cut it in half."
    assert [f.id for f in grade_case(case, only).red_flags] == ["only_lower_lr"]
    assert not grade_case(case, "Lowering the LR isn't the only fix; clip too.").red_flags


def test_a_lead_in_before_a_colon_frames_a_bare_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    c = card(pt("nothing", "(nothing|none)"))
    for framed in (
        "Off the top of my head: nothing",
        "Honestly: none",
        "The short version: nothing",
    ):
        assert verdict(c, framed) == "correct", framed
    # a lead-in with the rubric's words, a negator or a comma is no frame
    scaled = card(pt("nothing", "(nothing|none)"), pt("scaling", "loss scaling"))
    assert verdict(scaled, "Loss scaling: none") != "correct"
    assert verdict(c, "Off the top of my head, nothing") == "wrong"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "phrase.framed")
    assert verdict(c, "Honestly: none") == "wrong"


def test_factors_run_on_thans_and_a_loss_blown_up_by_a_factor_are_read() -> None:
    from grill.grader import normalise

    assert normalise("step back a factor of ten") == normalise("step back ten times")
    assert normalise("by a factor of 2")[0][-1] == "{2x}"
    assert normalise("way higher'n normal") == normalise("way higher than normal")
    assert normalise("blow the loss up by a big factor") == normalise(
        "scale the loss up by a big factor"
    )
    assert normalise("the loss blows up by step 500") != normalise("scale the loss up by step 500")
    assert normalise("the lr is too puny") == normalise("the lr is too small")
    assert "decreas" in normalise("it backs off on overflow")[0]


def test_one_in_ten_is_a_share_and_a_saved_state_a_checkpoint() -> None:
    from grill.grader import normalise

    assert normalise("one example in ten from the old mix") == normalise("10% from the old mix")
    assert normalise("1 out of every 20 batches") == normalise("5% batches")
    assert normalise("one in a hundred")[0] == ["{1%}"]
    assert normalise("five in five")[0] == ["{5}", "{5}"]  # no share
    assert normalise("the last good saved state") == normalise("the last good checkpoint")


def test_a_list_headed_by_things_to_avoid_or_rule_out_is_turned_down() -> None:
    case = load_library_case()
    for lead in ("Things I'd avoid:", "Things I'd rule out afore I start:", "Red herrings:"):
        answer = (
            f"{lead}\n1. Starting from scratch.\n2. A bigger batch to smooth it over.\nRoll back."
        )
        assert not grade_case(case, answer).red_flags, lead
    steps = "Steps:\n1. Restart from scratch.\n2. Roll back."
    assert [f.id for f in grade_case(case, steps).red_flags] == ["restart_from_scratch"]


def test_an_idea_paired_with_a_negated_verb_or_put_first_and_refused_is_not_put_forward(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    case = load_library_case()

    def flags(answer: str) -> list[str]:
        return sorted(f.id for f in grade_case(case, "Roll back. " + answer).red_flags)

    assert flags("I would not scuttle the run and start from scratch.") == []
    assert flags("You don't cancel the wedding and start from scratch.") == []
    assert flags("Increasing the batch to smooth it I would skip.") == []
    assert flags("Restarting from scratch we'd never do.") == []
    # a subject of its own, a comma before the `and`, or a refusal of something else: a claim
    assert flags("I don't panic, and we restart from scratch.") == ["restart_from_scratch"]
    assert flags("Don't panic, and restart from scratch.") == ["restart_from_scratch"]
    assert flags("Restarting from scratch I would do right away.") == ["restart_from_scratch"]
    assert flags("We restart from scratch and I would skip the rest.") == ["restart_from_scratch"]
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "case.paired,case.fronted,case.stance")
    assert flags("I would not scuttle the run and start from scratch.") == ["restart_from_scratch"]
    assert flags("Increasing the batch to smooth it I would skip.") == ["increase_batch_size"]


def test_built_in_rubrics_know_the_wrong_fix_and_the_wrong_task() -> None:
    # lowering the LR is no fix for an LR that is too low
    lowered = "Loss creeps down too slowly and compute is wasted, so cut the LR by 10x."
    assert [f.id for f in _built_in("lr-too-low", lowered).flags] == ["lr-lowered"]
    raised = "Loss creeps down too slowly and compute is wasted, so raise the LR."
    assert _built_in("lr-too-low", raised).verdict is Verdict.CORRECT
    # EWC's Fisher information is the old task's, and the important weights are the anchored ones
    new_task = (
        "A penalty toward the old weights, weighted by the Fisher information of the new task."
    )
    assert [f.id for f in _built_in("ewc", new_task).flags] == ["fisher-of-new"]
    old_task = "A penalty toward the old weights, weighted by Fisher information from the old task."
    assert _built_in("ewc", old_task).verdict is Verdict.CORRECT
    least = (
        "A penalty toward old values, the strongest pull on the least important weights, by Fisher."
    )
    assert [f.id for f in _built_in("ewc", least).flags] == ["importance-reversed"]


def test_wariness_a_thing_left_alone_a_first_thought_and_a_losing_comparison_put_nothing_forward(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    case = load_library_case()

    def flags(answer: str) -> list[str]:
        return sorted(f.id for f in grade_case(case, "Roll back and clip. " + answer).red_flags)

    for said in (
        "I'd be wary of blaming hardware bit-flips.",
        "Growing the batch to hide the spike, that one I leave alone.",
        "Restarting from scratch, that I would skip.",
        "Our engineer's first thought: a bigger batch, to average the noise away.",
        "My manager wanted to scrap it and relaunch from step zero; I talked him out of it.",
        "Rejected options: restarting from scratch; raising the batch size to smooth the curve.",
        "Clipping beats just lowering the LR every time.",
    ):
        assert flags(said) == [], said
    assert flags("Restarting from scratch, that I would do first.") == ["restart_from_scratch"]
    assert flags("Causes: a bad batch; restart from scratch.") == ["restart_from_scratch"]
    assert flags("Just lowering the LR beats clipping.") == ["only_lower_lr"]
    said = "The one knob I'd turn is the learning rate: cut it and resume."
    assert flags(said) == ["only_lower_lr"]
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "case.outdone,case.stance")
    assert flags("Clipping beats just lowering the LR every time.") == ["only_lower_lr"]


def test_the_cards_own_contrast_in_other_words_is_no_misconception() -> None:
    # clip-value's explanation: per-tensor clipping changes the update's direction; said so in
    # other words, it is a recital of the card, not the per-tensor misconception
    answer = (
        "One norm over every parameter's gradient together, clipped at one: global clipping only"
        " shortens the update, whereas clipping tensor by tensor would bend its direction."
    )
    from grill.deck import load_library

    card = load_library(user_decks=False).card("clip-value")
    assert grade(card, answer).verdict is Verdict.CORRECT


@pytest.mark.parametrize(
    "answer",
    [
        "loss bouncing and NaNs; but exploding gradients are not a sign of it",
        "loss bouncing, NaNs. exploding gradients aren't a symptom of a high lr",
        "loss bouncing and NaNs, while exploding gradients are no indicator of it",
    ],
)
def test_an_item_said_not_to_be_a_sign_is_denied(answer: str) -> None:
    from grill.deck import load_library

    library = load_library(user_decks=False)
    assert grade_ref(library, "lr-too-high", answer).verdict is Verdict.WRONG, answer
    listed = "loss bouncing, NaNs and exploding gradients are all signs of it"
    assert grade_ref(library, "lr-too-high", listed).verdict is Verdict.CORRECT


def test_a_typo_of_a_word_a_short_stem_stands_for_is_read_as_it() -> None:
    scaled = card(pt("loss-scaling", "loss scal"))
    for answer in ("loss scalng", "loss sclaing", "loss scalling"):
        assert verdict(scaled, answer) == "correct", answer
    # a real English word is never a typo, and an unknown word two edits away is none
    assert verdict(scaled, "loss scalar") == "wrong"
    assert verdict(scaled, "loss sclng") == "wrong"


def test_a_ramp_from_nothing_starts_at_zero() -> None:
    ramp = card(pt("from-zero", "from {0}"), pt("linear", "linear"), correct=2)
    for answer in ("linear, starting from nothing up to the peak", "linear: from nought to peak"):
        assert verdict(ramp, answer) == "correct", answer
    # "nothing" elsewhere is still a negation
    assert verdict(ramp, "from zero, and nothing linear about it") != "correct"


def test_an_apostrophe_inside_a_quoted_red_flag_keeps_it_quoted() -> None:
    case = load_library_case()
    quoted = (
        "Roll back to the last good checkpoint and clip. The intern wrote \"it's surely a bit flip,"
        " we'll rerun it\" in the channel; nothing backs that."
    )
    assert not grade_case(case, quoted).red_flags
    endorsed = "Roll back to the last good checkpoint. It's surely a bit flip, we'll rerun it."
    assert grade_case(case, endorsed).red_flags


def test_an_idea_named_as_a_suggestion_is_not_put_forward() -> None:
    case = load_library_case()
    for named in (
        "We got the suggestion to raise the batch size to smooth things; it costs more. Roll back.",
        "There was a proposal of restarting from scratch, which I vetoed. Roll back.",
    ):
        assert not grade_case(case, named).red_flags, named
    endorsed = "A bigger batch size to smooth it: costly, but do it. Roll back."
    assert grade_case(case, endorsed).red_flags


def test_an_answer_that_says_not_just_x_is_not_x_as_the_whole_answer() -> None:
    case = load_library_case()
    for answer in ("Never merely cut the LR and carry on.", "you can't only halve the lr"):
        assert not grade_case(case, answer).red_flags, answer
    assert [f.id for f in grade_case(case, "Halve the LR and carry on.").red_flags] == [
        "only_lower_lr"
    ]


def test_a_sentence_that_says_it_is_not_known_is_no_bare_negation() -> None:
    from grill.deck import load_library

    card = load_library(user_decks=False).card("qf-bf16-needs")  # "Nothing extra."
    for unknown in ("Not my area.", "That's my world, not this one. Don't know.", "No idea."):
        assert grade(card, unknown).verdict is Verdict.WRONG, unknown
    for nothing in ("Nothing.", "None. Not needed.", "Nothing, skip.", "Nothing. Don't know why."):
        assert grade(card, nothing).verdict is Verdict.CORRECT, nothing


@pytest.mark.parametrize(
    "answer",
    [
        'The contestant said "a couple of hundred steps." Ruled wrong: it\'s 2-8k.',
        '"A couple of hundred steps" - I don\'t buy it. 2-8k steps.',
        '"A couple of hundred steps," the forum says. That\'s wrong; 2-8k.',
        'A blog claims "a couple of hundred steps" - false. 2-8k.',
    ],
)
def test_a_quotation_ruled_wrong_is_not_the_answers_claim(answer: str) -> None:
    from grill.deck import load_library

    card = load_library(user_decks=False).card("qf-warmup")
    assert grade(card, answer).verdict is Verdict.CORRECT, answer
    # left standing or agreed with, the quote is said
    quoted = 'The forum says "a couple of hundred steps." I agree.'
    assert grade(card, quoted).verdict is Verdict.WRONG


@pytest.mark.parametrize(
    ("mocked", "meant"),
    [
        (
            "Oh brilliant, let's throw the run away and begin again from step 0. Roll back.",
            "Let's throw the run away and begin again from step 0. Roll back.",
        ),
        (
            "Yeah right, cosmic-ray bit flips did it. Roll back and clip.",
            "Cosmic-ray bit flips did it. Roll back and clip.",
        ),
        (
            "Quadruple the batch size to smooth it, what could possibly go wrong. Roll back.",
            "Quadruple the batch size to smooth it. Roll back.",
        ),
    ],
)
def test_a_red_flag_said_in_sarcasm_is_not_put_forward(mocked: str, meant: str) -> None:
    case = load_library_case()
    assert not grade_case(case, mocked).red_flags, mocked
    assert grade_case(case, meant).red_flags, meant


def test_what_someone_else_once_did_is_told_not_put_forward() -> None:
    case = load_library_case()
    told = (
        "A colleague at my last job once restarted from scratch after a spike; we lost a month."
        " Roll back to the last good checkpoint and clip."
    )
    assert not grade_case(case, told).red_flags
    mine = "I restarted from scratch after a spike. Roll back to the last good checkpoint and clip."
    assert grade_case(case, mine).red_flags


@pytest.mark.parametrize(
    ("rejected", "committed"),
    [
        (
            "Roll back and clip. I talked my lead out of restarting from scratch.",
            "Roll back and clip. I talked my lead into restarting from scratch.",
        ),
        (
            "Roll back and clip. Blaming cosmic-ray bit flips got shot down in review.",
            "Roll back and clip. Blaming cosmic-ray bit flips is my best guess.",
        ),
        (
            "Roll back and clip. Me, I doh restart from scratch.",
            "Roll back and clip. Me, I restart from scratch.",
        ),
        (
            "Roll back and clip. A bigger batch size to smooth it, great plan if you love NaNs.",
            "Roll back and clip. A bigger batch size to smooth it is the plan.",
        ),
        (
            "Roll back and clip. Restart from scratch, really no need.",
            "Roll back and clip. Restart from scratch, really.",
        ),
        (
            "Roll back and clip. Another bloke said to double the batch size to smooth it.",
            "Roll back and clip. Double the batch size to smooth it.",
        ),
        (
            "Roll back and clip. Doubling the batch size to smooth the spike is not advised.",
            "Roll back and clip. Double the batch size to smooth the spike.",
        ),
        (
            "Roll back and clip. Cancelled: restart-from-scratch, bigger batch, bitflip theory.",
            "Roll back and clip. Scheduled: restart-from-scratch, bigger batch, bitflip theory.",
        ),
    ],
)
def test_more_shapes_of_a_rejected_red_flag(rejected: str, committed: str) -> None:
    case = load_library_case()
    assert not grade_case(case, rejected).red_flags, rejected
    assert grade_case(case, committed).red_flags, committed


def test_an_lr_turned_down_is_not_rejected_but_an_idea_voted_down_is() -> None:
    assert "reject" not in normalise("roll back with the LR turned down")[0]
    assert "reject" in normalise("the restart got voted down")[0]


def test_red_flag_ideas_refused_supposed_costed_or_ruled_out_are_not_put_forward(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    case = load_library_case()

    def flags(answer: str) -> list[str]:
        return sorted(f.id for f in grade_case(case, "Roll back and clip. " + answer).red_flags)

    from grill.grader.text import _analyse

    triggered = {
        "dismissal.ruled-out": "Bit-flips ruled out: the same shard spikes again on replay.",
        "dismissal.were-to": "If you were to restart from scratch, you would lose three weeks.",
        "dismissal": "Often misidentified as: hardware bit-flips.",
    }
    for rule, answer in triggered.items():  # (read once, at import: scripts/ablate turns them off)
        assert flags(answer) == [], (rule, answer)
        cues = {c for s in _analyse(answer).sentences for t in s for c in t.cues}
        assert rule in cues, (rule, answer)
    refused = {
        "case.evaluated": "Starting over from scratch is throwing the baby out with the bathwater.",
        "case.verdict-after": "6. raise the batch to smooth it - not worth it, it shrinks the LR"
        " window",
    }
    for rule, answer in refused.items():
        assert flags(answer) == [], (rule, answer)
        monkeypatch.setenv("GRILL_GRADER_WITHOUT", rule)
        assert flags(answer) != [], (rule, answer)
        monkeypatch.delenv("GRILL_GRADER_WITHOUT")
    # put forward, the same ideas are red flags
    assert flags("Rule out the data, then restart from scratch.") == ["restart_from_scratch"]
    assert flags("I'd relaunch the run from initialization.") == ["restart_from_scratch"]
    assert flags("Surely a cosmic ray flipped a bit in the GPU.") == ["blame_bitflips"]
    # an elided word is no quotation mark: "'Twas ... heavens'" quotes nothing
    said = "'Twas surely a cosmic ray that flipped a bit in thy GPU, the heavens' doing."
    assert flags(said) == ["blame_bitflips"]
    assert flags("Restarting from scratch costs nothing, so do it.") == ["restart_from_scratch"]
    # a judgement that finds it wanting turns it down; "not a bad one" finds nothing wanting
    assert flags("Restarting from scratch is the wrong call.") == []
    assert flags("Only reducing LR is shallow answer, so I am not stopping there.") == []
    said = "Restarting from scratch is the best fix, not a bad one."
    assert flags(said) == ["restart_from_scratch"]
    # a longer tail after a dash that says something new turns nothing down
    assert flags("Restart from scratch - no need to touch the data loader at all.") == [
        "restart_from_scratch"
    ]


def test_a_list_of_acts_refused_credits_none_of_them_and_a_negated_copula_lists_nothing() -> None:
    case = load_library_case()
    refused = "Four things I would never do here: restart from scratch, lower the LR and call it"
    graded = grade_case(case, refused + " a day, or make the batch bigger to smooth it.")
    assert not graded.red_flags
    assert not any(p.covered for p in graded.parts)
    assert grade_case(case, "Not doing: lowering the LR.").verdict is Verdict.WRONG
    # "it usually isn't:" answers; what follows the colon is the claim
    c = card(pt("vanishing", "vanishing grad"))
    said = "Tempting to call it convergence, but it usually isn't: it's vanishing gradients"
    assert verdict(c, said) == "correct"


def test_the_lr_as_the_whole_fix_with_clipping_and_precision_waved_off_is_a_red_flag() -> None:
    case = load_library_case()
    waved = "Pull the learning rate back. No need to fuss with clipping or precision settings."
    assert [f.id for f in grade_case(case, waved).red_flags] == ["only_lower_lr"]
    kept = "Roll back, halve the LR, tighten clipping; no need to touch precision on BF16."
    assert not grade_case(case, kept).red_flags


def test_point_one_is_a_tenth_and_a_share_taken_off_is_a_decrease_by_it() -> None:
    from grill.grader import normalise

    assert normalise("point one on the global norm")[0][0] == "{0.1}"
    assert normalise("clip at point five") == [["clip", "{0.5}"]]
    assert "{0.1}" not in normalise("the point one is making")[0]  # a noun, not a number
    assert normalise("one point zero") == [["{1}"]]
    assert normalise("trims a tenth off the peak")[0][:3] == ["trim", "by", "{10%}"]
    assert _built_in("qf-clip-value", "point one on the global norm").verdict is Verdict.WRONG
    trimmed = "Yes, cosine; over the run it trims roughly a tenth off the peak."
    assert _built_in("cosine-decay", trimmed).verdict is Verdict.WRONG


def test_built_in_rubrics_catch_a_reversed_ramp_a_swap_and_a_threshold_in_other_words() -> None:
    begun = "Begin at the peak learning rate and bring it linearly down to zero over 2-8k steps."
    assert _built_in("warmup-length", begun).verdict is Verdict.WRONG
    assert (
        _built_in("warmup-length", "begin at zero, ramp linearly to peak over 2-8k steps").verdict
        is Verdict.CORRECT
    )
    swapped = "validation loss keeps dropping but the training loss starts creeping back up"
    assert _built_in("overfitting-signal", swapped).verdict is Verdict.WRONG
    right = "train loss keeps dropping while val loss starts creeping back up"
    assert _built_in("overfitting-signal", right).verdict is Verdict.CORRECT
    passed = "Keep a moving average of the loss; a batch that passes it by ten percent, skip it."
    assert _built_in("bad-batch-detection", passed).verdict is Verdict.WRONG
    halved = "The step is too big for the curvature, edge of stability; halve the batch size."
    assert _built_in("loss-oscillation", halved).verdict is Verdict.WRONG
    lowered = "LR too high for the curvature, edge of stability: lower the LR."
    assert _built_in("loss-oscillation", lowered).verdict is Verdict.CORRECT


def test_fp16_blowing_up_is_the_numerical_instability_point() -> None:
    """ "Blowing up" reads as exploding: said of FP16 it names the numerical-instability cause,
    so the feedback does not list it as missed."""
    got = _built_in("mid-training-spikes", "a bad batch, fp16 blowing up, or clipping left off")
    assert [p.id for p in got.matched] == ["bad-batch", "numerical", "no-clip"]
    assert _built_in("mid-training-spikes", "fp16 blowing up").verdict is Verdict.PARTIAL
    spike = _built_in("grad-norm-spike", "a bad batch or fp16 blowing up; clipping must be on")
    assert [p.id for p in spike.matched] == ["bad-batch", "instability", "clipping"]


def test_no_doubt_asserts_and_a_dismissal_in_dialect_rejects() -> None:
    """ "No doubt it's a bit flip" blames the hardware (a negator before "doubt" denies nothing);
    "startin' fresh'd be daft" and "wi'out proof" refuse what they name."""
    case = load_library_case()
    for blamed in (
        "No doubt it's a cosmic ray that flipped a bit on one of the GPUs. Roll back.",
        "Nae doubt it's a cosmic ray flipped a bit on wan o' the GPUs. Roll back tae it.",
    ):
        assert [f.id for f in grade_case(case, blamed).red_flags] == ["blame_bitflips"], blamed
    for refused in (
        "Back to t' last good checkpoint; startin' fresh'd be daft as a brush. Clip, bf16.",
        "Roll back an' clip. And don't be blamin' t' hardware wi'out proof.",
    ):
        assert not grade_case(case, refused).red_flags, refused


def test_the_safe_lr_range_is_no_learning_rate_lowered() -> None:
    """A bigger batch "just shrinks the range of safe learning rates" (the case's own reason to
    reject it) lowers no learning rate: neither the only-lower-the-LR red flag nor the triage
    item is credited for it."""
    case = load_library_case()
    answer = (
        "Roll back tae the last stable checkpoint and tighten the clipping. An' dinnae be daft"
        " an' double the batch, that just shrinks the range o' safe learnin' rates."
    )
    got = grade_case(case, answer)
    assert not got.red_flags
    [triage] = [p for p in got.parts if p.part == "triage"]
    assert [p.id for p in triage.items] == ["rollback", "clipping"]
    halved = grade_case(case, "Just halve the learning rate, that's all it takes.")
    assert [f.id for f in halved.red_flags] == ["only_lower_lr"]


def test_one_point_oh_is_one() -> None:
    assert normalise("one point oh") == [["{1}"]]
    assert normalise("the number is one-point-oh") == [["number", "{1}"]]
    assert normalise("one-point-five") == [["{1.5}"]]
    smaller = "Make the learning rate smaller when the batch grows."
    assert _built_in("qf-linear-scaling", smaller).verdict is Verdict.WRONG


def test_identifiers_typed_as_code_are_read_as_their_words() -> None:
    """camelCase splits where a word of two small letters meets a capital: `lastGoodCkpt` is the
    last good checkpoint, `skipStep()` skips the step; `PyTorch`, `AdamW` and `ReLU` stay whole."""
    assert normalise("restore(lastGoodCkpt)") == [["rollback", "last", "good", "ckpt"]]
    assert normalise("skipStep(); useBF16 = true") == [["skip", "step"], ["use", "bf16", "tru"]]
    assert normalise("PyTorch AdamW ReLU") == [["pytorch", "adam", "relu"]]
    coded = "if loss > 10*ema { skipStep(); logBatch(id) }"
    assert _built_in("bad-batch-detection", coded).verdict is Verdict.CORRECT
    assert _built_in("qf-spike-first-action", "restore(lastGoodCkpt)").verdict is Verdict.CORRECT


def test_a_dot_inside_code_ends_no_sentence() -> None:
    """A full stop typed without a space ends a sentence ("done.next"), but the dot of a method
    call joins its words: `optimizer.step()` is the optimizer step. A dotted path of keys is
    split at its dots, and so is a call that opens with its dot (" .detach()")."""
    assert normalise("done.next step") == [["don"], ["next", "step"]]
    assert normalise("after optimizer.step()") == [["after", "optim", "step"]]
    keys = normalise("mem.when_bs_doubles.grads_factor 1")
    assert keys == [["memory"], ["batch", "siz", "{2x}"], ["grad", "factor", "{1}"]]
    assert len(normalise("a stray .detach() call")) == 2
    late = "1.0, applied to the update after optimizer.step() has already run."
    assert _built_in("qf-clip-value", late).verdict is Verdict.WRONG
    before = "clip_grad_norm_ at 1.0 on the grads, just before opt.step()"
    assert _built_in("qf-clip-value", before).verdict is Verdict.CORRECT


def test_not_always_and_not_sure_deny_nothing() -> None:
    """ "Can't always get more data" says sometimes you can; "not sure what else" hedges. Neither
    denies what follows (`pseudo.not-only`, its words read as the answer's stems)."""
    more = (
        "You can't always get more data, but when you can it's the best fix. Otherwise: weight"
        " decay, dropout, augmentation, early stopping, a smaller model."
    )
    assert _built_in("overfitting-mitigations", more).verdict is Verdict.CORRECT
    assert normalise("not always more data")[0][0] != "not"
    unsure = "hmm, gradients vanishing somewhere? not sure what else"
    assert _built_in("grad-norm-zero", unsure).verdict is Verdict.PARTIAL


def test_a_limit_case_is_no_overflow() -> None:
    """ "Push the batch toward infinity" reasons about a batch without bound; only a loss or a
    gradient that goes to infinity is the overflow."""
    assert "nan" not in normalise("with infinite precision there is no overflow")[0]
    assert "nan" not in normalise("let the batch grow toward infinity")[0]
    assert "nan" in normalise("the loss goes to infinity")[0]
    limit = (
        "Take the batch toward infinity: past some size the gradient is already exact, so"
        " doubling it again buys no fewer steps. Where that knee sits depends on the task."
    )
    assert _built_in("critical-batch-size", limit).verdict is Verdict.CORRECT
    blown = "The batch size past which the loss goes to infinity."
    assert _built_in("critical-batch-size", blown).verdict is Verdict.WRONG


def test_a_retort_before_a_colon_heads_no_list() -> None:
    """ "It isn't: it's because ..." turns down the sentence before; the claim after the colon
    is the answer's own ("Not doing:" still refuses its list)."""
    retort = (
        "People say it straightens the curve. It isn't: the gains are additive, a fixed amount."
    )
    assert any(f.id == "additive" for f in _built_in("log-y-axis", retort).flags)
    case = load_library_case()
    refused = "Not doing: a restart from scratch. Roll back to the checkpoint, clip, lower the LR."
    assert grade_case(case, refused).red_flags == ()


def test_slips_on_what_a_method_acts_on() -> None:
    """Each a misconception a candidate could word many ways: the clip put on the loss, the
    micro-batches' activations summed, weight norms tracked, the validation loss checked."""
    wrong = {
        "qf-clip-value": "1.0, and it is applied to the loss so no batch scores above one.",
        "batch-memory-cost": "Linear; accumulation sums the activations across micro-batches"
        " and runs one backward.",
        "per-layer-grad-norm": "Plot the norm of each layer's weights; a layer whose weight"
        " norm keeps growing is exploding.",
        "bad-batch-detection": "Run the check on the validation loss: when it jumps to ten"
        " times its average, skip the update.",
        "small-batch-generalization": "Sometimes better: small batches give a more accurate"
        " gradient, so it settles in flat minima.",
        "qf-critical-batch": "Past it more batch stops helping: the gradient grows noisier as"
        " the batch grows.",
        "lr-finder": "Begin from a huge LR and shrink it each step, plot loss vs LR, take 10x"
        " below where it stops diverging.",
    }
    for card, answer in wrong.items():
        assert _built_in(card, answer).verdict is Verdict.WRONG, card


def test_the_last_good_save_is_a_checkpoint() -> None:
    assert normalise("reload the last good save") == [["rollback", "last", "good", "ckpt"]]
    assert normalise("it saves you weeks") == [["sav", "week"]]
    save = "Back to the last good save, skip the data around the spike, lower the LR."
    assert _built_in("spike-recovery", save).verdict is Verdict.CORRECT


def test_spike_recovery_rolls_back_before_it_mitigates() -> None:
    """The card says its order is deliberate: roll back first, then lower the learning rate on
    the recovered run. Mitigating on the live run and rolling back only if that fails is wrong."""
    later = (
        "Keep it training while you try the cheap stuff: switch to bf16, tighten the clipping,"
        " drop the LR. Only if none of that settles it do you roll back and skip the bad data."
    )
    assert _built_in("spike-recovery", later).verdict is Verdict.WRONG
    first = "Roll back to the last good checkpoint, skip the bad data, drop the LR, bf16, clip."
    assert _built_in("spike-recovery", first).verdict is Verdict.CORRECT


def test_a_restriction_on_the_cards_matter_named_again_is_one() -> None:
    """ "This limit exists only for SGD": an "only" after the card's matter named again by a
    demonstrative restricts the answer's own claim, as "it only happens with Adam" does; a
    condition the card makes is still none."""
    limited = (
        "Beyond this batch size, doubling it doesn't double progress; it depends on the task."
        " But this limit exists only for SGD."
    )
    assert _built_in("critical-batch-size", limited).verdict is Verdict.WRONG
    effect = (
        "Empirically yes, through noise toward flat minima, but the effect appears only with Adam."
    )
    assert _built_in("small-batch-generalization", effect).verdict is Verdict.WRONG
    fine = "Beyond this batch size, doubling it doesn't double progress; it depends on the task."
    assert _built_in("critical-batch-size", fine).verdict is Verdict.CORRECT
    # "it counts as X only when", the word order of "it only counts as X when"
    nats = "Train loss down, val up. But it counts as overfitting only when the gap tops 0.5 nats."
    assert _built_in("overfitting-signal", nats).verdict is Verdict.WRONG
    assert (
        _built_in("overfitting-signal", "Train loss down, val loss up.").verdict is Verdict.CORRECT
    )


def test_a_restriction_worth_turning_on_or_showing_up_only_once_is_one() -> None:
    """ "Worth turning on only when training in FP16" and "they only show up once you're past the
    first epoch" add a condition the card never makes, as "it only shows up when" does."""
    worth = (
        "It shows which layer is exploding or vanishing, which the global norm hides."
        " Worth turning on only when training in FP16."
    )
    assert [f.rule for f in _built_in("per-layer-grad-norm", worth).flags] == ["restriction"]
    plain = "It shows which layer is exploding or vanishing, which the global norm hides."
    assert _built_in("per-layer-grad-norm", plain).verdict is Verdict.CORRECT
    once = (
        "Loss falls far too slowly and compute is wasted, but they only show up once you're past"
        " the first epoch."
    )
    assert [f.rule for f in _built_in("lr-too-low", once).flags] == ["restriction"]


def test_a_colon_after_what_a_thing_is_and_is_not_opens_no_rejected_list() -> None:
    """ "What matters is the shape, not the value: X" says X; "Not on my list: X" rejects X."""
    c = card(pt("p", "norm .. level"), wrong=(pt("w", "norm .. start small"),))
    said = "What matters is the shape, not the value: the norm starts small, then levels out."
    assert verdict(c, said) == "wrong"
    rejected = "Not on my list: the norm starts small. The norm levels out."
    assert verdict(c, rejected) == "correct"


def test_rounding_to_nothing_is_to_zero_and_naethin_denies() -> None:
    """ "A gradient of 3e-9 would round to nothing" rounds it to zero (no denial, and the worked
    number is no wrong one); Scots "naethin" is "nothing", a negator ("Naethin looks broken")."""
    assert normalise("it would round to nothing") == [["round", "to", "{0}"]]
    worked = (
        "Yes. A gradient of 3e-9 would round to nothing in half precision, so multiply the loss"
        " by 65,536 before backward, then divide by 65,536 again before the optimizer step."
    )
    assert _built_in("fp16-loss-scaling", worked).verdict is Verdict.CORRECT
    crawl = "Naethin looks broken: the loss heads doon, but crawlin', and ye're burnin' GPU hours."
    assert _built_in("lr-too-low", crawl).verdict is Verdict.CORRECT


def test_fp32_master_weights_catches_its_comparison_turned_around() -> None:
    """The card: updates are tiny relative to the weights. The weights tiny next to the updates
    is the same claim turned around."""
    turned = "Because the weights are tiny compared with the updates, BF16 swamps them; keep FP32."
    assert _built_in("fp32-master-weights", turned).verdict is Verdict.WRONG
    right = "Because the updates are tiny compared with the weights, so in BF16 they round away."
    assert _built_in("fp32-master-weights", right).verdict is not Verdict.WRONG


@pytest.mark.parametrize(
    ("ref", "slip", "flag", "right"),
    [
        (
            "mid-training-spikes",
            "Bad batch, FP16 overflow, clipping never enabled, or the cosine schedule decaying "
            "the LR too quickly.",
            "decay-blamed",
            "Bad batch, FP16 overflow, or clipping never enabled.",
        ),
        (
            "grad-norm-spike",
            "bad batch, fp16 instability, clipping missing, or the LR decay reaching its floor",
            "decay-blamed",
            "bad batch, fp16 instability, clipping missing",
        ),
        (
            "mid-training-spikes",
            "Bad batch, FP16 overflow, or clipping off. Fix: reinitialise the model and go again.",
            "restart-from-scratch",
            "Bad batch, FP16 overflow, or clipping off. Fix: roll back to the last good save.",
        ),
        (
            "flat-early-loss",
            "Frozen weights or a detached graph, maybe LR too low or the wrong loss. Fix: peak LR "
            "lowered 10x.",
            "lr-too-high",
            "Frozen weights or a detached graph, maybe LR too low or the wrong loss.",
        ),
        (
            "warmup-length",
            "About 2k-8k steps, linear: start at the peak LR and bring it down evenly to the base.",
            "reversed",
            "About 2k-8k steps, linear: start at 0 and bring it up evenly to the peak.",
        ),
        (
            "fp16-vs-bf16",
            "BF16 needs no loss scaling and it's safer, because its extra mantissa precision keeps "
            "small gradients from rounding to zero.",
            "bf16-more-precise",
            "BF16 needs no loss scaling and it's safer, because its extra exponent range keeps "
            "small gradients from rounding to zero.",
        ),
        (
            "critical-batch-size",
            "Past it, doubling the batch no longer doubles progress, because the gradient gets "
            "noisier as you pile in more samples. Task-dependent.",
            "noisier-bigger",
            "Past it, doubling the batch no longer doubles progress: the gradient is already "
            "accurate, with little noise left to average away. Task-dependent.",
        ),
        (
            "val-gap-widening",
            "Overfitting. Add weight decay, get more data, and turn on early stopping keyed to the "
            "training loss.",
            "stop-at-train-min",
            "Overfitting. Add weight decay, get more data, and turn on early stopping keyed to the "
            "validation loss.",
        ),
        (
            "warmup-why",
            "At init Adam's moment estimates are unreliable, so early updates can be huge and "
            "diverge; warmup handles it by unfreezing the network one block at a time.",
            "unfreezing",
            "At init Adam's moment estimates are unreliable, so early updates can be huge and "
            "diverge; warmup handles it by ramping the LR up from near zero.",
        ),
        (
            "grad-norm-zero",
            "Vanishing gradients or saturated activations, not convergence. Fix: tighten the clip "
            "threshold to 0.1.",
            "clip-fix",
            "Vanishing gradients or saturated activations, not convergence.",
        ),
        (
            "clip-value",
            "We clip every parameter tensor to norm 1.0 on its own.",
            "per-parameter",
            "We clip the norm of all the gradients together to 1.0.",
        ),
        (
            "fp8-training",
            "Native on Hopper/Blackwell, saves memory over BF16; cast to FP8, then take the amax "
            "and per-tensor scale from the FP8 values.",
            "amax-after-cast",
            "Native on Hopper/Blackwell, saves memory over BF16; needs a per-tensor scale taken "
            "from each tensor's amax.",
        ),
        (
            "mid-training-spikes",
            "A bad batch, FP16 overflow or clipping left off. Usually you just ride it out; the "
            "loss comes back by itself.",
            "let-it-recover",
            "A bad batch, FP16 overflow or clipping left off.",
        ),
        (
            "grad-norm-spike",
            "Probably a bad batch or FP16 instability; take the clipping off so it can correct.",
            "disable-clipping",
            "Probably a bad batch or FP16 instability; make sure clipping is on.",
        ),
        (
            "lr-too-high",
            "The loss bounces, the grad norm explodes, NaNs show up and the validation gap widens.",
            "overfitting",
            "The loss bounces, the grad norm explodes and NaNs show up.",
        ),
        (
            "val-gap-widening",
            "Overfitting, because the network is too small to hold the data. Regularize, add "
            "data, stop early.",
            "too-small",
            "Overfitting. Regularize, add data, stop early.",
        ),
        (
            "batch-compute-cost",
            "Linear: twice the batch is twice the compute per step, because the Adam update "
            "doubles with the examples while the matmuls cost the same.",
            "optimizer-step-cost",
            "Linear: twice the batch is twice the compute per step, since the matmuls double.",
        ),
        (
            "fp8-training",
            "Native on Hopper/Blackwell with a per-tensor scale; memory drops about 4x next to "
            "BF16.",
            "saving-overstated",
            "Native on Hopper/Blackwell with a per-tensor scale; memory drops again next to BF16.",
        ),
        (
            "bad-batch-detection",
            "Apply the update first, then if the loss was over 10x the moving average skip the "
            "next batches.",
            "step-then-check",
            "If a batch's loss is over 10x the moving average, skip that update.",
        ),
        (
            "replay-buffer",
            "Put 5-15% pretraining data in the evaluation set and train only on the new domain.",
            "eval-only",
            "Train on 85-95% new-domain data with 5-15% of the pretraining mix replayed in.",
        ),
        (
            "qf-decay-shape",
            "Cosine, with the LR peaking at the final step.",
            "rising",
            "Cosine.",
        ),
        (
            "qf-linear-scaling",
            "Scale the LR, because a larger batch has a noisier gradient.",
            "noisier",
            "Scale the LR.",
        ),
        (
            "qf-critical-batch",
            "Saturation point; beyond it, raise the LR harder to get the speed back.",
            "lr-not-batch",
            "Saturation point.",
        ),
        (
            "qf-spike-first-action",
            "Cut the LR first; roll back only if that doesn't settle it.",
            "lr-first",
            "Restart from the last checkpoint.",
        ),
    ],
)
def test_slips_real_candidates_make_on_the_cards_are_caught(
    ref: str, slip: str, flag: str, right: str
) -> None:
    # the same answer without the slip stands
    got = _built_in(ref, slip)
    assert got.verdict is Verdict.WRONG
    assert flag in [f.id for f in got.flags]
    assert _built_in(ref, right).verdict is Verdict.CORRECT


def test_a_loss_that_falls_off_a_cliff_drops_steeply_and_one_that_grinds_down_descends() -> None:
    said = "it falls off a cliff at first, then grinds down steadily, then levels out"
    assert _built_in("loss-curve-phases", said).verdict is Verdict.CORRECT
    for steep in ("plummets early", "drops like a stone in the first few hundred steps"):
        got = _built_in("loss-curve-phases", f"it {steep}, then a long steady decline, then flat")
        assert got.verdict is Verdict.CORRECT, steep
    # without its steep start the curve is two phases of three
    assert _built_in("loss-curve-phases", "grinds down steadily, then levels out").verdict is (
        Verdict.PARTIAL
    )


def test_a_half_cosine_is_the_curve_and_a_rule_that_holds_until_a_limit_holds_below_it() -> None:
    # "a half-cosine" names the curve: no number (half of anything) is claimed
    said = "Yes: hold near the peak, then follow a half-cosine down to about a tenth of it."
    got = _built_in("cosine-decay", said)
    assert got.verdict is Verdict.CORRECT
    assert not got.flags
    # "holds until you get past X" is where it stops holding, not a claim that it holds past X
    until = "Scale the LR by k with the batch; it holds until you go past the critical batch."
    assert "holds-everywhere" not in [f.id for f in _built_in("linear-scaling-rule", until).flags]
    past = "Scale the LR by k with the batch; it holds past the critical batch as well."
    assert "holds-everywhere" in [f.id for f in _built_in("linear-scaling-rule", past).flags]


def test_code_that_sets_a_value_false_refuses_nothing() -> None:
    # "requires_grad=False" is a frozen parameter, a cause the card names; a field set to a
    # refusal ("restart: disallowed") is what reads as one
    said = "lr too low, frozen wts/requires_grad=False, broken graph, wrong loss"
    assert _built_in("flat-early-loss", said).verdict is Verdict.CORRECT


def test_a_negation_inside_a_condition_refuses_nothing_before_it() -> None:
    # "roll back if it doesn't" is the condition's "doesn't", not "..., so I wouldn't"
    causes = "Usually a bad batch, FP16 going unstable, or clipping never on. "
    said = causes + "Let the optimizer ride it out, and think about checkpoints if it doesn't."
    got = _built_in("mid-training-spikes", said)
    assert got.verdict is Verdict.WRONG
    assert "let-it-recover" in [f.id for f in got.flags]
    refused = causes + "Let the optimizer ride it out? No, I wouldn't."
    assert "let-it-recover" not in [f.id for f in _built_in("mid-training-spikes", refused).flags]


def test_a_decade_below_the_blow_up_is_an_order_of_magnitude() -> None:
    said = (
        "Sweep the LR up by a constant factor each step, watch the loss, and when it blows "
        "up pick a value one decade lower than that."
    )
    assert _built_in("lr-finder", said).verdict is Verdict.CORRECT


def test_a_loss_above_the_scaling_laws_expectation_is_compute_wasted() -> None:
    # a loss above the curve the scaling law expects is progress behind it, not a swapped fact
    said = "The curve was just creeping down and sat above the scaling-law expectation."
    got = _built_in("lr-too-low", said)
    assert got.verdict is Verdict.CORRECT
    assert not got.flags


def test_a_spaced_equals_sign_ends_a_negation_like_a_colon() -> None:
    """ "val not following = memorising": the `=` starts what the symptom means, so the "not"
    before it denies nothing after it; "requires_grad=False" is one config word, not a clause."""
    from grill.deck import load_library

    library = load_library(user_decks=False)
    said = "train down but val not following = memorising not generalising"
    flags = [f.id for f in grade_ref(library, "val-gap-widening", said).flags]
    assert "denial" not in flags
    assert normalise("val not following = memorising") == normalise("val not following: memorising")
    assert normalise("requires_grad=False") == normalise("frozen")


def test_a_negated_lead_in_then_a_clause_of_its_own_is_a_correction_not_a_rejected_list() -> None:
    """ "It isn't one fixed number: it depends on the task" says what the thing is; "What I would
    not do: restart" rejects what it lists, and a dismissal ("Myth: it's ...") still rejects."""
    from grill.deck import load_library

    library = load_library(user_decks=False)
    said = "the batch size past which doubling it stops helping. Not a fixed number: it depends"
    for answer in (f"{said} on the task.", f"{said} on the task, and grows as loss falls."):
        got = grade_ref(library, "critical-batch-size", answer)
        assert [f.id for f in got.flags] == [], answer
        assert got.verdict.label == "correct", answer
    case = load_library_case()
    assert not grade_case(case, "What I would not do: restart from scratch.").red_flags
    assert not grade_case(case, "Myth: it's always a bit flip.").red_flags


def _library_card(ref: str) -> Card:
    from grill.deck import load_library

    return load_library(user_decks=False).card(ref)


def test_a_waste_said_of_the_act_just_turned_down_is_no_restart() -> None:
    """ "Not a restart from scratch - that throws away the run": the run thrown away is what the
    restart would cost; the team that throws away the run restarts it."""
    case = load_library_case()
    kept = "Not a restart from scratch — that throws away the run. I'd check the grad-norm logs"
    kept += " first, then roll back to the last stable checkpoint and enable clipping."
    assert not grade_case(case, kept).red_flags
    assert not grade_case(case, "Restarting throws away the run; roll back and clip.").red_flags
    done = "The team throws away the run and launches it again from step zero."
    assert [f.id for f in grade_case(case, done).red_flags] == ["restart_from_scratch"]


def test_only_then_lowering_the_lr_is_not_only_lowering_it() -> None:
    case = load_library_case()
    late = "Roll back to the last healthy checkpoint, enable clipping, switch to bf16, and only"
    late += " then consider a smaller lr."
    assert not grade_case(case, late).red_flags
    only = "Roll back to the last healthy checkpoint and only lower the lr."
    assert [f.id for f in grade_case(case, only).red_flags] == ["only_lower_lr"]


def test_a_lead_in_that_denies_what_can_be_known_turns_no_list_down() -> None:
    """ "you can't trust anything after a spike: kill the job, ..." says what to do, and the
    thing asked about as the subject ("It can't skip it:") makes a claim; a person's refusal
    ("What I would not do:", "I wouldn't double the batch:") still turns its list down."""
    case = load_library_case()
    lead = "Without a clean slate you can't trust anything after a spike: kill the job,"
    lead += " re-initialise, and start again from step zero."
    assert [f.id for f in grade_case(case, lead).red_flags] == ["restart_from_scratch"]
    refused = "What I would not do: restart from scratch, blame bit flips. Roll back and clip."
    assert not grade_case(case, refused).red_flags
    why = "And I wouldn't double the batch to smooth it out: bigger batches shrink the range of"
    why += " learning rates that are safe, so roll back to the checkpoint and clip."
    assert not grade_case(case, why).red_flags
    bf16 = _library_card("qf-bf16-needs")
    claim = grade(bf16, "It can't skip it: bf16 wants dynamic loss scaling exactly like fp16 does.")
    assert claim.verdict is Verdict.WRONG
    assert grade(bf16, "Nothing extra: no loss scaling.").verdict is Verdict.CORRECT


def test_a_lexicon_entry_with_a_number_word_is_read() -> None:
    assert normalise("small grads flush to zero") == normalise("small grads underflow")
    assert normalise("the grads flush to 0") == normalise("the grads underflow")
    assert normalise("zero to peak in 10 steps") == [["{0}", "to", "peak", "{10}", "step"]]


def test_a_key_point_denied_in_a_counterfactual_is_not_contradicted() -> None:
    """ "Without a log axis ... you can't see small differences" says what happens without it:
    no contradiction of "small differences visible". Said of the log axis itself, it is one."""
    c = card(pt("early", "early drop"), pt("small", "see .. small differ"))
    supposed = "Without a log axis the early drop swamps everything, and you can't see small"
    supposed += " differences."
    assert verdict(c, supposed) == "partial"
    assert not grade(c, "If you skipped the log axis you couldn't see small differences.").flags
    denied = grade(c, "On a log axis you can't see small differences.")
    assert [f.id for f in denied.flags] == ["small"]


def test_a_remedy_supposed_away_is_not_denied() -> None:
    """ "Without grad clipping you're exposed" says clipping is needed; it denies nothing."""
    prevention = _library_card("spike-prevention")
    g = grade(prevention, "Without grad clipping you're exposed, so turn that on.")
    assert g.verdict is Verdict.PARTIAL and not g.flags


def test_a_misconception_supposed_and_then_denied_is_not_claimed() -> None:
    """ "if both are still going down, it isn't overfitting yet" states the rule the
    misconception breaks; "it's when ..." is a definition, and one not denied is claimed."""
    signal = _library_card("overfitting-signal")
    rule = "Train loss keeps falling while val loss stalls and then turns upward; if both are"
    rule += " still going down, it isn't overfitting yet."
    assert grade(signal, rule).verdict is Verdict.CORRECT
    assert grade(signal, "if both are still going down, that's overfitting.").verdict is (
        Verdict.WRONG
    )


@pytest.mark.parametrize(
    "typed",
    [
        "Not really for LLMs. Step decay is the standard: cut the LR 10x and end at 10%",
        "Is it the common decay? Not anymore; step decay to 10% is the norm.",
    ],
)
def test_a_verdict_word_after_a_setting_or_a_question_asked_back(typed: str) -> None:
    g = grade(YES_CARD, typed)
    assert [f.id for f in g.flags] == ["verdict"], typed
    assert grade(YES_CARD, "Is it common? Yes, to 10%").verdict.label == "correct"


def test_a_phrase_fronted_by_with_ends_at_the_main_clause_subject() -> None:
    """ "With almost no dynamic range you need per-tensor scales": the `no` is the fronted
    phrase's, not a denial of the need; said in one clause, the need is denied."""
    c = card(pt("scale", "need per tensor scal"), wrong=(pt("none", "not need scal"),))
    said = "With almost no dynamic range you need per-tensor scaling factors."
    assert verdict(c, said) == "correct"
    assert verdict(c, "You need no per-tensor scaling factors with that range.") == "wrong"


def test_empty_call_parentheses_are_read_as_code_not_a_pause() -> None:
    """ "optimizer.step() after each micro-batch" says the step comes after each micro-batch."""
    c = card(pt("acc", "accumul"), wrong=(pt("each", "step after each micro batch"),))
    assert verdict(c, "accumulation: call optimizer.step() after each micro-batch") == "wrong"
    assert verdict(c, "accumulation: sum micro-batch grads, then optimizer.step() once") == (
        "correct"
    )


def test_a_lead_in_that_sets_one_thing_aside_for_another_lists_what_it_names() -> None:
    """ "Vanishing gradients rather than convergence: A, B or C" names the causes; each is said,
    a false one among them too."""
    c = card(
        pt("vanish", "vanish"),
        pt("dead", "dead"),
        wrong=(pt("lr", "lr too high"),),
        correct=2,
    )
    lead = "That's vanishing gradients rather than convergence: dead ReLUs, or an lr too high."
    assert verdict(c, lead) == "wrong"
    assert verdict(c, "Vanishing gradients, not convergence: dead ReLUs, saturation.") == (
        "correct"
    )


def test_a_contrast_said_of_what_the_explanation_sets_against_is_not_turned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ "distinguishable from batch noise because it's periodic rather than random": "batch
    noise looks random, not periodic" agrees; said of the oscillation itself it is turned."""
    c = replace(
        card(pt("lr", "lr too high"), correct=1),
        explanation="It's distinguishable from ordinary batch noise because it's periodic rather"
        " than random.",
    )
    assert verdict(c, "LR too high. Ordinary batch noise looks random, not periodic.") == (
        "correct"
    )
    assert verdict(c, "LR too high. The oscillation is random, not periodic.") == "wrong"
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "contrast.foil")
    assert verdict(c, "LR too high. Ordinary batch noise looks random, not periodic.") == "wrong"


def test_mitigating_with_a_lower_lr_among_other_steps_is_not_only_lowering_it() -> None:
    case = load_library_case()
    plan = "Roll back to the last stable checkpoint; then mitigate with a lower LR, clipping at"
    plan += " 1.0 and BF16 instead of FP16."
    assert not grade_case(case, plan).red_flags
    only = "Roll back to the last checkpoint. The fix is to lower the LR."
    assert [f.id for f in grade_case(case, only).red_flags] == ["only_lower_lr"]


@pytest.mark.parametrize(
    ("answer", "blamed"),
    [
        ("The LR is probably an order of magnitude smaller than it should be.", "lr-too-low"),
        ("My bet: the learning rate is way lower than it needs to be.", "lr-too-low"),
        ("The LR is ten times higher than it should be.", "lr-too-high"),
    ],
)
def test_a_comparison_with_what_should_be_says_too(answer: str, blamed: str) -> None:
    # "smaller than it should be" is "too small": it blames a low LR, not a lowered one
    flags = [f.id for f in _built_in("flat-early-loss", answer).flags]
    assert ("lr-too-high" in flags) is (blamed == "lr-too-high")


@pytest.mark.parametrize(
    ("ref", "answer", "restricted"),
    [
        (
            "per-layer-grad-norm",
            "It finds which layer explodes or vanishes, but it's only worth doing below a"
            " billion parameters.",
            True,
        ),
        (
            "fp8-training",
            "Native on Hopper and Blackwell, halves memory again versus BF16; per-tensor scale"
            " factors are only needed if you stay in FP8 beyond a few thousand steps.",
            True,
        ),
        (
            "fp8-training",
            "Native on Hopper and Blackwell, halves memory again versus BF16; per-tensor scale"
            " factors are only needed for FP8, which has almost no dynamic range.",
            False,
        ),
    ],
)
def test_only_worth_it_or_only_needed_under_a_condition_the_card_never_makes(
    ref: str, answer: str, restricted: bool
) -> None:
    assert ("restriction" in [f.id for f in _built_in(ref, answer).flags]) is restricted


def test_an_outcome_after_the_last_step_is_no_step_in_the_sequence() -> None:
    # "->" after the last step can say what it buys: a clause that denies a verb tells what
    # does not happen, not a step that comes after the optimizer step
    steps = "loss*S before backward, grads/S before opt step"
    for outcome in (" -> tiny grads don't underflow", ", then tiny grads don't vanish"):
        got = _built_in("fp16-loss-scaling", "yes: " + steps + outcome)
        assert got.verdict is Verdict.CORRECT and not got.flags, outcome
    reversed_ = "yes: multiply the loss by S, take the optimizer step, then divide the grads by S"
    assert [f.rule for f in _built_in("fp16-loss-scaling", reversed_).flags] == ["sequence"]


def test_a_setting_that_stays_put_is_unchanged() -> None:
    for kept in ("stays put", "stays where it is", "stays as it was"):
        assert normalise(f"the LR {kept}") == normalise("the LR stays unchanged"), kept
    assert normalise("leave the LR untouched") == normalise("leave the LR unchanged")
    got = _built_in("linear-scaling-rule", "Double the batch, double the warmup; the LR stays put.")
    assert "lr-unchanged" in [f.id for f in got.flags]


def test_an_arrow_into_a_denied_verb_says_what_the_step_buys() -> None:
    for arrow in ("->", "→", "=>"):
        said = f"warmup {arrow} the loss doesn't blow up"
        assert normalise(said) == normalise("warmup, so the loss doesn't blow up"), arrow
    assert normalise("warmup -> the loss blows up") != normalise("warmup, so the loss blows up")
    steps = "yes: loss*S before backward, grads/S before opt step -> tiny grads don't underflow"
    assert grade(_csv_card("fp16-loss-scaling"), steps).verdict is Verdict.CORRECT


def test_what_is_regularised_toward_its_old_values_is_what_is_regularised() -> None:
    # the CSV deck's EWC card says "Regularize toward old weights": the weights are regularised
    card = _csv_card("ewc")
    wrong = "It regularises the model's activations toward their old values, Fisher-weighted."
    assert "object" in [f.rule for f in grade(card, wrong).flags]
    right = "It regularises the weights toward their old values, Fisher-weighted."
    assert grade(card, right).verdict is Verdict.CORRECT


def test_the_first_action_put_after_another_is_not_first() -> None:
    card = _csv_card("qf-spike-first-action")
    for late in (
        "Lower the LR and keep going; only roll back to the checkpoint if it hasn't recovered.",
        "Let it run a few thousand steps to see if it recovers, and then restore the checkpoint.",
        "Drop the LR first, and only if it doesn't settle, restore the checkpoint.",
        "Keep training a while and reload the checkpoint afterwards.",
    ):
        assert "first" in [f.rule for f in grade(card, late).flags], late
    for first in (
        "Restore the checkpoint, then skip the batch.",
        "Roll back to the last good checkpoint; if it spikes again later, skip that batch.",
        "If it's a real spike and not a blip, then roll back to the last good checkpoint.",
        "double check grad norms, then restart from last good ckpt",
    ):
        assert grade(card, first).verdict is Verdict.CORRECT, first


def test_a_lead_in_that_says_what_a_sign_means_turns_nothing_down() -> None:
    listed = (
        "Flat from step one means the weights never get a command: the LR is too low, a layer is"
        " frozen, or the batch is too large for the gradient signal to register."
    )
    assert "batch-blamed" in [f.id for f in _built_in("flat-early-loss", listed).flags]
    refused = "What I would never blame: the batch being too large, or the model too small."
    assert _built_in("flat-early-loss", refused).flags == ()


def test_my_best_guess_is_my_answer() -> None:
    assert normalise("bit flips are my best guess") == normalise("bit flips are my answer")
    assert normalise("my bet is a bad batch") == normalise("my answer is a bad batch")


def test_each_gradient_element_is_per_parameter() -> None:
    for said in ("each gradient element", "every individual weight value", "each element"):
        assert normalise(f"clip {said}") == normalise("clip per parameter"), said
    card = _csv_card("qf-clip-value")
    assert grade(card, "1.0, applied to each gradient element.").verdict is Verdict.WRONG
    assert grade(card, "1.0 on the global norm.").verdict is Verdict.CORRECT


def test_what_the_explanation_corrects_put_forward_as_the_reading_is_wrong() -> None:
    # "That's usually not convergence, that's vanishing gradients"
    card = _csv_card("grad-norm-zero")
    for said in (
        "Vanishing gradients, saturation, dead neurons, or plain convergence.",
        "Usually that's just the model converging, which is fine.",
    ):
        assert "denied-by-explanation" in [f.id for f in grade(card, said).flags], said
    for said in (
        "Vanishing gradients, saturation or dead neurons; not convergence.",
        "Vanishing gradients, saturation, dead neurons. Genuine convergence keeps a small norm.",
    ):
        assert grade(card, said).verdict is Verdict.CORRECT, said
