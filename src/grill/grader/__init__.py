"""Recall grading: a typed answer and a card's rubric -> verdict, matched/missed points, flags.

Pure, deterministic and offline: no I/O, no model, the same answer always gets the same grade.
The verdict follows `../shared/grading-standard.md`. A map of the package, along its pipeline:

    text, lexicon   this module: Unicode folding, sentences, stems, the lexicon, numbers
    context         context.py: the triggers (negation, dismissal, condition, retraction, ...)
                    as a data table; this module's scope code reads them by id
    phrases, match  this module: the phrase language of docs/rubrics.md, compiled and cached;
                    key points, misconceptions, swapped facts, wrong numbers, order
    verdict         verdict.py: the one verdict policy, shared with the mock's tick grading
    derive          derive.py: rubrics derived from a card's own text, for generated decks

How an answer is read, rule by rule with examples, is in docs/grader-rules.md.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from dataclasses import field as _field
from functools import cache, lru_cache

from rapidfuzz.distance import OSA

from grill.answers import clean_answer
from grill.errors import NotFoundError, UsageError
from grill.grader.context import LIST_LEAD, disabled
from grill.grader.context import words as context_words
from grill.grader.verdict import correct_needed, verdict_of
from grill.model import (
    Card,
    Case,
    CaseGrade,
    Deck,
    Flag,
    Grade,
    Library,
    PartGrade,
    Point,
    Rubric,
    Verdict,
)

__all__ = [
    "check_deck",
    "check_deck_lines",
    "correct_needed",
    "grade",
    "grade_batch",
    "grade_case",
    "grade_ref",
    "normalise",
    "one_flag_per_quote",
    "parse_batch",
    "phrase_error",
    "phrase_warnings",
    "resolve_ref",
    "swap_ids",
]

# ---------------------------------------------------------------- vocabulary

_STOPWORDS = frozenset(
    """a an the is are was were be been being am it its it's this these those there here of on in
    at for with into onto as i me my we our us you your they them their he she his her one's
    just really very quite pretty some any also so then thus too_not_a_stopword basically actually
    literally usually typically generally often probably maybe perhaps likely roughly about around
    approximately approx approx. ~ like kind sort etc eg ie e.g i.e would should could can will may
    might do does did doing has have had having get gets got getting make makes made thing
    things stuff way ways lot lots well ok okay sure hmm um uh think guess say
    basically that's what's whats its""".split()
) - {"too_not_a_stopword"}

# The context triggers (negation, dismissal, condition, ...) are data: grader/context.py.
# Words that end a clause for the scope of negation (commas and brackets do too).
_CLAUSE_WORDS = context_words("termination.clause")
# Words that turn a sentence to the other side: a negated phrase may not straddle them.
_STRONG_WORDS = context_words("termination.side")

_AUX = frozenset(
    "is are was were be been am do does did will would should can could may might must need "
    "needs has have had".split()
)
_HARD_NEGATORS = context_words("negation.hard")
_VERBAL_NEGATORS = context_words("negation.verbal")
_SOFT_NEGATORS = context_words("negation.soft")
# Folded negated predicates: word -> the words after the (verbal) negator.
_NEGATED_PREDICATES = {
    "unnecessary": "needed",
    "unneeded": "needed",
    "needless": "needed",
    "irrelevant": "relevant",
    "useless": "useful",
    "pointless": "useful",
    "ineffective": "effective",
    "unhelpful": "helpful",
}
_IDK = re.compile(
    r"\b(idk|dunno|no idea|no clue|not sure|unsure|i (do not|don't|dont) know|"
    r"(do not|don't|dont) know|pass|skip|n/?a|no answer|forgot|"
    r"i forget|can't remember|cant remember|don't remember|dont remember)\b"
)

_LEXICON_TEXT = """
lr: learning rate, learning-rate, step size, stepsize, lrs, learn rate
batch size: bs, bsz, batchsize, minibatch size, mini batch size
bf16: bfloat16, bfloat, brain float, brainfloat, brainfloat16, b16
fp16: float16, half precision, f16, half float
fp32: float32, full precision, single precision, f32
fp8: float8, f8, e4m3, e5m2
mixed precision: amp, automatic mixed precision
grad: gradient, grads, gradients, gradient's
grad norm: gradnorm, gnorm, grad-norm
grad clip: gradclip, gradclipping
eos: edge of stability, edge-of-stability
accumulate: accum, accumulation, accumulating, accumulated
ckpt: checkpoint, check point, chkpt, ckp, snapshot
val: validation, dev set, devset, held out, heldout, held-out, eval set, evaluation set,
    valid set, validation set, val set
val loss: eval loss, evaluation loss, dev loss, test loss
wd: weight decay, l2 regularization, l2 penalty, l2 reg, l2
adam: adamw, adam optimizer, adamw optimizer
optstate: optimizer state, optimizer states, optimiser state, adam state, adam states,
    adam moment, adam moments, adam statistic, optimizer statistic, optimizer moment,
    moment estimate, optimizer stat, adam stat, optim state
optimizer: optimiser, optim, opt
warmup: warm up, warm-up, warming up, warmed up, warms up, lr warmup
loss scale: lossscale, lossscaling, loss scaler, scale loss, scaling loss
layernorm: layer norm, layer normalization, ln
prenorm: pre layernorm, pre layer norm, pre ln, pre norm, pre-ln, pre layer normalization,
    preln, prelayernorm, pre normalization
postnorm: post layernorm, post layer norm, post ln, post norm, postln,
    post layer normalization, postlayernorm
per layer: layerwise, layer-wise, per-layer, each layer, every layer, layer by layer
per tensor: tensorwise, per-tensor, each tensor, tensor-wise
per param: per parameter, parameterwise, per-param, elementwise, element-wise, per element
param: parameter, params, parameters, weights, weight
explode: explosion, explosions, blow up, blowup, blew up, blows up, blowing up, blown up
spike: jump, jumps, jumped, jumping, surge, surges
instability: instabilities, unstable, numerical issue, numerical issues, numerics,
    numerical problem
stable: stability, stabilize, stabilise, stabilization, stabilisation, stabler
nan: nans, not a number, inf, infs, infinity
overfit: overfitting, over-fitting, over fitting, overfits, overfitted
underfit: underfitting, under-fitting, under fitting, underfits
overflow: over flow, overflows, overflowing
underflow: under flow, underflows, underflowing, flush to zero, flushes to zero
early stop: early stopping, early-stopping, stop early, stopping early
augment: augmentation, augmentations, data aug, aug, augmenting
regularize: regularization, regularisation, regularizer, regularise, reg, regularizing,
    regularising
mantissa: significand, fraction bits, mantissa bits
exponent: exponent bits, exponents
fisher: fisher information, fisher info, fim, fisher matrix, fisher information matrix
ewc: elastic weight consolidation
average: avg, averages
moving average: ema, running average, running mean, moving mean, rolling average, rolling mean,
    exponential moving average, movingavg, moving avg, running avg, rolling avg
step: steps, iteration, iterations, iter, iters
frozen: freeze, freezing, froze, frozen layer, requires grad false, requires_grad false,
    requires grad off, requires_grad off, requires grad=false
attention: attn, self-attention, self attention
ffn: feed forward, feed-forward, feedforward, mlp, mlps
pretrain: pre-training, pre training, pretraining, pre-train, pre train
finetune: fine-tuning, fine tuning, finetuning, fine tune, fine-tune, sft
bitflip: bit flip, bit flips, bit-flip, bit-flips, bitflips, flipped bit, flipped bits,
    cosmic ray, cosmic rays
nondeterminism: non-determinism, non determinism, nondeterministic, non-deterministic,
    non deterministic
restart: re-start, start over, start again, retrain, re-train, rerun, restarting, starting over
rollback: roll back, roll-back, rolling back, rolled back, rolls back, revert, reverting,
    go back, going back, restore, restoring, reload, reloading
log scale: log axis, log-scale, log y, log y axis, log-y, logarithmic, logarithmic scale,
    log plot, semilog, log-log, log axes, log scales, logscale
hopper: h100, h200, h800
blackwell: b100, b200, gb200
volta: v100
ampere: a100
matmul: matrix multiplication, matrix multiply, gemm, gemms, matmuls, mat mul,
    matrix multiplications, matrix mult
activation: activations, acts
memory: mem, vram, hbm
speedup: speed up, speed-up, faster, speedups
linear: linearly, proportional, proportionally, proportionately
cosine: cos, cosine annealing, cosine schedule
schedule: scheduler, schedules, sched
old: original, previous, prior, older
dataset: data set, datasets, data sets
high: big, large, huge, enormous, massive
low: small, tiny, little
increase: higher, larger, bigger, greater, raise, raising, bump, grow, grows, growing, rise,
    rises, rising, go up, goes up, going up, increment, climb, climbs, climbing, climbed,
    creep up, creeps up, creeping up, tick up, ticks up, ticking up, turn up, turns up,
    turning up, turn upward, turns upward, turning upward, uptick, upticks, upturn, upturns
decrease: lower, lowering, smaller, reduce, reducing, reduction, cut, cutting, halve, halving,
    decline, go down, goes down, going down, fall, falls, falling, shrink, less, fewer
double: twice, doubling, doubled, doubles
order magnitude: order of magnitude, orders of magnitude, oom
forget: forgetting, forgets, forgot, forgotten, lose, loses, losing, erase, erases, wipe out,
    wipes out, overwrite, overwrites
only: just, simply, merely, solely
skip: skipping, discard, discarding, ignore, ignoring
ratio: fraction, proportion, share, mix ratio
replay: rehearsal, replay buffer, replaying
fix: fixes, remedy, remedies, mitigation, mitigations, mitigate, solution
underutilized: underutilised, under utilized, under utilised, underused, under used
"""
"""canonical: variants. A line starting with spaces continues the one above."""


def _lexicon_entries(text: str) -> list[tuple[str, tuple[str, ...]]]:
    entries: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.startswith(" "):
            entries[-1][1].extend(v.strip() for v in line.split(",") if v.strip())
            continue
        canonical, _, variants = line.partition(":")
        entries.append((canonical.strip(), [v.strip() for v in variants.split(",") if v.strip()]))
    return [(c, tuple(v)) for c, v in entries]


# Canonical words that also stand for a number (a multiplier).
_WORD_NUMS = {"doubl": (2.0, "x"), "order magnitud": (10.0, "x")}  # by canonical stems

_NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
# "a tenth", "one fifth", "three quarters": a share, read as a percentage.
_FRACTIONS = {
    **dict.fromkeys(("tenth", "tenths"), 100 / 10),
    **dict.fromkeys(("fifth", "fifths"), 100 / 5),
    **dict.fromkeys(("quarter", "quarters"), 100 / 4),
    **dict.fromkeys(("third", "thirds"), 100 / 3),
    **dict.fromkeys(("half", "halves"), 100 / 2),
    **dict.fromkeys(("hundredth", "hundredths"), 100 / 100),
}
_MAGNITUDES = {"hundred": 100.0, "thousand": 1e3, "million": 1e6, "billion": 1e9}
_SUFFIX_MAG = {"k": 1e3, "m": 1e6, "b": 1e9, "bn": 1e9}
_PERCENT_WORDS = frozenset({"percent", "pct", "percentage"})
_TIMES_WORDS = frozenset({"x", "times", "fold"})

# Word pairs a typo must never turn into one another.
_PROTECTED = frozenset(
    """increase decrease higher lower high low overflow underflow before after above below
    more less larger smaller early late first last old new input output forward backward global
    local pre post min max minimum maximum mantissa exponent train val positive negative linear
    quadratic""".split()
)

# ---------------------------------------------------------------- stemming and the lexicon

_BRITISH = (
    (re.compile(r"(?<=[a-z]{3})is(e|es|ed|ing|ation|ations|er|ers)$"), r"iz\1"),
    (re.compile(r"(?<=[a-z]{3})ys(e|es|ed|ing)$"), r"yz\1"),
    (re.compile(r"(?<=[a-z]{3})our(s|ed|ing|al|)$"), r"or\1"),
    (re.compile(r"(?<=[a-z]{3}[aeiou])ll(ed|ing|er|ers)$"), r"l\1"),
)
_EXCEPTIONS = {
    "bias": "bias",
    "biases": "bias",
    "embed": "embed",
    "used": "use",
    "uses": "use",
    "using": "use",
    "early": "early",
    "only": "only",
    "data": "data",
    "loss": "loss",
    "status": "status",
    "analysis": "analysis",
    "axis": "axis",
    "axes": "axis",
    "news": "new",
    "less": "less",
    "unless": "unless",
    "series": "series",
    "process": "process",
    "family": "family",
    "learnt": "learn",
    "unlearnt": "unlearn",
}
_INFLECTIONS = (
    ("sses", "ss"),
    ("ies", "y"),
    ("ied", "y"),
    ("ingly", ""),
    ("edly", ""),
    ("ings", ""),
    ("ing", ""),
    ("eed", "eed"),
    ("ed", ""),
    ("ches", "ch"),
    ("shes", "sh"),
    ("xes", "x"),
    ("zes", "z"),
    ("es", "e"),
    ("ss", "ss"),
    ("us", "us"),
    ("is", "is"),
    ("s", ""),
    ("ily", "y"),
    ("ly", ""),
)
_NOT_ADVERB_ENDINGS = ("p", "a", "mb")
_DERIVATIONS = (
    ("izations", ""),
    ("ization", ""),
    ("izers", ""),
    ("izer", ""),
    ("ize", ""),
    ("iz", ""),
    ("ations", ""),
    ("ation", ""),
    ("ate", ""),
    ("ities", ""),
    ("ity", ""),
    ("ness", ""),
    ("ences", ""),
    ("ence", ""),
)


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    """A light, conservative suffix stripper; the same on answers and phrases."""
    if word in _EXCEPTIONS:
        return _EXCEPTIONS[word]
    if len(word) <= 3 or not word.isalpha():
        return word
    for pattern, repl in _BRITISH:
        word = pattern.sub(repl, word)
    for suffix, repl in _INFLECTIONS:
        if word.endswith(suffix):
            base = word[: len(word) - len(suffix)]
            minimum = 4 if suffix == "ly" else 3
            if suffix == "ly" and base.endswith(_NOT_ADVERB_ENDINGS):
                break  # `multiply`, `supply`, `anomaly`, `assembly`: not adverbs
            if len(base) >= minimum and (suffix not in ("ing", "ed") or _has_vowel(base)):
                word = base + repl
                if suffix in ("ing", "ed", "ings", "ingly", "edly"):
                    word = _after_strip(word)
            break
    for suffix, repl in _DERIVATIONS:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: len(word) - len(suffix)] + repl
            break
    if word.endswith("e") and len(word) > 3 and not word.endswith("ee"):
        word = word[:-1]
    return word


def _has_vowel(text: str) -> bool:
    return any(c in "aeiouy" for c in text)


def _after_strip(word: str) -> str:
    """`clipp` -> `clip` (undouble), `updat` -> `update` (restore the e)."""
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz" and word[-1] not in "aeiou":
        return word[:-1]
    if word.endswith(("at", "bl", "iz")):
        return word + "e"
    return word


_WORD_SPLIT = re.compile(r"[a-z0-9]+")


def _stems(text: str) -> tuple[str, ...]:
    return tuple(_stem(w) for w in _WORD_SPLIT.findall(text.lower()))


@dataclass(frozen=True)
class _Lexicon:
    multi: dict[tuple[str, ...], tuple[str, ...]]
    longest: int
    raw: dict[str, tuple[str, ...]]  # unstemmed single-word variants, for typo matching
    canon: frozenset[str]


def _key(text: str) -> tuple[str, ...]:
    """A lexicon key: the stems of a variant's words, filler words left out."""
    words = _WORD_SPLIT.findall(text.lower())
    return tuple(_stem(w) for w in words if w not in _STOPWORDS) or tuple(map(_stem, words))


def _build_lexicon() -> _Lexicon:
    multi: dict[tuple[str, ...], tuple[str, ...]] = {}
    raw: dict[str, tuple[str, ...]] = {}
    canon: set[str] = set()
    for canonical, variants in _lexicon_entries(_LEXICON_TEXT):
        out = _stems(canonical)
        canon.update(out)
        for variant in (canonical, *variants):
            key = _key(variant)
            if key and key != out or len(key) > 1:
                multi.setdefault(key, out)
            if " " not in variant and len(variant) >= 6 and variant.isalpha():
                raw.setdefault(variant, out)
    longest = max(len(k) for k in multi)
    return _Lexicon(multi, longest, raw, frozenset(canon))


_LEX = _build_lexicon()
_STOP_STEMS = frozenset(_stem(w) for w in _STOPWORDS) | _STOPWORDS
_PROTECTED_STEMS = frozenset(_stem(w) for w in _PROTECTED)
_KNOWN = (
    _STOP_STEMS
    | _PROTECTED_STEMS
    | _LEX.canon
    | frozenset(s for k in _LEX.multi for s in k)
    | frozenset(_stem(w) for w in _CLAUSE_WORDS | _HARD_NEGATORS | _AUX)
    # real words one letter from a lexicon variant: never typos ("failing" is not "falling")
    | frozenset(_stem(w) for w in "fail failing failed fails failure".split())
)


@lru_cache(maxsize=65536)
def _typo_of_lexicon(word: str) -> tuple[str, ...] | None:
    """A long unknown word one typo from a lexicon variant (`gradeint`, `checkpiont`)."""
    if len(word) < 6 or not word.isalpha() or _stem(word) in _KNOWN:
        return None
    limit = 2 if len(word) >= 9 else 1
    for variant, canonical in _LEX.raw.items():
        if variant[0] == word[0] and abs(len(variant) - len(word)) <= limit:
            if OSA.distance(word, variant, score_cutoff=limit) <= limit:
                return canonical
    return None


# ---------------------------------------------------------------- tokens


@dataclass(frozen=True)
class _Num:
    lo: float
    hi: float
    kind: str  # "" plain, "%" percent, "x" multiplier


@dataclass(frozen=True)
class _Tok:
    word: str  # canonical stem; "#" for a number
    num: _Num | None
    start: int
    end: int
    neg: int = 0  # 0 none, 1 negator, 2 soft negator (misconceptions only)
    verbal: bool = False  # a negated verb ("isn't", "is not", "never"): negates what precedes it
    clause: int = 0  # clause index within the sentence (negation scope)
    side: int = 0  # strong-clause index (a negated phrase may not straddle `but`)
    sub: bool = False  # in a subordinate clause (`so ...`, `which ...`): never a contradiction
    hypo: bool = False  # a negator under `check`/`make sure`: it does not negate key points
    pred: bool = False  # a verbal negator before a predicate (`not needed`) or ending its clause
    passive: bool = False  # `by` after a past participle ("wiped out by"): the agent follows
    retracted: bool = False  # in a clause the answer takes back ("cosine? no - inverse sqrt")
    pverb: bool = False  # a passive verb of losing ("is forgotten"): what follows is no object
    cond: bool = False  # in a condition clause (`if ...`): its negation is part of the condition
    rejected: bool = False  # in a list a negated lead-in introduces ("I would not: A, B or C")


@dataclass
class _Raw:
    """A token while a sentence is being read: surface word or number, with its offsets."""

    text: str
    start: int
    end: int
    num: _Num | None = None
    sep: str = ""  # punctuation: "," (clause break), "-" (range dash) or "" for a word
    stop: bool = False  # a filler word: dropped after negation and clauses are read


_UNICODE = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201b": "'",
        "\u2032": "'",
        "`": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": " - ",
        "\u2015": " - ",
        "\u2212": "-",
        "\u2192": " > ",
        "\u27f6": " > ",
        "\u21d2": " > ",
        "\u2794": " > ",
        "\u279c": " > ",
        "\u00d7": " x",
        "\u221d": " proportional to ",
        "\u2191": " increase ",
        "\u2b06": " increase ",
        "\u21d1": " increase ",
        "\u2197": " increase ",
        "\u2193": " decrease ",
        "\u2b07": " decrease ",
        "\u21d3": " decrease ",
        "\u2198": " decrease ",
        "\u2248": "~",
        "\u2264": "<",
        "\u2260": " not ",
        "\u2265": ">",
    }
)
_Repl = str | Callable[[re.Match[str]], str]
_PRE: tuple[tuple[re.Pattern[str], _Repl], ...] = (
    # list markers are not numbers: `1.`, `2)`, `(3)`, `a)`, `•` opening a line; `(2)`, `3)` inline
    (re.compile(r"(?m)^[ \t]*(?:\(?\d{1,2}[.)]|\(?[a-h]\)|[•·▪‣◦*+])[ \t]+"), "\n"),
    (re.compile(r"\(\d{1,2}\)(?=\s)|(?<=[,;:]\s)\d{1,2}\)(?=\s)"), " , "),
    (re.compile(r"\b(e\.g|i\.e)\.?,?"), " "),
    (re.compile(r"\b(etc|vs|approx|resp|cf)\."), r"\1"),
    (re.compile(r"\bper cent\b"), "percent"),
    (re.compile(r"\bno matter\b"), "regardless"),  # not a negation: "no matter how large"
    (re.compile(r"\bnot (?:a lot|lots|a ton|a great deal|a whole lot|that much)\b"), "not much"),
    # what others wrongly say: "some people read it as underfitting, but ..."
    (
        re.compile(
            r"\b((?:some|many|most|a lot of) (?:people|folks|candidates|engineers|teams)"
            r"|people|folks|candidates) (?:often |sometimes |usually )?(think|say|read|call|"
            r"assume|believe|claim|blame|mistake|confuse|reach for|jump to|suggest)\b"
        ),
        r"\1 wrongly \2",
    ),
    (
        re.compile(r"\b(?:off the table|out of the question|a non.?starter)\b"),
        " counterproductive ",
    ),
    # "double-check the lr" checks it: not a multiplier ("double the lr")
    (re.compile(r"\b(?:double|triple)[- ]?(?=check)"), ""),
    (re.compile(r"!=|=/="), " not "),
    (re.compile(r"\bw/o\b"), "without"),
    (re.compile(r"\bw/"), "with "),
    (re.compile(r"\bb/c\b"), "because"),
    (re.compile(r"(\d+(?:\.\d+)?)\s*\^\s*(-?\d+)"), lambda m: f"{m.group(1)}e{m.group(2)}"),
    (re.compile(r"-+>|=+>|<-+"), " > "),
    # `x2` / `×2` = `2x`; `1/batch` = inversely with the batch (a negation of "proportional")
    (re.compile(r"(?<![a-z0-9.])x\s?(\d+(?:\.\d+)?)(?![\d.]*[a-z0-9])"), r" \1x "),
    (re.compile(r"(?<![\d.])1\s*/\s*(?=[a-z(])"), " inversely "),
    (re.compile(r"\.{2,}"), ". "),
    # a ratio with its names: "old:new 1:9", "1:9 old to new" = "10% old / 90% new"
    (
        re.compile(
            r"\b(?P<a>[a-z]+)\s*[:/]\s*(?P<b>[a-z]+)\s*(?:=|is|of|at|ratio|~|about|around)?\s*"
            r"(?P<x>\d+(?:\.\d+)?)\s*:\s*(?P<y>\d+(?:\.\d+)?)\b"
            r"|\b(?P<x2>\d+(?:\.\d+)?)\s*:\s*(?P<y2>\d+(?:\.\d+)?)\s+"
            r"(?P<a2>[a-z]+)\s*(?:[:/]|to)\s*(?P<b2>[a-z]+)\b"
        ),
        lambda m: _ratio_shares(m),
    ),
    # judgements, not the backward pass: "that would be backwards", "that makes it worse"
    (
        re.compile(r"\b(make|makes|making|made) (it|things|this|that|matters) worse\b"),
        r"\1 counterproductive",
    ),
    (
        re.compile(r"\b(is|be|are|was|'s|seems|sounds|get it|got it|exactly) backwards\b"),
        r"\1 counterproductive",
    ),
    (re.compile(r"([a-z])\1{2,}"), r"\1"),  # `sloooow` = `slow`
)


def _ratio_shares(m: re.Match[str]) -> str:
    a, b = m.group("a") or m.group("a2"), m.group("b") or m.group("b2")
    x, y = float(m.group("x") or m.group("x2")), float(m.group("y") or m.group("y2"))
    if x + y <= 0:
        return m.group(0)
    share = 100 * x / (x + y)
    return f" {share:g}% {a} / {100 - share:g}% {b} "


_SENTENCE = re.compile(r"(?:[.!?;]+(?=\s|$|[\"')\]])|\n+|\.(?=[a-z]{2}))")
_LEX_TOKEN = re.compile(
    r"(?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e-?\d+)?|\.\d+)"
    r"(?P<suf>bn|k|m|b|x|%)?(?![a-z0-9])"
    r"|(?P<numword>\d+(?:\.\d+)?)(?=[a-z])"
    r"|(?P<word>[a-z][a-z0-9_]*(?:'[a-z]+)?)"
    r"|(?P<sep>[,:()\[\]{}/<>+&|*-]|%)"
)


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text.translate(_UNICODE)).translate(_UNICODE).lower()
    for pattern, repl in _PRE:
        text = pattern.sub(repl, text)
    return text


def _sentences(text: str) -> Iterator[tuple[int, str]]:
    """(offset, sentence text) pieces of a folded text."""
    start = 0
    for m in _SENTENCE.finditer(text):
        if m.start() > start:
            yield start, text[start : m.start()]
        start = m.end()
    if start < len(text):
        yield start, text[start:]


def _raw_tokens(text: str, offset: int) -> list[_Raw]:
    out: list[_Raw] = []
    for m in _LEX_TOKEN.finditer(text):
        s, e = m.start() + offset, m.end() + offset
        if m.group("num") is not None:
            value = float(m.group("num").replace(",", ""))
            suffix = m.group("suf") or ""
            kind = suffix if suffix in ("x", "%") else ""
            value *= _SUFFIX_MAG.get(suffix, 1.0)
            out.append(_Raw(m.group(0), s, e, _Num(value, value, kind)))
            if suffix in _SUFFIX_MAG:
                out[-1].text = "#mag"  # marks a number that already carries its magnitude
        elif m.group("numword") is not None:
            value = float(m.group("numword"))
            out.append(_Raw(m.group(0), s, e, _Num(value, value, "")))
        elif m.group("word") is not None:
            out.extend(_split_word(m.group("word"), s))
        else:
            sep = m.group("sep")
            if sep == "-":
                before = text[m.start() - 1] if m.start() > 0 else " "
                after = text[m.end()] if m.end() < len(text) else " "
                sep = "-" if not before.isspace() and not after.isspace() else ","
            out.append(_Raw(sep, s, e, sep=sep if sep in "-%" else ","))
    return out


# Contractions typed without the apostrophe, and common misspellings of them.
_BARE_NEGATIONS = {
    **{
        w[:-2] + "t": w[:-3]
        for w in """doesn't don't isn't aren't wasn't weren't didn't hasn't haven't hadn't
        shouldn't wouldn't couldn't mustn't needn't""".split()
    },
    "wont": "will",
    "cant": "can",
    "aint": "is",
    "dosent": "does",
    "dosnt": "does",
    "doesent": "does",
    "doesnot": "does",
    "didnot": "did",
    "isnot": "is",
    "shoudnt": "should",
    "shouldnt": "should",
    "wouldnt": "would",
}


def _split_word(word: str, start: int) -> list[_Raw]:
    """Contractions and underscores: `doesn't` -> does + not, `requires_grad` -> requires grad."""
    out: list[_Raw] = []
    pos = start
    for part in word.split("_"):
        if not part:
            pos += 1
            continue
        end = pos + len(part)
        if part in _BARE_NEGATIONS:
            out.append(_Raw(_BARE_NEGATIONS[part], pos, end))
            out.append(_Raw("n't", end, end))
        elif part.endswith("n't"):
            stem = {"won't": "will", "can't": "can", "shan't": "shall"}.get(part, part[:-3])
            out.append(_Raw(stem, pos, end - 3))
            out.append(_Raw("n't", end - 3, end))
        elif part.endswith(("'s", "'re", "'ve", "'ll", "'d", "'m")):
            out.append(_Raw(part[: part.index("'")], pos, end))
        else:
            out.append(_Raw(part.replace("'", ""), pos, end))
        pos = end + 1
    return out


def _read_numbers(raws: list[_Raw]) -> list[_Raw]:
    """Number words, magnitudes, kinds (%, x) and ranges folded into number tokens."""
    out = _ranges(_number_suffixes(_number_words(raws)))
    return [r for r in out if r.sep != "-" and r.sep != "%"]  # a hyphen joins words like a space


def _number_words(raws: list[_Raw]) -> list[_Raw]:
    out: list[_Raw] = []
    i = 0
    while i < len(raws):
        r = raws[i]
        if r.text == "half" and len(out) >= 3 and [x.text for x in out[-2:]] == ["and", "a"]:
            whole = out[-3].num
            if whole is not None and whole.kind == "" and whole.lo == whole.hi:
                value = whole.lo + 0.5  # "one and a half"
                out[-3:] = [_Raw("#", out[-3].start, r.end, _Num(value, value, ""))]
                i += 1
                continue
        if r.text in _FRACTIONS and out and not out[-1].sep:
            prev = out[-1]
            count = 1.0 if prev.text in ("a", "an") else None
            if prev.text == "#" and prev.num is not None and prev.num.kind == "":
                count = prev.num.lo  # "one tenth", "two fifths" (number words only)
            if count is not None:
                share = count * _FRACTIONS[r.text]
                out[-1] = _Raw("#", prev.start, r.end, _Num(share, share, "%"))
                i += 1
                continue
        nxt = raws[i + 1].text if i + 1 < len(raws) else ""
        if r.text in ("a", "an") and nxt in _MAGNITUDES:
            out.append(_Raw("#", r.start, r.end, _Num(1.0, 1.0, "")))  # "a hundred"
            i += 1
            continue
        if r.sep or r.num is not None or r.text not in _NUMBER_WORDS:
            if r.text == "twice":
                out.append(_Raw("double", r.start, r.end))
            else:
                out.append(r)
            i += 1
            continue
        value = float(_NUMBER_WORDS[r.text])
        j = i + 1
        if value >= 20 and j < len(raws) and raws[j].text in _NUMBER_WORDS:
            if _NUMBER_WORDS[raws[j].text] < 10:
                value += _NUMBER_WORDS[raws[j].text]
                j += 1
        if j + 1 < len(raws) and raws[j].text == "point" and raws[j + 1].text in _NUMBER_WORDS:
            value += _NUMBER_WORDS[raws[j + 1].text] / 10
            j += 2
        out.append(_Raw("#", r.start, raws[j - 1].end, _Num(value, value, "")))
        i = j
    return out


def _number_suffixes(raws: list[_Raw]) -> list[_Raw]:
    out: list[_Raw] = []
    for r in raws:
        prev = out[-1] if out else None
        if prev is not None and prev.num is not None and not r.sep:
            word = r.text
            if word in _MAGNITUDES or (word == "k" and prev.text != "#mag"):
                mag = _MAGNITUDES.get(word, 1e3)
                prev.num = _Num(prev.num.lo * mag, prev.num.hi * mag, prev.num.kind)
                prev.text, prev.end = "#mag", r.end
                continue
            if word in _PERCENT_WORDS or word in _TIMES_WORDS:
                kind = "%" if word in _PERCENT_WORDS else "x"
                prev.num = _Num(prev.num.lo, prev.num.hi, kind)
                prev.end = r.end
                continue
        if r.sep == "%" and prev is not None and prev.num is not None:
            prev.num = _Num(prev.num.lo, prev.num.hi, "%")
            prev.end = r.end
            continue
        if r.sep == "-" and prev is not None and prev.num is not None:
            out.append(r)  # maybe a range dash; `10-fold` is read below
            continue
        if r.text == "fold" and len(out) >= 2 and out[-1].sep == "-" and out[-2].num is not None:
            n = out[-2].num
            out[-2].num = _Num(n.lo, n.hi, "x")
            out[-2].end = r.end
            out.pop()
            continue
        out.append(r)
    return out


def _ranges(raws: list[_Raw]) -> list[_Raw]:
    """`2-8k`, `2k to 8k`, `between 2000 and 8000`, `two to eight thousand` -> one range."""
    out: list[_Raw] = []
    i = 0
    while i < len(raws):
        r = raws[i]
        if r.text == "between" and i + 3 < len(raws) and raws[i + 2].text == "and":
            lo, hi = raws[i + 1], raws[i + 3]
            if lo.num is not None and hi.num is not None:
                out.append(_range(lo, hi))
                i += 4
                continue
        if (
            r.num is not None
            and i + 2 < len(raws)
            and (raws[i + 1].sep == "-" or raws[i + 1].text == "to")
            and raws[i + 2].num is not None
            and not (raws[i + 1].text == "to" and out and out[-1].text == "from")
        ):
            out.append(_range(r, raws[i + 2]))
            i += 3
            continue
        out.append(r)
        i += 1
    return out


def _range(lo: _Raw, hi: _Raw) -> _Raw:
    assert lo.num is not None and hi.num is not None
    a, b = lo.num.lo, hi.num.hi
    kind = hi.num.kind or lo.num.kind
    if hi.text == "#mag" and lo.text != "#mag" and b >= 1000:
        mag = 10 ** (3 * int(math.log10(b) // 3))
        if a * mag <= b:
            a *= mag
    if a > b:
        a, b = b, a
    return _Raw("#", lo.start, hi.end, _Num(a, b, kind))


def _canonical(raws: list[_Raw]) -> list[_Raw]:
    """Stem words and fold lexicon entries (longest match first) to their canonical words."""
    words = ["" if r.sep or r.num is not None else _stem(r.text) for r in raws]
    out: list[_Raw] = []
    i = 0
    while i < len(raws):
        r = raws[i]
        if not words[i]:
            out.append(r)
            i += 1
            continue
        end, found = _lexicon_at(raws, words, i)
        if found is None and r.text in _STOPWORDS:
            out.append(_Raw(words[i], r.start, r.end, stop=True))
            i += 1
            continue
        if found is None:
            typo = _typo_of_lexicon(r.text)
            end, found = i + 1, typo if typo is not None else (words[i],)
        for k, word in enumerate(found):
            out.append(_Raw(word, r.start, raws[end - 1].end, _word_num(found, k)))
        i = end
    return out


def _lexicon_at(raws: list[_Raw], words: list[str], i: int) -> tuple[int, tuple[str, ...] | None]:
    """The longest lexicon entry starting at i (filler words inside it skipped): (end, words)."""
    content: list[int] = []
    j = i
    while j < len(raws) and words[j] and len(content) < _LEX.longest:
        if not (content and raws[j].text in _STOPWORDS):
            content.append(j)
        j += 1
    for n in range(len(content), 0, -1):
        found = _LEX.multi.get(tuple(words[k] for k in content[:n]))
        if found is not None:
            return content[n - 1] + 1, found
    return i + 1, None


def _word_num(words: tuple[str, ...], k: int) -> _Num | None:
    key = " ".join(words)
    if key in _WORD_NUMS and k == 0:
        value, kind = _WORD_NUMS[key]
        return _Num(value, value, kind)
    return None


def _stems_of(words: Iterable[str]) -> frozenset[str]:
    return frozenset(_stem(w) for w in words)


_NEG_STEMS = _stems_of(_HARD_NEGATORS) | {"not", "n't"}
_VERBAL_STEMS = _stems_of(_VERBAL_NEGATORS) | {"n't"}
_SOFT_STEMS = _stems_of(_SOFT_NEGATORS)
# Dismissals: they stop a misconception or red flag from counting, whichever side they stand on
# ("bit flips are rare", "the bit-flip myth", "a last resort", "rule out bit flips").
_DISMISS_STEMS = _stems_of(context_words("dismissal"))
_BLAME_STEMS = _stems_of(context_words("dismissal.blame-before"))
_AUX_STEMS = _stems_of(_AUX) | _AUX
_CLAUSE_STEMS = _stems_of(_CLAUSE_WORDS)
_STRONG_STEMS = _stems_of(_STRONG_WORDS)
_NEG_PREDICATES = {_stem(k): _stem(v) for k, v in _NEGATED_PREDICATES.items()}
# Words of an aside between commas: "FP16, in practice, is safer" keeps one clause.
_ASIDE_STEMS = _stems_of(context_words("continuation.aside"))
# "right where", "just when", "exactly where": the clause word names a place or time.
_PLACE_STEMS = _stems_of("where when then".split())
_PINPOINT_STEMS = _stems_of("right exactly".split()) | {"only"}  # `just` folds to `only`
_COUNTERFACTUAL = frozenset("it this that them these those one".split())
_NOT_A_NEGATION = context_words("pseudo.not-only")  # `not only X` asserts X
# ... but after a modal it refuses: "you can't just keep training", "you shouldn't just lower it".
_MODAL_STEMS = _stems_of("can could will would should must may might shall".split())
# Purpose and condition clauses: "scale the loss so grads don't underflow" is no contradiction.
_SUBORDINATE_STEMS = _stems_of(context_words("condition.purpose"))
# `check the schedule isn't broken` suspects the schedule: a key point, not its negation.
_CHECK_STEMS = _stems_of(context_words("suspect.check"))
_CHECK_LINKS = _stems_of("that if whether".split())
# Verbs of helping: a misconception followed by "won't <verb>" is rejected ("won't smooth it").
_HELP_STEMS = _stems_of("help helps fix fixes solve solves smooth cure save rescue work".split())
_PREDICATE_STEMS = _stems_of(
    """need needed required require requires necessary help helps matter matters use used
    work works important relevant useful apply applies enabled true correct right case
    effective problem issue cause causes fix fixes solve happen happens exist exists enough
    sufficient worth mandatory essential""".split()
)


# Bad outcomes: "without X, <one of these>" says X is needed, it does not deny X.
_BAD_STEMS = frozenset(
    r.text
    for r in _canonical(
        _read_numbers(
            _raw_tokens(
                """diverge explode nan overflow underflow unstable spike fail crash break collapse
                worse degrade hurt suffer forget stall die garbage corrupt""",
                0,
            )
        )
    )
    if not r.sep
)


_CONDITION_STEMS = _stems_of(context_words("condition"))
_FAIL_STEMS = _stems_of("fail fails failed failing unable".split())
_RELATIVE_STEMS = _stems_of("that which who".split())
_COPULA = frozenset("is are was were".split())
# A subject after `unlike X` starts the main clause: "unlike a bad batch it's persistent".
_SUBJECTS = frozenset("it this that they these those we you i".split())
# An exception ends the scope of a negation before it: "nothing extra except loss scaling".
_EXCEPT_STEMS = _stems_of("except besides".split())
_FROM_THAN = frozenset({"from", "than"})


def _tokens(raws: list[_Raw]) -> list[_Tok]:
    """Mark negators and clauses, drop filler words: the tokens a phrase is matched against."""
    out: list[_Tok] = []
    clause = side = 0
    sub = hypo = unlike = False
    conds: set[int] = set()
    prev = ""
    i = 0
    while i < len(raws):
        r = raws[i]
        i += 1
        nxt = raws[i].text if i < len(raws) else ""
        if r.sep:
            # "check the lr isn't tiny, that nothing is frozen": the list of checks goes on
            clause, sub, hypo = clause + 1, False, hypo and nxt in _CHECK_LINKS
            continue
        if r.text in ("#", "#mag"):
            out.append(_Tok("#", r.num, r.start, r.end, clause=clause, side=side, sub=sub))
            prev = "#"
            continue
        word = r.text
        if (
            word in _NEG_STEMS
            and nxt in _NOT_A_NEGATION
            and not (word == "n't" and prev in _MODAL_STEMS and nxt == "only")
        ):
            i += nxt != "necessarily"
            continue
        if word == "without" and nxt in _COUNTERFACTUAL:
            clause, sub = clause + 1, True  # "without it, grads underflow" = "otherwise ..."
            i += 1
            continue
        if word == "without" and (_bad_after(raws, i) or _bad_before(out, clause)):
            sub = True  # "without per-tensor scaling it diverges": the scaling is needed
            prev = word
            continue
        if word in ("instead", "rather") and nxt in ("of", "than"):
            clause, sub = clause + 1, True
            out.append(_Tok("not", None, r.start, raws[i].end, 1, False, clause, side, sub))
            i += 1
            prev = "rather than"
            continue
        blame = _blame_after(raws, i) if word == _stem("before") else 0
        if (word == "rul" and nxt == "out") or blame:
            out.append(_Tok("avoid", None, r.start, raws[i].end, 2, False, clause, side, sub))
            i += max(blame, 1)
            prev = "avoid"
            continue
        if word in _EXCEPT_STEMS or (word in ("apart", "asid", "other") and nxt in _FROM_THAN):
            clause, side = clause + 1, side + 1  # "nothing extra except loss scaling"
            sub = hypo = False
        if word in _CHECK_STEMS or (word == "make" and nxt == "sure"):
            hypo = True
        if word in _NEG_PREDICATES:
            out.append(_Tok("not", None, r.start, r.end, 1, True, clause, side, sub, hypo))
            out.append(
                _Tok(_NEG_PREDICATES[word], None, r.start, r.end, 0, False, clause, side, sub)
            )
            prev = word
            continue
        if word in _FAIL_STEMS and nxt == "to":
            i += 1  # "fails to learn" = "doesn't learn"
            if _cancels(out, clause):
                prev = "not"
                continue
            out.append(_Tok("not", None, r.start, raws[i - 1].end, 1, True, clause, side, sub))
            prev = "not"
            continue
        if word in _NEG_STEMS:
            verbal = word in _VERBAL_STEMS or prev in _AUX_STEMS
            out.append(_Tok("not", None, r.start, r.end, 1, verbal, clause, side, sub, hypo))
            prev = "not"
            continue
        if prev == "rather than" and word in _CLAUSE_STEMS and word not in _STRONG_STEMS:
            prev = word  # "rather than where the train loss is lowest": one clause
            continue
        if word == "that" and prev == "not":
            continue  # "it isn't that bf16 is more precise": the negation covers the that-clause
        if word in _RELATIVE_STEMS and nxt in _COPULA and prev not in ("", "that", "which"):
            continue  # "a learning rate that is too low": the relative clause describes the lr
        if word in _PLACE_STEMS and prev in _PINPOINT_STEMS:
            prev = word  # "right where it diverges": a place, not a new clause
            continue
        if word in _CLAUSE_STEMS or word in _STRONG_STEMS:
            clause += 1
            side += word in _STRONG_STEMS
            sub = word in _SUBORDINATE_STEMS
            hypo = hypo and word in _CHECK_LINKS
            if word in _CONDITION_STEMS:
                conds.add(clause)
            prev = word
            continue
        if unlike and r.text in _SUBJECTS and out and out[-1].word != "unlik":
            clause, unlike = clause + 1, False  # "unlike a bad batch it's a single event"
        if clause in conds and r.text in _SUBJECTS and out and out[-1].clause == clause:
            clause, sub = clause + 1, False  # "if you never hit the plateau you're ...": the main
        unlike = unlike or word == "unlik"
        prev = word
        if r.stop:
            continue
        dismiss = word in _DISMISS_STEMS
        neg = 2 if word in _SOFT_STEMS or dismiss else 0
        out.append(_Tok(word, r.num, r.start, r.end, neg, False, clause, side, sub, pred=dismiss))
    if conds:
        out = [replace(t, cond=True) if t.clause in conds else t for t in out]
    return _mark_predicates(_join_asides(out))


def _cancels(out: list[_Tok], clause: int) -> bool:
    """A failure right after a negation cancels it ("not the model failing to learn"): the
    negator before is neutralised and the failure adds none."""
    for k in range(len(out) - 1, max(-1, len(out) - 4), -1):
        if out[k].clause != clause:
            return False
        if out[k].neg == 1:
            out[k] = replace(out[k], word="~not", neg=0)
            return True
    return False


def _bad_after(raws: list[_Raw], i: int) -> bool:
    """After `without X`: a bad outcome follows in the sentence, not negated ("... it diverges")."""
    named = False  # X comes first: "without any instabilities" names no X
    for k in range(i, min(i + 10, len(raws))):
        if raws[k].text in _STRONG_STEMS:
            return False
        if raws[k].text in _BAD_STEMS:
            return named and not any(r.text in _NEG_STEMS for r in raws[max(i, k - 3) : k])
        named = named or not (raws[k].stop or raws[k].sep)
    return False


def _bad_before(out: list[_Tok], clause: int) -> bool:
    """Before `without X`: a bad outcome in the clause, not negated ("fp8 diverges without ...")."""
    near = [t for t in out[-6:] if t.clause == clause]
    return any(t.word in _BAD_STEMS for t in near) and not any(t.neg for t in near)


def _blame_after(raws: list[_Raw], i: int) -> int:
    """After `before`: how many words up to a verb of blaming ("before anyone pins it on"), or 0."""
    for k in range(i, min(i + 3, len(raws))):
        if raws[k].sep:
            return 0
        if raws[k].text in _BLAME_STEMS:
            return k - i + 1
    return 0


def _join_asides(toks: list[_Tok]) -> list[_Tok]:
    """A comma-bounded aside ("FP16, in practice, is safer") does not split its clause."""
    clauses = sorted({t.clause for t in toks})
    if len(clauses) < 3:
        return toks
    merge: dict[int, int] = {}
    for a, b, c in zip(clauses, clauses[1:], clauses[2:], strict=False):
        words = [t.word for t in toks if t.clause == b]
        if words and len(words) <= 3 and all(w in _ASIDE_STEMS for w in words):
            target = merge.get(a, a)
            merge[b] = merge[c] = target
    if not merge:
        return toks
    return [replace(t, clause=merge[t.clause]) if t.clause in merge else t for t in toks]


def _mark_predicates(toks: list[_Tok]) -> list[_Tok]:
    """A verbal negator negates what precedes it only before a predicate (`isn't needed`)."""
    out = list(toks)
    for q, tok in enumerate(toks):
        if tok.neg == 1 and tok.verbal:
            nxt = toks[q + 1] if q + 1 < len(toks) else None
            if nxt is None or nxt.clause != tok.clause or nxt.word in _PREDICATE_STEMS:
                out[q] = replace(tok, pred=True)
    return out


def _analyse_sentence(text: str, offset: int) -> list[_Tok]:
    raws = _read_numbers(_raw_tokens(text, offset))
    toks = _tokens(_canonical(raws))
    for q in range(1, len(toks)):
        if toks[q].word == "by":
            before = text[toks[q - 1].start - offset : toks[q - 1].end - offset]
            if _PARTICIPLE.search(before):
                toks[q] = replace(toks[q], passive=True)
    for q, tok in enumerate(toks[:-1]):
        nxt = toks[q + 1]
        if tok.word in _STOP_VERBS and not tok.neg and nxt.clause == tok.clause:
            if text[nxt.start - offset : nxt.end - offset].endswith("ing"):
                toks[q] = replace(tok, neg=2)  # "val loss stops improving": a soft negation
    for q, tok in enumerate(toks):
        if tok.word in _LOSING_STEMS:
            gap = text[(toks[q - 1].end - offset) if q else 0 : tok.start - offset]
            surface = text[tok.start - offset : tok.end - offset]
            if _PASSIVE_AUX.search(gap) and _PARTICIPLE.search(surface):
                toks[q] = replace(tok, pverb=True)  # "old skills are forgotten after ..."
    return _mark_rejected_list(toks, text, offset)


def _mark_rejected_list(toks: list[_Tok], text: str, offset: int) -> list[_Tok]:
    """Context rule negation.list: "What I would not do: A, B, or C." rejects A, B and C, to the
    end of the sentence or a side change ("..., instead: D"); the lead-in is short and negated."""
    colon = text.find(":")
    if colon < 0 or not context_words("negation.list"):
        return toks
    lead = [t for t in toks if t.end - offset <= colon]
    if not lead or len(lead) > LIST_LEAD or not any(t.neg == 1 for t in lead):
        return toks
    out = list(toks)
    for q in range(len(lead), len(out)):
        if out[q].word in _STRONG_STEMS:
            break
        out[q] = replace(out[q], rejected=True)
    return out


_STOP_VERBS = _stems_of("stop stops stopped cease ceases ceased".split())
_PARTICIPLE = re.compile(r"(?:[a-z]{2}(?:ed|en)|\bout|\blost|\bforgot)$")
_PASSIVE_AUX = re.compile(r"\b(?:is|are|was|were|be|been|being|gets?|got|gotten|getting)\s+$")
_LOSING_STEMS = _stems_of("forget lost destroy clobber replace override degrade".split())


@dataclass(frozen=True)
class _Answer:
    text: str
    sentences: tuple[tuple[_Tok, ...], ...]

    @property
    def empty(self) -> bool:
        return not any(self.sentences)


def _analyse(text: str) -> _Answer:
    folded = _fold(text)
    sentences: list[list[_Tok]] = []
    for offset, piece in _sentences(folded):
        toks = _analyse_sentence(piece, offset)
        if toks:
            sentences.append(toks)
    _mark_retractions(sentences, folded)
    return _Answer(text, tuple(tuple(s) for s in sentences))


# A clause made only of these words takes back what comes just before it: "cosine? no - ...",
# "warmup ramps down - no wait, up". At least one of `_RETRACT_NO` must be there.
_RETRACT_NO = context_words("retraction")
_RETRACT_WORDS = _RETRACT_NO | context_words("retraction.words")


def _mark_retractions(sentences: list[list[_Tok]], folded: str) -> None:
    """Mark the clause an answer takes back with a clause of its own that is only a "no".

    Within a sentence the clause right before the "no" is taken back ("cosine - no, inverse
    sqrt"); a sentence that opens with it takes back the sentence before when that one is a
    question ("cosine? no - inverse sqrt"), else that sentence's last clause.
    """
    for s, sentence in enumerate(sentences):
        clauses: dict[int, list[int]] = {}
        for p, tok in enumerate(sentence):
            clauses.setdefault(tok.clause, []).append(p)
        order = sorted(clauses)
        for k, c in enumerate(order):
            surface = {folded[sentence[p].start : sentence[p].end] for p in clauses[c]}
            if not (surface & _RETRACT_NO and surface <= _RETRACT_WORDS):
                continue
            if k > 0:
                for p in clauses[order[k - 1]]:
                    sentence[p] = replace(sentence[p], retracted=True)
            elif s > 0:
                before = sentences[s - 1]
                gap = folded[before[-1].end : sentence[0].start]
                last = before[-1].clause
                for p, tok in enumerate(before):
                    if "?" in gap or tok.clause == last:
                        before[p] = replace(tok, retracted=True)


def normalise(text: str) -> list[list[str]]:
    """The words the grader sees in a text, per sentence (numbers as `{lo-hi kind}`)."""
    return [
        [t.word if t.num is None else _num_text(t.num) for t in sentence]
        for sentence in _analyse(text).sentences
    ]


def _num_text(num: _Num) -> str:
    def show(v: float) -> str:
        return f"{v:g}"

    body = show(num.lo) if num.lo == num.hi else f"{show(num.lo)}-{show(num.hi)}"
    return "{" + body + num.kind + "}"


# ---------------------------------------------------------------- phrases


class _PhraseError(ValueError):
    pass


@dataclass(frozen=True)
class _Slot:
    """One place in a bag: any of these words, or a number in any of these ranges."""

    words: frozenset[str]
    nums: tuple[_Num, ...] = ()
    negator: bool = False

    def accepts(self, tok: _Tok) -> bool:
        if tok.word in self.words:
            return True
        return tok.num is not None and any(_in_range(tok.num, n) for n in self.nums)


def _in_range(value: _Num, spec: _Num) -> bool:
    eps = 1e-9
    lo, hi = value.lo, value.hi
    if value.kind != spec.kind:
        if spec.kind == "%" and value.kind in ("", "x") and value.hi <= 1:
            lo, hi = lo * 100, hi * 100  # 0.1 of peak = 10%
        elif spec.kind == "x" and value.kind == "%" and value.lo >= 20:
            lo, hi = 1 + lo / 100, 1 + hi / 100  # 50-100% faster = 1.5-2x
        else:
            return False
    return spec.lo - eps <= lo and hi <= spec.hi + eps


_Segment = tuple[_Slot, ...]
_Expansion = tuple[_Segment, ...]


@dataclass(frozen=True)
class _Variant:
    """One way a phrase can match: bags in order, whether it negates, extra window width."""

    segments: _Expansion
    negated: bool
    slack: int
    bare_negation: bool = False  # `(no|nothing)`: matches only an answer that is just a negation
    tight: bool = False  # `= a b`: each bag's words stand next to each other (filler skipped)
    accuracy: bool = False  # names an accuracy-like metric: its directions are that metric's


@dataclass(frozen=True)
class _Phrase:
    variants: tuple[_Variant, ...]
    words: frozenset[str]


_SYNTAX = re.compile(r"(\.\.|\{[^{}]*\}|[(|)])")
_NUMSPEC = re.compile(
    r"^\s*(?P<lo>\d+(?:\.\d+)?)\s*(?P<lm>k|m|b)?\s*(?:-\s*(?P<hi>\d+(?:\.\d+)?)\s*(?P<hm>k|m|b)?)?"
    r"\s*(?P<kind>%|x|×)?\s*$"
)
_MAX_VARIANTS = 256


def _num_spec(body: str) -> _Num:
    m = _NUMSPEC.match(body.lower())
    if not m:
        raise _PhraseError(
            f"bad number range {{{body}}}: write {{2000-8000}}, {{5-15%}} or {{10x}}"
        )
    lo = float(m.group("lo")) * _SUFFIX_MAG.get(m.group("lm") or "", 1.0)
    hi_text = m.group("hi")
    hi = lo if hi_text is None else float(hi_text) * _SUFFIX_MAG.get(m.group("hm") or "", 1.0)
    if hi_text is not None and m.group("hm") and not m.group("lm"):
        lo *= _SUFFIX_MAG[m.group("hm")]
    if lo > hi:
        raise _PhraseError(f"number range {{{body}}} runs backwards")
    kind = {"×": "x"}.get(m.group("kind") or "", m.group("kind") or "")
    return _Num(lo, hi, kind)


def _text_slots(text: str) -> list[_Slot]:
    """Plain phrase text -> one slot per word, via the answer's normalisation."""
    out: list[_Slot] = []
    for _, piece in _sentences(_fold(text)):
        for tok in _analyse_sentence(piece, 0):
            if tok.word == "#" and tok.num is not None:
                out.append(_Slot(frozenset(), (tok.num,)))
            else:
                nums = (tok.num,) if tok.num is not None else ()
                out.append(_Slot(frozenset({tok.word}), nums, tok.neg == 1))
    return out


# While compiling: a variant is (segments as lists of slots, negated, slack).
_Draft = tuple[list[list[_Slot]], bool, int]


def _parse(phrase: str) -> list[_Draft]:
    parts = [p for p in _SYNTAX.split(phrase) if p and p.strip()]
    pos = 0

    def sequence(depth: int) -> list[_Draft]:
        nonlocal pos
        acc: list[_Draft] = [([[]], False, 0)]
        while pos < len(parts):
            part = parts[pos]
            if part in (")", "|"):
                if depth == 0:
                    raise _PhraseError(
                        "')' without a matching '('"
                        if part == ")"
                        else "'|' outside brackets: write (a|b)"
                    )
                break
            pos += 1
            if part == "(":
                acc = _join(acc, group(depth))
            elif part == "..":
                acc = [([*segs, []], neg, slack) for segs, neg, slack in acc]
            elif part.startswith("{"):
                acc = _join(acc, [([[_Slot(frozenset(), (_num_spec(part[1:-1]),))]], False, 0)])
            else:
                if "{" in part or "}" in part:
                    raise _PhraseError(f"unbalanced braces in {part.strip()!r}")
                slots = _text_slots(part)
                acc = _join(acc, [([slots], any(sl.negator for sl in slots), 0)])
        return acc

    def group(depth: int) -> list[_Draft]:
        nonlocal pos
        options: list[tuple[_Draft, bool]] = []
        while True:
            literal_empty = pos < len(parts) and parts[pos] in ("|", ")")
            options.extend((draft, literal_empty) for draft in sequence(depth + 1))
            if pos >= len(parts):
                raise _PhraseError("'(' is never closed")
            pos += 1
            if parts[pos - 1] == ")":
                break
        if all(empty for _, empty in options):
            raise _PhraseError("empty brackets '()'")
        return _collapse(options)

    result = sequence(0)
    if pos < len(parts):
        raise _PhraseError(f"unexpected '{parts[pos]}'")
    return result


def _collapse(options: list[tuple[_Draft, bool]]) -> list[_Draft]:
    """A group's alternatives: single words merge into one slot; an optional group is dropped.

    Dropping `(x|)` loses nothing: a bag without x matches wherever the bag with x does (the
    window keeps room for it). An optional part with a negator is kept, since it changes meaning.
    An alternative made only of filler words (`that's it`) cannot be checked and is left out;
    a group made only of them (`(the|a)`) is optional.
    """
    singles: set[str] = set()
    nums: list[_Num] = []
    others: list[_Draft] = []
    optional = all(not any(segs_ for segs_ in d[0]) for d, _ in options)
    for (segs, neg, slack), literal_empty in options:
        atoms = [sl for seg in segs for sl in seg]
        if not atoms and len(segs) == 1:
            optional = optional or literal_empty
        elif len(segs) == 1 and len(atoms) == 1 and not neg:
            singles |= atoms[0].words
            nums.extend(atoms[0].nums)
        else:
            others.append((segs, neg, slack))
    if optional and not any(neg for _, neg, _ in others):
        return [([[]], False, 1)]
    out = [([[_Slot(frozenset(singles), tuple(nums))]], False, 0)] if singles or nums else []
    out += others
    if optional:
        out.append(([[]], False, 1))
    return out


def _join(acc: list[_Draft], options: list[_Draft]) -> list[_Draft]:
    """Every variant so far followed by every option; `..` inside an option starts a new bag."""
    out: list[_Draft] = []
    for segs, neg, slack in acc:
        for osegs, oneg, oslack in options:
            merged = [list(seg) for seg in segs]
            merged[-1].extend(osegs[0])
            merged.extend(list(seg) for seg in osegs[1:])
            out.append((merged, neg or oneg, slack + oslack))
    if len(out) > _MAX_VARIANTS:
        raise _PhraseError(
            f"too many combinations of multi-word alternatives (more than {_MAX_VARIANTS})"
        )
    return out


@cache
def _compile(phrase: str) -> _Phrase:
    stripped = phrase.strip()
    tight = stripped.startswith("=")
    if tight:
        stripped = phrase = stripped[1:].strip()
    if not stripped:
        raise _PhraseError("empty phrase")
    if stripped.startswith("..") or stripped.endswith(".."):
        raise _PhraseError("'..' needs words on both sides")
    variants: list[_Variant] = []
    for segs, negated, slack in _parse(phrase):
        bags = tuple(tuple(seg) for seg in segs if seg)
        if not bags:
            raise _PhraseError(
                "the phrase can match with no words at all (only filler words or optional parts)"
            )
        bare = all(slot.words == {"not"} and not slot.nums for bag in bags for slot in bag)
        accuracy = any(slot.words & _ACCURACY_STEMS for bag in bags for slot in bag)
        variant = _Variant(bags, negated, slack, bare, tight, accuracy)
        if variant not in variants:
            variants.append(variant)
    words = frozenset(w for v in variants for seg in v.segments for sl in seg for w in sl.words)
    return _Phrase(tuple(variants), words)


_INNER_GROUP = re.compile(r"\(([^()]*)\)")


def phrase_warnings(phrase: str) -> list[str]:
    """Parts of a valid phrase that cannot be checked: alternatives made only of filler words.

    In a required group, `(it|update)` silently reads as `update` (so "clip it" misses), and a
    group of filler words only, `(then|and)`, drops out of the phrase altogether; both are legal
    but rarely what the author meant. Optional groups (`(the|)`) lose nothing and pass.
    """
    out: list[str] = []
    text = phrase
    while True:
        m = _INNER_GROUP.search(text)
        if m is None:
            break
        alts = m.group(1).split("|")
        optional = any(not a.strip() for a in alts)
        filler = [a.strip() for a in alts if a.strip() and _plain(a) and not _has_words(a.strip())]
        if optional or not filler:
            pass  # `(the|)`, `(very|way|)`: optional anyway, nothing is lost
        elif len(filler) == len(alts):
            out.append(f"group {m.group(0)!r} is only filler words: it drops out")
        else:
            shown = ", ".join(repr(a) for a in filler)
            out.append(
                f"alternative {shown} of {m.group(0)!r} is only filler words: it is left out,"
                " so one of the others is required"
            )
        text = text[: m.start()] + " \x00 " + text[m.end() :]
    return out


def _plain(alt: str) -> bool:
    return not any(c in alt for c in "{}.\x00")


def _has_words(text: str) -> bool:
    return bool(_text_slots(text))


def phrase_error(phrase: str) -> str | None:
    """Why a phrase is not valid in the phrase language, or None when it is."""
    try:
        _compile(phrase)
    except _PhraseError as exc:
        return str(exc)
    return None


# ---------------------------------------------------------------- matching


_BACK = 3  # a negator this many words before a matched word negates it
_BACK_STRICT = 5  # the same for misconceptions and red flags ("would not put it down to X")
_AHEAD = 3  # a verbal negator this many words after the last matched word negates the match
_GAP = 6  # misconceptions: at most this many words from one side of `..` to the next


@dataclass(frozen=True)
class _Hit:
    sentence: int
    positions: tuple[int, ...]
    negated: bool
    contradiction: bool  # negated inside one main clause: states the opposite of the phrase


# Metrics that move opposite to the loss: "train accuracy rises" is "train loss falls". A direction
# word in a clause about one of them (and no loss) does not match a phrase that names none.
_ACCURACY_STEMS = _stems_of("accuracy acc f1 score auc bleu top1 top5".split())
_LOSS_STEMS = _stems_of("loss error perplexity ppl nll entropy".split())
_DIRECTION_STEMS = _stems_of("increase decrease high low up down drop upward downward".split())


def _accuracy_positions(sentence: Sequence[_Tok]) -> frozenset[int]:
    """Positions of a sentence whose clause is about an accuracy-like metric, not a loss."""
    words = [
        "top1" if t.word == "top" and q + 1 < len(sentence) and sentence[q + 1].num else t.word
        for q, t in enumerate(sentence)
    ]  # "top-1", "top 5"
    if not _ACCURACY_STEMS.intersection(words):
        return frozenset()
    if not _LOSS_STEMS.intersection(words):
        return frozenset(range(len(sentence)))
    about: set[int] = set()
    for c in {t.clause for t in sentence}:
        where = [p for p, t in enumerate(sentence) if t.clause == c]
        clause = {words[p] for p in where}
        if clause & _ACCURACY_STEMS and not clause & _LOSS_STEMS:
            about.update(where)
    return frozenset(about)


class _View:
    """One answer seen through one rubric: tokens, typo-resolved words and where they occur."""

    def __init__(self, answer: _Answer, prepared: _Prepared):
        self.answer = answer
        self.index: list[dict[str, list[int]]] = []
        self.numbers: list[list[int]] = []
        self.accuracy = [_accuracy_positions(sentence) for sentence in answer.sentences]
        vocab, typos = prepared.vocab, prepared.typos
        folded = _fold(answer.text) if any(answer.sentences) else ""
        for sentence in answer.sentences:
            idx: dict[str, list[int]] = {}
            nums: list[int] = []
            for p, tok in enumerate(sentence):
                idx.setdefault(tok.word, []).append(p)
                if tok.word not in vocab:
                    alias = _typo_in(tok.word, vocab, typos)
                    if alias is None and tok.num is None:
                        alias = _typo_raw(folded[tok.start : tok.end], prepared)
                    if alias is not None:
                        idx.setdefault(alias, []).append(p)
                if tok.num is not None:
                    nums.append(p)
            self.index.append(idx)
            self.numbers.append(nums)

    def candidates(self, s: int, slot: _Slot) -> list[int]:
        index = self.index[s]
        found: list[int] = []
        for word in slot.words:
            found.extend(index.get(word, ()))
        if slot.nums:
            sentence = self.answer.sentences[s]
            found.extend(p for p in self.numbers[s] if slot.accepts(sentence[p]))
        return sorted(set(found)) if len(slot.words) > 1 or slot.nums else found


def _typo_in(word: str, vocab: frozenset[str], memo: dict[str, str | None]) -> str | None:
    if word in memo:
        return memo[word]
    found = None
    if len(word) >= 6 and word.isalpha() and word not in _KNOWN:
        limit = 2 if len(word) >= 9 else 1
        for v in sorted(vocab):
            if (
                len(v) >= 6
                and v[0] == word[0]
                and v not in _PROTECTED_STEMS
                and abs(len(v) - len(word)) <= limit
                and OSA.distance(word, v, score_cutoff=limit) <= limit
            ):
                found = v
                break
    memo[word] = found
    return found


def _typo_raw(surface: str, prepared: _Prepared) -> str | None:
    """The typed word before stemming one typo from a rubric word before stemming.

    Stems hide typos (`saturaton` stays whole while `saturation` stems to `satur`), so a word that
    is unknown as a stem is also compared as typed with the rubric's words as written.
    """
    memo = prepared.raw_typos
    if surface in memo:
        return memo[surface]
    found = None
    if len(surface) >= 6 and surface.isalpha() and _stem(surface) not in _KNOWN:
        limit = 2 if len(surface) >= 9 else 1
        for v, stem in prepared.raw:
            if (
                v[0] == surface[0]
                and abs(len(v) - len(surface)) <= limit
                and OSA.distance(surface, v, score_cutoff=limit) <= limit
            ):
                found = stem
                break
    memo[surface] = found
    return found


def _window(n: int) -> int:
    return n + max(4, n)


def _negated(sentence: Sequence[_Tok], chosen: Iterable[int], strict: bool) -> bool:
    """Is this placement negated? `strict` (misconceptions) also heeds soft and `check` negators."""
    picked = set(chosen)
    if strict and any(sentence[p].rejected for p in picked):
        return True  # named in a rejected list: "I would not: restart from scratch, ..."
    back = _BACK_STRICT if strict else _BACK
    last_clause = sentence[max(picked)].clause
    for p in picked:
        for q in range(max(0, p - back), p):
            tok = sentence[q]
            if q in picked or tok.clause != sentence[p].clause:
                continue
            if strict and tok.cond and tok.clause != last_clause:
                continue  # "if you never hit the plateau you're data-limited": the condition
            if (tok.neg == 1 and (strict or not tok.hypo)) or (strict and tok.neg == 2):
                return True
    last = max(picked)
    if strict and any(
        sentence[q].neg == 2 and sentence[q].pred for q in range(min(picked) + 1, last)
    ):
        return True  # a dismissal inside the placement: "smoothing it that way is backwards, ..."
    end = last
    while end + 1 < len(sentence) and sentence[end + 1].clause == sentence[last].clause:
        end += 1
    if strict and end > last and sentence[end].neg == 2 and sentence[end].pred:
        return True  # a dismissal ending the clause: "wiping the run to begin afresh is a myth"
    for q in range(last + 1, min(len(sentence), last + 1 + _AHEAD)):
        tok = sentence[q]
        if tok.clause != sentence[last].clause:
            break
        if tok.neg == 1 and tok.pred and (strict or not tok.hypo):
            return True
        if strict and tok.neg == 1 and tok.verbal and _helps(sentence, q):
            return True  # "raising the batch size won't smooth it"
        if strict and tok.neg == 2 and tok.pred:
            return True
    return False


def _helps(sentence: Sequence[_Tok], q: int) -> bool:
    """Is the verbal negator at q followed, in its clause, by a verb of helping ("won't fix")?"""
    nxt = sentence[q + 1] if q + 1 < len(sentence) else None
    return nxt is not None and nxt.clause == sentence[q].clause and nxt.word in _HELP_STEMS


def _refused(sentence: Sequence[_Tok], after: int) -> bool:
    """A later clause of the sentence that is only a verbal negation ("..., so I wouldn't") or
    only a dismissal ("... to smooth it - that's a myth")."""
    clauses: dict[int, list[_Tok]] = {}
    for tok in sentence[after + 1 :]:
        clauses.setdefault(tok.clause, []).append(tok)
    last = sentence[after].clause
    return any(
        c != last and all((t.neg == 1 and t.verbal) or (t.neg == 2 and t.pred) for t in toks)
        for c, toks in clauses.items()
    )


def _bag_matches(
    view: _View, s: int, bag: _Segment, after: int, variant: _Variant, strict: bool
) -> Iterator[tuple[tuple[int, ...], bool]]:
    """Every placement of a bag in sentence s after position `after`: (positions, negated).

    Key points: any order within the window. Misconceptions (`strict`): in the phrase's order
    and inside one clause.
    """
    sentence = view.answer.sentences[s]
    cands = [[p for p in view.candidates(s, slot) if p > after] for slot in bag]
    if any(not c for c in cands):
        return
    width = (len(bag) if variant.tight else _window(len(bag))) + variant.slack
    anchors = cands[0] if strict else sorted({p for c in cands for p in c})
    seen: set[tuple[int, ...]] = set()
    accuracy = view.accuracy[s] if not variant.accuracy else frozenset()
    for anchor in anchors:
        chosen = (
            _in_order(sentence, cands, anchor, width)
            if strict
            else _any_order(sentence, cands, anchor, width, variant.negated)
        )
        if chosen is None:
            continue
        if accuracy and any(
            p in accuracy and slot.words & _DIRECTION_STEMS
            for slot, p in zip(bag, chosen, strict=True)
        ):
            continue  # "val accuracy drops" is not "val (loss) drops"
        key = tuple(sorted(chosen))
        if key in seen or (strict and after >= 0 and _passive(sentence, after, key[0])):
            continue
        seen.add(key)
        if variant.negated:
            if len({sentence[p].side for p in key}) == 1:
                yield key, False
        else:
            yield key, _negated(sentence, key, strict)


def _any_order(
    sentence: Sequence[_Tok], cands: list[list[int]], anchor: int, width: int, negated: bool
) -> list[int] | None:
    used: set[int] = set()
    chosen: list[int] = []
    for c in cands:
        inside = [p for p in c if anchor <= p < anchor + width and p not in used]
        if not inside:
            return None
        if not negated:
            inside.sort(key=lambda p: _negated(sentence, (p,), False))
        used.add(inside[0])
        chosen.append(inside[0])
    return chosen


def _passive(sentence: Sequence[_Tok], a: int, b: int) -> bool:
    """A passive `by` between two words of a misconception: "old skills wiped out by the new task"
    turns "old .. wipe out .. new" around, so the in-order reading does not hold; nor does a word
    after a passive verb of losing ("old skills are forgotten after ... new")."""
    return sentence[a].pverb or any(sentence[q].passive for q in range(a + 1, b))


def _in_order(
    sentence: Sequence[_Tok], cands: list[list[int]], anchor: int, width: int
) -> list[int] | None:
    clause = sentence[anchor].clause
    chosen = [anchor]
    for c in cands[1:]:
        nxt = next((p for p in c if p > chosen[-1]), None)
        if nxt is None or nxt >= anchor + width or sentence[nxt].clause != clause:
            return None
        if _passive(sentence, chosen[-1], nxt):
            return None
        chosen.append(nxt)
    return chosen


def _match_variant(view: _View, variant: _Variant, strict: bool) -> _Hit | None:
    """The first hit of a variant in the answer not negated, else the first negated one."""
    fallback: _Hit | None = None
    if variant.bare_negation:
        return _bare_negation(view)
    for s in range(len(view.answer.sentences)):
        hit = _match_segments(view, s, variant, 0, -1, strict, ())
        if hit is None:
            continue
        positions, negated = hit
        sentence = view.answer.sentences[s]
        if negated and strict and any(sentence[p].cond for p in positions):
            negated = _negated(sentence, positions, strict)  # the condition's own negation
        one_clause = len({sentence[p].clause for p in positions}) == 1
        main = not any(sentence[p].sub for p in positions)
        negated = negated or (strict and _refused(sentence, max(positions)))
        taken_back = any(sentence[p].retracted for p in positions)
        result = _Hit(s, positions, negated or taken_back, one_clause and main and not taken_back)
        if not negated:
            return result
        fallback = fallback or result
    return fallback


# "not much", "not a lot": a hedge on an amount, not a bare negation.
_HEDGED_AMOUNT = re.compile(r"\s*(?:much|many|a bit|a little)\b")


def _bare_negation(view: _View) -> _Hit | None:
    """A sentence that is only a negation, with at most one more word: "nothing", "none extra".

    A negated amount ("not much", "not a lot") is a hedge, not a negation: it does not count.
    """
    folded = ""
    for s, sentence in enumerate(view.answer.sentences):
        if len(sentence) <= 2 and sentence[0].neg == 1:
            folded = folded or _fold(view.answer.text)
            if _HEDGED_AMOUNT.match(folded, sentence[0].end):
                continue
            return _Hit(s, (0,), False, False)
    return None


def _match_segments(
    view: _View,
    s: int,
    variant: _Variant,
    k: int,
    after: int,
    strict: bool,
    acc: tuple[int, ...],
) -> tuple[tuple[int, ...], bool] | None:
    """The first non-negated placement of the bags from k on after `after` (else a negated one)."""
    if k == len(variant.segments):
        return acc, False
    fallback = None
    for positions, negated in _bag_matches(view, s, variant.segments[k], after, variant, strict):
        if strict and k > 0 and min(positions) - after > _GAP:
            break
        if strict and k > 0 and _antonym_between(view.answer.sentences[s], acc, after, positions):
            continue  # "important ones stay anchored while unimportant ones move freely"
        rest = _match_segments(view, s, variant, k + 1, max(positions), strict, acc + positions)
        if rest is None:
            continue
        total, rest_negated = rest
        if not (negated or rest_negated):
            return total, False
        fallback = fallback or (total, True)
    return fallback


_PLACE_OPPOSITES: dict[str, frozenset[str]] = {}
for _x, _ys in (
    ("above", "below"),
    ("before", "after"),
    ("first", "last"),
    ("hold", "break breaks broke fail fails"),  # "holds over a range and breaks down past ..."
    ("holds", "break breaks broke fail fails"),
):
    for _y in _ys.split():
        for _a, _b in ((_stem(_x), _stem(_y)), (_stem(_y), _stem(_x))):
            _PLACE_OPPOSITES[_a] = _PLACE_OPPOSITES.get(_a, frozenset()) | {_b}


def _antonym_between(
    sentence: Sequence[_Tok], acc: tuple[int, ...], after: int, positions: tuple[int, ...]
) -> bool:
    """Between two sides of `..`, the `un-`, place or verb opposite of a word matched before:
    the second side is said of the other thing ("important ... while unimportant ones move
    freely", "below it X, above it Y")."""
    said = {sentence[p].word for p in acc}
    other = {o for w in said for o in _PLACE_OPPOSITES.get(w, ())}
    return any(
        (t.word.startswith("un") and t.word[2:] in said) or t.word in other
        for t in sentence[after + 1 : min(positions)]
    )


def _match_point_phrases(view: _View, phrases: Sequence[str], strict: bool) -> _Hit | None:
    """The earliest non-negated hit of any phrase, else a negated one (a contradiction first)."""
    return _point_hits(view, phrases, strict)[0]


def _point_hits(
    view: _View, phrases: Sequence[str], strict: bool
) -> tuple[_Hit | None, _Hit | None]:
    """(`_match_point_phrases`, the widest contradiction of any phrase, even if another matches)."""
    best: _Hit | None = None
    negated: _Hit | None = None
    widest: _Hit | None = None
    stated = 0  # the most words any phrase matches not negated
    for phrase in phrases:
        for variant in _compile(phrase).variants:
            hit = _match_variant(view, variant, strict)
            if hit is None:
                continue
            if not hit.negated:
                stated = max(stated, len(hit.positions))
            if hit.negated:
                if negated is None or (hit.contradiction and not negated.contradiction):
                    negated = hit
                if hit.contradiction and (
                    widest is None or len(hit.positions) > len(widest.positions)
                ):
                    widest = hit
            elif best is None or (hit.sentence, hit.positions[0]) < (
                best.sentence,
                best.positions[0],
            ):
                best = hit
    if widest is not None and len(widest.positions) <= stated:
        widest = None  # as strong a phrase is stated: the denial does not outweigh it
    return best or negated, widest


def _hit_text(view: _View, hit: _Hit) -> str:
    sentence = view.answer.sentences[hit.sentence]
    start = min(sentence[p].start for p in hit.positions)
    end = max(sentence[p].end for p in hit.positions)
    return _original_span(view.answer.text, start, end)


def _original_span(text: str, start: int, end: int) -> str:
    """Offsets are into the folded text; folding keeps length except for a few expansions."""
    folded = _fold(text)
    if len(folded) == len(text):
        return text[start:end].strip()
    return folded[start:end].strip()


# ---------------------------------------------------------------- swapped facts

# The standard's swap pairs, as the normaliser writes them: a key point that does not match but
# matches with one side of a pair exchanged for the other is a swapped fact or a reversed direction.
# Only phrases of two words or more are swapped: a one-word phrase (`underflow`) swapped is a bare
# mention of the other side ("backs off when it sees an overflow"), which states nothing false.
_SWAP_TEXT = """fp16 | bf16
mantissa | exponent
old | new
overflow | underflow
increase | decrease
more | decrease
high | low
up | down
before | after
above | below
global | per layer"""


def swap_ids() -> list[str]:
    """The swap pairs as rule ids (`swap:fp16|bf16`), for ablation and the docs."""
    return [
        "swap:" + "|".join(side.strip() for side in line.split("|"))
        for line in _SWAP_TEXT.splitlines()
    ]


def _swap_table() -> dict[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    table: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    off = disabled()
    for rule, line in zip(swap_ids(), _SWAP_TEXT.splitlines(), strict=True):
        if rule in off:
            continue
        a, b = (tuple(t.word for t in _analyse_sentence(side, 0)) for side in line.split("|"))
        table.setdefault(a, []).append(b)
        table.setdefault(b, []).append(a)
    return {k: tuple(v) for k, v in table.items()}


_SWAPS = _swap_table()
_SWAP_WORDS = frozenset(k[0] for k in _SWAPS if len(k) == 1)


@lru_cache(maxsize=4096)
def _swapped_variants(phrase: str) -> tuple[_Variant, ...]:
    """Each variant of a phrase with one slot (or one `per layer` pair of slots) swapped."""
    out: list[_Variant] = []
    for variant in _compile(phrase).variants:
        if variant.bare_negation or sum(map(len, variant.segments)) < 2:
            continue  # a bare mention of the other side ("backs off on overflow") swaps nothing
        for k, bag in enumerate(variant.segments):
            for i, slot in enumerate(bag):
                for span, replacement in _slot_swaps(bag, i, slot):
                    new_bag = (*bag[:i], *replacement, *bag[i + span :])
                    segments = (*variant.segments[:k], new_bag, *variant.segments[k + 1 :])
                    swapped = replace(variant, segments=segments)
                    if swapped not in out:
                        out.append(swapped)
    return tuple(out)


def _slot_swaps(
    bag: Sequence[_Slot], i: int, slot: _Slot
) -> Iterator[tuple[int, tuple[_Slot, ...]]]:
    """(slots replaced, replacement) for each swap of the slot at i."""
    if slot.nums or slot.negator:
        return
    sides = slot.words & _SWAP_WORDS
    partners = {p for w in sides for p in _SWAPS[(w,)]}
    if sides and not any(p in slot.words for part in partners for p in part):
        singles = frozenset(p[0] for p in partners if len(p) == 1)
        if singles:
            yield 1, (_Slot(singles),)
        for p in partners:
            if len(p) > 1:
                yield 1, tuple(_Slot(frozenset({w})) for w in p)
    if i + 1 < len(bag) and not bag[i + 1].nums:
        for a in slot.words:
            for b in bag[i + 1].words:
                for p in _SWAPS.get((a, b), ()):
                    yield 2, tuple(_Slot(frozenset({w})) for w in p)


def _swap_hit(view: _View, phrases: Sequence[str], used: set[tuple[int, int]]) -> _Hit | None:
    """A hit of a phrase with one side of a swap pair exchanged, not negated, in one clause,
    in the phrase's order (a claim, read like a misconception).

    Words that all belong to another key point's match (`used`) state that point, not a swap.
    """
    for phrase in phrases:
        for variant in _swapped_variants(phrase):
            hit = _match_variant(view, variant, strict=True)
            if hit is not None and not hit.negated:
                if all((hit.sentence, q) in used for q in hit.positions):
                    continue
                sentence = view.answer.sentences[hit.sentence]
                if len({sentence[p].clause for p in hit.positions}) <= _SWAP_CLAUSES:
                    return hit
    return None


_SWAP_CLAUSES = 1

_ANY_NUMBER = tuple(_Num(-1e18, 1e18, kind) for kind in ("", "%", "x"))


@lru_cache(maxsize=4096)
def _number_variants(phrase: str) -> tuple[_Variant, ...]:
    """Each variant of a phrase with a number slot, that slot accepting any number of any kind."""
    out: list[_Variant] = []
    for variant in _compile(phrase).variants:
        if variant.bare_negation:
            continue
        if not any(sl.nums and not sl.words for seg in variant.segments for sl in seg):
            continue
        if sum(map(len, variant.segments)) < 2:
            continue  # a bare number is no statement about anything
        segments = tuple(
            tuple(_Slot(sl.words, _ANY_NUMBER) if sl.nums and not sl.words else sl for sl in seg)
            for seg in variant.segments
        )
        out.append(replace(variant, segments=segments))
    return tuple(out)


def _number_hit(view: _View, phrases: Sequence[str], used: set[tuple[int, int]]) -> _Hit | None:
    """A key point's phrase matching only with its number out of range or of another kind.

    "about 500 steps" against `{2000-8000} steps`: the answer states the point with a wrong
    number, which the standard counts as wrong, not as a missing point.
    """
    for phrase in phrases:
        for variant in _number_variants(phrase):
            hit = _match_variant(view, variant, strict=False)
            if hit is None or hit.negated:
                continue
            if all((hit.sentence, q) in used for q in hit.positions):
                continue
            sentence = view.answer.sentences[hit.sentence]
            if len({sentence[p].clause for p in hit.positions}) == 1:
                return hit
    return None


# ---------------------------------------------------------------- grading


@dataclass(frozen=True)
class _Prepared:
    vocab: frozenset[str]
    typos: dict[str, str | None]
    raw: tuple[tuple[str, str], ...] = ()  # (a rubric word as written, its stem in vocab)
    raw_typos: dict[str, str | None] = _field(default_factory=dict)


@lru_cache(maxsize=1024)
def _prepare(phrases: tuple[str, ...]) -> _Prepared:
    vocab: set[str] = set()
    for phrase in phrases:
        try:
            vocab |= _compile(phrase).words
        except _PhraseError:
            continue
    raw: dict[str, str] = {}
    for phrase in phrases:
        for word in _WORD_SPLIT.findall(phrase.lower()):
            stem = _stem(word)
            if len(word) >= 6 and word.isalpha() and stem in vocab and stem not in _PROTECTED_STEMS:
                raw.setdefault(word, stem)
    return _Prepared(frozenset(vocab), {}, tuple(sorted(raw.items())), {})


def _rubric_phrases(rubric: Rubric) -> tuple[str, ...]:
    points = (*rubric.points, *rubric.wrong)
    return tuple(ph for p in points for ph in (*p.match, *p.vague))


def _valid(phrases: Sequence[str]) -> list[str]:
    return [p for p in phrases if phrase_error(p) is None]


def _is_idk(answer: _Answer, text: str) -> bool:
    if answer.empty:
        return True
    folded = _fold(text)
    rest = _IDK.sub(" ", folded)
    if rest == folded:
        return False
    leftover = _analyse(rest)
    return leftover.empty


def _view(answer: _Answer, phrases: tuple[str, ...]) -> _View:
    return _View(answer, _prepare(phrases))


def grade(card: Card, answer: str) -> Grade:
    """Judge a typed answer to a card against its rubric (see the module docstring)."""
    rubric = card.rubric
    analysed = _analyse(answer)

    def result(
        verdict: Verdict, score: float, matched: Sequence[Point], flags: Sequence[Flag]
    ) -> Grade:
        missed = tuple(p for p in rubric.points if p not in matched)
        shown = tuple(one_flag_per_quote(flags, {w.id for w in rubric.wrong}, answer))
        return Grade(card.id, verdict, score, tuple(matched), missed, shown, answer, card.answer)

    if _is_idk(analysed, answer):
        return result(Verdict.WRONG, 0.0, (), ())
    view = _view(analysed, _rubric_phrases(rubric))
    matched: list[Point] = []
    starts: dict[str, tuple[int, int]] = {}
    flags: list[Flag] = []
    vague = 0
    both = {p.id: _point_hits(view, _valid(p.match), strict=False) for p in rubric.points}
    hits = {pid: pair[0] for pid, pair in both.items()}
    used = {(h.sentence, q) for h in hits.values() if h and not h.negated for q in h.positions}
    for point in rubric.points:
        hit, against = both[point.id]
        if _outweighed(hit, against):
            assert against is not None
            says = f"contradicts a key point: {point.says}"
            flags.append(Flag(point.id, says, _hit_text(view, against)))
        elif hit is not None and not hit.negated:
            matched.append(point)
            starts[point.id] = (hit.sentence, hit.positions[0])
        elif hit is not None and hit.negated and hit.contradiction:
            says = f"contradicts a key point: {point.says}"
            flags.append(Flag(point.id, says, _hit_text(view, hit)))
        elif (swap := _swap_hit(view, _valid(point.match), used)) is not None:
            says = f"swaps a fact or reverses a direction of a key point: {point.says}"
            flags.append(Flag("swapped", says, _hit_text(view, swap)))
        elif (num := _number_hit(view, _valid(point.match), used)) is not None:
            says = f"gives a number out of range or of the wrong kind for a key point: {point.says}"
            flags.append(Flag("number", says, _hit_text(view, num)))
        elif point.vague:
            vhit = _match_point_phrases(view, _valid(point.vague), strict=False)
            vague += vhit is not None and not vhit.negated
    flags.extend(_verdict_flags(card.answer, answer))
    flags.extend(_contrast_flags(card.explanation, analysed))
    for wrong in rubric.wrong:
        hit = _match_point_phrases(view, _valid(wrong.match), strict=True)
        if hit is not None and not hit.negated:
            if _recites(view, hit, _explained(card.explanation, tuple(_valid(wrong.match)))):
                continue  # the card's own explanation: "clipping per-tensor changes the direction"
            flags.append(Flag(wrong.id, wrong.says, _hit_text(view, hit)))
    flags.extend(_order_flags(rubric, starts, view))
    if flags:
        return result(Verdict.WRONG, 0.0, matched, flags)
    n = len(rubric.points)
    score = min(1.0, (len(matched) + 0.5 * vague) / n) if n else 0.0
    verdict = verdict_of(rubric, (p.id for p in matched), vague=vague > 0)
    return result(verdict, score, matched, flags)


_RECITED = 6  # words after a misconception's match that say what the explanation says of it


@lru_cache(maxsize=1024)
def _explained(explanation: str | None, phrases: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    """Where a misconception matches the card's own explanation, the words that follow it there.

    "clipping per-tensor changes the direction of the update" names per-tensor clipping to say
    why it is wrong; an answer saying the same about it recites the card, not the misconception.
    """
    if not explanation or not phrases:
        return ()
    view = _view(_analyse(explanation), phrases)
    out: list[frozenset[str]] = []
    for phrase in phrases:
        for variant in _compile(phrase).variants:
            hit = _match_variant(view, variant, strict=True)
            if hit is None or hit.negated:
                continue
            sentence = view.answer.sentences[hit.sentence]
            last = max(hit.positions)
            words = {
                t.word
                for t in sentence[last + 1 : last + 1 + _RECITED]
                if t.num is None and t.clause == sentence[last].clause
            }
            words -= _compile(phrase).words | _DIRECTION_STEMS
            if len(words) >= 2:
                out.append(frozenset(words))
    return tuple(out)


def _recites(view: _View, hit: _Hit, contexts: tuple[frozenset[str], ...]) -> bool:
    """Does the answer say of a misconception's match what the explanation says of it?"""
    if not contexts:
        return False
    sentence = view.answer.sentences[hit.sentence]
    last = max(hit.positions)
    clause = sentence[last].clause
    after = {t.word for t in sentence[last + 1 : last + 1 + _RECITED] if t.clause == clause}
    return any(len(after & words) >= 2 for words in contexts)


_YES = r"(?:yes|yep|yeah|yup|yea|absolutely|definitely|correct)"
_NO = (
    r"(?:no|nope|nah|never|hardly|not (?:really|necessarily|usually|always|quite|at all|"
    r"any ?more|nowadays|these days|in practice|typically|normally|for llms)|"
    r"(?:absolutely|definitely|certainly|of course) not|i (?:wouldn't|would not) say so|"
    r"i (?:don't|do not) think so)"
)
_VERDICT_WORDS = {
    "yes": re.compile(rf"^[\s\W]*{_YES}(?:\s*(?:[,.;:!\-]|$)|\s+(?=[a-z]))"),
    "no": re.compile(
        rf"^[\s\W]*(?:{_NO}\s*(?:[,.;:!\-]|$)|(?:nope|nah|(?:absolutely|definitely) not|"
        r"no need|not needed)\b)"
    ),
}


def _verdict_flags(short_answer: str, answer: str) -> list[Flag]:
    """A yes/no question answered with the opposite verdict word ("No, ..." where the card: Yes).

    Only the short answer's own first word sets the verdict; a typed answer that opens with the
    other word ("no," "nope", "not really.") states the opposite of the core, whatever follows.
    """
    expected = _fold(short_answer).strip()
    for word, opposite in (("yes", "no"), ("no", "yes")):
        if _VERDICT_WORDS[word].match(expected):
            m = _VERDICT_WORDS[opposite].match(_fold(answer))
            if m:
                says = f"answers {opposite} where the answer is {word}"
                return [Flag("verdict", says, m.group(0).strip(" ,.;:!-"))]
    return []


_Contrast = tuple[frozenset[str], frozenset[str]]


@lru_cache(maxsize=1024)
def _contrasts(explanation: str | None) -> tuple[_Contrast, ...]:
    """The explanation's contrasts, (A words, B words): "A rather than B", "A instead of B",
    "A, not B" ("it's the data, not the optimizer"), with words on both sides left out."""
    if not explanation:
        return ()
    folded = _fold(explanation)
    out: list[_Contrast] = []
    for offset, piece in _sentences(folded):
        toks = _analyse_sentence(piece, offset)
        for p, tok in enumerate(toks):
            if tok.neg != 1 or p == 0:
                continue
            surface = folded[tok.start : tok.end]
            if not (
                surface.startswith(("rather", "instead"))
                or (surface == "not" and toks[p - 1].clause != tok.clause)
            ):
                continue
            before = {t.word for t in toks[max(0, p - 2) : p] if not t.neg and t.num is None}
            after = {
                t.word
                for t in toks[p + 1 : p + 3]
                if not t.neg and t.num is None and t.clause == tok.clause
            }
            if before - after and after - before:
                out.append((frozenset(before - after), frozenset(after - before)))
    return tuple(out)


def _contrast_flags(explanation: str | None, answer: _Answer) -> list[Flag]:
    """An explanation's contrast turned around: "B, not A" where it says "A, not B".

    The B word stands at most 3 words before a negator and the A word at most 3 after it, in
    the negator's clause ("it's the optimiser, not the data"; "random rather than periodic").
    """
    for a_all, b_all in _contrasts(explanation):
        # the contrast's own content, not only its direction words: "raises the ceiling rather
        # than lowering the variance" is not turned around by "smaller rather than bigger"
        a_words = a_all - _DIRECTION_STEMS or a_all
        b_words = b_all - _DIRECTION_STEMS or b_all
        for sentence in answer.sentences:
            for n, tok in enumerate(sentence):
                if tok.neg != 1:
                    continue
                if any(
                    t.word in b_words and (t.clause == tok.clause or not tok.verbal)
                    for t in sentence[max(0, n - 3) : n]
                ) and any(
                    t.word in a_words and t.clause == tok.clause for t in sentence[n + 1 : n + 4]
                ):
                    start = min(t.start for t in sentence[max(0, n - 3) : n + 4])
                    end = max(t.end for t in sentence[max(0, n - 3) : n + 4])
                    says = "turns around a contrast of the explanation"
                    return [Flag("reversed", says, _original_span(answer.text, start, end))]
    return []


def _outweighed(hit: _Hit | None, against: _Hit | None) -> bool:
    """A key point matched by a weaker phrase while a stronger one is denied in a main clause.

    "activations don't grow with batch size" matches `activations` but denies `activations ..
    grow .. batch`: the answer states the opposite of the point, so it is a contradiction.
    """
    if hit is None or hit.negated or against is None:
        return False
    return len(against.positions) > len(hit.positions)


def _order_flags(rubric: Rubric, starts: dict[str, tuple[int, int]], view: _View) -> list[Flag]:
    present = [pid for pid in rubric.order if pid in starts]
    seq = [starts[pid] for pid in present]
    if all(a < b for a, b in zip(seq, seq[1:], strict=False)):
        return []
    says = "out of order: should be " + " -> ".join(rubric.order)
    first = min(seq)
    last = max(seq)
    sentences = view.answer.sentences
    start = sentences[first[0]][first[1]].start
    end = sentences[last[0]][last[1]].end
    return [Flag("order", says, _original_span(view.answer.text, start, end))]


def one_flag_per_quote(flags: Sequence[Flag], named: set[str], answer: str = "") -> list[Flag]:
    """One flag for the same words of `answer`. Flags are about the same words when their
    quotes overlap in the answer: at all, for a generic rule (number, swapped, contradicts, ...);
    by half the shorter quote or more, between two named misconceptions (ids in `named`), so
    two misconceptions that merely meet at a word are both kept. Of flags on the same words the
    one kept is a named misconception over a generic rule, then the one whose wording shares
    most words with its quote, then the first."""
    kept: list[Flag] = []
    for flag in flags:
        same = [i for i, k in enumerate(kept) if _same_words(flag, k, named, answer.lower())]
        if not same:
            kept.append(flag)
        elif _flag_rank(flag, named) > _flag_rank(kept[same[0]], named):
            kept[same[0]] = flag
    return kept


def _same_words(a: Flag, b: Flag, named: set[str], answer: str) -> bool:
    qa, qb = a.text.strip().lower(), b.text.strip().lower()
    if not qa or not qb:
        return False
    if qa in qb or qb in qa:
        return True
    start_a, start_b = answer.find(qa), answer.find(qb)
    if start_a < 0 or start_b < 0:
        return False
    shared = min(start_a + len(qa), start_b + len(qb)) - max(start_a, start_b)
    if a.id in named and b.id in named:
        return shared * 2 >= min(len(qa), len(qb))
    return shared > 0


def _number_word(word: str) -> str:
    """ "zero" -> "0", so a quote "to 0" shares a word with "decays all the way to zero"."""
    value = _NUMBER_WORDS.get(word)
    return word if value is None else f"{value:g}"


def _flag_rank(flag: Flag, named: set[str]) -> tuple[bool, int]:
    def words(text: str) -> set[str]:
        return {_number_word(w) for w in re.findall(r"\w+", text.lower())}

    return flag.id in named, len(words(flag.text) & words(flag.says))


def grade_case(case: Case, answer: str) -> CaseGrade:
    """Judge an open-ended case answer: parts covered, red flags, the standard's case verdict."""
    analysed = _analyse(answer)
    if _is_idk(analysed, answer):
        parts = tuple(PartGrade(p.id, False, (), p.items) for p in case.parts)
        return CaseGrade(case.id, Verdict.WRONG, 0.0, parts, (), answer)
    phrases = tuple(
        ph
        for point in (*(i for p in case.parts for i in p.items), *case.red_flags)
        for ph in point.match
    )
    view = _view(analysed, phrases)
    graded: list[PartGrade] = []
    for part in case.parts:
        hits = []
        for item in part.items:
            hit = _match_point_phrases(view, _valid(item.match), strict=False)
            if hit is not None and not hit.negated:
                hits.append(item)
        missed = tuple(i for i in part.items if i not in hits)
        graded.append(PartGrade(part.id, len(hits) >= part.need, tuple(hits), missed))
    flags = []
    named = {i.id: i for p in graded for i in p.items}
    for flag in case.red_flags:
        hit = _match_point_phrases(view, _valid(flag.match), strict=True)
        if hit is not None and not hit.negated:
            flags.append(Flag(flag.id, flag.says, _hit_text(view, hit)))
        elif flag.alone and flag.alone[0] in named and set(named) <= set(flag.alone):
            flags.append(Flag(flag.id, flag.says, ", ".join(i.says for i in named.values())))
    covered = sum(p.covered for p in graded)
    if flags or covered == 0:
        verdict = Verdict.WRONG
    elif covered == len(graded):
        verdict = Verdict.CORRECT
    else:
        verdict = Verdict.PARTIAL
    score = 0.0 if flags or not graded else covered / len(graded)
    return CaseGrade(case.id, verdict, score, tuple(graded), tuple(flags), answer)


# ---------------------------------------------------------------- decks, references, batches


def check_deck(deck: Deck) -> list[str]:
    """Every phrase of a deck that is not valid, named by card (or case) and point."""
    return [message for _, message in check_deck_lines(deck)]


def check_deck_lines(deck: Deck) -> list[tuple[int, str]]:
    """`check_deck` with the line of the card or case each problem is in (0 when unknown)."""
    problems: list[tuple[int, str]] = []

    def check(line: int, owner: str, point: Point, kind: str = "point") -> None:
        for field, phrases in (("match", point.match), ("vague", point.vague)):
            for phrase in phrases:
                error = phrase_error(phrase)
                for problem in [error] if error else phrase_warnings(phrase):
                    problems.append(
                        (line, f"{owner} {kind} '{point.id}' {field} {phrase!r}: {problem}")
                    )

    for card in deck.cards:
        for point in card.rubric.points:
            check(card.line, f"card '{card.id}'", point)
        for point in card.rubric.wrong:
            check(card.line, f"card '{card.id}'", point, "misconception")
    for case in deck.cases:
        for part in case.parts:
            for item in part.items:
                check(case.line, f"case '{case.id}' part '{part.id}'", item, "item")
        for flag in case.red_flags:
            check(case.line, f"case '{case.id}'", flag, "red flag")
        for n, follow in enumerate(case.follow_ups, 1):
            for point in follow.points:
                check(case.line, f"case '{case.id}' follow-up {n}", point)
    return problems


def resolve_ref(library: Library, ref: str, deck: str | None = None) -> Card | Case:
    """A card (id, `deck/id` or number) or, failing that, a case (its id)."""
    try:
        return library.card(ref, deck)
    except NotFoundError as card_error:
        if any(c.id == ref.strip() for c in library.cases()):
            return library.case(ref.strip())
        known = ", ".join(c.id for c in library.cases())
        cases = f" (cases: {known})" if known else ""
        raise NotFoundError(f"{card_error}; no case '{ref}' either{cases}") from None


def grade_ref(
    library: Library, ref: str, answer: str, deck: str | None = None
) -> Grade | CaseGrade:
    """Grade an answer to a card or a case named as on the command line."""
    target = resolve_ref(library, ref, deck)
    return grade(target, answer) if isinstance(target, Card) else grade_case(target, answer)


def grade_batch(
    library: Library, text: str, source: str = "batch", deck: str | None = None
) -> list[Grade | CaseGrade]:
    """Grade every line of a JSON-lines batch, in order; a bad line raises UsageError naming it.

    Every line is checked (JSON, fields, card or case exists) before any is graded.
    """
    targets: list[tuple[Card | Case, str]] = []
    for n, ref, answer in parse_batch(text, source):
        try:
            targets.append((resolve_ref(library, ref, deck), answer))
        except NotFoundError as exc:
            raise UsageError(f"{source}:{n}: {exc}") from None
    return [
        grade(target, answer) if isinstance(target, Card) else grade_case(target, answer)
        for target, answer in targets
    ]


def parse_batch(text: str, source: str = "batch") -> list[tuple[int, str, str]]:
    """JSON lines `{"card": REF, "answer": TEXT}` -> (line, ref, answer); blank lines skipped.

    Raises UsageError naming the first bad line.
    """
    out: list[tuple[int, str, str]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{source}:{n}: not valid JSON ({exc.msg})") from None
        except (ValueError, RecursionError):  # a number of 5,000 digits, brackets 10,000 deep
            message = "JSON with a number or a nesting too large to read"
            raise UsageError(f"{source}:{n}: {message}") from None
        if not isinstance(item, dict):
            raise UsageError(f'{source}:{n}: expected an object {{"card": ..., "answer": ...}}')
        ref, answer = item.get("card"), item.get("answer")
        if not isinstance(ref, str | int) or isinstance(ref, bool) or str(ref).strip() == "":
            raise UsageError(f"{source}:{n}: 'card' must be a card id, number or case id")
        if not isinstance(answer, str):
            raise UsageError(f"{source}:{n}: 'answer' must be text")
        try:
            answer = clean_answer(answer)
        except UsageError as exc:
            raise UsageError(f"{source}:{n}: {exc}") from None
        out.append((n, str(ref), answer))
    return out
