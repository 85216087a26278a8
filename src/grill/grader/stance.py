"""Rule case.stance: whether a red-flag idea that the case's phrases found and the hand-written
rules kept is put forward or turned down, by a model learned from labelled case answers.

The hand-written case rules (`case.evaluated`, `case.fronted`, ...) each read one shape of
refusal, and a writer they were not written for refuses in shapes they do not know: on sets
written blind, most case mistakes were rejected ideas flagged. This model reads the words around
the idea instead of one shape: a logistic regression over

    B:/A:     each word of the idea's sentence before / after it; BC:/AC: the context triggers
              on those words (grill.grader.context ids), with those that stand before a word
              without being one (`if`, a colon)
    P:/N:     the words of the sentence before, and the first six of the one after (PC:/NC:
              their triggers)
    Q?        the sentence ends in a question mark
    RULES     what the hand-written rules decided (NORULES: they turned it down); NEG: a
              negation scope covers it; FLAG:<id>: which red flag it is

Words of the case's own phrases are left out: they are the answer's topic, and a good plan
beside an idea says nothing about the idea (with them, the model learned that ideas named
beside a rollback and clipping are turned down, and missed red flags buried in good answers).
It is trained with an L2 penalty by `tests/grading/train_stance.py` on the case answers of the
tuning sets (`tests/grading/agreement.py` TUNING) and stored in stance.json beside this file.

It only vetoes: what the rules turn down stays turned down, and an idea the rules keep is a red
flag unless the model gives it a chance under VETO of being put forward. Deterministic and
offline: the weights are read once, and a grade adds a dictionary lookup per word.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from grill.grader.match import _Hit, _View
from grill.grader.text import _asks, _Tok

__all__ = ["VETO", "WEIGHTS", "committed", "features", "probability"]

WEIGHTS = Path(__file__).with_name("stance.json")
VETO = 0.48
"""An idea the rules keep is turned down when the model gives it a chance under this of being
put forward. Leave-one-set-out on the tuning sets through fresh42 (1030 ideas,
`tests/grading/train_stance.py --cv`), 0.5 missed 13 committed red flags against the rules' 9;
0.4 missed 9 and still turned down 16 of the rules' 76 wrongly flagged refusals (with fresh43
too: 11 against 9, and 22 of 89). The rule: the highest threshold, in steps of 0.01, at which
every designed minimal pair in tests/test_grader.py holds. Retrained with fresh45 and fresh46
(1143 ideas), 0.4 vetoed one ("restart from scratch: there's no evidence a rollback helps", a
chance of 0.391); at 0.39 leave-one-set-out is the same as at 0.4 (78 of the rules' 106 wrongly
flagged refusals still flagged, 13 committed ones missed against their 9). Retrained with fresh50
(1181 ideas), 0.39 vetoed "Blaming bit flips, though, is the answer." after a good plan (a chance
of 0.3899); at 0.38 every pair holds again, and one tuning answer moved (fresh32: a bigger batch
refused at length, now flagged). Retrained with fresh52 (1198 ideas), 0.38 vetoed "restart from
scratch: there's no evidence a rollback helps" again; at 0.37 every pair holds, and no tuning
answer moved. Retrained with fresh55 and fresh56's case answers, 0.36. Retrained with fresh58,
the rule first gave 0.32, where "there's no option but to restart" and "restart from scratch:
there's no evidence a rollback helps" hold only by the model's say; both are read by rules now
(`pseudo.no-but`; evidence followed by a claim of its own refuses nothing before it), and at
0.38 every pair holds (0.39 vetoes two) with no tuning answer moved away. Retrained again after
fields set to a refusal were read ("RestartFromScratch: Disallowed"), 0.38 still; and again
after a negator in a condition ("if it doesn't") stopped refusing, 0.38 still. Retrained with
fresh60 (1292 ideas, after a counterfactual "if we had restarted" was read as not done), 0.38
still (0.39 fails a pair); no tuning answer moved away, and fresh60's case answers went from
20 of 24 red-flag sets right to 23. Retrained after "is declined" was read as rejected: 0.38
still, though a first form of that rule ("gets declined" too, which turned a simile in a tuning
answer) left the model at 0.37, where a refused idea of fresh46 was flagged. Retrained after
"not a reason to X and Y" and borrowed negators ("huwag", "jangan") were read: 0.38. Retrained
after a quotation ruled wrong, a statement answered by a bare refusal ("Reply sent: negative.")
and a glued factor letter ("bs xk") were read, and with fresh62 (attribution and reported
speech): 0.38 still (0.39 fails a pair), no tuning answer moved. Retrained after the plain-words
lexicon ("locked" is "frozen", "held-back" is validation): 0.38 still, no red flag moved. Retrained
with fresh66 (plain words; "a bigger group" is a bigger batch now): 0.38 fails a pair, 0.37 holds
them all; fresh66's red-flag sets right went from 17 of 24 to 22, one tuning answer moved away
(fresh40: a restart flagged beside a bit flip), and held out fresh51 gained one and fresh61 lost
one. Retrained after a negated lead-in followed by a clause of its own ("Not a fixed number: it
depends on the task") stopped rejecting what follows: 0.37, no red flag moved; and after plain
words for warmup, vanishing and checkpoints ("a gentle ramp-up at the start", "faded away",
"save copies"): 0.37. Retrained with fresh68 (what a candidate says they would see; another's
"first call", "gets the blame", "I'd stop them" read as not put forward, "samples per step" as
the batch size): 0.37 vetoes "Blaming bit flips, though, is the answer." (a pair), 0.36 holds
them all. Retrained with fresh70 (the same register), the rule gave 0.35 for that pair alone; an
idea the answer calls "the answer" or "the fix" is now not the model's to turn down
(`endorsed`), and at 0.37 every pair holds again (0.38 fails two). Retrained with fresh71 (the
experimentalist's register) after "no" inside a clause ("no evidence needed") stopped counting
as a retraction feature, which it only is as a clause of its own ("No, wait"): 0.40 holds every
pair (0.41 fails one); leave-one-set-out on 1411 ideas, 0.40 flags 89 refusals and misses 13
committed ideas, 0.45 would flag 82 and miss 13, 0.5 72 and 17. Retrained after a red flag
that is itself a negation ("no need to bother with clipping, that's overkill") stopped being
turned down by a dismissal that agrees with it: 0.40 still (0.41 fails a pair); and after an
infinitive's "to" stopped taking room in a negation's window: 0.40. Retrained with fresh73 (the
cost-weigher's register: what a step buys and what it costs; "deny" and "excluded" read as
dismissals): 0.41 (0.42 fails two). Retrained with fresh75 (lived experience: each claim
carried by a run the candidate worked on; relief that an idea was not done, a first thought let
go and "crossed off" read as refusals): 0.40 (0.41 fails one). Retrained with fresh77 (failure
modes: each claim made through what breaks without it; red-flag ideas turned down as failure
modes of their own, "restarting from zero is how you lose three weeks"): 0.40 (0.41 fails one),
and fresh77's case answers went from 20 of 24 verdicts right to 24. Retrained with fresh79
(anticipated follow-ups: "you'll ask whether to restart from scratch: no"): 0.39 (0.40 lets
"Blaming cosmic-ray bit flips is my best guess." through). Retrained with fresh81 (priorities:
red-flag ideas dropped to the bottom of the list, "cancelled: restart-from-scratch"): 0.39 (0.40
lets the same pair through); fresh81's case verdicts went from 20 of 24 to 23, no tuning answer
moved away, and held out fresh61 gained one and fresh37 lost one. Retrained with fresh87 (spoken
self-correction: "I'd roll back - no, honestly, just halve the LR"): 0.38 (0.39, 0.40 and 0.41
let "Blaming cosmic-ray bit flips is my best guess." through). Retrained with fresh89 (questions
asked of oneself: "Restart from scratch? No."): 0.39 (0.40 fails a pair). Retrained with fresh93
(formulas and notation, with math read as words: "B: ..." still opens a speaker's turn): 0.41
(0.42 fails a pair). Retrained with fresh97 (analogy first): 0.40 (0.41 fails a pair). Retrained
with fresh99 (chat shorthand: "no restart from 0 pls"): 0.41 (0.42 fails a pair). Retrained
with fresh103 (counterfactual framing: "restarting from step 0 would throw away weeks"): 0.41
still (0.42 fails a pair); one tuning answer of fresh40 went from partial to wrong. Retrained
with fresh113 (decision procedures: "if it recurs, then ..."), the rule gave 0.40 (0.41 let
"Blaming cosmic-ray bit flips is my best guess." through); with "my best guess" and "my bet"
read as "my answer" (`endorsed`), every pair holds up to 0.49 (0.50 fails one), and 0.49 it is:
on every set, built-in, 5 tuning answers and 4 held-out ones moved to their label, none away.
Retrained with fresh115 (observables: what a candidate would see on a panel or in a log): 0.48 (0.49
misses "We restarted from scratch, and the loss came back lower."); leave-one-set-out over 1859
ideas, 85 refusals flagged and 19 put-forward ideas missed; one tuning answer of fresh40 went
from correct to wrong ("note: if a plan's only move is a lower lr, that plan is shallow" is
flagged), and no held-out verdict moved. Retrained after "it" after a change was read as the
setting named before it ("The LR is too high. Halve it", 1867 ideas): 0.48 still (0.49 misses
the same pair), leave-one-set-out the same, and one held-out verdict moved away. Retrained with
fresh117 (then and now: "people used to restart from scratch; now ...", 1881 ideas): 0.48 still
(0.49 misses the same pair), leave-one-set-out 85 and 19, and no verdict moved."""
NEXT_WORDS = 6
_RETRACTIONS = frozenset({"retraction", "retraction.words"})


def features(view: _View, hit: _Hit, rules: bool, flag: str) -> list[str]:
    """The words and cues around a red-flag idea's hit, as the model reads them. Words of the
    case's own phrases (`view.vocab`: its parts' items and red flags) are its topic, not the
    idea's stance, and are left out: a good plan beside an idea says nothing of the idea."""
    sentences = view.answer.sentences
    sentence = sentences[hit.sentence]
    lo, hi = min(hit.positions), max(hit.positions)
    topic = view.vocab

    def words(prefix: str, toks: Sequence[_Tok]) -> list[str]:
        return [f"{prefix}:{t.word}" for t in toks if t.word not in topic]

    def cues(prefix: str, toks: Sequence[_Tok], own: Sequence[_Tok]) -> list[str]:
        return [
            f"{prefix}:{c}"
            for t in toks
            for c in (*t.cues, *t.leads)
            if c not in _RETRACTIONS or _retracts(t, own)
        ]

    out = ["RULES" if rules else "NORULES", f"FLAG:{flag}"]
    if hit.negated:
        out.append("NEG")
    for side, toks in (("B", sentence[:lo]), ("A", sentence[hi + 1 :])):
        out += words(side, toks) + cues(f"{side}C", toks, sentence)
    if hit.sentence > 0:
        before = sentences[hit.sentence - 1]
        out += words("P", before) + cues("PC", before, before)
    if hit.sentence + 1 < len(sentences):
        after = sentences[hit.sentence + 1]
        out += words("N", after[:NEXT_WORDS]) + cues("NC", after[:NEXT_WORDS], after)
    if _asks(view.folded, sentence):
        out.append("Q?")
    return sorted(set(out))


def _retracts(tok: _Tok, sentence: Sequence[_Tok]) -> bool:
    """A retraction ("no", "wait") takes back only as a clause of its own, as the scope reads
    it: "no evidence needed", "there's no evidence a rollback helps" retract nothing."""
    return all(set(x.cues) & _RETRACTIONS for x in sentence if x.clause == tok.clause)


@lru_cache(maxsize=1)
def _model() -> tuple[float, dict[str, float]]:
    data = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    return float(data["bias"]), {str(k): float(v) for k, v in data["weights"].items()}


def probability(names: Sequence[str]) -> float:
    """The model's chance that an idea with these features is put forward."""
    bias, weights = _model()
    z = bias + sum(weights.get(n, 0.0) for n in names)
    return 1 / (1 + math.exp(-z)) if z >= 0 else math.exp(z) / (1 + math.exp(z))


_ENDORSING = frozenset({"answer", "fix", "solution", "remedy", "culprit", "cause", "way"})
"""What an idea is called when the answer endorses it ("Blaming bit flips, though, is the
answer.", "restarting is the fix")."""


def endorsed(view: _View, hit: _Hit) -> bool:
    """True when the idea is the subject of an endorsing judgement: within four words after it,
    "is (the) answer / fix / solution / culprit ...", with no negator between or just after."""
    sentence = view.answer.sentences[hit.sentence]
    hi = max(hit.positions)
    for k, tok in enumerate(sentence[hi + 1 : hi + 5], start=hi + 1):
        if tok.neg:
            return False
        if tok.word in _ENDORSING:
            # "restart from scratch? The answer is no": the judgement turned down
            return not any(t.neg for t in sentence[k + 1 : k + 4])
    return False


def committed(view: _View, hit: _Hit, rules: bool, flag: str) -> bool:
    """True when the rules keep the idea and the model does not turn it down (VETO); an idea the
    answer calls the answer or the fix (`endorsed`) is not the model's to turn down."""
    if rules and endorsed(view, hit):
        return True
    return rules and probability(features(view, hit, rules, flag)) >= VETO
