"""The grader's vocabulary: filler words, the negator and context word sets read from the
trigger table (`grill.grader.context`), stemming, and the lexicon that folds synonyms and
abbreviations ("lr", "learning rate", "step size") into one canonical form.
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from rapidfuzz.distance import OSA

from grill.grader.context import words as context_words

__all__ = []

# ---------------------------------------------------------------- vocabulary

GENERIC = frozenset({"loss", "model", "train", "training", "step"})
"""Words any answer in the field uses: no item of substance on their own (a derived rubric's
optional words; no condition the card does not make: "only when training in FP16")."""

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
    r"i forget|can't remember|cant remember|don't remember|dont remember|"
    r"(?:(?:that's|thats|that is|it's|its|this is) )?(?:not|outside|beyond) my (?:area|field|"
    r"department|wheelhouse|expertise|specialty|speciality|forte|thing|world|depth))\b"
)

_LEXICON_TEXT = """
lr: learning rate, learning-rate, step size, stepsize, lrs, learn rate, eta,
    adjustment size, size of each adjustment, size of the adjustments, step length,
    size of each step, how big each step is, how big each adjustment is
batch size: group size, examples per update, examples per step, examples in each update,
    number of examples per update, number of examples in each update, bs, bsz, batchsize,
    minibatch size, mini batch size, examples in every step, samples per step, samples per update,
    sequences per step, sequences per update, samples in each step, samples in every step,
    sequences in each step, sequences in every step, samples into each step,
    samples into every step, sequences into each step, sequences into every step
bf16: bfloat16, bfloat, brain float, brainfloat, brainfloat16, b16
fp16: float16, half precision, f16, half float
fp32: float32, full precision, single precision, f32
fp8: float8, f8, e4m3, e5m2
mixed precision: amp, automatic mixed precision
loss: error score, error scores, mistake score, error measure
batch: group, groups, group of examples, groups of examples, bunch of examples
groupnorm: group norm, group normalization, group normalisation
param group: parameter group, parameter groups, param groups
grad: correction, corrections, gradient, grads, gradients, gradient's
grad norm: gradnorm, gnorm, grad-norm, gradient length, grad length
grad clip: gradclip, gradclipping,
    update cap, cap on update size, cap on the update size, cap on update sizes, cap on updates,
    cap on the updates, cap on each update, limit on update size, limit on the update size
eos: edge of stability, edge-of-stability
accumulate: accum, accumulation, accumulating, accumulated
ckpt: checkpoint, check point, chkpt, ckp, snapshot, saved state, save point, savepoint,
    saved weights, saved copy, saved copies, save copies
last good ckpt: last good save, last good save point, last good saved state
last ckpt: last save, latest save, last saved state, latest saved state
val: validation, dev set, devset, held out, heldout, held-out, eval set, evaluation set,
    valid set, validation set, val set,
    held back, holdout, hold-out, hold out set
val loss: eval loss, evaluation loss, dev loss, test loss
wd: weight decay, l2 regularization, l2 penalty, l2 reg, l2, wait decay
adam: adamw, adam optimizer, adamw optimizer
optstate: optimizer state, optimizer states, optimiser state, adam state, adam states,
    adam moment, adam moments, adam statistic, optimizer statistic, optimizer moment,
    moment estimate, optimizer stat, adam stat, optim state, adam optimizer state,
    adam optimizer states, adamw optimizer state, adamw state
optimizer: optimiser, optim, opt, update rule, update rules
recompute: gradient checkpointing, activation checkpointing, gradient checkpoint, activation
    checkpoint, activation recomputation, recomputation, rematerialization, rematerialisation,
    remat
warmup: warm up, warm-up, warming up, warmed up, warms up, lr warmup, wu,
    ramp up at the start, ramp-up at the start, gentle ramp up, gentle ramp-up, ease in, ease-in,
    eased in, easing in
vanish: fade away, fades away, faded away, fading away, die away, dies away, died away,
    dying away
loss scale: lossscale, lossscaling, loss scaler, scale loss, scaling loss
layernorm: layer norm, layer normalization, ln
prenorm: pre layernorm, pre layer norm, pre ln, pre norm, pre-ln, pre layer normalization,
    preln, prelayernorm, pre normalization
postnorm: post layernorm, post layer norm, post ln, post norm, postln,
    post layer normalization, postlayernorm
per layer: layerwise, layer-wise, per-layer, each layer, every layer, layer by layer
global: all parameters together, all gradients together, all the parameters together,
    all the gradients together, across all parameters, across every parameter,
    across all the parameters, over all parameters, over every parameter, over all the parameters,
    every parameter together, all params together, across all params, over all params,
    across every param, over every param,
    all layers together, whole model, entire model, whole network, entire network, full gradient,
    whole gradient, entire gradient, full gradient vector, whole gradient vector
lrwindow: safe learning rate range, range of safe learning rates, safe range of learning rates,
    stable learning rate range, range of stable learning rates, usable learning rate range,
    range of usable learning rates, safe learning rate window, window of safe learning rates,
    safe lr range, stable lr range, range of safe lrs, range of stable lrs, safe lr window
per tensor: tensorwise, per-tensor, each tensor, tensor-wise, tensor by tensor
per param: per parameter, parameterwise, per-param, elementwise, element-wise, per element,
    parameter by parameter, param by param, each element, every element, each gradient element,
    every gradient element, each individual element, each individual gradient element,
    each individual value, every individual value, each individual weight value,
    every individual weight value, each gradient value, every gradient value
param: parameter, params, parameters, weights, weight, theta, thetas, wts
explode: explosion, explosions, blow up, blowup, blew up, blows up, blowing up, blown up
spike: jump, jumps, jumped, jumping, surge, surges
instability: instabilities, unstable, numerical issue, numerical issues, numerics,
    numerical problem, instab
stable: stability, stabilize, stabilise, stabilization, stabilisation, stabler, stably
nan: nans, not a number, inf, infs, infinity, infinite
overfit: overfitting, over-fitting, over fitting, overfits, overfitted,
    memorising, memorizing, memorise, memorize, memorises, memorizes, memorised, memorized,
    memorisation, memorization
underfit: underfitting, under-fitting, under fitting, underfits
overflow: over flow, overflows, overflowing
underflow: under flow, underflows, underflowing, flush to zero, flushes to zero
early stop: early stopping, early-stopping, stop early, stopping early
augment: augmentation, augmentations, data aug, aug, augmenting
regularize: regularization, regularisation, regularizer, regularise, reg, regularizing,
    regularising
mantissa: significand, fraction bits, mantissa bits
steep drop: falls off a cliff, fall off a cliff, falling off a cliff, fell off a cliff,
    drops off a cliff, drop off a cliff, dropping off a cliff, dropped off a cliff,
    goes off a cliff, went off a cliff, drops like a stone, drops like a rock, falls like a stone,
    falls like a rock, plummet, plummets, plummeting, plummeted
exponent: exponent bits, exponents
fisher: fisher information, fisher info, fim, fisher matrix, fisher information matrix
ewc: elastic weight consolidation
average: avg, averages
moving average: ema, running average, running mean, moving mean, rolling average, rolling mean,
    exponential moving average, movingavg, moving avg, running avg, rolling avg
step: steps, iteration, iterations, iter, iters
frozen: freeze, freezing, froze, frozen layer, requires grad false, requires_grad false,
    requires grad off, requires_grad off, requires grad=false, requires grad disabled,
    locked, locked layer, locked layers
attention: attn, self-attention, self attention
connected: hooked up, hooked into, wired up, wired into, plugged into, plugged in
difference: diff, diffs
change: alter, alters, altered, altering, bend, bends, bent, bending, distort, distorts,
    distorted, distorting, skew, skews, skewed, skewing, rotate, rotates, rotated, rotating
bad: pathological, poison, poisoned, poisonous, corrupt, corrupted, junk, garbage, malformed,
    toxic, rotten, dodgy, dud, nasty, cursed, wonky, janky, funky, iffy, sketchy, bogus, borked,
    screwy
ffn: feed forward, feed-forward, feedforward, mlp, mlps
pretrain: pre-training, pre training, pretraining, pre-train, pre train
finetune: fine-tuning, fine tuning, finetuning, fine tune, fine-tune, sft
bitflip: bit flip, bit flips, bit-flip, bit-flips, bitflips, flipped bit, flipped bits,
    flipped a bit, flips a bit, flip a bit, flipping a bit,
    cosmic ray, cosmic rays, silent data corruption, silent data corruptions
nondeterminism: non-determinism, non determinism, nondeterministic, non-deterministic,
    non deterministic
restart: re-start, start over, start again, retrain, re-train, restarting, starting over,
    recommence, recommenced, recommencing, begin again, relaunch, relaunched, relaunching,
    re-launch
rollback: roll back, roll-back, rolling back, rolled back, rolls back, revert, reverting,
    go back, going back, restore, restoring, reload, reloading
log scale: log axis, log-scale, log y, log y axis, log-y, logarithmic, logarithmic scale,
    log plot, semilog, log-log, log axes, log scales, logscale
hopper: h100, h200, h800, h100s, h200s, gh200
blackwell: b100, b200, gb200, b200s
volta: v100, v100s
ampere: a100, a100s, a6000
pascal: p100, p100s
kepler: k80, k80s
matmul: matrix multiplication, matrix multiply, gemm, gemms, matmuls, mat mul,
    matrix multiplications, matrix mult
activation: activations, acts
memory: mem, vram, hbm
speedup: speed up, speed-up, faster, speedups
linear: linearly, proportional, proportionally, proportionately, in a straight line
compute: gpu hours, gpu-hours, gpu time, gpu cycles
quadratic: quadratically, squared
cubic: cubically, cubed
cosine: cos, cosine annealing, cosine schedule
schedule: scheduler, schedules, sched
extra: special, additional, additionally
old: original, previous, prior, older, ole, auld
dataset: data set, datasets, data sets
high: big, large, huge, enormous, massive
low: small, tiny, little, wee, puny
increase: higher, larger, bigger, greater, raise, raising, bump, grow, grows, growing, rise,
    rises, rising, go up, goes up, going up, increment, climb, climbs, climbing, climbed,
    creep up, creeps up, creeping up, tick up, ticks up, ticking up, turn up, turns up,
    turning up, turn upward, turns upward, turning upward, uptick, upticks, upturn, upturns
decrease: lower, lowering, smaller, reduce, reducing, reduction, cut, cutting, halve, halving,
    decline, go down, goes down, going down, fall, falls, falling, shrink, less, fewer,
    downward, downwards, taper, tapers, tapering, tapered, slide down, slides down, sliding down,
    slid down, shrinks, shrinking, shrank, shrunk, downhill, grind down, grinds down, grinding down
bounce: bouncing, bounces, bounced, bouncy, hop around, hops around, hopping around,
    jump around, jumps around, jumping around, back and forth, jitter, jitters, jittering,
    jittered, jittery, swing, swings, swinging, swung
slow: crawl, crawls, crawling, sluggish, sluggishly, glacial
divide: unscale, unscales, unscaled, unscaling
constant: const, consts
keep: maintain, maintains, maintained, maintaining, preserve, preserves, preserved, preserving
plateau: plateaus, plateaued, plateauing, levels off, level off, levelled off, leveled off,
    levelling off, leveling off
sweep: swept
double: twice, doubling, doubled, doubles
triple: thrice, tripling, tripled, triples
quadruple: quadrupling, quadrupled, quadruples
order magnitude: order of magnitude, orders of magnitude, oom
forget: forgetting, forgets, forgot, forgotten, lose, loses, losing, erase, erases, wipe out,
    wipes out, overwrite, overwrites, overwriting, overwritten, overwrote
only: just, simply, merely, solely
before: just before
after: just after
pick: choose, chose, chosen, select, selected, selecting, take, taking, took, taken,
    grab, grabbing, grabbed
minimum: lowest point, low point, bottom of the curve, bottom of the loss curve,
    bottom of that curve, bottom of this curve, bottom of that loss curve, bottom of the dip,
    bottom of the valley
skip: skipping, discard, discarding, ignore, ignoring
ratio: fraction, proportion, share, mix ratio
replay: rehearsal, replay buffer, replaying
fix: fixes, remedy, remedies, mitigation, mitigations, mitigate, solution
steady: steadily, smooth, smoothly, smoother, smoothed, smooths, smoothing
saturation: saturate, saturates, saturated, saturating, diminishing returns, diminishing return,
    stops paying off, stop paying off, stopped paying off, stops buying speed, stop buying speed
stop saturation: stop buying, stops buying, stopped buying, stop speeding up, stops speeding up,
    stop speeding things up, stops speeding things up, stop speeding training up,
    stops speeding training up, stop making training faster, stops making training faster,
    no longer speeds up, no longer speeds training up, stop paying for itself,
    stops paying for itself
underutilized: underutilised, under utilized, under utilised, underused, under used
"""
"""canonical: variants. A line starting with spaces continues the one above."""


def _lexicon_entries(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """(canonical, variants) per entry; an indented line goes on the line before it, so a
    variant wrapped across two lines ("activation\n    checkpoint") stays one variant."""
    joined: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.startswith(" ") and joined:
            joined[-1] += " " + line.strip()
        else:
            joined.append(line)
    entries = []
    for line in joined:
        canonical, _, variants = line.partition(":")
        said = tuple(v.strip() for v in variants.split(",") if v.strip())
        entries.append((canonical.strip(), said))
    return entries


# Canonical words that also stand for a number (a multiplier).
_WORD_NUMS = {  # by canonical stems
    "doubl": (2.0, "x"),
    "tripl": (3.0, "x"),
    "quadrupl": (4.0, "x"),
    "order magnitud": (10.0, "x"),
}

_NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "unity": 1,
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
    **dict.fromkeys(("thousandth", "thousandths"), 100 / 1000),
    # "a twentieth to a seventh of the mix": any ordinal share ("a second" is a time, not one)
    **{
        form: 100 / n
        for n, word in (
            *((4, "fourth"), (6, "sixth"), (7, "seventh"), (8, "eighth"), (9, "ninth")),
            *((11, "eleventh"), (12, "twelfth"), (13, "thirteenth"), (14, "fourteenth")),
            *((15, "fifteenth"), (16, "sixteenth"), (17, "seventeenth"), (18, "eighteenth")),
            *((19, "nineteenth"), (20, "twentieth"), (30, "thirtieth"), (40, "fortieth")),
            (50, "fiftieth"),
        )
        for form in (word, word + "s")
    },
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
    "noted": "note",  # not "not"
    "noting": "note",
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
    # to weigh is not a weight: "weighted by Fisher information" says nothing of the parameters
    "weighted": "weigh",
    "weighting": "weigh",
    "weighs": "weigh",
    "weighed": "weigh",
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
    if word.startswith(("regulariz", "regularis")):
        return "regulariz"  # regularisation is one thing, a regular period another
    if len(word) <= 3 or not word.isalpha():
        return word
    for pattern, repl in _BRITISH:
        word = pattern.sub(repl, word)
    for suffix, repl in _INFLECTIONS:
        if word.endswith(suffix):
            base = word[: len(word) - len(suffix)]
            minimum = (
                4 if suffix == "ly" else 2 if suffix in ("sses", "xes") else 3
            )  # losses, fixes
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
    if word.endswith("e") and len(word) > 3 and not word.endswith("ee") and word[:-1] != "not":
        word = word[:-1]  # "note" (and "notes", "noted") is no "not"
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
    whole: dict[tuple[str, ...], tuple[str, ...]]  # variants with filler words, every word kept
    longest_whole: int
    whole_heads: frozenset[str]  # the first words of `whole`: no other word starts one
    raw: dict[str, tuple[str, ...]]  # unstemmed single-word variants, for typo matching
    canon: frozenset[str]


def _key(text: str) -> tuple[str, ...]:
    """A lexicon key: the stems of a variant's words, filler words left out."""
    words = [_as_read(w) for w in _WORD_SPLIT.findall(text.lower())]
    return tuple(_stem(w) for w in words if w not in _STOPWORDS) or tuple(map(_stem, words))


def _as_read(word: str) -> str:
    """A number word as the tokenizer reads it inside an entry ("flush to zero": `{0}`)."""
    n = _NUMBER_WORDS.get(word)
    return word if n is None else "{" + str(n) + "}"


def _build_lexicon() -> _Lexicon:
    multi: dict[tuple[str, ...], tuple[str, ...]] = {}
    whole: dict[tuple[str, ...], tuple[str, ...]] = {}
    raw: dict[str, tuple[str, ...]] = {}
    canon: set[str] = set()
    for canonical, variants in _lexicon_entries(_LEXICON_TEXT):
        out = _stems(canonical)
        canon.update(out)
        for variant in (canonical, *variants):
            key = _key(variant)
            if key and key != out or len(key) > 1:
                multi.setdefault(key, out)
            words = _WORD_SPLIT.findall(variant.lower())
            if len(words) > 1 and any(w in _STOPWORDS for w in words):
                whole.setdefault(tuple(map(_stem, words)), out)  # "jump around" is no "jump"
            if " " not in variant and len(variant) >= 6 and variant.isalpha():
                raw.setdefault(variant, out)
    longest = max(len(k) for k in multi)
    longest_whole = max((len(k) for k in whole), default=0)
    heads = frozenset(k[0] for k in whole)
    return _Lexicon(multi, longest, whole, longest_whole, heads, raw, frozenset(canon))


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


@lru_cache(maxsize=1)
def _english() -> frozenset[str]:
    """The words of an English frequency dictionary (pyspellchecker's, about 160,000 words, none
    of them misspellings): a real word is never a typo of another ("recommended" is not
    "recommenced", "retain" not "retrain", "significant" not "significand"). Read once, on the
    first long unknown word (about 60 ms)."""
    data = resources.files("spellchecker").joinpath("resources/en.json.gz").read_bytes()
    words: dict[str, int] = json.loads(gzip.decompress(data))
    return frozenset(w for w in words if len(w) >= 5)


@lru_cache(maxsize=65536)
def _typo_of_lexicon(word: str) -> tuple[str, ...] | None:
    """A long unknown word one typo from a lexicon variant (`gradeint`, `checkpiont`), or a
    five-letter one a letter short of a six-letter variant (`wrmup`), unless it is an English
    word of its own."""
    if len(word) < 5 or not word.isalpha() or _stem(word) in _KNOWN or word in _english():
        return None
    limit = 2 if len(word) >= 9 else 1
    for variant, canonical in _LEX.raw.items():
        if len(word) == 5 and len(variant) != 6:
            continue  # a short word is a typo only of a longer variant it lacks a letter of
        if variant[0] == word[0] and abs(len(variant) - len(word)) <= limit:
            if OSA.distance(word, variant, score_cutoff=limit) <= limit:
                return canonical
    return None
