"""The loss-spike case deck: it loads, is graded in the standard's three parts with the four
named red flags, and carries the user's case text word for word."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from grill.deck import load_deck
from grill.errors import DeckError
from grill.grader import grade_case
from grill.model import Case, Verdict

ROOT = Path(__file__).resolve().parents[1]
CASE_DECK = ROOT / "decks" / "loss-spike-case.yaml"
SEED_NAME = "002_6d6a9463d6cb90b4.txt"
SECTIONS = {
    "WHAT THIS TESTS": "tests",
    "A GOOD ANSWER COVERS": "covers",
    "COMMON WRONG ANSWERS": "wrong_answers",
    "LIKELY FOLLOW-UPS": "follow_ups_text",
    "ONE CONCRETE EXAMPLE": "example",
}

_PLAN = "Check the grad norm logs, roll back to the last good checkpoint, clip, bf16. "
"""A good plan, written before a sentence under test: the case is graded on that sentence."""


def _seed() -> Path | None:
    """The seed in `../shared/seeds` beside the checkout (or beside a worktree's parent)."""
    for folder in ROOT.parents:
        candidate = folder / "shared" / "seeds" / SEED_NAME
        if candidate.is_file():
            return candidate
    return None


SEED = _seed()


@pytest.fixture(scope="module")
def case() -> Case:
    deck = load_deck(CASE_DECK)
    assert deck.name == "loss-spike-case"
    assert not deck.cards
    (only,) = deck.cases
    return only


def test_case_loads_as_spike_with_source(case: Case) -> None:
    assert case.id == "spike"
    assert case.question == "What causes sudden loss spikes in long pre-training runs?"
    assert case.source == "rohan-paul.com"


def test_case_has_the_three_parts_each_with_items(case: Case) -> None:
    assert [p.id for p in case.parts] == ["culprits", "triage", "prevention"]
    for part in case.parts:
        assert part.items, part.id
        assert all(item.match for item in part.items), part.id


def test_case_has_the_four_named_red_flags(case: Case) -> None:
    assert sorted(f.id for f in case.red_flags) == [
        "blame_bitflips",
        "increase_batch_size",
        "only_lower_lr",
        "restart_from_scratch",
    ]


def test_case_has_four_follow_ups_with_key_points(case: Case) -> None:
    assert len(case.follow_ups) == 4
    for follow_up in case.follow_ups:
        assert follow_up.question.endswith("?")
        assert 2 <= len(follow_up.points) <= 4


def _seed_sections(text: str) -> dict[str, str]:
    heads = "|".join(re.escape(h) for h in SECTIONS)
    found = re.findall(rf"^({heads}): (.*?)(?=\n\s*\n|\Z)", text, re.S | re.M)
    return {head: body.strip() for head, body in found}


@pytest.mark.skipif(SEED is None, reason="the seed files are not beside this checkout")
def test_seed_sections_appear_word_for_word(case: Case) -> None:
    assert SEED is not None
    text = SEED.read_text(encoding="utf-8")
    sections = _seed_sections(text)
    assert set(sections) == set(SECTIONS)
    for head, field in SECTIONS.items():
        assert getattr(case, field) == sections[head], head
    assert case.question == text.splitlines()[0].strip()
    assert "Source: rohan-paul.com" in text


@pytest.mark.parametrize(
    ("answer", "flag"),
    [
        ("Restart training from scratch with bf16.", "restart_from_scratch"),
        ("It's random hardware bit flips, nothing to debug.", "blame_bitflips"),
        ("Just lower the learning rate, that fixes it.", "only_lower_lr"),
        ("Increase the batch size to smooth out the spike.", "increase_batch_size"),
        ("Roll back, then raise the global batch from 2M to 8M tokens.", "increase_batch_size"),
        ("Roll back and halve the learning rate; no further remedy is required.", "only_lower_lr"),
        ("Cut the LR in half. Clipping and precision are out of scope.", "only_lower_lr"),
        ("All you really need is a lower LR; roll back first.", "only_lower_lr"),
        ("Cut the LR and resume; changing precision isn't worth the bother.", "only_lower_lr"),
        ("Roll back; the only knob I turn is the learning rate.", "only_lower_lr"),
        (
            "Roll back and double the global batch so the gradient is smoother.",
            "increase_batch_size",
        ),
        (
            "Roll back; the batch size is doubled so the spike is averaged out.",
            "increase_batch_size",
        ),
        (
            "Check the logs, then I'd probably just restart the whole thing fresh.",
            "restart_from_scratch",
        ),
        (
            "Roll back. The only thing I'd change is the learning rate, cut it by half. Clipping"
            " and precision I'd leave, they're not the issue.",
            "only_lower_lr",
        ),
        ("I'd turn the learning rate doon a wee bit; that's likely all it needs.", "only_lower_lr"),
        (
            "Grad norm blew up, so spin up a clean run from random initialisation.",
            "restart_from_scratch",
        ),
    ],
)
def test_each_named_wrong_answer_raises_its_red_flag(case: Case, answer: str, flag: str) -> None:
    graded = grade_case(case, answer)
    assert [f.id for f in graded.red_flags] == [flag]
    assert graded.verdict == Verdict.WRONG


def test_a_rejected_wrong_answer_is_not_a_red_flag(case: Case) -> None:
    answer = (
        "Don't restart from scratch and don't bump the batch size. Likely an exploding grad norm "
        "in attention or fp16 overflow: check the grad norm logs, roll back to the last stable "
        "checkpoint, tighten clipping, move to bf16. Prevent it with pre-LN and per-layer logging."
    )
    graded = grade_case(case, answer)
    assert graded.red_flags == ()
    assert [p.part for p in graded.parts if p.covered] == ["culprits", "triage", "prevention"]
    assert graded.verdict == Verdict.CORRECT


@pytest.mark.parametrize(
    ("asked", "committed"),
    [
        ("Restarting from scratch? Quatsch.", False),
        ("Bit flips?? In this economy?", False),
        ("Restart from scratch? Yes, I would.", True),
        ("Why not just restart from scratch?", True),
        ("Restart from scratch? No.", False),
        ("Maybe a larger batch would help smooth it out? I'd try it.", True),
        ("Perhaps bit flips? Nah, no evidence.", False),
        ("I'd probably just restart the whole thing from the beginning to be safe, maybe?", True),
        ("I'm thinking maybe a bigger batch would smooth it out? Not totally sure, but yes.", True),
        ("Would I restart from scratch? Never.", False),
    ],
)
def test_a_red_flag_only_asked_about_is_not_put_forward(
    case: Case, asked: str, committed: bool
) -> None:
    answer = _PLAN + asked
    assert bool(grade_case(case, answer).red_flags) is committed


@pytest.mark.parametrize(
    ("sentence", "committed"),
    [
        ("Restarting from scratch is throwing the baby out with the bathwater.", False),
        ("A bigger batch to smooth it out would be a sledgehammer to crack a nut.", False),
        ("Restarting from scratch is the safest fix.", True),
        ("Bit flips are the likely cause.", True),
        ("I'd restart from scratch, it is cleaner.", True),
        ("Restarting from scratch is all kinds of trouble.", False),
        ("Lowering the LR is all it takes.", True),
        ("Bumping the batch size wouldn't do anything.", False),
        ("Only dropping the LR wouldnae be enough on its own.", False),
        ("Restarting from scratch won't get you anywhere.", False),
        ("Bumping the batch size to smooth it wouldn't hurt.", True),
        ("Bit flips can't be ruled out.", True),
        ("Just lowering the LR alone, I don't think that will be enough.", False),
        ("Restarting from scratch, that would be throwing weeks away.", False),
        ("Restarting from scratch, that's the safest fix.", True),
        ("Blaming bit flips, though, would be a cop-out.", False),
        ("Blaming bit flips, though, is the answer.", True),
        ("Restarting from scratch would merely delay the problem.", False),
        ("Bit flips only happen at scale, so they're the cause.", True),
        ("A bigger batch to smooth it will only help.", True),
        ("Throwing the run away and beginning again from zero should not be done.", False),
        ("Restarting from scratch and the data pipeline won't matter.", True),
    ],
)
def test_a_red_flag_idea_judged_as_a_subject_is_not_put_forward(
    case: Case, sentence: str, committed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = _PLAN
    assert bool(grade_case(case, answer + sentence).red_flags) is committed
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "case.evaluated,case.stance")
    assert grade_case(case, answer + sentence).red_flags  # the phrases alone raise it


def test_a_statement_answered_by_a_bare_refusal_is_turned_down(case: Case) -> None:
    answer = _PLAN
    for proposed, committed in [
        ("Wire received: restart from zero advise. Reply sent: negative.", False),
        ("Option on the table: double the batch size. Verdict: no.", False),
        ("Restart from scratch. That's what I'd do.", True),
    ]:
        assert bool(grade_case(case, answer + proposed).red_flags) is committed, proposed


def test_what_others_said_is_not_put_forward_unless_agreed(case: Case) -> None:
    answer = _PLAN
    for reported, committed in [
        ("Somebody in Slack blamed cosmic rays; nobody could show an ECC error.", False),
        ("If someone says bit flips, I ask for the ECC counters.", False),
        ("My lead said bit flips, and she was right.", True),
        ("Someone suggested restarting from scratch and I agreed.", True),
        (
            "On-call floated relaunching from step zero; the checkpoint made that unnecessary.",
            False,
        ),
        ("My lead's first theory was cosmic-ray bit flips; the logs didn't back him up.", False),
        ("Priya pushed for a bigger batch to smooth it, and she was right.", True),
        ("We floated restarting from scratch.", True),
        ("The ops lead's first call was cosmic rays corrupting memory. I'd disagree.", False),
        ("A junior would reach for a clean run from step 0; I'd stop them.", False),
        ("Non-determinism gets the blame when nobody has replayed the step.", False),
        ("Non-determinism gets the blame, and I agree: a node hiccuped.", True),
        ("My old PI called it a flaky GPU flipping bits; I don't buy it without evidence.", False),
        ("My PI called it a flaky GPU, and he was right.", True),
    ]:
        assert bool(grade_case(case, answer + reported).red_flags) is committed, reported


@pytest.mark.parametrize(
    ("quoted", "committed"),
    [
        ("If a junior wrote 'just lower the LR' I'd mark it down.", False),
        ('A junior once wrote "restart from scratch to be safe" on the board.', False),
        ("'Restart from scratch' is the safest fix.", True),
        ('"Hardware glitch" is not an accepted root cause unless a node diagnostic failed.', False),
        ("'Just lower the LR' is not an accepted fix on this team.", False),
        ("'Bit flips' are not only possible but the likely cause.", True),
        ('The chatbot told me: "increase the batch size to smooth it." I\'d go with that.', True),
        ('A forum post said "restart from scratch to be safe" and I agree.', True),
        ('The forum said "restart from scratch to be safe"; we rolled back instead.', False),
    ],
)
def test_a_red_flag_in_quotation_marks_is_named_not_put_forward(
    case: Case, quoted: str, committed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = _PLAN
    assert bool(grade_case(case, answer + quoted).red_flags) is committed
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "case.quoted,case.stance")
    assert grade_case(case, answer + quoted).red_flags


@pytest.mark.parametrize(
    ("supposed", "committed"),
    [
        (
            "If you only lowered the LR and walked away, you'd be back in my office next week.",
            False,
        ),
        ("If we restart from scratch, we lose three weeks of compute.", False),
        ("If you just lower the LR, the spike comes back.", False),
        ("If it spikes again, restart from scratch.", True),
        ("If you restart from scratch, you get a clean run.", True),
        ("If you restart from scratch, you can try again with fresh weights.", True),
        ("If you only lower the LR, it spikes again next week.", False),
        ("If the loss spikes, just lower the LR, and it won't come back.", True),
    ],
)
def test_a_red_flag_supposed_with_what_goes_wrong_after_it_is_a_warning(
    case: Case, supposed: str, committed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = _PLAN
    assert bool(grade_case(case, answer + supposed).red_flags) is committed
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "case.warned,case.stance")
    assert grade_case(case, answer + supposed).red_flags


@pytest.mark.parametrize(
    ("listed", "committed"),
    [
        ("No need to panic-restart from zero, blame cosmic rays, or fiddle with the LR.", False),
        ("I wouldn't restart from scratch, blame bit flips or grow the batch to smooth it.", False),
        ("Don't panic, restart from scratch, and pin it on cosmic rays.", True),
    ],
)
def test_a_negator_over_a_list_closed_by_or_denies_every_item(
    case: Case, listed: str, committed: bool
) -> None:
    answer = _PLAN
    assert bool(grade_case(case, answer + listed).red_flags) is committed


def test_an_idea_set_aside_or_named_as_a_motion_denied_is_not_put_forward(case: Case) -> None:
    answer = _PLAN
    for turned_down in (
        "I did think about raising the batch size to smooth it, but set that aside.",
        "The motion to enlarge the batch and smooth the spike is denied.",
        "The idea of restarting from scratch is tempting but wrong.",
    ):
        assert not grade_case(case, answer + turned_down).red_flags, turned_down
    put_forward = "The plan to restart from scratch is the safest fix."
    assert grade_case(case, answer + put_forward).red_flags


@pytest.mark.parametrize(
    ("said", "committed"),
    [
        ("What I wouldn't do is chalk it up to bit-flips or start over from step zero.", False),
        ("I briefly wondered about a flaky GPU, but the grad-norm log points elsewhere.", False),
        ("I considered restarting from scratch and did it.", True),
        ("Maybe a larger batch to smooth it out? Not sure, but I'd sooner do that.", True),
    ],
)
def test_an_idea_only_wondered_about_or_listed_as_not_done_is_not_put_forward(
    case: Case, said: str, committed: bool
) -> None:
    answer = _PLAN
    assert bool(grade_case(case, answer + said).red_flags) is committed


def test_a_hedge_is_no_refusal(case: Case) -> None:
    answer = _PLAN
    hedged = "My bet is a flipped bit in HBM, maybe, I can't be sure."
    assert [f.id for f in grade_case(case, answer + hedged).red_flags] == ["blame_bitflips"]
    assert not grade_case(case, answer + "A flipped bit? I can't see why.").red_flags


def test_a_list_headed_by_a_judgement_turns_its_items_down(case: Case) -> None:
    answer = _PLAN
    listed = "Contraindicated: restarting from scratch, growing the batch to smooth things."
    assert not grade_case(case, answer + listed).red_flags


def test_no_in_a_borrowed_language_turns_an_idea_down(case: Case) -> None:
    answer = _PLAN
    assert not grade_case(case, answer + "Restarting from scratch — não.").red_flags
    assert not grade_case(case, answer + "A bigger batch to smooth it? Nein.").red_flags
    assert not grade_case(case, answer + "Huwag mong i-restart from zero.").red_flags
    assert not grade_case(case, answer + "Jangan restart from scratch, tidak perlu.").red_flags
    assert grade_case(case, answer + "Then restart from scratch, tidak ada pilihan.").red_flags


@pytest.mark.parametrize(
    "judged",
    [
        "just lowering the lr on its own is to shallow",
        "lowering the learning rate alone is insufficient",
        "only lowering the lr would be a band-aid",
        "lowering the lr and calling it done is too naive",
    ],
)
def test_a_fix_judged_too_weak_is_not_a_red_flag(case: Case, judged: str) -> None:
    answer = (
        "Likely an exploding grad norm or fp16 overflow: check the grad norm logs, roll back to "
        f"the last stable checkpoint, tighten clipping, move to bf16, because {judged}. "
        "Prevent it with pre-LN and per-layer logging."
    )
    assert grade_case(case, answer).red_flags == ()
    assert grade_case(case, "Just lower the learning rate; that is all it takes.").red_flags


@pytest.mark.parametrize(
    "opening",
    [
        "Things I would not do: start over from step 0, blame cosmic rays, or raise the batch.",
        "Not what I'd try: retraining from zero, hardware bit flips, a bigger batch.",
    ],
)
def test_red_flags_in_a_rejected_list_are_not_raised(case: Case, opening: str) -> None:
    """Context rule negation.list: a short negated lead-in and a colon reject the whole list."""
    rest = " The likely cause is fp16 overflow; check the grad norm, then roll back to a ckpt."
    graded = grade_case(case, opening + rest)
    assert graded.red_flags == ()
    assert graded.verdict == Verdict.PARTIAL


def test_a_list_after_a_colon_is_not_rejected_without_a_negation(case: Case) -> None:
    graded = grade_case(case, "My plan: restart from scratch with a new seed, then use bf16.")
    assert [f.id for f in graded.red_flags] == ["restart_from_scratch"]


def test_a_lead_in_negated_only_as_a_description_rejects_no_list(case: Case) -> None:
    # "with no peaks" describes the curve; the list after its colon is put forward
    graded = grade_case(case, "A trace with no warning at all: restart from scratch, then bf16.")
    assert [f.id for f in graded.red_flags] == ["restart_from_scratch"]
    graded = grade_case(case, "What I would not do: restart from scratch, then bf16.")
    assert not graded.red_flags


def test_grad_norm_credited_first_only_when_read_first(case: Case) -> None:
    assert "check-grad-norm" in _triage_items(case, "Grad norm logs first, then roll back.")
    assert "check-grad-norm" in _triage_items(case, "Grad norm is the first thing I check.")
    later = "Prevent it: log grad norms per layer so you see which block goes first."
    assert "check-grad-norm" not in _triage_items(case, later)


@pytest.mark.parametrize(
    ("said", "committed"),
    [
        (
            "Restart from step zero? Why would I throw away a run that was healthy an hour ago.",
            False,
        ),
        ("Why would I restart from scratch when the checkpoint is fine.", False),
        ("Odds on a restart from zero being worth it: very long.", False),
        ("The odds are long, but restart from scratch anyway.", True),
        ("A leap with nothing else unusual on the dashboard is a cosmic ray corrupting it.", True),
        ("Blaming bit flips, though, is the answer.", True),
        ("Restart from scratch? The answer is no.", False),
        ("Restarting from scratch is not the answer.", False),
    ],
)
def test_rhetorical_questions_long_odds_and_endorsements(
    case: Case, said: str, committed: bool
) -> None:
    assert bool(grade_case(case, _PLAN + said).red_flags) is committed, said


def _triage_items(case: Case, answer: str) -> list[str]:
    parts = {p.part: p for p in grade_case(case, answer).parts}
    return [i.id for i in parts["triage"].items]


@pytest.mark.parametrize(
    "answer", ["switch to bf16", "fp16->bf16", "fp16 → bf16", "use bf16 instead of fp16"]
)
def test_switching_to_bf16_is_triage(case: Case, answer: str) -> None:
    assert "bf16" in _triage_items(case, answer)


def test_naming_both_precisions_is_not_switching(case: Case) -> None:
    assert "bf16" not in _triage_items(case, "numerical instability in fp16/bf16")


def test_a_red_flag_said_beside_the_evidence_it_lacks_is_none(
    case: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = _PLAN
    excused = (
        "I'd give long odds against hardware bit-flips unless there's evidence.",
        "Hardware fault I will consider only if ECC counters are showing errors.",
        "Bit flips? I'll entertain that the day someone hands me an ECC log.",
    )
    for said in excused:
        assert not grade_case(case, answer + said).red_flags, said
    # evidence denied, or named only in a later sentence, excuses nothing
    for said in (
        "It was a bit flip, I'm sure, no evidence needed.",
        "It's bit flips on one GPU. Check the ECC logs later.",
    ):
        assert [f.id for f in grade_case(case, answer + said).red_flags] == ["blame_bitflips"]
    monkeypatch.setenv("GRILL_GRADER_WITHOUT", "case.unless,case.stance")
    assert grade_case(case, answer + excused[0]).red_flags


@pytest.mark.parametrize(
    ("said", "flag"),
    [
        (
            "Loss spike come because learning rate is too much for the batch size, or gradient "
            "explode. What to do: only make learning rate lower, maybe half, and continue.",
            "only_lower_lr",
        ),
        ("Runbook: set lr = lr/2 and resume. That's the whole fix.", "only_lower_lr"),
        (
            "There is only one cure: cast the run away and begin again from the very first step!",
            "restart_from_scratch",
        ),
        (
            "Roll back, turn on clipping, and BULK UP the batch size to absorb the blows!",
            "increase_batch_size",
        ),
        (
            "Roll back, then pack more samples into every step so one odd batch is averaged in.",
            "increase_batch_size",
        ),
        (
            "Those weights went through an explosion, so fly it all again from step one.",
            "restart_from_scratch",
        ),
        (
            "Reload the checkpoint and halve the LR. Clipping and precision are fine as they are.",
            "only_lower_lr",
        ),
        ("It's the cluster: a node hiccuped and some memory got corrupted.", "blame_bitflips"),
        ("The cluster just isn't deterministic; roll back and resume.", "blame_bitflips"),
    ],
)
def test_red_flags_said_in_other_words_are_read(case: Case, said: str, flag: str) -> None:
    assert flag in [f.id for f in grade_case(case, said).red_flags]


def test_the_worst_thing_to_do_and_a_dialect_negation_reject_a_red_flag(case: Case) -> None:
    answer = "A bad batch or FP16 overflow: roll back to the checkpoint and clip. "
    for said in (
        "The worst thing you could do is start the whole run over.",
        "Starting the run over from scratch is the worst idea here.",
        "And ye divvent start the run again from scratch.",
        "Do I throw the weeks away and start over? Of course not.",
    ):
        assert not grade_case(case, answer + said).red_flags, said
    said = "Then start the whole run over."
    assert [f.id for f in grade_case(case, answer + said).red_flags] == ["restart_from_scratch"]


def test_a_field_set_to_a_refusal_turns_its_idea_down(case: Case) -> None:
    plan = "Causes: fp16 overflow, a bad batch.\nTriage: read the grad-norm log, roll back, clip.\n"
    for said in (
        "RestartFromScratch: Disallowed",
        "# bigger-batch-smoothing   (removed: narrows the safe LR range)",
        "hw bitflip theory: delisted, no evidence filed",
        "restart_from_scratch = false",
    ):
        assert not grade_case(case, plan + said).red_flags, said
    said = "RestartFromScratch: true"
    assert [f.id for f in grade_case(case, plan + said).red_flags] == ["restart_from_scratch"]


def test_over_as_a_preposition_after_a_restart_is_no_start_over(case: Case) -> None:
    # "restarted the dataloader at dawn over one bad shard": "over" says why, not "start over"
    answer = (
        "Roll back to the last checkpoint, clip, go BF16, and inspect the batch. The loader was "
        "restarted at dawn over one bad shard."
    )
    assert not grade_case(case, answer).red_flags


def test_the_first_step_of_a_recipe_is_no_restart(case: Case) -> None:
    answer = (
        "The first step is to check the grad-norm logs, then roll back to the last good "
        "checkpoint, clip, go BF16 and inspect the batch."
    )
    assert not grade_case(case, answer).red_flags


def test_in_a_dialogue_of_a_and_b_the_one_who_only_asks_is_the_interviewer(case: Case) -> None:
    answer = (
        "A: Loss spikes on a long pretrain, what's going on? B: Usually a grad-norm explosion "
        "or FP16 overflow or a poisoned batch. A: Could we just bump the batch to smooth it out? "
        "B: No, bigger batches shrink the safe LR range. A: And then? B: Roll back to the last "
        "stable checkpoint, lower the LR, tighten clipping and go BF16."
    )
    assert not grade_case(case, answer).red_flags
    # the answerer's own words are still claims
    proposed = answer.replace("B: No, bigger batches shrink the safe LR range.", "B: Sure, do it.")
    proposed = proposed.replace("Roll back to", "Bump the batch to smooth it out, roll back to")
    assert "increase_batch_size" in [f.id for f in grade_case(case, proposed).red_flags]


@pytest.mark.parametrize(
    ("answer", "committed"),
    [
        (
            "If we had restarted from scratch we'd have lost three weeks; we rolled back instead.",
            False,
        ),
        ("Had we started again from step zero, the loss would be back at 11. Roll back.", False),
        ("If the loss had spiked twice, restart from scratch.", True),
        ("We restarted from scratch, and the loss came back lower.", True),
    ],
)
def test_a_counterfactual_did_not_happen(case: Case, answer: str, committed: bool) -> None:
    """ "If we had restarted ..., we'd have lost weeks" is what was not done, as "if we were to
    restart" is; a past perfect of the spike itself ("if the loss had spiked") is a condition."""
    flagged = {f.id for f in grade_case(case, answer).red_flags}
    assert ("restart_from_scratch" in flagged) is committed


def test_a_batch_made_some_times_bigger_is_the_batch_raised(case: Case) -> None:
    raised = "Roll back, and make the batch two times bigger so one odd sample can't dominate."
    assert {f.id for f in grade_case(case, raised).red_flags} == {"increase_batch_size"}
    kept = "Roll back and skip the data; the batch stays as it is, its 2x bigger sibling failed."
    assert "increase_batch_size" not in {f.id for f in grade_case(case, kept).red_flags}


def test_only_lowering_the_lr_needs_an_lr_lowered(case: Case, tmp_path: Path) -> None:
    """ "No need to touch clipping or precision" is the only-LR red flag only in an answer that
    speaks of the LR (`needs`); an `alone` naming no item is refused by validation."""
    flags = lambda answer: {f.id for f in grade_case(case, answer).red_flags}  # noqa: E731
    seeded = "Rerun from the checkpoint with another seed; no need to touch clipping or precision."
    assert "only_lower_lr" not in flags(seeded)
    halved = "Halve the LR and keep going; no need to touch clipping or precision."
    assert "only_lower_lr" in flags(halved)
    bad = tmp_path / "case.yaml"
    text = CASE_DECK.read_text(encoding="utf-8")
    bad.write_text(text.replace("alone: [lower-lr,", "alone: [lower-the-lr,"), encoding="utf-8")
    with pytest.raises(DeckError, match="alone 'lower-the-lr', which is no item of a part"):
        load_deck(bad)


@pytest.mark.parametrize(
    "answer",
    [
        "Roll back and clip. The request to double the batch to smooth it out is declined.",
        "Roll back and clip. Doubling the batch to average the spike away: declined.",
        "Roll back and clip. Someone asked to double the batch to smooth it; I'd decline that.",
    ],
)
def test_a_request_declined_is_turned_down(case: Case, answer: str) -> None:
    assert grade_case(case, answer).red_flags == ()


def test_a_loss_that_declined_went_down() -> None:
    from grill.grader import normalise

    assert normalise("the loss has declined steadily") == [["loss", "decreas", "steady"]]
    assert normalise("the idea was declined") == [["idea", "reject"]]


@pytest.mark.parametrize(
    ("answer", "committed"),
    [
        ("Roll back and clip. It's not a reason to nuke the run and retrain from scratch.", False),
        ("Roll back and clip. There's no call to scrap it and relaunch from step zero.", False),
        ("Roll back and clip. No reason to panic, and we restart from scratch.", True),
    ],
)
def test_an_act_with_no_reason_shares_it_across_a_bare_and(
    case: Case, answer: str, committed: bool
) -> None:
    """ "Not a reason to X and Y" gives no reason for Y either (`case.paired`); with its own
    subject after a comma, Y is a claim of its own."""
    flagged = {f.id for f in grade_case(case, answer).red_flags}
    assert ("restart_from_scratch" in flagged) is committed


def test_a_remedy_judged_poor_earns_no_part(case: Case) -> None:
    assert "lower-lr" in _triage_items(case, "Lower the learning rate and resume.")
    for judged in (
        "Lowering the learning rate alone, I don't think that will be enough.",
        "Lowering the learning rate is a band-aid.",
        "An A/B whose only arm is 'lower the LR' isn't a test, it's a guess.",
    ):
        assert "lower-lr" not in _triage_items(case, judged), judged
    assert "clipping" not in _triage_items(case, "Halve the LR. No need to touch clipping.")
    # a step named in quotes and not judged is still a step
    assert "lower-lr" in _triage_items(case, "Roll back, then 'lower the LR' and clip.")
    # a cause called possible is put forward, not judged
    parts = {p.part: p for p in grade_case(case, "FP16 overflow is possible too.").parts}
    assert parts["culprits"].covered


@pytest.mark.parametrize(
    ("said", "committed"),
    [
        ("Lower the learning rate. That's it, that's the whole answer.", True),
        ("Just lower the learning rate already, that's all.", True),
        ("If the only change in the second run is the LR, I've learned nothing, so no.", False),
        ("An A/B whose only arm is 'lower the LR' isn't a test, it's a guess.", False),
        ("Only 'lower the LR' works.", True),
        ("The only fix is 'lower the LR', and that is right.", True),
    ],
)
def test_a_conclusion_or_a_judgement_after_the_idea_decides_it(
    case: Case, said: str, committed: bool
) -> None:
    answer = _PLAN + said
    assert ("only_lower_lr" in [f.id for f in grade_case(case, answer).red_flags]) is committed


@pytest.mark.parametrize(
    ("said", "flag"),
    [
        ("Probably just the GPUs being random at scale.", "blame_bitflips"),
        ("It's run-to-run noise in the kernels, nothing more.", "blame_bitflips"),
        ("Then start the run again at step 0 with bf16.", "restart_from_scratch"),
        ("Cull it and begin a new one from freshly initialised weights.", "restart_from_scratch"),
        ("Then widen the batch so the spikes average out.", "increase_batch_size"),
        (
            "We went from 256 to 1024 sequences, because a bigger batch gives a smoother gradient.",
            "increase_batch_size",
        ),
    ],
)
def test_red_flags_in_plain_words(case: Case, said: str, flag: str) -> None:
    assert flag in [f.id for f in grade_case(case, _PLAN + said).red_flags]


def test_a_rerun_from_the_checkpoint_is_no_restart(case: Case) -> None:
    assert not grade_case(case, _PLAN + "Drop that shard and rerun from there.").red_flags


@pytest.mark.parametrize(
    ("said", "committed"),
    [
        ("Halve the LR; no need to bother with clipping or precision, that's overkill.", True),
        ("Halve the LR. Clipping does not matter, it's a waste.", True),
        ("Halve the LR. Clipping doesn't matter? That's a myth.", False),
        ("Halve the LR. Thinking clipping does not matter is a mistake.", False),
    ],
)
def test_a_red_flag_that_is_a_negation_is_agreed_with_by_a_dismissal(
    case: Case, said: str, committed: bool
) -> None:
    # "clipping is not needed" is the red flag; calling clipping overkill says it again
    answer = "Check the grad norm logs, roll back to the last good checkpoint. " + said
    assert ("only_lower_lr" in [f.id for f in grade_case(case, answer).red_flags]) is committed


@pytest.mark.parametrize(
    ("turned_down", "put_forward", "flag"),
    [
        (  # put off until evidence, in other words than "evidence"
            "The hardware-fault theory goes in the risk register, unfunded, until the error"
            " counters say otherwise.",
            "The hardware-fault theory goes in the risk register as the cause.",
            "blame_bitflips",
        ),
        (
            "Hardware faults have a prior too low to act on without a signal in the logs.",
            "Hardware faults have a prior high enough to act on.",
            "blame_bitflips",
        ),
        (  # a lead-in that excludes or denies what it lists
            "Excluded from the plan: (a) a full rebuild from step zero.",
            "Included in the plan: (a) a full rebuild from step zero.",
            "restart_from_scratch",
        ),
        (
            "deny  restart_from_scratch   # a checkpoint exists",
            "permit  restart_from_scratch   # a checkpoint exists",
            "restart_from_scratch",
        ),
        (  # a cost said of the act: it is judged a waste
            "Starting over from zero throws away weeks you've already paid for.",
            "Throw away the run and start over from zero.",
            "restart_from_scratch",
        ),
        (  # relief that it was not done
            "We almost doubled the batch that night to average it out; glad we didn't.",
            "We doubled the batch that night to average it out; glad we did.",
            "increase_batch_size",
        ),
        (  # a first thought, told to be let go
            "My first thought was a flaky GPU, but nothing in the node logs supported it.",
            "The cause was a flaky GPU, and the node logs supported it.",
            "blame_bitflips",
        ),
        (  # crossed off, as "ruled out"
            "Starting over from scratch I crossed off.",
            "Starting over from scratch I put first.",
            "restart_from_scratch",
        ),
    ],
)
def test_a_red_flag_turned_down_by_its_cost_or_its_evidence_is_not_put_forward(
    case: Case, turned_down: str, put_forward: str, flag: str
) -> None:
    assert flag not in [f.id for f in grade_case(case, _PLAN + turned_down).red_flags]
    assert flag in [f.id for f in grade_case(case, _PLAN + put_forward).red_flags]


def test_a_negated_lead_in_then_a_clause_of_its_own_lists_the_plan(case: Case) -> None:
    plan = "pre-layer-norm instead of post, LAMB for big batches, per-layer grad-norm logging."
    affirmed = grade_case(case, "You don't fix hail after it falls, you plant for it: " + plan)
    refused = grade_case(case, "Things I would never do, in order: " + plan)
    assert [p.part for p in affirmed.parts if p.covered] == ["prevention"]
    assert not [p.part for p in refused.parts if p.covered]


@pytest.mark.parametrize(
    ("reply", "committed"),
    [
        ("Yes, that's my leading theory.", True),
        ("Honestly, yes, at this scale.", True),
        ("Frankly, yes.", True),
        ("Honestly, no.", False),
    ],
)
def test_a_question_answered_yes_after_a_filler_puts_the_idea_forward(
    case: Case, reply: str, committed: bool
) -> None:
    answer = f"{_PLAN}Could it be a hardware bit flip? {reply}"
    assert bool(grade_case(case, answer).red_flags) is committed


def test_an_explosion_in_the_attention_layers_names_the_culprit(case: Case) -> None:
    got = grade_case(case, "It is an explosion, probably in the attention or FFN layers.")
    assert {p.part for p in got.parts if p.covered} == {"culprits"}
    got = grade_case(case, "The loss exploded; I checked the data loader.")
    assert not any(p.covered for p in got.parts if p.part == "culprits")


@pytest.mark.parametrize(
    "answer",
    [
        "Go back to the checkpoint from just before the spike, enable clipping and halve the LR.",
        "Roll back to the last good checkpoint and, beyond just dropping the LR, tighten the clip.",
        "On top of merely halving the LR, clip at 1.0 and roll back to the last checkpoint.",
    ],
)
def test_just_as_a_time_or_after_beyond_limits_nothing(case: Case, answer: str) -> None:
    assert "only_lower_lr" not in {f.id for f in grade_case(case, answer).red_flags}


def test_just_lowering_the_lr_is_still_the_whole_answer(case: Case) -> None:
    got = grade_case(case, "Roll back to the checkpoint and just halve the LR.")
    assert "only_lower_lr" in {f.id for f in got.red_flags}
