"""A rubric derived from a card's own text, for decks nobody has written a rubric for.

`grill decks new --from-csv` calls `derive_rubric` for each card: the short answer is split into
its items (at `;`, `,`, `→`, `—` and sentence ends; a bracket is an alternative wording of its
item), each item becomes a key point, and the point's phrasings are derived from the item's words
as the grader reads them (lexicon forms, numbers with their kind):

- filler and hedges ("typically", "some", "e.g.") are dropped, and so are words the question
  already says ("Compute cost of doubling batch?" -> "linear", not "batch"): a candidate seldom
  repeats the question;
- words that any answer in the field uses (`GENERIC`: loss, model, training) are optional;
- of the k words left, any ceil(k/2) in one sentence state the point; load-bearing words are
  always needed: numbers, negators ("no loss scaling") and
  words with an opposite in the grader's swap table (high/low, old/new, fp16/bf16), unless the
  item says the opposite next to it ("explode / vanish"); a phrasing
  of one word only when the word is rare in the deck (`common_words`); the whole item is kept
  as one more phrasing so the grader's swap and number checks see its full statement;
- each explanation clause that shares a rare word with the item restates it: pairs of its rare
  words are phrasings too (a clause that negates restates nothing).

Each number the answer gives a word ("2-8k steps", "10x average") yields a misconception: that
word with a number more than twice as far off ("= {16000-1000000000} step"). Items joined by
arrows ("warmup → descent → plateau") are a sequence: the rubric's `order`, so the grader flags
them said out of order. A share decayed *to* is wrong said *by*; two shares of partner words
(old/new) are wrong swapped, and two partner words keep their order ("new task wipes out old").
What the explanation denies ("you don't pick the minimum") is a misconception, and so is the
opposite in the swap table of a word of the card's own it prefers ("Global rather than
per-parameter": "per layer"), and so is
another growth where the card says "linear" ("quadratic"). One claim of the card's text turned
around is a misconception too: a comparison said of the other partner or the other way ("BF16
has more mantissa bits" where FP16 has more), a change the card makes made the other way
("turning weight decay down" where it says more regularisation), and the other partner chosen
over the one the answer names ("FP16 rather than BF16", "from BF16 to FP16"), and an item's
direction turned round ("steady decrease" said as "climbs steadily"). A sequence the
explanation walks through ("First ... Then ...") is restated step by step; an item that
prevents a thing is said by that thing prevented or negated; a growth the explanation denies
is wrong in any words. A question asking whether a thing gains ("advantage?") answered "better"
is also answered "yes" ("sometimes better": "sometimes yes"). What the card's text says stays
high ("gradient norms that stay high") is wrong said to fall or collapse, and what it says of an
un- word ("unimportant weights are free") is wrong said of the bare one. A bare "yes"/"no"
item is not a point: the grader already flags the opposite verdict word. An item saying where
the answer holds ("Common in fine-tuning"), like one opening "plus", is neither needed nor
enough. The rubric is marked `generated: true` until a person has reviewed it;
`rubric_warnings` says which cards will grade poorly and why. Everything derived is plain data
the author can edit in the YAML.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from grill.grader import correct_needed, normalise
from grill.grader.context import disabled
from grill.grader.lexicon import GENERIC
from grill.grader.match import _SWAP_WORDS, _SWAPS
from grill.grader.match import partners as _partners
from grill.grader.text import _LOSING_STEMS, items_of
from grill.model import Card

__all__ = ["GENERIC", "RULES", "common_words", "derive_rubric", "items_of", "rubric_warnings"]

# The derivation's own rules, by id: each can be turned off for an ablation run
# (`GRILL_GRADER_WITHOUT`, see grill.grader.context).
RULES = (
    "derive.half",  # any half of an item's words states it (off: the whole item)
    "derive.load-bearing",  # numbers, negators, words with an opposite always needed
    "derive.rare-single",  # a one-word phrasing only for a word rare in the deck
    "derive.restate",  # explanation clauses that restate an item
    "derive.seen-named",  # a named method said by what the seen card says it does
    "derive.restate-best",  # a clause restates only the item it shares most rare words with
    "derive.order",  # items joined by arrows are a sequence
    "derive.numbers",  # a number far from the card's own is wrong
    "derive.numbers-restated",  # ... and from the explanation's restatement of it
    "derive.denials",  # what the explanation says is not so, said as so, is wrong
    "derive.number-head",  # "10x recent moving average" is also said "10x the average"
    "derive.ordinal",  # "First ... Then ... Then ..." in the explanation restates a sequence
    "derive.disabled-missing",  # "missing gradient clip": "turn clipping off" is wrong
    "derive.passed-over-partner",  # "global rather than per-parameter": "per layer" is wrong
    "derive.passed-over-own",  # ... and "per parameter" itself
    "derive.passed-over-restart",  # "re-warm rather than restarting cold": "restart from scratch"
    "derive.prevented",  # "Prevents underflow" is also said "avoids underflow", "doesn't underflow"
    "derive.denied-growth",  # "gradients don't grow" said as "gradients double" is wrong
    "derive.denied-growth-each",  # ... of each thing denied to grow, "doubles the optimizer state"
    "derive.to-by",  # a share the card decays *to* is wrong said *by* ("10% below the peak")
    "derive.to-from",  # ... or said as where it starts ("starts at 10% of peak")
    "derive.swapped-numbers",  # "5-15% old / 85-95% new" said the other way round is wrong
    "derive.roles",  # two partner words ("new ... old") keep their order: swapped is wrong
    "derive.alternatives",  # a growth the card names ("linear") said as another is wrong
    "derive.directions",  # "decreases" is also said "down" or "drops"; "increases" "up"
    "derive.comparatives",  # "FP16 has more mantissa" said of BF16, or as fewer, is wrong
    "derive.remedies",  # "more weight decay" said as "weight decay down" is wrong
    "derive.remedies-inline",  # ... also inside a sentence ("the best lever is fewer epochs")
    "derive.described",  # ... but not one said of a partner ("FP16 gives you more precision")
    "derive.reversed-direction",  # "steady decrease" said as "climbs steadily" is wrong
    "derive.preferences",  # the card's "BF16" turned down for "FP16" ("FP16 rather than BF16")
    "derive.units",  # the card's number counted in another unit ("2-8k tokens" for steps)
    "derive.disabled",  # what the card says is needed, turned off ("turn clipping off")
    "derive.schedules",  # a schedule the card names ("cosine") said as another ("linear")
    "derive.dependence",  # "task-dependent" said as the same for every task
    "derive.ends",  # "from 0 to peak" said as "from the peak to zero"
    "derive.ends-started",  # ... or as "start at the peak and ramp down to zero"
    "derive.swapped-directions",  # "train down, val up" said as "val down, train up"
    "derive.origins",  # "restart from checkpoint" said as "restart from scratch"
    "derive.targets",  # "regularize toward old weights" said as "toward zero"
    "derive.minima",  # "toward flat minima" said as "toward sharp minima"
    "derive.hardware",  # "Hopper/Blackwell native" said as "native on Ampere"
    "derive.sibling",  # a card without an explanation reads its sibling's claims
    "derive.sibling-claims",  # ... and one with an explanation too, for claims turned round
    "derive.overdone-missing",  # "missing gradient clip" said as "clipping set too tight"
    "derive.lost-swapped",  # "new task wipes out old" said as "forgets the new data"
    "derive.absent",  # "missing gradient clip" also said "no grad clipping", "w/o clipping"
    "derive.subject-swapped",  # "BF16 has FP32's range" said of FP16
    "derive.remedy-dropped",  # one of the card's remedies skipped ("skip warmup altogether")
    "derive.kept",  # what the card changes ("Scale LR") said to stay fixed
    "derive.passed-over",  # "A rather than B" in the explanation: B said as so is wrong
    "derive.switched-away",  # "switch BF16" said as "move from BF16 down to FP16"
    "derive.from-zero",  # "not restart from scratch" denied: "from step zero" is the same
    "derive.opposites",  # "reveals early dynamics" said as "hides the early phase"
    "derive.vague",  # an item's own word, or the card's opening "yes", alone is partial credit
    "derive.premise",  # "LR too low symptoms?": "lower the LR" makes it worse, so it is wrong
    "derive.operations",  # "multiply loss" said as "divide the loss"
    "derive.restate-direction",  # a clause with a direction the item lacks restates nothing
    "derive.remedy-generic",  # "smaller model": a remedy of a generic word, reversed, is wrong
    "derive.verdict",  # "advantage?": "sometimes better" is also said "sometimes yes"
    "derive.states",  # "grad norms stay high" said as "grad norms collapse to zero" is wrong
    "derive.unprefixed",  # "unimportant weights are free" said as "important weights are free"
    "derive.priority",  # "range matters far more than precision" said the other way round
    "derive.comma-not",  # "multiplicative, not additive": "improvements are additive" is wrong
    "derive.not-that",  # "That's not convergence, that's vanishing": "usually convergence" is wrong
    "derive.needed-still",  # "no loss scaling needed" said as "it still needs loss scaling"
    "derive.object",  # "clip the global norm" said as "clip the learning rate"
)

_HEDGES = frozenset(
    "typically usually often some even very e g eg etc also actual just quite roughly about"
    " around approximately common commonly or only too all whole".split()
)
_PREPOSITIONS = frozenset(
    "from to by per toward towards with in on of for at into over than as via".split()
)
_VERDICT = frozenset({"yes", "no", "yep", "nope"})
_MAX_PHRASES = 12
_SEQUENCE = re.compile(r"→|->")
_QUALIFIER = re.compile(
    r"(?i)^(?:plus|also|optionally|sometimes|and also|common(?:ly)? in|often in)\b"
)


def _words(text: str, drop: frozenset[str]) -> list[str]:
    """The item's words as the grader reads them, each one that reads back as itself."""
    out: list[str] = []
    for sentence in normalise(text):
        for word in sentence:
            if word in drop or word in _HEDGES or word in _PREPOSITIONS or word in out:
                continue
            if word not in out and (word.startswith("{") or normalise(word) == [[word]]):
                out.append(word)
    return out


def _on(rule: str) -> bool:
    return rule not in disabled()


def _load_bearing(word: str) -> bool:
    """A number, a negator or a word with an opposite (high/low, fp16/bf16, old/new, ...):
    dropping it would let the opposite statement match."""
    if not _on("derive.load-bearing"):
        return False
    return word.startswith("{") or word == "not" or word in _SWAP_WORDS


def _both_sides(word: str, words: list[str]) -> bool:
    """Whether the item says the word's opposite next to it ("layers explode / vanish"): then
    neither side is load-bearing, since the opposite statement is the same item. (Partners
    apart play two roles, "new task wipes out old", and keep their order: `_roles`.)"""
    partners = {p[0] for p in _SWAPS.get((word,), ()) if len(p) == 1}
    at = [i for i, w in enumerate(words) if w == word]
    return any(w in partners for i in at for w in words[max(0, i - 1) : i + 2])


def _phrases(words: list[str], common: frozenset[str] = frozenset()) -> list[str]:
    """Any ceil(k/2) of the k words that carry the item, plus the whole item.

    Load-bearing words are always needed; a phrasing of one word only when that word is rare in
    the deck (not in `common`), so "batch" alone never stands for "bad batch".
    """
    fixed = [w for w in words if _load_bearing(w) and not _both_sides(w, words)]
    free = [w for w in words if w not in fixed and w not in GENERIC]
    if not free:  # "train loss decreasing": "decreasing" alone says nothing of train loss
        free = [w for w in words if w in GENERIC]
    need = math.ceil(len(free) / 2) if free else 0
    if (fixed and len(free) <= 1) or not _on("derive.half"):
        need = len(free)
    rare_only = _on("derive.rare-single")
    out = [
        " ".join(fixed + list(c))
        for c in itertools.combinations(free, need)
        if len(fixed) + len(c) > 1 or not (rare_only and set(c) & common)
    ]
    numbers = [w for w in fixed if w.startswith("{")]
    if numbers and fixed == numbers and len(free) > 2 and _on("derive.number-head"):
        head = f"{' '.join(numbers)} {free[-1]}"  # "10x recent moving average": "10x average"
        if head not in out:
            out.append(head)
    whole = " ".join(w for w in words if w not in GENERIC) or " ".join(words)
    if whole not in out:
        out.append(whole)
    if fixed == ["not"] and len(free) <= 1:
        out.append("(nothing|none)")  # "nothing extra" said as "none"
    return [_roles(p, words) for p in out if p][:_MAX_PHRASES]


_ABSENCE = frozenset({"miss", "absent"})
"""Words an item uses to say a thing is not there ("missing gradient clip")."""


def _absent(words: list[str], common: frozenset[str]) -> list[str]:
    """An item that says a thing is missing is also said with a negator: "missing gradient
    clip" as "no grad clipping", "w/o clipping" (derive.absent)."""
    if not _on("derive.absent") or not set(words) & _ABSENCE:
        return []
    rest = [w for w in words if w not in _ABSENCE]
    return [f"not {p}" for p in _phrases(rest, common) if p and not p.startswith("not ")]


_PREVENTS = frozenset({"prevent", "avoid", "stop"})
_PREVENTED = "(prevent|avoid|stop|not)"


def _prevented(words: list[str]) -> list[str]:
    """An item that opens by preventing a thing ("Prevents underflow in tiny gradients") is
    also said by what it prevents under any prevention or negation: "avoids underflow", "stops
    underflow", "so tiny grads don't underflow" (derive.prevented). The thing is the first word
    after the verb that is no generic word or number."""
    if not _on("derive.prevented") or not words or words[0] not in _PREVENTS:
        return []
    thing = next((w for w in words[1:] if w not in GENERIC and not w.startswith("{")), None)
    return [f"{_PREVENTED} {thing}"] if thing else []


def _roles(phrase: str, words: list[str]) -> str:
    """A phrasing with two partner words ("new task wipes out old capability") keeps their
    order, "new .. old", so the swap check reads "old wipes out new" as roles swapped."""
    said = phrase.split(" ")
    partners = [w for w in said if w in _SWAP_WORDS]
    if (
        not _on("derive.roles")
        or len(partners) != 2
        or (partners[1],) not in _SWAPS.get((partners[0],), ())
    ):
        return phrase
    first, second = sorted(partners, key=words.index)
    cut = words.index(second)
    before = [w for w in said if w in words and words.index(w) < cut]
    after = [w for w in said if w not in before]
    return " ".join(before) + " .. " + " ".join(after)


_CLAUSE = re.compile(r"\s*(?:[.;:!?]+(?=\s|$)|,|—|–(?=\s)|\band\b|\bbut\b|\bthen\b)\s*")
_CLAUSE_NO_AND = re.compile(r"\s*(?:[.;:!?]+(?=\s|$)|,|—|–(?=\s)|\bbut\b|\bthen\b)\s*")
_NEGATED_CLAUSE = frozenset({"not"})


def _clause_words(explanation: str | None, asked: frozenset[str]) -> list[list[str]]:
    """The words of each explanation clause that does not negate."""
    if not explanation or not _on("derive.restate"):
        return []
    clauses = [_words(c, asked) for c in _CLAUSE.split(explanation)]
    return [c for c in clauses if not _NEGATED_CLAUSE & set(c)]


_ORDINAL = re.compile(
    r"(?i)^\s*(?:first(?:ly)?|then|next|after that|second(?:ly)?|third(?:ly)?|finally|last(?:ly)?"
    r"|eventually)\b[\s,]*"
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _ordinal_clauses(
    explanation: str | None, asked: frozenset[str], items: int
) -> list[list[str]] | None:
    """For a sequence ("warmup → descent → plateau"), the explanation's sentences that walk
    through it in order ("First a steep drop ... Then a long smooth descent ... Then a
    flattening"): the words of each one's first clause, one per item, or None when the
    explanation has no such walk of the same length (derive.ordinal)."""
    if not explanation or not _on("derive.ordinal"):
        return None
    walk = []
    for sentence in _SENTENCE.split(explanation.strip()):
        m = _ORDINAL.match(sentence)
        if m:
            first = _CLAUSE.split(sentence[m.end() :])[0]
            walk.append(_words(first, asked))
    return walk if len(walk) == items and all(walk) else None


def _rare(words: list[str], common: frozenset[str]) -> set[str]:
    return {w for w in words if w not in common and w not in GENERIC and not w.startswith("{")}


def _restatements(
    words: list[str],
    clauses: list[list[str]],
    common: frozenset[str],
    others: Sequence[list[str]] = (),
) -> list[str]:
    """Pairs of the rare words of each explanation clause that restates the item.

    A clause restates an item when it shares one of the item's rare words, and no other item
    (`others`) shares more; a clause that negates ("the first response is not to restart")
    restates nothing. The pairs keep the clause's load-bearing words, so a restatement cannot
    flip a direction.
    """
    rare = _rare(words, common)
    out: list[str] = []
    for found in clauses:
        shared = len(rare & set(found))
        if not shared:
            continue
        if (
            _on("derive.restate-direction")
            and not any(map(_direction, words))
            and any(w in ("decreas", "increas") for w in found)
        ):
            continue  # "the gain is smaller for memory-bound workloads": a change, not the item
        if _on("derive.restate-best") and any(
            len(_rare(o, common) & set(found)) > shared for o in others
        ):
            continue
        # the clause's numbers and negators, and the item's own words with an opposite
        fixed = [w for w in found if _load_bearing(w) and (w not in _SWAP_WORDS or w in words)]
        free = [w for w in found if w not in fixed and w not in GENERIC and w not in common]
        if len(fixed) + len(free) < 2:
            continue
        size = max(0, 2 - len(fixed))
        for combo in itertools.combinations(free, size):
            phrase = _roles(" ".join(fixed + list(combo)), found)
            if phrase not in out:
                out.append(phrase)
    return out[:_MAX_PHRASES]


_NUMBER = re.compile(r"^\{(?P<lo>[\d.]+)(?:-(?P<hi>[\d.]+))?(?P<kind>[%x]?)\}$")
_FAR = 2.0  # a number beyond this factor of the card's own is a wrong number
_UNITS = frozenset({"step", "token", "epoch", "exampl", "sampl", "sequ", "minut", "hour", "day"})
"""What a count is counted in, as the normaliser writes them: "2-8k tokens" where the card says
steps is a number of the wrong kind."""
_HUGE = 1e9


def _show(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:.4g}"


def _number_checks(
    item: str, target: bool = False, only: frozenset[str] | None = None
) -> list[str]:
    """Misconception phrases for a number far outside the one the item gives its word.

    "2-8k steps" -> "= {0-1000} step", "= {16000-1000000000} step": the same word with a number
    off by more than a factor of two, as the standard's "not 2-8, not 200k". A share the item
    decays *to* ("to 10% of peak"; `target`: the question ends in "to") is wrong said *by*
    ("by 10%"); two shares of partner words ("5-15% old / 85-95% new") are wrong swapped.
    With `only`, just those numbers, and not for the words in `only` either (an explanation's
    restatement of the answer's number: "twice the matmul work per step")."""
    out: list[str] = []
    for sentence in normalise(item):
        shares: list[tuple[str, str]] = []
        for i, token in enumerate(sentence):
            m = _NUMBER.match(token)
            after = [w for w in sentence[i + 1 : i + 3] if w not in _PREPOSITIONS]
            if m and m["kind"] == "%" and (sentence[i - 1 : i] == ["to"] or target):
                # ... "down 10% from the peak" is by too
                by = [
                    f"by {token}",
                    f"= {token} off",
                    f"= (down|decreas|drop) {token} from",
                    # "loses 10% of the LR", "sheds 10%": what is taken, not where it ends
                    f"= (forget|shed) {token}",
                    # "ends 10% below the peak" is 90% of it
                    f"= {token} (below|under) (the|) (peak|max|maximum|top|start|initial)",
                ]
                out += by if _on("derive.to-by") else []
                # ... and where it ends is not where it starts ("starts at 10% of peak")
                out += [f"= (start|begin|from) {token}"] if _on("derive.to-from") else []
            if not m or not after or after[0].startswith("{") or after[0] in _HEDGES:
                continue
            if only is not None and (token not in only or after[0] in only):
                continue
            lo, kind = float(m["lo"]), m["kind"]
            hi = float(m["hi"] or m["lo"])
            word = after[0]
            if only is None:
                shares.append((token, word))
            if word in _UNITS and _on("derive.units") and only is None:
                out += [f"= {token} {other}" for other in sorted(_UNITS - {word})]
            out += _per_units(sentence, i, token, word) if only is None else []
            if lo > 0:
                out.append(f"= {{0-{_show(lo / _FAR)}{kind}}} {word}")
            top = _HUGE if kind != "%" else 100.0
            if 0 < hi and hi * _FAR < top:
                out.append(f"= {{{_show(hi * _FAR)}-{_show(top)}{kind}}} {word}")
        out += _swapped_shares(shares)
    return out


def _per_units(sentence: list[str], i: int, token: str, word: str) -> list[str]:
    """ "2x compute per step" -> the same said per token, per epoch, per example ...: "= {2x}
    comput per token", "= per token comput {2x}", "= comput per token {2x}" (derive.units)."""
    unit = sentence[i + 3] if len(sentence) > i + 3 and sentence[i + 2] == "per" else ""
    if sentence[i + 1 : i + 2] != [word] or unit not in _UNITS or not _on("derive.units"):
        return []
    out: list[str] = []
    for other in sorted(_UNITS - {unit}):
        out += [
            f"= {token} {word} per {other}",
            f"= {token} {word} (spent|used|need|done|cost) per {other}",
            f"= per {other} {word} {token}",
            f"= {word} per {other} {token}",
        ]
    return out


def _one_share(item: str) -> list[str]:
    """Either of two shares of partner words states the pair: "5-15% old / 85-95% new" is
    said by "5-15% old, the rest new" (the shares make the whole)."""
    if not _on("derive.swapped-numbers"):
        return []
    out: list[str] = []
    for sentence in normalise(item):
        pairs = [
            (t, sentence[i + 1])
            for i, t in enumerate(sentence[:-1])
            if _NUMBER.match(t) and t.endswith("%}") and sentence[i + 1] in _SWAP_WORDS
        ]
        if _swapped_shares(pairs):
            out += [f"{n} {w}" for n, w in pairs]
    return out


def _swapped_shares(shares: list[tuple[str, str]]) -> list[str]:
    """Swapped shares: "{5-15%} old ... {85-95%} new" -> "= {85-95%} old", "= {5-15%} new"."""
    if not _on("derive.swapped-numbers"):
        return []
    out: list[str] = []
    for (n1, w1), (n2, w2) in itertools.combinations(shares, 2):
        if n1 != n2 and (w2,) in _SWAPS.get((w1,), ()):
            # each share's source may be said with "from": "85-95% from the original mix"
            out += [f"= {n2} {w1}", f"= {n1} {w2}", f"= {n2} from {w1}", f"= {n1} from {w2}"]
    return out


_DENIAL = re.compile(
    r"(?i)\b(?:do|does|did|is|are|was|were|should|can|could|would|will)(?:n[’']t| not)\b"
    r"|\b(?:never|cannot)\b"
)
_NOT_A_DENIAL = re.compile(r"(?i)\b(?:if|when|unless|whether|rather than|instead of)\b")
_WH = frozenset("what which who whom whose almost nearly first".split())  # no subject
_DENIED_WORDS = 3  # words after the negator that say what is denied
_SUBJECT_WORDS = 2  # words before it that say of what


def _denials(explanation: str | None, asked: frozenset[str], common: frozenset[str]) -> list[str]:
    """Misconception phrases from what the explanation denies: "You don't pick the minimum" ->
    `pick .. minimum`; "gradients don't grow with batch size" -> `grad .. increas .. siz`.

    Only a verbal negator in a main clause (not under "if", "when", "rather than"), and only
    when what it denies has two words or more, one of them rare in the deck: the subject words
    before it are kept so the phrase says of what ("gradients", not "memory", do not grow).
    """
    if not explanation or not _on("derive.denials"):
        return []
    out: list[str] = []
    for clause in _CLAUSE.split(explanation):
        m = _DENIAL.search(clause)
        if not m or _NOT_A_DENIAL.search(clause):
            continue
        before = [w for w in _words(clause[: m.start()], asked) if w not in GENERIC | _WH]
        after = [w for w in _words(clause[m.end() :], asked) if w not in GENERIC and w != "not"]
        after = after[:_DENIED_WORDS]
        if "not" in before:
            continue
        sign = _direction(after[0]) if after and _on("derive.denied-growth") else 0
        if sign and before[-_SUBJECT_WORDS:]:
            # "gradients don't grow with batch size": any growth of theirs, "they double"
            grown = _GROWN if sign > 0 else _SAID_DOWN
            phrase = " .. ".join(before[-_SUBJECT_WORDS:] + [grown])
            if phrase not in out:
                out.append(phrase)
        if len(after) < 2 or not set(after) - common:
            continue
        if sign > 0 and before and _on("derive.denied-growth-each"):
            # each thing denied to grow, as "X doubles" or "doubles X": "optimizer state and
            # gradients don't grow" says it of both (the clause above begins at "and")
            at = explanation.find(clause)
            lead = _CLAUSE_NO_AND.split(explanation[: max(at, 0)])[-1]
            joined = _words(lead, asked)[-1:] if re.search(r"(?i)\band\s*$", lead) else []
            for thing in [*joined, before[-1]]:
                if thing in GENERIC or thing.startswith("{"):
                    continue
                # "up" before it is a particle ("adding up their gradients"), not a growth
                for phrase in (f"{thing} .. {_GROWN}", f"= (mor|increas|{_DOUBLE}) {thing}"):
                    if phrase not in out:
                        out.append(phrase)
        said = [_FROM_ZERO if w == "scratch" and _on("derive.from-zero") else w for w in after]
        if _FROM_ZERO in said:
            # a run begun again from scratch, by whatever verb: "start fresh from step zero"
            said = [_RESTARTS if w == "restart" else w for w in said]
        phrase = " .. ".join(before[-_SUBJECT_WORDS:] + said)
        if phrase not in out:
            out.append(phrase)
    return out


_COMMA_NOT = re.compile(
    r"(?i)([^.;:!?,—]*?)\b(?:is|are|was|were)\s+(?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*,\s+not\s+"
    r"(?:an?\s+|the\s+)?([a-z][\w-]*)"
)


def _comma_not(explanation: str | None, asked: frozenset[str], common: frozenset[str]) -> list[str]:
    """Misconception phrases from "X is A, not B" in the explanation ("loss improvements are
    multiplicative, not additive" -> `improv .. additiv`): the subject's words, then B, as
    `derive.passed-over` reads "A rather than B" (`derive.comma-not`). Only with a subject of
    its own: "it's a plumbing bug, not a hyperparameter" says what the problem is, and
    "plumbing ... hyperparameter" is no claim to turn around."""
    if not explanation or not _on("derive.comma-not"):
        return []
    out: list[str] = []
    for m in _COMMA_NOT.finditer(explanation):
        lead = _SUBORDINATE.split(m.group(1))[-1]
        subject = [w for w in _words(lead, asked) if w not in GENERIC | _WH | _LINKS]
        after = [w for w in _words(m.group(2), asked) if w not in GENERIC]
        if not subject or not after or not set(after) - common:
            continue
        phrase = " .. ".join(subject[-_SUBJECT_WORDS:] + after[:1])
        if phrase not in out:
            out.append(phrase)
    return out


_NOT_THAT = re.compile(
    r"(?i)\b(?:that|it|this)(?:'s|’s|\s+is)\s+(?:(?:usually|often|almost\s+never|rarely"
    r"|probably)\s+)?not\s+(?:an?\s+|the\s+)?([a-z][\w-]*),\s+(?:that|it|this)(?:'s|’s|\s+is)\b"
)
_READINGS = "(just|simply|mostly|plain|normal)"
"""Words that put a reading forward as the likely one ("or simply convergence")."""


def _not_that(explanation: str | None, asked: frozenset[str], common: frozenset[str]) -> list[str]:
    """Misconception phrases from a correction in the explanation, "That's usually not B, that's
    A" ("not convergence, that's vanishing gradients"): B put forward as the likely reading,
    with a word that puts it forward ("or simply convergence", "just the model converging",
    "plain convergence"; "usually" and "probably" are filler words to the phrase language) or
    called fine (`derive.not-that`). B must be rare in the deck: the card talks about it, so B
    named alone is no claim."""
    if not explanation or not _on("derive.not-that"):
        return []
    out: list[str] = []
    for m in _NOT_THAT.finditer(explanation):
        said = [w for w in _words(m.group(1), asked) if w not in GENERIC]
        if len(said) != 1 or said[0] in common:
            continue
        for phrase in (f"{_READINGS} (model|) {said[0]}", f"{said[0]} (fine|healthy|good new)"):
            if phrase not in out:
                out.append(phrase)
    return out


_PRIORITY = re.compile(
    r"(?i)\b([a-z][\w-]*)\s+(?:(?:matters?|counts?)\s+(?:(?:far|much|way|a lot)\s+)?more"
    r"|(?:is|are)\s+(?:(?:far|much|way)\s+)?more\s+important)\s+than\s+([a-z][\w-]*)"
)


def _priorities(explanation: str | None) -> list[tuple[str, list[str]]]:
    """What the explanation ranks, with misconception phrases for each ranking: "range matters
    far more than precision" -> the other one said to matter more ("precision matters more",
    "precision is more important") or the first said to matter less (`derive.priority`)."""
    if not explanation or not _on("derive.priority"):
        return []
    out: list[tuple[str, list[str]]] = []
    for m in _PRIORITY.finditer(explanation):
        first, second = (normalise(g) for g in m.groups())
        if not first or not second:
            continue
        a, b = first[0][-1], second[0][0]
        if a == b or a in GENERIC or b in GENERIC:
            continue
        phrases = [
            f"{b} (matter|count) (mor|most)",
            f"= {b} mor important",
            f"= {a} (matter|count) decreas",
        ]
        out.append((m.group(0).strip(), phrases))
    return out


_FROM_ZERO = "(scratch|begin|step {0}|random init|square {1})"
""""From scratch" as an answer says it: "from step zero", "from the beginning", "from a random
init", "from square one"."""
_FROM_ZERO_OR_COLD = "(cold|scratch|begin|step {0}|random init|initial|square {1})"
"""A restart from nothing, "cold" too ("restart cold from initialisation")."""
_RESTARTS = "(restart|start|launch|begin|train|run)"
"""A run begun again, as an answer that says from where says it ("launch again from scratch")."""


_RATHER = re.compile(r"(?i)\b(?:rather than|instead of)\b")
_SUBORDINATE = re.compile(r"(?i)\b(?:because|since|so|while|when|if|as|although|though)\b")
_DECLINES = "(decay|decreas|down|drop|shrink|collaps)"  # "decay" said as any decline
_LINKS = frozenset({"mean", "imply", "indic"})  # "the gap means ...": no subject of the claim


def _passed_over(
    explanation: str | None,
    asked: frozenset[str],
    common: frozenset[str],
    own: frozenset[str] = frozenset(),
) -> list[str]:
    """Misconception phrases from what the explanation passes over: "gradient norms that spike
    rather than decay" -> `grad norm .. (decay|decreas|...)`: the subject words before the
    preferred word, then what comes after "rather than" or "instead of" (a decay said as any
    decline). What is passed over needs a word rare in the deck."""
    if not explanation or not _on("derive.passed-over"):
        return []
    out: list[str] = []
    for clause in _CLAUSE.split(explanation):
        m = _RATHER.search(clause)
        if not m:
            continue
        lead = _SUBORDINATE.split(clause[: m.start()])[-1]  # "..., because it's periodic"
        before = [w for w in _words(lead, asked) if w not in GENERIC | _WH | _LINKS]
        after = [w for w in _words(clause[m.end() :], asked) if w not in GENERIC][:2]
        if "not" in before + after:
            continue
        # "Global rather than per-parameter": the card's own word, preferred, has an opposite in
        # the swap table ("per layer"), which said instead is wrong however it is said
        partners = _SWAPS.get((before[-1],), ()) if before and before[-1] in own else ()
        if _on("derive.passed-over-partner"):
            out += [" ".join(p) for p in partners if " ".join(p) not in out]
        if before and before[-1] in own and _on("derive.passed-over-own"):
            # ... and what is passed over itself, said with its preposition ("per-parameter")
            said_over = next(iter(normalise(clause[m.end() :])), [])[:2]
            if len(said_over) == 2 and said_over[0] in _PREPOSITIONS:
                phrase = "= " + " ".join(said_over)
                if phrase not in out:
                    out.append(phrase)
        if "restart" in after and _on("derive.passed-over-restart"):
            # a restart passed over ("re-warm rather than restarting cold") is wrong said by
            # itself, of whatever: a run begun again cold or from scratch
            out += [
                p for p in (f"restart .. {_FROM_ZERO_OR_COLD}", "= cold restart") if p not in out
            ]
            continue
        if len(before) < 2 or not after or not set(after) - common:
            continue
        said = [_DECLINES if w == "decay" else _directions(w) for w in after]
        phrase = " .. ".join(before[-1 - _SUBJECT_WORDS : -1] + [" ".join(said)])
        if phrase not in out:
            out.append(phrase)
    return out


# A direction word as the normaliser writes it, and the other words an answer says it with
# ("train down, val up"; "drop the lr").
_DIRECTIONS = {"decreas": "(decreas|down|drop)", "increas": "(increas|up)"}


def _directions(phrase: str) -> str:
    """A phrasing with each direction word widened to the other words that say it. (A
    direction alone, "drops", says nothing of what drops: such phrasings are dropped.)"""
    if not _on("derive.directions"):
        return phrase
    return " ".join(_DIRECTIONS.get(w, w) for w in phrase.split(" "))


# Families of answers that exclude each other, as the normaliser writes them: a card whose answer
# names one, answered with another, is wrong ("linear in batch": "quadratic"; "cosine": "linear,
# it beats cosine").
_GROWTHS = (
    "linear",
    "quadratic",
    "invers",
    "squar root",
    "sqrt",
    "exponential",
    "cubic",
    "sublinear",
    "superlinear",
)
_SCHEDULES = ("cosin", "linear", "step decay", "constant", "exponential", "invers sqrt", "wsd")
_ORIGINS = ("ckpt", "scratch", "begin", "random init", "initial", "step {0}")
_TARGETS = ("old", "{0}", "origin", "initial", "mean", "averag", "pretrain")
"""What a penalty or a decay pulls weights toward."""
_MINIMA = ("flat", "sharp")
"""The kinds of minimum an optimizer is said to be drawn toward."""


_PHRASED = {"invers": "inverse", "invers sqrt": "inverse sqrt"}
"""Members as a phrase says them: a phrase's words are stemmed again, and "invers" is not a
fixed point of the stemmer."""


@dataclass(frozen=True)
class _Family:
    """Answers that exclude each other, and how another of them is said."""

    id: str
    says: str
    members: tuple[str, ...]
    rule: str
    belongs_elsewhere: tuple[str, ...] = ()  # named, it is read as another family's member
    needs: str = ""  # a word the card's answer must hold for the family to apply
    lead: str = ""  # what stands before another member
    more: tuple[str, ...] = ()  # further phrasings of another member
    graded: bool = False  # members are adjectives, said also as "-er", "-est" ("sharper")


_FAMILIES = (
    _Family(
        "another-growth", "grows another way than the card says", _GROWTHS, "derive.alternatives"
    ),
    # "linear from zero" is a ramp's growth, not a decay schedule
    _Family("another-schedule", "another schedule", _SCHEDULES, "derive.schedules", _GROWTHS),
    # a checkpoint named as where to start again from; "begin by reloading" starts nothing over
    _Family(
        "another-origin",
        "starts again from another point",
        _ORIGINS,
        "derive.origins",
        needs="from",
        lead="from ",
        more=("(begin|start) (afresh|anew)", "reinitial"),
    ),
    # "toward flat minima" said as "toward sharp minima" is the opposite claim
    _Family(
        "another-minimum",
        "pulls toward another kind of minimum",
        _MINIMA,
        "derive.minima",
        needs="toward",
        lead="toward ",
        graded=True,
    ),
    # "regularize toward old weights" said as "toward zero" is another penalty (weight decay)
    _Family(
        "another-target",
        "pulls toward another point",
        _TARGETS,
        "derive.targets",
        needs="toward",
        lead="toward ",
    ),
)


def _alternatives(answer: str, card_text: str = "") -> list[tuple[str, str, list[str]]]:
    """(id, what it says, misconception phrases) for each family the card's answer names one
    member of: any other member not named anywhere in the card's text."""
    if not _on("derive.alternatives"):
        return []
    said = " " + " ".join(w for sentence in normalise(answer) for w in sentence) + " "
    text = " " + " ".join(w for sentence in normalise(card_text) for w in sentence) + " "
    out = []
    for family in _FAMILIES:
        named = [m for m in family.members if f" {m} " in said]
        if len(named) != 1 or named[0] in family.belongs_elsewhere or not _on(family.rule):
            continue
        if family.needs and f" {family.needs} " not in said:
            continue
        others = [m for m in family.members if m not in named and f" {m} " not in text]
        if others:
            said_as = [_PHRASED.get(m, m) for m in others]
            if family.graded:
                said_as = [f for m in said_as for f in (m, f"{m}er", f"{m}est")]
            phrased = "|".join(said_as)
            phrases = [f"{family.lead}({phrased})", *family.more]
            out.append((family.id, family.says, phrases))
    return out


def _slug(text: str, taken: set[str]) -> str:
    base = "-".join(re.findall(r"[a-z0-9]+", text.lower())[:3]) or "point"
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    taken.add(slug)
    return slug


def common_words(texts: list[str], share: float = 0.2) -> frozenset[str]:
    """Words found in more than `share` of the texts (at least 3): too common to stand alone."""
    counts: dict[str, int] = {}
    for text in texts:
        for word in {w for s in normalise(text) for w in s}:
            counts[word] = counts.get(word, 0) + 1
    floor = max(3, int(share * len(texts)))
    return frozenset(w for w, n in counts.items() if n >= floor)


def _seen_named(
    words: Sequence[str], answer: str, explanation: str | None, context: str | None
) -> list[str]:
    """A quick-fire card that names a method ("FP16 needs? Loss scaling.") and sees the card
    that says what it does ("Multiply loss by large constant; divide grad ..."): the seen card's
    items that share a word with the name say it too, described by what they do ("multiply
    the loss up before backward"). Only for a card of one item and no explanation of its own
    (`derive.seen-named`)."""
    if explanation or not context or len(items_of(answer)) != 1 or not _on("derive.seen-named"):
        return []
    named = set(words)
    if "not" in named:
        return []  # "Nothing extra." names no method (every negator reads "not")
    out = []
    for main, _ in items_of(context.split("\n", 1)[0]):
        said = _words(main, frozenset())
        shared = named & set(said)
        if shared and said[0] not in named and "not" not in said:
            # what it does, then the words it shares with the name: "multiply .. loss"
            out.append(" .. ".join(w for w in said if w == said[0] or w in shared))
    return out


def derive_rubric(
    question: str,
    answer: str,
    explanation: str | None = None,
    common: frozenset[str] = frozenset(),
    *,
    context: str | None = None,
) -> dict[str, Any]:
    """A rubric as deck data, derived from the card's own text (see the module docstring).

    `common`: the deck's common words (`common_words`). Always has at least one point: with
    nothing to derive from, the whole answer is the phrase.
    """
    asked = frozenset(w for s in normalise(question) for w in s)
    taken: set[str] = set()
    points: list[dict[str, Any]] = []
    secondary = 0
    items = [
        (main, alternatives, _words(main, asked) or _words(main, frozenset()))
        for main, alternatives in items_of(answer)
    ]
    clauses = _clause_words(explanation, asked)
    walk = _ordinal_clauses(explanation, asked, len(items)) if _SEQUENCE.search(answer) else None
    verdict: tuple[str, ...] = ()  # "Yes." opening the answer
    for k, (main, alternatives, words) in enumerate(items):
        if not words or set(words) <= _VERDICT:
            if k == 0 and words and _on("derive.vague"):
                verdict = tuple(dict.fromkeys(words))
            continue
        match = _phrases(words, common) + _absent(words, common) + _prevented(words)
        for alt in alternatives:
            match += [p for p in _phrases(_words(alt, frozenset()), common) if p not in match]
        for seen in _seen_named(words, answer, explanation, context):
            if seen not in match:
                match.append(seen)
        others = [w for _, _, w in items if w is not words]
        restated = _restatements(words, clauses, common, others)
        if walk is not None:  # the k-th step of the explanation's walk restates the k-th item
            steps = [w for w in walk[k] if not _direction(w)]  # "buys less": no direction of its
            restated += _restatements(steps, [steps], common)
        match += [p for p in restated if p not in match]
        match += [p for text in (main, *alternatives) for p in _one_share(text) if p not in match]
        match += [p for p in _verdict_phrasings(match, asked) if p not in match]
        match = list(dict.fromkeys(_directions(m) for m in match if m not in _DIRECTIONS))
        if match:
            point: dict[str, Any] = {"id": _slug(main, taken), "says": main, "match": match}
            vague = _vague(match, verdict if not points else (), words, common)
            if vague:
                point["vague"] = vague
            points.append(point)
            secondary += _QUALIFIER.match(main) is not None
    if not points:
        fallback = " ".join(w for s in normalise(answer) for w in s) or "answer"
        points.append({"id": "answer", "says": answer.strip() or "answer", "match": [fallback]})
    out: dict[str, Any] = {"generated": True, "points": points}
    target = _on("derive.to-by") and bool(re.search(r"(?i)\bto\W*$", question))
    numbers = [
        c
        for main, alternatives in items_of(answer)
        for text in (main, *alternatives)
        for c in _number_checks(text, target)
    ]
    # the explanation's restatement of one of the answer's numbers bounds its word too
    given = [s for main, alts in items_of(answer) for t in (main, *alts) for s in normalise(t)]
    figures = frozenset(w for s in given for w in s if _NUMBER.match(w))
    bounded = frozenset(
        s[k + 1] for s in given for k, w in enumerate(s[:-1]) if _NUMBER.match(w)
    ) | frozenset(w for s in normalise(question) for w in s)
    if _on("derive.numbers-restated") and figures:
        numbers += [
            c for c in _number_checks(explanation or "", only=figures | bounded) if c not in numbers
        ]
    numbers = numbers if _on("derive.numbers") else []
    wrong: list[dict[str, Any]] = []
    if numbers:
        says = f"a number far from the card's own ({answer.strip()})"
        wrong.append({"id": "number-out-of-range", "says": says, "match": numbers})
    # a growth the question names ("Linear scaling rule?") is the card's as much as the answer's
    for wid, says, match in _alternatives(
        f"{question} {answer}", f"{question} {explanation or ''}"
    ):
        wrong.append({"id": wid, "says": f"{says} ({answer.strip()})", "match": match})
    # a card without an explanation reads what a sibling card says of the same thing
    # (`context`) for the claims it turns around, and nothing else
    told = explanation or context
    # the card's own words; a card that sees another reads that card's as its own too
    own = frozenset(
        w for t in (answer, "" if explanation else context or "") for s in normalise(t) for w in s
    )
    denied = _denials(told, asked, common) + _passed_over(told, asked, common, own)
    denied += [p for p in _comma_not(told, asked, common) if p not in denied]
    denied += [p for p in _not_that(told, asked, common) if p not in denied]
    if denied:
        says = "what the explanation says is not so"
        wrong.append({"id": "denied-by-explanation", "says": says, "match": denied})
    for ranked, phrases in _priorities(told):
        says = f"ranks the other way round from the card's text (“{ranked}”)"
        wrong.append({"id": _slug("ranked other way", taken), "says": says, "match": phrases})
    wrong += _turned_claims(question, answer, told, asked)
    if context and _on("derive.sibling-claims"):
        # a card that asks most about the same thing says what else is true of it; a card
        # without an explanation reads its answer's claims too ("Standard warmup? 2-8k steps."
        # beside "Linear ramp from 0 to peak": not "from the peak down to 0")
        seen_answer, _, seen_explanation = context.partition("\n")
        ids = {w["id"] for w in wrong}
        held = {tuple(w["match"]) for w in wrong}
        for w in _turned_claims(question, seen_answer, seen_explanation or None, asked):
            if tuple(w["match"]) in held:
                continue  # the card's own check already (a premise read from its own question)
            w["id"] = _slug(f"seen {w['id']}", taken) if w["id"] in ids else w["id"]
            w["says"] = f"{w['says']} (as the card beside it has it)"
            wrong.append(w)
    reversed_ = _reversed([words for _, _, words in items], common)
    if reversed_:
        says = "a direction the card gives, said the other way"
        wrong.append({"id": "reversed-direction", "says": says, "match": reversed_})
    if wrong:
        out["wrong"] = wrong
    if _SEQUENCE.search(answer) and len(points) > 1 and _on("derive.order"):
        out["order"] = [p["id"] for p in points]  # "a → b → c" is a sequence
    primary = len(points) - secondary
    if secondary and primary:  # "plus ..." qualifies the answer: it is not needed, nor enough
        out["correct"] = correct_needed(primary)
        out["requires"] = [p["id"] for p in points if not _QUALIFIER.match(p["says"])]
    return out


def _vague(
    match: list[str], verdict: tuple[str, ...], words: list[str], common: frozenset[str]
) -> list[str]:
    """What says a point without its substance (`derive.vague`), for partial credit when no
    point is stated: one of the item's own distinctive words alone ("it's for precision" where
    the point is "numerical precision for small updates"; not a number, a direction, a word
    with an opposite, or a word common to the deck or the field), and the card's opening
    verdict for its first point ("yes, you'll need it" where the answer: "Yes. Multiply the
    loss ..."). A wrong number or a turned claim beside them is still wrong. Not the card's own
    number alone: "1.0" is as often said of the wrong thing ("1.0 on each tensor's norm",
    where the card: 1.0 on the global norm) as it stands for a half-remembered answer."""
    if not _on("derive.vague"):
        return []
    distinct = [
        w
        for w in words
        if len(w) > 3
        and w not in common
        and w not in GENERIC
        and not _load_bearing(w)
        and not _direction(w)
    ]
    return [p for p in dict.fromkeys((*distinct, *verdict)) if p not in match]


_REVERSED = {"(decreas|down|drop)": "(increas|up)", "(increas|up)": "(decreas|down|drop)"}


def _reversed(items: list[list[str]], common: frozenset[str]) -> list[str]:
    """Each item's two-word phrasings with its direction turned round ("steady decrease":
    `steady (increas|up)`): said so, the answer gives the opposite direction, whatever else
    of the item it says ("climbs steadily ..., stays smooth"). None on a card whose answer
    gives both directions ("train ↓, val ↑"): one item's reversal is the other's statement."""
    signs = {_direction(w) for words in items for w in words} - {0}
    if not _on("derive.reversed-direction") or len(signs) > 1:
        return []
    out = []
    for words in items:
        for phrase in _phrases(words, common):
            widened = _directions(phrase).split(" ")
            turned = [_REVERSED.get(w, w) for w in widened]
            if len(widened) == 2 and turned != widened and "{" not in phrase:
                out.append(" ".join(turned))
    return out


_ASKS_GAIN = frozenset({"advantag", "benefit", "help", "worth", "better", "improv"})
_GAIN = frozenset({"better", "help"})


def _verdict_phrasings(match: list[str], asked: frozenset[str]) -> list[str]:
    """A question asking whether something gains ("Small batch generalization advantage?")
    answered by an item that says it does ("Empirically sometimes better"): its phrasings with
    the gain said as the verdict ("sometimes yes", "empirically, yes")."""
    if not _on("derive.verdict") or not asked & _ASKS_GAIN:
        return []
    out = []
    for phrase in match:
        words = phrase.split(" ")
        if len(words) > 1 and set(words) & _GAIN:
            out.append(" ".join("yes" if w in _GAIN else w for w in words))
    return out


def rubric_warnings(card: Card) -> list[str]:
    """Why a card's rubric will grade poorly, in words for the deck's author (empty: no reason).

    Only derived rubrics are judged: a hand-written one says what its author meant.
    """
    if not card.rubric.generated:
        return []
    tokens = [w for s in normalise(card.answer) for w in s]
    words = [w for w in tokens if not w.startswith("{")]
    out: list[str] = []
    if not words:
        out.append("the answer gives only numbers: nothing says what they measure; add phrasings")
    elif len(tokens) == 1 and not card.explanation:
        out.append(
            f"a one-word answer ({card.answer.strip(' .')!r}) and no explanation: only that"
            " word is accepted; add phrasings"
        )
    thin = [p.id for p in card.rubric.points if all(" " not in m for m in p.match)]
    if len(words) > 1 and len(thin) == len(card.rubric.points) and not card.explanation:
        out.append(f"each key point is one word ({', '.join(thin)}): paraphrases will be missed")
    return out


# ---------------------------------------------------------------- one-claim contradictions

# Partner words (grill.grader.match.partners): two things a card can name where saying one
# for the other is false (fp16/bf16, mantissa/exponent, old/new, overflow/underflow).
# Directions as the normaliser writes them
# ("fewer", "lower", "halve" -> `decreas`; "more" -> `mor`; "larger", "raise" -> `increas`).
_UP = frozenset({"mor", "increas", "up"})
_DOWN = frozenset({"decreas", "down", "drop"})
_SAID_UP = "(mor|increas|up)"
_SAID_DOWN = "(decreas|down|drop)"
_GROWN = "(mor|increas|up|{2x})"  # any growth, a doubling too ("the gradients double")
_CLAIM_PIECE = re.compile(r"\s*(?:[.;:!?]+(?=\s|$)|,|\b(?:and|but|while|whereas)\b)\s*")
_CLAIM_GAP = 4  # an entity at most this many words before its direction word
_ATTRIBUTE_WORDS = 4  # words after a direction word that say what goes up or down


def _direction(word: str) -> int:
    """+1 up, -1 down, 0 neither; "double" is up (another multiplier is an amount, "10x
    the average", not a change)."""
    if word in _UP:
        return 1
    if word in _DOWN:
        return -1
    return 1 if word == _DOUBLE else 0


def _said(sign: int) -> str:
    return _SAID_UP if sign > 0 else _SAID_DOWN


_Claim = tuple[str | None, int, tuple[str, ...], bool]
# (partner word or none, direction, attribute, the direction opens its piece: a change to make)
_JOINERS = frozenset({"or", "not"})
_DOUBLE = "{2x}"


def _claims(texts: Sequence[str], asked: frozenset[str]) -> list[_Claim]:
    """What the card's text says goes up or down, and of what: "FP16 gives you more mantissa"
    -> ("fp16", +1, ("mantissa", ...), False); "more data" -> (None, +1, ("data",), True).

    The partner is the nearest one before the direction word with no other direction between
    ("more mantissa, more precision": the second is said of no partner). Pieces end at
    punctuation and at "and", "but", "while", "whereas".
    """
    partners = _partners()
    out: list[_Claim] = []
    for text in texts:
        for piece in _CLAIM_PIECE.split(text):
            words = [w for s in normalise(piece) for w in s]
            for i, word in enumerate(words):
                sign = _direction(word)
                if not sign:
                    continue
                entity = None
                for w in reversed(words[max(0, i - _CLAIM_GAP) : i]):
                    if _direction(w):
                        break
                    if w in partners:
                        entity = w
                        break
                own = partners.get(entity or "", frozenset()) | {entity}
                after = words[i + 1 : i + 1 + _ATTRIBUTE_WORDS]
                after = after[: after.index("and")] if "and" in after else after
                attribute = tuple(
                    w
                    for w in after
                    if not _direction(w)
                    and w not in own
                    and w not in GENERIC | _HEDGES | _PREPOSITIONS | _JOINERS
                    and w not in asked
                    and not w.startswith("{")
                )
                lead = all(w in _JOINERS for w in words[:i])  # "or a smaller model"
                if entity is None and not lead and _described(words, i, partners):
                    continue  # "FP16 gives you more precision", "range matters more than X"
                if not attribute and lead and _on("derive.remedy-generic"):
                    attribute = tuple(w for w in after[:1] if w in GENERIC)  # "smaller model"
                out.append((entity, sign, attribute, lead))
    return out


def _described(words: Sequence[str], i: int, partners: Mapping[str, frozenset[str]]) -> bool:
    """Rule derive.described: a direction said in a piece that already names one of two
    partners describes that partner ("FP16 gives you more mantissa, more precision"), and one
    followed by "than" compares ("range matters far more than precision"); neither is a change
    the card makes, so its reverse ("BF16: less precision") is no reversed remedy."""
    if not _on("derive.described"):
        return False
    return words[i + 1 : i + 2] == ["than"] or any(w in partners for w in words[:i])


def _comparatives(claims: list[_Claim], card_words: list[str]) -> list[str]:
    """A claim of a partner turned around: said of the other partner ("BF16 has more mantissa
    bits than FP16" where the card: FP16 has more), or with the other direction ("FP16 has
    fewer mantissa bits"). The card's own text never says the turned claim."""
    if not _on("derive.comparatives"):
        return []
    partners = _partners()
    said = {(e, s, a) for e, s, attr, _ in claims for a in attr}
    out: list[str] = []
    for entity, sign, attribute, _ in claims:
        if entity is None:
            continue
        turned = [(p, sign) for p in sorted(partners[entity]) if p in card_words]
        turned.append((entity, -sign))
        outdone = [(entity, -sign)] + [(p, sign) for p, _ in turned[:-1]]
        for thing in attribute:
            for who, way in turned:
                if (who, way, thing) not in said:
                    out.append(f"{who} {_said(way)} {thing}")
            # "more mantissa bits than FP16", its subject a pronoun: FP16 is the one outdone
            for who, way in outdone:
                phrase = f"= {_said(-way)} {thing} than {who}"
                if (who, way, thing) not in said and phrase not in out:
                    out.append(phrase)
    return out


_PREMISE_WAY = {"low": -1, "high": 1}
"""How a question's "too" puts a setting: "LR too low", "batch too small" (read "low")."""


def _premise(question: str) -> list[str]:
    """A question whose premise is a setting too high or too low ("LR too low symptoms?",
    "Batch too large?"): moving that setting further the same way ("lower the LR further") is
    no remedy, whatever the card's text says of the fix."""
    if not _on("derive.premise"):
        return []
    out: list[str] = []
    for sentence in normalise(question):
        for i in range(1, len(sentence) - 1):
            way = _PREMISE_WAY.get(sentence[i + 1]) if sentence[i] == "too" else None
            if way and sentence[i - 1] not in _PREMISE_WAY:
                phrase = f"= {_said(way)} {sentence[i - 1]}"
                if phrase not in out:
                    out.append(phrase)
    return out


def _remedies(claims: list[_Claim]) -> list[str]:
    """A remedy's direction reversed: "turning weight decay down" where the card says "more
    regularisation, weight decay or dropout"; "halve the learning rate" where it says "double".
    The direction stands right before the word (`= ...`) or is a particle after it ("X down");
    a word one of the card's own claims changes the other way is left alone ("more data" does
    not guard "smaller model" in "smaller model, more data")."""
    if not _on("derive.remedies"):
        return []
    out: list[str] = []
    for entity, sign, attribute, lead in claims:
        if entity is not None or (not lead and not _on("derive.remedies-inline")):
            continue
        for thing in attribute[: None if lead else 1]:
            if any(way == -sign and thing in said for _, way, said, _ in claims):
                continue  # the card itself says it the other way too
            back = "down" if sign > 0 else "up"  # "turning weight decay and dropout down"
            turned = (f"= {_said(-sign)} {thing}", f"{thing} {back}")
            for phrase in turned if lead else turned[:1]:
                if phrase not in out:
                    out.append(phrase)
    return out


_GENERATIONS = (
    "kepler",
    "maxwell",
    "pascal",
    "volta",
    "tur",
    "amper",
    "ada",
    "hopper",
    "blackwell",
)
"""GPU generations, oldest first, as the normaliser writes them (chips are read as their
generation by the lexicon: "A100" is Ampere)."""


def _older_hardware(answer: str, card_text: str) -> list[str]:
    """A card whose answer names GPU generations ("Hopper/Blackwell native", "on Volta+"): a
    generation older than the oldest it names, and named nowhere in the card's text, is wrong,
    and so is "pre-" that oldest one (derive.hardware)."""
    if not _on("derive.hardware"):
        return []
    said = {w for sentence in normalise(answer) for w in sentence}
    text = {w for sentence in normalise(card_text) for w in sentence}
    named = [i for i, g in enumerate(_GENERATIONS) if g in said]
    if not named:
        return []
    oldest = min(named)
    older = [g for g in _GENERATIONS[:oldest] if g not in text]
    out = [f"({'|'.join(older)})"] if older else []
    return [*out, f"pre {_GENERATIONS[oldest]}"]


def _turned_claims(
    question: str, answer: str, explanation: str | None, asked: frozenset[str]
) -> list[dict[str, Any]]:
    """Misconceptions for one claim of the card's text turned around: a comparison, a remedy's
    direction, the partner the card chooses (see `_comparatives`, `_remedies`, `_preferences`)."""
    texts = [answer, *([explanation] if explanation else [])]
    card_words = [w for t in (question, *texts) for s in normalise(t) for w in s]
    claims = _claims(texts, asked)
    out: list[dict[str, Any]] = []
    for wid, says, phrases in (
        (
            "turned-comparison",
            "a comparison of the card's said the other way round",
            _comparatives(claims, card_words),
        ),
        (
            "reversed-remedy",
            "a change the card makes, made the other way",
            _remedies(claims),
        ),
        (
            "deepened-premise",
            "the setting the question says is too high or too low, moved further that way",
            _premise(question),
        ),
        (
            "other-partner-chosen",
            "the other of two things chosen over the card's",
            _preferences(answer),
        ),
        (
            "subject-swapped",
            "what the card says of one of two partners, said of the other",
            _subject_swapped(answer, asked),
        ),
        (
            "older-hardware",
            "an older GPU generation than the card's",
            _older_hardware(answer, " ".join((question, *texts))),
        ),
        (
            "roles-swapped",
            "two things the card gives opposite directions, given each other's",
            _swapped_directions(answer),
        ),
        (
            "ends-swapped",
            "a change the card makes from one end to the other, made the other way",
            _ends_swapped(answer),
        ),
        (
            "change-refused",
            "what the card changes, kept as it is",
            _kept(answer),
        ),
        (
            "switched-away",
            "what the card switches to, switched away from",
            _switched_away(answer),
        ),
        (
            "dependence-denied",
            "what the card says depends on something, said to be the same whatever it is",
            _independent(" ".join((answer, *texts[1:]))),
        ),
        (
            "operation-reversed",
            "the card's operation on a thing done the other way round",
            _operations(answer),
        ),
        (
            "claim-reversed",
            "what the card's item says done the opposite way",
            _opposites(answer, asked),
        ),
        (
            "prefix-dropped",
            "what the card says of an un- word, said of the word without it",
            _unprefixed(texts, card_words),
        ),
        (
            "state-reversed",
            "what the card says stays high (or low), said to fall (or rise)",
            _states(texts),
        ),
        (
            "needed-thing-disabled",
            "what the card says is needed, turned off",
            _disabled(answer),
        ),
        (
            "needed-after-all",
            "what the card says is not needed, said to be needed still",
            _needed_still(answer),
        ),
        (
            "lost-swapped",
            "what the card says is lost, said to be what does the losing",
            _losses(answer),
        ),
        (
            "missing-thing-overdone",
            "what the card says is missing, said to be set too hard",
            _overdone(answer),
        ),
        (
            "object-swapped",
            "what the card does to one thing, done to another it never names",
            _acted_on([question, *texts]),
        ),
        (
            "remedy-dropped",
            "one of the card's remedies, left out on purpose",
            _skipped(question, answer),
        ),
    ):
        kept = list(dict.fromkeys(phrases))
        if kept:
            out.append({"id": wid, "says": says, "match": kept[:_MAX_PHRASES]})
    return out


_OBJECTS = (
    frozenset({"param"}),
    frozenset({"output", "logit"}),  # not "activ": "clipping is active" names no activation
    frozenset({"grad", "norm"}),
    frozenset({"loss"}),
    frozenset({"lr"}),
    frozenset({"wd"}),
    frozenset({"optst", "momentum"}),
    frozenset({"batch"}),
)
"""What a training method acts on, each kind with the words (stems) that name it."""
_OBJECT_OF = {w: kind for kind in _OBJECTS for w in kind}
_ACTS_ON = (
    "clip scale multiply divide regularize penalize ramp log track monitor skip cast store"
    " accumulate sum average normalize anchor sweep plot mix replay warm cap rescale"
    " unscale constrain pull"
)
"""Verbs of a method acting on a thing ("clip the norm", "regularise toward the weights")."""


@lru_cache(maxsize=1)
def _acts() -> frozenset[str]:
    return frozenset(w for s in normalise(_ACTS_ON) for w in s)


def _acted_on(texts: Sequence[str]) -> list[str]:
    """What the card does to a thing, done to another thing its text never names: "clip the
    global norm" said as "clip the learning rate", "per-layer grad norm tracking" as "track the
    weight norms" (`derive.object`). The card's verbs are those of `_ACTS_ON` up to two words
    before or right after a thing of `_OBJECTS` in its text, the question's included; the
    check `object` (on every deck) reads a verb the card uses with a thing against the other
    things, this one a verb against the things the card never names at all."""
    if not _on("derive.object"):
        return []
    sentences = [s for t in texts for s in normalise(t)]
    named = {_OBJECT_OF[w] for s in sentences for w in s if w in _OBJECT_OF}
    others = [w for kind in _OBJECTS if kind not in named for w in sorted(kind)]
    verbs: list[str] = []
    for s in sentences:
        for i, w in enumerate(s):
            if w in _OBJECT_OF:
                for v in (*s[max(0, i - 2) : i], s[i + 1] if i + 1 < len(s) else ""):
                    if v in _acts() and v not in verbs:
                        verbs.append(v)
    if not others or not verbs:
        return []
    alternation = "|".join(others)
    return [f"{v} ({alternation})" for v in verbs] + [f"({alternation}) {v}" for v in verbs]


def _subject_swapped(answer: str, asked: frozenset[str]) -> list[str]:
    """An item whose subject is one of two partners the question names ("FP16 vs BF16?":
    "BF16 has FP32-equivalent exponent range") said of the other ("FP16 keeps FP32's exponent
    range"); the subject, asked, is no word of the item's own phrasings."""
    if not _on("derive.subject-swapped"):
        return []
    out: list[str] = []
    for main, _ in items_of(answer):
        words = [w for s in normalise(main) for w in s]
        if not words or words[0] not in asked or (words[0],) not in _SWAPS:
            continue
        rest = [w for w in _words(main, asked) if w not in GENERIC and _direction(w) == 0]
        if len(rest) < 2:
            continue
        for (other,) in (p for p in _SWAPS[(words[0],)] if len(p) == 1):
            out += [f"{other} .. {rest[0]} .. {w}" for w in rest[1:3]]
    return out


_ROLE_PAIRS = (("train", "val"),)
"""Two things whose curves a card often sets against each other (training and validation)."""


_REMEDY_QUESTION = frozenset({"prevent", "mitig", "fix", "remed", "recover"})
_DROPPING = ("disabl", "skip", "remov", "ditch", "abandon")


def _skipped(question: str, answer: str) -> list[str]:
    """A card that lists remedies ("Prevention for spikes?": "Gradient clipping, warmup, BF16,
    ..."): one of them skipped, removed or disabled ("skip warmup altogether") is wrong."""
    if not _on("derive.remedy-dropped"):
        return []
    asked = {w for s in normalise(question) for w in s}
    if not any(w.startswith(tuple(_REMEDY_QUESTION)) for w in asked):
        return []
    out: list[str] = []
    for main, _ in items_of(answer):
        words = [w for s in normalise(main) for w in s]
        if any(w in _DROPPING for w in words) or _direction(words[0] if words else "") != 0:
            continue  # "skip bad batch" is itself the remedy; "lower LR" a direction's remedy
        thing = next((w for w in words if w not in GENERIC and not w.startswith("{")), None)
        if thing:  # said right after it: "skip the bad data, ..., switch to bf16" skips nothing
            out.append(f"({'|'.join(_DROPPING)}) {thing}")
    return out


def _swapped_directions(answer: str) -> list[str]:
    """Items giving two partners opposite directions ("train loss decreasing, val loss flat or
    increasing"): each partner said with the other's direction is wrong ("val loss keeps
    decreasing while train loss goes up")."""
    if not _on("derive.swapped-directions"):
        return []
    found: dict[str, int] = {}
    for main, _ in items_of(answer):
        for sentence in normalise(main):
            role = next((w for w in sentence if any(w in p for p in _ROLE_PAIRS)), None)
            sign = next((d for d in map(_direction, sentence) if d), 0)
            if role and sign and role not in found:
                found[role] = sign
    out: list[str] = []
    for a, b in _ROLE_PAIRS:
        if a in found and b in found and found[a] != found[b]:
            out += [f"{a} loss {_said(found[b])}", f"{b} loss {_said(found[a])}"]
    return out


_CHANGES = frozenset({"scal", "increas", "decreas", "adjust", "chang", "tun", "doubl", "rais"})


def _ends_swapped(answer: str) -> list[str]:
    """ "from 0 to peak" said as "from the peak to zero"."""
    if not _on("derive.ends"):
        return []
    out: list[str] = []
    for sentence in normalise(answer):
        for i in range(len(sentence) - 3):
            if sentence[i] != "from":
                continue
            way = 1 if sentence[i + 2] in _WAYS and i + 4 < len(sentence) else 0
            if sentence[i + 2 + way] == "to":
                a, b = sentence[i + 1], sentence[i + 3 + way]
                if a != b:  # "from the peak down to zero", "from the peak LR toward zero"
                    out.append(f"from {b} .. (to|toward|towards) {a}")
                    if _on("derive.ends-started"):  # "start at the peak, ramp down to zero"
                        out.append(f"(start|begin|open) {b} .. (to|toward|towards) {a}")
    return out


_WAYS = frozenset({"up", "down", "back"})


_SWITCHES = frozenset({"switch", "mov", "migrat", "convert", "chang", "go"})


def _switched_away(answer: str) -> list[str]:
    """What the card switches to ("switch BF16") said as where a switch starts ("move from BF16
    down to FP16")."""
    if not _on("derive.switched-away"):
        return []
    return [f"{_SWITCH_SAID} from {thing} .. to" for thing in _objects(answer, _SWITCHES, reach=2)]


_SWITCH_SAID = "(switch|mov|migrat|convert|chang|go|drop|fall back|revert)"


def _kept(answer: str) -> list[str]:
    """What the card's answer changes ("Scale LR") said to stay as it is ("keep the LR
    fixed", "the LR stays the same", "lr unchanged")."""
    if not _on("derive.kept"):
        return []
    out: list[str] = []
    for thing in _objects(answer, _CHANGES, reach=1):
        out += [
            f"(keep|leav|hold) {thing} (fix|sam|constant|unchang)",
            f"{thing} (stay|remain|stays|remains) (fix|sam|constant|unchang)",
            f"{thing} (unchang|untouch)",  # "lr unchanged", as a formula's aside says it
        ]
    return out


def _objects(answer: str, verbs: frozenset[str], reach: int) -> list[str]:
    """The thing each of `verbs` acts on in the answer: the first word within `reach` after
    it that is no generic word, number or other of the verbs ("need clipping": clip)."""
    out: list[str] = []
    for sentence in normalise(answer):
        for i, word in enumerate(sentence[:-1]):
            if word in verbs:
                thing = next((w for w in sentence[i + 1 : i + 1 + reach] if w not in GENERIC), None)
                if thing and not thing.startswith("{") and thing not in verbs:
                    out.append(thing)
    return out


def _independent(answer: str) -> list[str]:
    """ "Task-dependent" / "depends on the task" said as the same for every task: "a fixed
    constant, roughly a thousand tokens whatever the task"."""
    if not _on("derive.dependence"):
        return []
    things: list[str] = []
    for sentence in normalise(answer):
        for i, word in enumerate(sentence):
            if word in ("dependent", "depend"):
                near = sentence[i - 1 : i] if word == "dependent" else sentence[i + 1 : i + 2]
                things += [w for w in near if w not in GENERIC and not w.startswith("{")]
    out: list[str] = []
    for thing in dict.fromkeys(things):
        out += [
            f"(sam|fix|constant|identical|universal) .. (every|all|across) {thing}",
            f"(whatever|regardless|irrespective|independent|no matter) .. {thing}",
            f"not (depend|vary) .. {thing}",
        ]
    return out


_OPERATIONS = {"multiply": "divid", "divid": "multiply"}
"""Operations that undo each other, as the normaliser writes them (`unscale` is `divid`)."""


def _operations(answer: str) -> list[str]:
    """An item that opens with an operation on a thing ("Multiply loss by large constant";
    "divide grad before optimizer step"): the other operation on that thing ("divide the loss
    by a large constant") is wrong."""
    if not _on("derive.operations"):
        return []
    out: list[str] = []
    for main, _ in items_of(answer):
        words = [w for s in normalise(main) for w in s]
        if len(words) > 1 and words[0] in _OPERATIONS:
            out.append(f"= {_OPERATIONS[words[0]]} {words[1]}")
    return out


_HIDING = "(hid|hidden|mask|obscur|flatten|compress|squash|invisibl)"
_RARE = "(rar|uncommon|unusual|infrequent)"
_OPPOSITES = {"reveal": _HIDING, "visibl": _HIDING, "expos": _HIDING}
_TIGHT_OPPOSITES = {"common": _RARE, "frequent": _RARE}
"""Opposites said right beside their thing: "common in fine-tuning" and "rare in fine-tuning"
(not "common in fine-tuning, rare in pretraining")."""
"""Words of an item and how its opposite is said, as the normaliser writes them."""


def _opposites(answer: str, asked: frozenset[str]) -> list[str]:
    """An item that says a thing is revealed or visible ("Reveals early dynamics"; "small
    differences visible"): that thing hidden, flattened or compressed is wrong; one that says
    it is common ("Common in fine-tuning"): that thing called rare is wrong."""
    if not _on("derive.opposites"):
        return []
    out: list[str] = []
    for main, _ in items_of(answer):
        words = [w for w in _words(main, asked) if w not in GENERIC]
        known = _OPPOSITES.keys() | _TIGHT_OPPOSITES.keys()
        said = [w for sentence in normalise(main) for w in sentence]  # "common" is a hedge too
        verb = next((w for w in said if w in known), None)
        thing = next((w for w in words if w not in known and not w.startswith("{")), None)
        if verb and thing and verb in _OPPOSITES:
            out += [f"{_OPPOSITES[verb]} .. {thing}", f"{thing} .. {_OPPOSITES[verb]}"]
        elif verb and thing:
            out.append(f"= {_TIGHT_OPPOSITES[verb]} {thing}")  # not after it: "rarely avoids"
    return out


def _unprefixed(texts: Sequence[str], card_words: Sequence[str]) -> list[str]:
    """A claim the card's text makes of an un- word ("unimportant weights are free to move"):
    the same claim of the word without it ("the important weights are free to move") is wrong,
    when the card says that word too ("Prevents drift on important parameters"). The claim is
    any of the three words after the thing the un- word qualifies, said right after it."""
    if not _on("derive.unprefixed"):
        return []
    said = set(card_words)
    out: list[str] = []
    for text in texts:
        for sentence in normalise(text):
            for i, word in enumerate(sentence[:-2]):
                bare = word[2:]
                if not word.startswith("un") or len(bare) < 5 or bare not in said:
                    continue
                thing, after = sentence[i + 1], sentence[i + 2 : i + 5]
                claims = [w for w in after if w not in GENERIC and w not in _PREPOSITIONS]
                claims = [w for w in claims if not w.startswith("{")]
                if claims and not thing.startswith("{"):  # right after the thing it qualifies
                    out.append(f"= {bare} {thing} ({'|'.join(dict.fromkeys(claims))})")
    return out


_STAYING = frozenset({"stay", "remain", "keep", "still"})  # as the normaliser writes them
_FALLEN = "(low|decreas|down|drop|collaps|vanish|{0})"
_RISEN = "(high|increas|up|spike|explod)"


def _states(texts: Sequence[str]) -> list[str]:
    """A thing the card's text says stays high or low ("gradient norms that stay high"): that
    thing said to fall, collapse or reach zero ("the grad norm collapses to zero") is wrong, and
    the other way round for one that stays low. The thing is the two words before the verb of
    staying, none of them generic, a number or a direction."""
    if not _on("derive.states"):
        return []
    out: list[str] = []
    for text in texts:
        for sentence in normalise(text):
            for i, word in enumerate(sentence[:-1]):
                state = sentence[i + 1]
                if word not in _STAYING or state not in ("high", "low") or i < 1:
                    continue
                thing = [
                    w
                    for w in sentence[max(0, i - 2) : i]
                    if w not in GENERIC and not w.startswith("{") and not _direction(w)
                ]
                if thing:
                    out.append(f"{' '.join(thing)} .. {_FALLEN if state == 'high' else _RISEN}")
    return out


_NEEDS = frozenset({"need", "use", "add", "enabl", "requir", "keep"})


def _disabled(answer: str) -> list[str]:
    """What the card says is needed ("need clipping", "use warmup") turned off or disabled:
    "turn gradient clipping off" is the opposite of the card's advice."""
    if not _on("derive.disabled"):
        return []
    out = [f"disabl .. {thing}" for thing in _objects(answer, _NEEDS, reach=2)]
    if _on("derive.disabled-missing"):  # "missing gradient clip": the clip is needed
        out += [f"disabl .. {thing}" for thing in _missing(answer)]
    return out


_STILL = "(still|too|anyway|regardless)"
"""Words that say a thing applies after all: "it still needs loss scaling", "needs it too"."""


def _needed_still(answer: str) -> list[str]:
    """An item that says a thing is not needed ("no loss scaling needed", "loss scaling not
    required"), said to be needed still: "it still needs loss scaling", "loss scaling is
    needed too", "both need loss scaling" (`derive.needed-still`). Said without "still" or
    its kin it may be another thing's need ("FP16 needs loss scaling; BF16 doesn't")."""
    if not _on("derive.needed-still"):
        return []
    out: list[str] = []
    for main, _ in items_of(answer):
        words = _words(main, frozenset())
        if "not" not in words or "need" not in words or len(words) > 5:
            continue
        thing = " ".join(w for w in words if w not in ("not", "need"))
        if not thing or all(w in GENERIC for w in thing.split()):
            continue
        out += [
            f"{_STILL} (need|requir|use|keep) .. {thing}",
            f"{thing} .. {_STILL} (need|requir|necessary|mandatory)",
            f"(need|requir) {thing} {_STILL}",
            f"{thing} (need|requir|necessary) {_STILL}",
            f"(both|each) .. (need|requir) .. {thing}",
        ]
    return out


def _missing(answer: str) -> list[str]:
    """What the items of the card's answer say is missing: "missing gradient clip" -> clip."""
    out = []
    for main, _ in items_of(answer):
        words = [w for w in _words(main, frozenset()) if w not in GENERIC]
        if len(words) > 1 and words[0] in _ABSENCE and not words[-1].startswith("{"):
            out.append(words[-1])
    return out


_HARSH = "(tight|aggressiv|strict|harsh)"


def _overdone(answer: str) -> list[str]:
    """What an item says is missing ("missing gradient clip"), said to be set too hard ("the
    clip threshold set too tight", "an over-aggressive clip") is the opposite cause."""
    if not _on("derive.overdone-missing"):
        return []
    return [
        phrase
        for thing in _missing(answer)
        for phrase in (
            f"{thing} .. too {_HARSH}",
            f"{thing} set {_HARSH}",
            f"(too|over) {_HARSH} {thing}",
        )
    ]


def _losses(answer: str) -> list[str]:
    """An item in which one of two partners loses the other ("new task wipes out old
    capability"): the losing verb said of the first partner ("the model forgets the new
    data") is the roles swapped (derive.lost-swapped)."""
    if not _on("derive.lost-swapped"):
        return []
    out: list[str] = []
    for main, _ in items_of(answer):
        words = _words(main, frozenset())
        for i, first in enumerate(words):
            partners = {p[0] for p in _SWAPS.get((first,), ()) if len(p) == 1}
            later = [j for j in range(i + 1, len(words)) if words[j] in partners]
            verbs = [w for w in words[i + 1 : later[0]] if w in _LOSING_STEMS] if later else []
            if verbs:
                out.append(f"= {verbs[-1]} {first}")
    return out


def _preferences(answer: str) -> list[str]:
    """The card's answer names one of two partners ("switch to BF16"): the other chosen over it
    ("FP16 rather than BF16", "from BF16 to FP16") is wrong."""
    if not _on("derive.preferences"):
        return []
    named = {w for s in normalise(answer) for w in s}
    out: list[str] = []
    for word, others in sorted(_partners().items()):
        if word not in named or others & named:
            continue
        for other in sorted(others):
            out += [f"{other} .. not {word}", f"= {word} to {other}"]
            out.append(f"= {other} (beat|outperform|better than|preferable to|over) {word}")
    return out
