"""Recall grading: a typed answer and a card's rubric -> verdict, matched/missed points, flags.

Pure, deterministic and offline: the same answer always gets the same grade. The one thing read
from disk is the case's stance model (stance.json, learned from labelled answers, read once).
The verdict follows `../shared/grading-standard.md`. The package, along its pipeline:

    lexicon.py   filler words, context word sets, stems, the lexicon (synonyms, abbreviations)
    context.py   the context triggers (negation, dismissal, condition, retraction, ...) as data
    text.py      folding, sentences, tokens, numbers, and the trigger cues on the tokens
    scope.py     the one scope algorithm: cues -> typed spans (category, trigger, start, end)
    phrases.py   the phrase language of docs/rubrics.md, compiled and cached, and its lint
    match.py     key points, misconceptions, swapped facts and wrong numbers in an answer
    verdict.py   the one verdict policy, shared with the mock's tick grading
    derive.py    rubrics derived from a card's own text, for generated decks
    stance.py    whether a red-flag idea in a case answer is put forward: a learned model
    this module  `grade` and `grade_case` (flags, order, contrasts), deck checks, references

How an answer is read, rule by rule with examples, is in docs/grader-rules.md.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from grill.answers import clean_answer
from grill.errors import NotFoundError, UsageError
from grill.grader import stance
from grill.grader.context import Category, disabled
from grill.grader.lexicon import (
    _IDK,
    _NUMBER_WORDS,
    _STOP_STEMS,
    GENERIC,
    _english,
    _stem,
)
from grill.grader.match import (
    _Hit,
    _hit_text,
    _match_point_phrases,
    _match_variant,
    _number_hit,
    _original_span,
    _point_hits,
    _prepare,
    _swap_hit,
    _View,
    listed,
    negation_rule,
    partners,
    placements,
    swap_ids,
    swap_rule,
)
from grill.grader.phrases import (
    _DIRECTION_STEMS,
    _compile,
    phrase_error,
    phrase_warnings,
)
from grill.grader.scope import Span, denies, dismisses
from grill.grader.text import (
    _analyse,
    _analyse_sentence,
    _Answer,
    _asks,
    _fold,
    _sentences,
    _Tok,
    items_of,
    normalise,
)
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
    "CARD_CHECKS",
    "CASE_RULES",
    "EXEMPTIONS",
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

# ---------------------------------------------------------------- grading


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
    own = card
    if card.explanation is None and card.context and "see" not in disabled():
        # a card with no explanation is checked against the one it points to (`see`)
        card = replace(card, explanation=card.context)

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
    off = disabled()
    for point in rubric.points:
        hit, against = both[point.id]
        if _outweighed(hit, against):
            assert against is not None
            says = f"contradicts a key point: {point.says}"
            flags.append(
                Flag(point.id, says, _hit_text(view, against), negation_rule(view, against))
            )
        elif hit is not None and not hit.negated:
            matched.append(point)
            starts[point.id] = (hit.sentence, hit.positions[0])
        elif hit is not None and hit.negated and hit.contradiction:
            says = f"contradicts a key point: {point.says}"
            flags.append(Flag(point.id, says, _hit_text(view, hit), negation_rule(view, hit)))
        elif hit is not None and hit.negated and "replaced" not in off and _replaced(view, hit):
            says = f"puts something in place of a key point: {point.says}"
            flags.append(Flag(point.id, says, _hit_text(view, hit), "replaced"))
        elif (swap := _swap_hit(view, _valid(point.match), used)) is not None:
            says = f"swaps a fact or reverses a direction of a key point: {point.says}"
            flags.append(Flag("swapped", says, _hit_text(view, swap), swap_rule(view, swap)))
        elif (num := _number_hit(view, _valid(point.match), used)) is not None:
            says = f"gives a number out of range or of the wrong kind for a key point: {point.says}"
            flags.append(Flag("number", says, _hit_text(view, num), "number"))
        elif point.vague:
            vhit = _match_point_phrases(view, _valid(point.vague), strict=False)
            vague += vhit is not None and not vhit.negated
    if "verdict" not in off:
        flags.extend(_verdict_flags(card.answer, answer))
    if "contrast" not in off:
        flags.extend(_contrast_flags(card.explanation, analysed))
    if "restriction" not in off:
        flags.extend(_restriction_flags(card, analysed))
    if "absolute" not in off:
        flags.extend(_absolute_flags(card, analysed))
    if "partner" not in off:
        # which partner the card names is read from its own text and the short answer of the
        # card it sees: that card's explanation may name both ("BF16 needs none of this")
        told = own.context.split("\n", 1)[0] if own.context and own is not card else None
        flags.extend(_partner_flags(replace(own, explanation=told) if told else own, analysed))
    if "denial" not in off:
        flags.extend(_denial_flags(card, analysed))
    if "unit" not in off:
        flags.extend(_unit_flags(card, analysed))
    if "agent" not in off:
        flags.extend(_agent_flags(card, analysed))
    if "object" not in off:
        flags.extend(_object_flags(own, analysed))
    if "change" not in off:
        flags.extend(_change_flags(own, analysed))
    if "pairing" not in off:
        flags.extend(_pairing_flags(own, analysed))
    if "sequence" not in off:
        flags.extend(_sequence_flags(own, analysed))
    if "degree" not in off:
        flags.extend(_degree_flags(own, analysed))
    if "first" not in off:
        flags.extend(_first_flags(own, view, [h for h in hits.values() if h and not h.negated]))
    for wrong in rubric.wrong:
        hit = _match_point_phrases(view, _valid(wrong.match), strict=True)
        if hit is not None and not hit.negated:
            if listed(view, hit, tuple(hits.values())):
                continue  # "dropout and weight decay": two key points in a list
            if _recites(view, hit, _explained(card.explanation, tuple(_valid(wrong.match)))):
                continue  # the card's own explanation: "clipping per-tensor changes the direction"
            if _attributive(view, hit):
                continue  # "on a 400k-step run": the run's length, not a count the card asks for
            if "example" not in off and _worked_example(view, hit, hits):
                continue  # "clip at 1.0: if the norm comes out at 5, ...": a case, not the value
            if "supposed-denied" not in off and _supposed_denied(view, hit):
                continue  # "if both are still going down, it isn't overfitting": a rule, kept
            flags.append(Flag(wrong.id, wrong.says, _hit_text(view, hit)))
    flags.extend(_order_flags(rubric, starts, view))
    if flags:
        return result(Verdict.WRONG, 0.0, matched, flags)
    n = len(rubric.points)
    score = min(1.0, (len(matched) + 0.5 * vague) / n) if n else 0.0
    verdict = verdict_of(rubric, (p.id for p in matched), vague=vague > 0)
    return result(verdict, score, matched, flags)


_IF = re.compile(r"\bif\b")


def _supposed_denied(view: _View, hit: _Hit) -> bool:
    """Rule supposed-denied: a misconception said only inside an "if" clause whose sentence goes
    on to deny something ("if both are still going down, it isn't overfitting yet") is supposed
    to be turned down, not claimed: the answer states the rule the misconception breaks."""
    sentence = view.answer.sentences[hit.sentence]
    scope = view.answer.scopes[hit.sentence]
    if not all(scope.cond[p] for p in hit.positions):
        return False
    begin = view.answer.sentences[hit.sentence - 1][-1].end if hit.sentence else 0
    if not _IF.search(view.folded, begin, sentence[min(hit.positions)].start):
        return False  # "it's when the old knowledge crowds out the new": a definition
    last = max(hit.positions)
    after = [p for p in range(last + 1, len(sentence)) if not scope.cond[p]]
    return bool(after) and any(sentence[p].neg == 1 for p in after)


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
_OPENER = (
    r"(?:(?:honestly|frankly|well|so|um+|uh+|hmm+|ok(?:ay)?|actually|short answer)[\s,:;.!-]+)?"
)
"""A word that may come before the verdict word ("Honestly, no." or "Well, yes: ...")."""
_TRAILER = (
    r"(?:\s+(?:tbh|imo|imho|honestly|frankly|tho|though))?"
    r"(?:\s+(?:for|in|with|on|at)(?:\s+[a-z0-9-]+){1,2})?"
)
"""A hedge that may come after the verdict word ("not really tbh, ...", "yes imo: ..."), and a
short setting ("not really for LLMs.", "yes, in practice.")."""
_ASKED_BACK = re.compile(r"^[^?.!:;\n]{1,80}\?\s*")
"""A question the answer opens by asking back ("Is cosine the common decay? Not anymore"): its
verdict comes after it."""
_VERDICT_WORDS = {
    "yes": re.compile(rf"^[\s\W]*{_OPENER}{_YES}(?:{_TRAILER}\s*(?:[,.;:!\-]|$)|\s+(?=[a-z]))"),
    "no": re.compile(
        rf"^[\s\W]*{_OPENER}(?:{_NO}{_TRAILER}\s*(?:[,.;:!\-]|$)|(?:nope|nah|"
        r"(?:absolutely|definitely) not|no need|not needed)\b)"
    ),
}


_ATTRIBUTE = re.compile(
    r"\s*-\s*(?:step|token|parameter|param|layer|gpu|node|example|sample)s?\s+"
    r"(?:run|model|job|training|schedule|batch|budget|corpus|dataset|cluster|window)\b"
)
"""What follows a number that describes something else: "a 400k-step run", "a 7B-parameter
model", "a 2M-token batch"."""


def _attributive(view: _View, hit: _Hit) -> bool:
    """Does a misconception's hit rest on numbers that each only describe another thing ("On a
    400k-step run, 4,000 steps is 1% of training": the run's length is no warmup length)?"""
    sentence = view.answer.sentences[hit.sentence]
    numbers = [sentence[p] for p in hit.positions if sentence[p].num is not None]
    # token offsets point into the folded text
    return bool(numbers) and all(_ATTRIBUTE.match(view.folded, t.end) for t in numbers)


_SUPPOSING = re.compile(
    r"(?:\b(only|just|except|but)\s+)?\b(?:if|when|whenever)\b(?:\W+\w+){0,2}?\W*\Z"
)
"""An "if" or "when" before a condition's first word (a filler or two between: "if the norm");
group 1: an "only" narrowing it."""


_MERELY = re.compile(r"\s*(?:just|only|merely|simply|solely|purely)\b")


def _replaced(view: _View, hit: _Hit) -> bool:
    """Is a key point named only as what something else is used in place of ("instead of
    gradient clipping, use dynamic loss scaling")? Not "rather than just lowering the LR",
    which keeps it and asks for more."""
    if hit.rule != "negation.instead":
        return False
    sentence = view.answer.sentences[hit.sentence]
    first = sentence[min(hit.positions)]
    # token offsets point into the folded text
    before = view.folded[max(0, first.start - 40) : first.start]
    m = re.search(r"\b(?:instead\s+of|rather\s+than)((?:\s+\w+){0,3}?)\s*\Z", before)
    return m is not None and not _MERELY.match(m.group(1))


def _worked_example(view: _View, hit: _Hit, points: dict[str, _Hit | None]) -> bool:
    """Does a misconception's hit, numbers and all, sit in a condition ("if the norm comes out
    at 5, every gradient is scaled by 0.2"), in an answer that states a key point's
    own number outside any condition? The answer gives the card's value and then works a case
    through it; "clip only if the norm exceeds 5", with no value of its own, is still a claim."""
    sentence = view.answer.sentences[hit.sentence]
    spans = view.answer.scopes[hit.sentence].key
    numbers = [p for p in hit.positions if sentence[p].num is not None]

    def supposed(p: int) -> bool:  # under an "if"/"when" that no "only" narrows
        for s in spans[p]:
            if s.trigger == "condition":
                # token offsets point into the folded text
                m = _SUPPOSING.search(view.folded, 0, sentence[s.start].start)
                return m is not None and not m.group(1)
        return False

    if not numbers or not all(supposed(p) for p in hit.positions):
        return False
    for point in points.values():
        if point is None or point.negated:
            continue
        said = view.answer.sentences[point.sentence]
        scope = view.answer.scopes[point.sentence]
        if any(said[p].num is not None and not scope.sub[p] for p in point.positions):
            return True
    return False


_TAKEN_BACK = re.compile(
    r"^[\s\W]*(?:(?:no|nope|sorry|wait|oops|scratch that|rather|actually)\b[\s\W]*)+"
)
"""What takes back the verdict word before it ("No - sorry, yes: ..."): the words of the
retraction triggers, on the folded text, where "hang on" is already "wait" and "- I mean" is
"- no,"; the verdict is then the one that follows."""


def _verdict_flags(short_answer: str, answer: str) -> list[Flag]:
    """A yes/no question answered with the opposite verdict word ("No, ..." where the card: Yes).

    Only the short answer's own first word sets the verdict; a typed answer that opens with the
    other word ("no," "nope", "not really.") states the opposite of the core, whatever follows.
    """
    expected = _fold(short_answer).strip()
    folded = _fold(answer)
    asked = _ASKED_BACK.match(folded)
    if asked:
        folded = folded[asked.end() :]
    for word, opposite in (("yes", "no"), ("no", "yes")):
        if _VERDICT_WORDS[word].match(expected):
            m = _VERDICT_WORDS[opposite].match(folded)
            if m and not _VERDICT_WORDS[word].match(_TAKEN_BACK.sub("", folded[m.end() :])):
                says = f"answers {opposite} where the answer is {word}"
                return [Flag("verdict", says, m.group(0).strip(" ,.;:!-"), "verdict")]
    return []


_Contrast = tuple[frozenset[str], frozenset[str], frozenset[str]]
_FOIL_WORDS = frozenset({"from", "unlike", "than", "vs", "versus"})


@lru_cache(maxsize=1024)
def _contrasts(explanation: str | None) -> tuple[_Contrast, ...]:
    """The explanation's contrasts, (A words, B words): "A rather than B", "A instead of B",
    "A, not B" ("it's the data, not the optimizer"), with words on both sides left out. A is
    read from up to three words before the negator ("skip the update entirely rather than
    clipping it"), B from up to two after it."""
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
            before = {t.word for t in toks[max(0, p - 3) : p] if not t.neg and t.num is None}
            after = {
                t.word
                for t in toks[p + 1 : p + 3]
                if not t.neg and t.num is None and t.clause == tok.clause
            }
            if before - after and after - before:
                foil = (
                    {
                        t.word
                        for k, f in enumerate(toks[:p])
                        if f.word in _FOIL_WORDS
                        for t in toks[k + 1 : k + 4]
                        if t.clause == f.clause and not t.neg
                    }
                    - before
                    - after
                )
                out.append((frozenset(before - after), frozenset(after - before), frozenset(foil)))
    return tuple(out)


def _contrast_flags(explanation: str | None, answer: _Answer) -> list[Flag]:
    """An explanation's contrast turned around: "B, not A" where it says "A, not B".

    The B word stands at most 3 words before a negator and the A word at most 3 after it, in
    the negator's clause ("it's the optimiser, not the data"; "random rather than periodic").
    """
    for a_all, b_all, foil in _contrasts(explanation):
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
                    if "contrast.foil" not in disabled() and any(
                        t.word in foil for t in sentence[:n]
                    ):
                        continue  # said of what the explanation sets the thing against
                    start = min(t.start for t in sentence[max(0, n - 3) : n + 4])
                    end = max(t.end for t in sentence[max(0, n - 3) : n + 4])
                    says = "turns around a contrast of the explanation"
                    span = _original_span(answer.text, start, end)
                    return [Flag("reversed", says, span, "contrast")]
    return []


_ONLY = re.compile(
    r"\bonly\s+(?:(?:happens?|appl(?:y|ies)|matters?|works?|helps?|kicks? in|occurs?|pays? off"
    r"|needed|shows? up|turns? up|appears?|arises?|bites?|starts?|comes? up"
    r"|need(?:ed)? it|is needed|makes sense|(?:goes|comes|kicks|gets|goes in|comes in"
    r"|useful|relevant|counts|valid|true|safe|holds?)(?: as (?:an? )?[a-z]+)?"
    r"|worth(?: doing| it| having| using| the (?:effort|cost|trouble))?)\s+)?"
    r"(?:when|if|for|on|from|once|with|in|above|below|past|after|during|beyond|under|over|to"
    r"|at(?!\s+(?:an?\s+|the\s+)?(?:[\w']+\s+){0,2}?(?:pace|speed|rate|crawl|trickle)\b))\b"
)
"""An "only" before a condition: "only for models above 7B", "only when training in FP16", "only
if the learning rate is above 1e-3"; not one before a manner ("only at a snail's pace", "only at
half speed")."""
_ONLY_AFTER = re.compile(
    r"\b(?:for|on|with|in|under|above|below)\s+((?:[a-z0-9][\w./+-]*\s+){0,2}?[a-z0-9][\w./+-]*)"
    r"\s+only(?=\s*(?:[.,;:!?)\n]|$))"
)
"""A condition with "only" after it, closing its clause: "this rule is for SGD only", "on GPUs
only."; not "on a scale that only reads whole kilos"."""
_ONLY_NEEDED = re.compile(
    r"\b(?:is|are)\s+only\s+(?:needed|required|necessary|worth\s+[a-z]+)\s+"
    r"(?:if|when|once|for|above|below|past|beyond|after|during|with|in|on)\b"
)
"""A thing the answer names said to be needed only under a condition: "per-tensor scale
factors are only needed if you stay in FP8 for long" restricts the answer's own claim, whatever
names the thing; "scale factors are only for FP8" (no need said) is about them."""
_PROVIDED = re.compile(
    r"\b(?:provided|providing|so long as|as long as|on condition)(?: that)?\s"
    r"(?!(?:(?:you|we|they|i|it)\s+)?(?:want|wants|like|likes|need|needs|wish|please|possible"
    r"|necessary|needed|required|you'?d? like)\b)"
)
"""A condition set on the answer's own claim: "provided the model is under 1B parameters", "as
long as you're on Volta"; not a length ("as long as you like", "as long as possible"). Such a
condition is flagged only when none of its words is the card's: "as long as the job is mostly
matrix multiplies" restates a card that speaks of matmul-heavy workloads."""
_CLAUSE_OPENS = re.compile(r"[,;:.!?(\n\u2014\u2013]|\s-\s|\s(?=(?:but|though|although|yet)\s)")
"""Where a clause opens before an "only": a stop, a dash, or a "but" typed without a comma."""
_RESTRICTS = re.compile(
    r"(?:(?:but|though|although|and|yet|so|which|that)\s+)?(?:(?:it|this|that|you|they|we|these"
    r"|those)(?:'s|'re|'ll)?\s+|(?:this|that|these|those|the)\s+[a-z]+\s+)?"
    r"(?:(?:is|are|was|were|does|do|did|will|would|can|should)\s+)?"
    r"(?:(?:get|gets|see|sees|need|needs|notice|hit|hits|feel|want)\s+(?:it|this|that|them)\s+)?"
    r"(?:also\s+)?(?:worth\s+)?(?:[a-z]+(?:ed|es|s|ing)\s+(?:on|in|off|up|out|as\s+[a-z]+)?\s*)?"
)
"""What may stand between the start of a clause and an "only" that restricts the answer's own
claim: "but only for", "though this only happens", "you only need it", "worth turning on only
when", and the card's matter named again ("this limit exists only for SGD", "the effect shows up
only with Adam")."""
_NOT_ASSERTED = (
    Category.NEGATION,
    Category.SOFT_NEGATION,
    Category.DISMISSAL,
    Category.RETRACTION,
)


CARD_CHECKS = (
    "verdict",
    "contrast",
    "contrast.foil",
    "restriction",
    "absolute",
    "partner",
    "partner.explained",
    "partner.purpose",
    "denial",
    "unit",
    "agent",
    "object",
    "change",
    "pairing",
    "sequence",
    "degree",
    "first",
    "replaced",
    "see",
)
"""The checks against the card's own text, by the id a flag names; each can be turned off for
an ablation run (`GRILL_GRADER_WITHOUT=restriction`, scripts/ablate)."""

EXEMPTIONS = ("example", "supposed-denied")
"""Rules that excuse a misconception's match, by id, for an ablation run: `example`, a case
worked under an "if" in an answer that gives the card's own number; `supposed-denied`, one said
only in an "if" clause whose sentence goes on to deny ("if both are falling, it isn't
overfitting")."""


def _unasserted(answer: _Answer, s: int, positions: Iterable[int], condition: bool) -> bool:
    """Is any of these positions of sentence `s` denied, dismissed or taken back (or, with
    `condition`, inside a condition)? The card-text checks below judge only what is claimed."""
    kinds = (*_NOT_ASSERTED, Category.CONDITION) if condition else _NOT_ASSERTED
    return any(span.category in kinds for p in positions for span in _spans_at(answer, s, p))


def _supposed(answer: _Answer, s: int, positions: Iterable[int]) -> bool:
    """Is any of these positions inside a condition other than a purpose ("if a larger batch
    ..." is supposed; "so the important weights are free" is claimed)?"""
    return any(
        span.category is Category.CONDITION and span.trigger != "condition.purpose"
        for p in positions
        for span in _spans_at(answer, s, p)
    )


_PURPOSE = frozenset(("condition.purpose", "condition.otherwise", "condition.without"))
"""A purpose clause ("so the gradients don't overflow"), or what happens without the method
("without it, the activations overflow"): either says what the method is for."""


def _purposed(answer: _Answer, s: int, p: int) -> bool:
    """Is position `p` of sentence `s` in a clause saying what a method is for ("so the
    gradients don't overflow", "without it they overflow")? That is claimed, whatever the
    clause negates or supposes (`partner.purpose`)."""
    if "partner.purpose" in disabled():
        return False
    return any(span.trigger in _PURPOSE for span in _spans_at(answer, s, p))


def _spans_at(answer: _Answer, s: int, p: int) -> list[Span]:
    """The context spans (wide scopes, and those carried from the sentence before) over
    position `p` of sentence `s`."""
    scope = answer.scopes[s]
    return [span for span in (*scope.wide[p], *scope.carried_wide) if span.start <= p < span.end]


def _substantive(tok: _Tok) -> bool:
    """A word of substance: not a number, a filler or two letters."""
    return tok.num is None and tok.word not in _STOP_STEMS and len(tok.word) > 2


@lru_cache(maxsize=1024)
def _card_words(
    *texts: str | None,
) -> tuple[frozenset[str], tuple[tuple[float, float, str], ...]]:
    """The words (canonical stems) and numbers (ranges, with their kind: plain, % or x) a
    card's own text uses."""
    words: set[str] = set()
    nums: list[tuple[float, float, str]] = []
    for text in texts:
        for sentence in _analyse(text or "").sentences:
            for t in sentence:
                if t.num is None:
                    words.add(t.word)
                else:
                    nums.append((t.num.lo, t.num.hi, t.num.kind))
    return frozenset(words), tuple(nums)


def _restriction_flags(card: Card, answer: _Answer) -> list[Flag]:
    """A condition the card never makes, added with "only": "loss scaling, but only for models
    above 7B parameters", "it only happens with Adam", "this holds for SGD only". The condition's
    clause holds a word or a number that the card's question, short answer and explanation never
    use. One added with "provided" or "as long as" (`_PROVIDED`), which correct answers use to
    restate the card's own scope in other words, counts only when none of its words is the
    card's ("provided the model is under 1B parameters"). A condition the card makes ("cast
    down only for the matmuls", where the card speaks of matmuls) is no flag, nor is one denied
    or dismissed ("it's a myth that it only happens in pre-training")."""
    folded = _fold(answer.text)
    if "only" not in folded and not _PROVIDED.search(folded):
        return []
    words, nums = _card_words(card.question, card.answer, card.explanation)
    # (where the flag starts, where the condition starts, where it ends: None for the end of
    # its clause, where the flag ends: None for the condition's end; whether every word of the
    # condition must be off the card's text)
    spans: list[tuple[int, int, int | None, int | None, bool]] = []
    for m in _ONLY.finditer(folded):
        # a clause opens at a stop, a dash, or a "but" typed without a comma before it
        lead = re.split(_CLAUSE_OPENS, folded[: m.start()])[-1]
        if _RESTRICTS.fullmatch((lead.strip() + " ").lstrip()):
            spans.append((m.start(), m.end(), None, None, False))
        # else "not only", "if only"; "scale factors are only for fp8" is about them
    for m in _ONLY_NEEDED.finditer(folded):
        spans.append((m.start(), m.end(), None, None, False))
    for m in _ONLY_AFTER.finditer(folded):
        spans.append((m.start(), m.start(1), m.end(1), m.end(), False))
    for m in _PROVIDED.finditer(folded):
        spans.append((m.start(), m.end(), None, None, True))
    for start, after, before, close, wholly in spans:
        for s, sentence in enumerate(answer.sentences):
            if sentence[0].start > (start if before is None else after) or sentence[-1].end < after:
                continue
            tail = [
                p
                for p, t in enumerate(sentence)
                if t.start >= after and (before is None or t.end <= before)
            ]
            if not tail:
                continue
            first = sentence[tail[0]].clause
            tail = [p for p in tail if sentence[p].clause == first]
            if _unasserted(answer, s, tail, condition=False):
                continue
            off = [
                sentence[p]
                for p in tail
                if (
                    _substantive(sentence[p])
                    and sentence[p].word not in words
                    and sentence[p].word not in GENERIC  # "only when training in FP16"
                )
                or (
                    sentence[p].num is not None
                    and not any(
                        lo <= sentence[p].num.lo <= hi  # type: ignore[union-attr]
                        for lo, hi, _ in nums
                    )
                )
            ]
            said = (sentence[p] for p in tail)
            if wholly and any(
                t.word in words and t.word not in GENERIC for t in said if _substantive(t)
            ):
                continue  # "provided ...": a condition with one of the card's words is the card's
            if off:
                end = sentence[tail[-1]].end if close is None else close
                span = _original_span(answer.text, start, end)
                says = "adds a condition the card does not make"
                return [Flag("restriction", says, span, "restriction")]
    return []


_ABSOLUTE = re.compile(
    r"\b(?:always|invariably|universally|guaranteed|in (?:all|every) cases?|without exception"
    r"|(?:whatever|regardless of|irrespective of|no matter|independent of) (?:the|what|which|your)"
    r"\b(?: [a-z]+)?)\b"
)
_HEDGES = re.compile(
    r"\b(?:sometimes|often|usually|typically|mostly|commonly|generally|can|may|might|"
    r"empirically|tends?|depends?|dependent|likely|unlikely|rarely)\b"
)
_ABSOLUTE_IN_CARD = re.compile(r"\b(?:always|never|universally|invariably|guaranteed)\b")


@lru_cache(maxsize=1024)
def _hedges(*texts: str | None) -> bool:
    """Does a card's own text hedge (sometimes, usually, depends) and never speak in absolutes?"""
    text = _fold(" ".join(t or "" for t in texts))
    return bool(_HEDGES.search(text)) and not _ABSOLUTE_IN_CARD.search(text)


def _absolute_flags(card: Card, answer: _Answer) -> list[Flag]:
    """An "always" where the card hedges: the card's text says sometimes, often, usually, can,
    depends (and never always or never), and the answer claims the same thing always,
    invariably, universally or in all cases ("small batches always generalise better" where the
    card: "empirically sometimes better"). The claim must be about the card (its clause uses a
    word of the card's text); "almost always", "not always", "has always" (what was so), a
    dismissed or conditional "always", one asked ("does it always work?") and one about
    something else ("always seed your dataloader") are none."""
    folded = _fold(answer.text)
    if not _ABSOLUTE.search(folded):
        return []
    if not _hedges(card.question, card.answer, card.explanation):
        return []
    words, _ = _card_words(card.question, card.answer, card.explanation)
    for m in _ABSOLUTE.finditer(folded):
        if re.search(
            r"\b(?:almost|nearly|not|n't|near|virtually|practically)\s+$", folded[: m.start()]
        ):
            continue
        if re.search(r"\b(?:has|have|had|'ve)\s+$", folded[: m.start()]):
            continue  # "it has always made X easier": what was so, not a claim that it must be
        if any(
            q.start() < m.start() < q.end() and not _AGREED.match(folded, q.end())
            for q in _QUOTED.finditer(folded)
        ):
            continue  # someone else's "always", quoted: "read that 'pain is always the shoe'"
        for s, sentence in enumerate(answer.sentences):
            if not sentence or sentence[0].start > m.start() or sentence[-1].end < m.end():
                continue
            near = [p for p, t in enumerate(sentence) if abs(t.start - m.start()) < 60]
            at = min(near, key=lambda p: abs(sentence[p].start - m.start()), default=None)
            if at is None:
                continue
            clause = [p for p, t in enumerate(sentence) if t.clause == sentence[at].clause]
            if _unasserted(answer, s, clause, condition=True):
                continue
            if _asks(folded, sentence):
                continue  # asked, not claimed: "I said, does it always work?"
            if any(_substantive(sentence[p]) and sentence[p].word in words for p in clause):
                span = _original_span(answer.text, m.start(), sentence[clause[-1]].end)
                says = "claims always where the card says it depends"
                return [Flag("absolute", says, span, "absolute")]
    return []


_SET_APART = frozenset(
    {"unlike", "than", "vs", "versus", "compar", "contrast", "instead", "rather"}
)
"""Words that set a thing apart from the one in question ("unlike FP16", "more than FP16")."""


def _partner_flags(card: Card, answer: _Answer) -> list[Flag]:
    """The other side of a pair the card names one side of: a card whose text names BF16 and
    never FP16 (or underflow and never overflow), answered with FP16 and never BF16 ("it needs
    loss scaling, same as FP16"), says something of the wrong one. A mention denied, dismissed,
    conditional, or set apart ("unlike FP16", "fewer bits than FP16") is none. The pairs are the
    swap table's named things (grill.grader.match.partners), old/new left out: every card says
    both. The other side named once in the explanation, in passing ("backing off when it sees
    an overflow", where the card is about underflow), still counts, unless the answer says
    what the explanation says beside it."""
    short, _ = _card_words(card.question, card.answer)
    words, _ = _card_words(card.question, card.answer, card.explanation)
    said = {t.word for sentence in answer.sentences for t in sentence}
    for ours, others in partners().items():
        if ours in ("old", "new") or ours not in words or ours in said:
            continue
        for other in others - short:
            aside = _said_beside(card.explanation, other) if other in words else frozenset()
            if other in words and (aside is None or "partner.explained" in disabled()):
                continue  # the explanation speaks of it more than in passing
            for s, sentence in enumerate(answer.sentences):
                for p, tok in enumerate(sentence):
                    if tok.word != other:
                        continue
                    apart = any(t.word in _SET_APART for t in sentence[max(0, p - 3) : p])
                    near = {t.word for t in sentence[max(0, p - _BESIDE) : p + _BESIDE + 1]}
                    if aside and len(aside & near) >= 2:
                        continue  # "dynamic scaling backs off on overflow": the card's own aside
                    claimed = _purposed(answer, s, p) or not _unasserted(answer, s, (p,), True)
                    if not apart and claimed:
                        says = f"speaks of {other} where the card speaks of {ours}"
                        text = _original_span(answer.text, tok.start, tok.end)
                        return [Flag("partner", says, text, "partner")]
    return []


_BESIDE = 4
"""Words either side of a partner word that say what the card's explanation says of it."""


@lru_cache(maxsize=256)
def _said_beside(explanation: str | None, word: str) -> frozenset[str] | None:
    """The words around `word` where a card's explanation names it once, in passing ("backing
    off when it sees an overflow"), filler left out: an answer that says the same beside it
    recites the card's aside, not the other side of its pair (`partner.explained`). None when
    the explanation names it more than once: then it is part of what the card teaches."""
    out: set[str] = set()
    seen = 0
    for sentence in _analyse(explanation or "").sentences:
        for p, tok in enumerate(sentence):
            if tok.word == word:
                seen += 1
                out.update(
                    t.word
                    for t in sentence[max(0, p - _BESIDE) : p + _BESIDE + 1]
                    if t.num is None and t.word not in _STOP_STEMS and t.word != word
                )
    return frozenset(out - GENERIC) if seen <= 1 else None


_DENYING = (Category.NEGATION,)
_DENIAL_WORDS = 3
"""An item of more substantive words than this is too long to be said back word for word."""


@lru_cache(maxsize=256)
def _items(short_answer: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """The short answer's items that can be denied: each with its substantive words (at most
    `_DENIAL_WORDS`), leaving out an item that is itself a denial ("no loss scaling")."""
    out = []
    for item, _ in items_of(short_answer):
        toks = [t for sentence in _analyse(item).sentences for t in sentence]
        if any(denies(c) for t in toks for c in t.cues):
            continue
        words = frozenset(
            t.word for t in toks if t.num is None and t.word not in _STOP_STEMS and len(t.word) > 1
        )
        if words and len(words) <= _DENIAL_WORDS:
            out.append((item, words))
    return tuple(out)


def _denial_flags(card: Card, answer: _Answer) -> list[Flag]:
    """An item of the card's short answer denied in a main clause and never said otherwise: a
    card whose answer lists "wrong loss" answered "... and not the wrong loss function"."""
    for item, words in _items(card.answer):
        denied: tuple[int, tuple[int, ...]] | None = None
        for s, sentence in enumerate(answer.sentences):
            places = _closest(sentence, words)
            if places is None:
                continue
            scope = answer.scopes[s]
            if (
                scope.counterfactual
                or any(scope.sub[p] for p in places)
                or not all(
                    any(
                        span.category in _DENYING and span.start <= p < span.end
                        for span in (*scope.key[p], *scope.carried)
                    )
                    for p in places
                )
            ):
                denied = None
                break  # said (or only supposed) somewhere: not a denial
            denied = denied or (s, places)
        if denied is not None:
            s, places = denied
            sentence = answer.sentences[s]
            text = _original_span(answer.text, sentence[places[0]].start, sentence[places[-1]].end)
            return [Flag("denial", f"denies what the card says: {item}", text, "denial")]
    return []


def _unit_flags(card: Card, answer: _Answer) -> list[Flag]:
    """The card's own number given as a share where the card has a multiple, or the other way
    round ("1.5-2% faster" where the card: 1.5-2x): the same figures in the other unit are
    another quantity. Said in the other unit and converted ("150-200%" for 1.5-2x), or as the
    inverse ("10x lower" or "decay 10x" for 10% of the peak; "a tenth of the divergence LR" for
    10x below it), is none; "10% above the average" for 10x the average is not the inverse."""
    _, card_nums = _card_words(card.question, card.answer, card.explanation)
    other = {"%": "x", "x": "%"}
    for s, sentence in enumerate(answer.sentences):
        for p, tok in enumerate(sentence):
            num = tok.num
            if num is None or num.kind not in other or num.lo <= 0 or num.hi <= 1:
                continue  # "0-2%": no inverse, and no multiple of nothing
            unit, theirs = num.kind, other[num.kind]
            factor = 0.01 if unit == "%" else 100.0  # the same quantity in the other unit
            near = {t.word for t in sentence[max(0, p - 3) : p + 4]}
            reduced = not near & _UP_WORDS if unit == "%" else bool(near & _DOWN_WORDS)
            if (
                _gives(card_nums, (num.lo, num.hi), unit)
                or _gives(card_nums, (num.lo * factor, num.hi * factor), theirs)
                # "10x lower" is 10% of it, and back
                or (reduced and _gives(card_nums, (100 / num.hi, 100 / num.lo), theirs))
            ):
                continue
            if _gives(card_nums, (num.lo, num.hi), theirs) and not _unasserted(
                answer, s, (p,), condition=False
            ):
                card_said = _show_unit(num.lo, num.hi, theirs)
                says = f"gives the card's {card_said} as {_show_unit(num.lo, num.hi, unit)}"
                text = _original_span(answer.text, tok.start, tok.end)
                return [Flag("unit", says, text, "unit")]
    return []


_BY = re.compile(r"\b([a-z]{3,}ed) by\b")
_BY_SKIP = frozenset(
    "the a an its their his her our your each every this that these those how what which"
    " own".split()
)
_BY_REACH = 3
"""Words after "by" read for the agent: "weighted by F, the Fisher information" names it."""


def _after_by(text: str, end: int, reach: int) -> list[str]:
    """The first `reach` words after a "by" that name something, to the end of its sentence."""
    rest = re.split(r"[.;!?\n]", text[end : end + 120], maxsplit=1)[0]
    return [w for w in re.findall(r"[a-z][\w-]*", rest) if w not in _BY_SKIP][:reach]


def _cut(word: str) -> str:
    """A stem cut to six letters: "importance" and "important" are one."""
    return _stem(word)[:6]


def _agents(text: str) -> dict[str, set[str]]:
    """What each "-ed by" of `text` is done by: "weighted by Fisher information" -> {"weight":
    {"fisher"}}; "weighted by how important each weight was" -> {"weight": {"import"}}."""
    out: dict[str, set[str]] = {}
    for m in _BY.finditer(text):
        out.setdefault(_cut(m.group(1)), set()).update(map(_cut, _after_by(text, m.end(), 1)))
    return out


def _agent_flags(card: Card, answer: _Answer) -> list[Flag]:
    """What the card's answer says is weighted, scaled or measured by something ("weighted by
    Fisher information"), said to be done by something the card's text never names ("weighted
    by the learning rate", "by each weight's magnitude", "by the inverse of the Fisher"):
    another method. Any of the first three words after "by" may name the card's; one that
    opens with an abbreviation or a symbol ("by the std", "by F_i") is let be."""
    claimed = _agents(_fold(card.answer))
    if not claimed:
        return []
    allowed = _agents(_fold(f"{card.answer} {card.explanation or ''}"))
    text = _fold(answer.text)
    for m in _BY.finditer(text):
        verb = _cut(m.group(1))
        heads = _after_by(text, m.end(), _BY_REACH)
        if (
            verb in claimed
            and heads
            and heads[0] in _english()
            and not {_cut(w) for w in heads} & allowed[verb]
        ):
            says = f"done by something the card does not name ({card.answer.strip()})"
            return [Flag("agent", says, text[m.start() : m.end() + 40].strip(), "agent")]
    return []


_QUANTITIES = {
    "grad": "the gradients",
    "param": "the weights",
    "loss": "the loss",
    "activ": "the activations",
    "lr": "the learning rate",
    "batch": "the batch",
    "optst": "the optimizer state",
    "data": "the data",
    "logit": "the logits",
    "output": "the outputs",
}
"""The run's quantities, as the lexicon folds them, and as a flag names them."""
_OPERATIONS = {
    "clip": "clipping",
    "scal": "scaling",
    "accumul": "accumulation",
    "ramp": "the ramp",
    "penal": "the penalty",
    "regulariz": "regularization",
    "replay": "replay",
    "mix": "mixing",
    "cast": "casting",
    "multiply": "multiplying",
    "divid": "dividing",
    "clamp": "clamping",
    "frozen": "freezing",
}
"""What a method does to a quantity, as a verb ("clip the gradients", "gradient clipping",
"ramp the lr", "accumulate gradients", "multiply the loss"), and as a flag names it."""
_OBJECT_REACH = 1  # words between an operation and the quantity it acts on ("clip the global grad")
_NOT_NAMED = re.compile(r"activ(?:e|ely|ity)\b")
"""Words the lexicon folds into a quantity's form that name none ("clipping is active")."""
_NOT_OBJECT = frozenset(
    "by with over across per than for to from into at in on against via using through until"
    " till like".split()
)
"""Words after which a quantity is no longer what the operation acts on."""
_LIST_GAP = re.compile(r",|;|\band\b|\bor\b|\bnor\b|/|\+|&")
_TOWARD = frozenset({"toward", "old"})
"""Words between an operation and its quantity that leave the reach open ("regularize toward
old weights": the weights are what is regularised)."""


def _objects(
    sentences: Sequence[Sequence[str]], gap: Callable[[int, int, int], bool]
) -> Iterator[tuple[int, int, str, str]]:
    """(sentence, position, operation, quantity): each operation with the quantity it acts on,
    after it within `_OBJECT_REACH` other words, or right before it ("gradient clipping"); `gap`
    (sentence, one position, a later one) says when a list or a clause stands between them."""
    for s, words in enumerate(sentences):
        for p, w in enumerate(words):
            if w not in _OPERATIONS:
                continue
            if p and words[p - 1] in _QUANTITIES and not gap(s, p - 1, p):
                yield s, p, w, words[p - 1]
                continue
            reach = _OBJECT_REACH
            for k in range(p + 1, len(words)):
                if k > p + 1 + reach:
                    break
                if words[k] in _OPERATIONS or words[k] in _NOT_OBJECT or gap(s, p, k):
                    break  # "divided by the batch size": the batch divides, it is not divided
                if words[k] in _QUANTITIES:
                    yield s, p, w, words[k]
                    break
                if words[k] in _TOWARD:
                    reach += 1  # "regularize toward old weights": what is pulled is the weights


@lru_cache(maxsize=256)
def _card_objects(text: str) -> dict[str, frozenset[str]]:
    """Each operation of the card's text with the quantities it acts on there."""
    allowed: dict[str, set[str]] = {}
    for _, _, op, q in _objects(normalise(text), lambda s, a, b: False):
        allowed.setdefault(op, set()).add(q)
    return {op: frozenset(qs) for op, qs in allowed.items()}


def _object_flags(card: Card, answer: _Answer) -> list[Flag]:
    """What the card's text says an operation acts on ("clip the gradient norm", "ramp the
    learning rate", "accumulate gradients"), said to act on another of the run's quantities
    ("clip the loss", "ramp the batch size", "accumulate the activations"): the method misread.
    Only an operation the card uses with a quantity is checked, and a quantity it names with
    that operation anywhere in its text is its own. On the tuning sets 19 answers moved to
    their label and none away; on six held-out sets it caught 5 false answers and rejected 1
    correct one (docs/grader-rules.md)."""
    allowed = _card_objects(" ".join(t for t in (card.answer, card.explanation, card.context) if t))
    if not allowed:
        return []
    folded = _fold(answer.text)
    sentences = answer.sentences

    def gap(s: int, a: int, b: int) -> bool:
        x, y = sentences[s][a], sentences[s][b]
        return x.clause != y.clause or bool(_LIST_GAP.search(folded, x.end, y.start))

    def named(t: _Tok) -> str:  # "active" is no activation, "requires_grad" (code) no gradient
        typed = folded[max(0, t.start - 1) : t.end + 1]
        return "" if "_" in typed or _NOT_NAMED.match(folded, t.start) else t.word

    words = [[named(t) for t in sentence] for sentence in sentences]
    for s, p, op, q in _objects(words, gap):
        if op not in allowed or q in allowed[op]:
            continue
        if _unasserted(answer, s, (p,), condition=True):
            continue
        sentence = sentences[s]
        own = " and ".join(_QUANTITIES[x] for x in sorted(allowed[op]))
        says = f"puts {_OPERATIONS[op]} on {_QUANTITIES[q]}, where the card puts it on {own}"
        end = sentence[min(len(sentence) - 1, p + 2)].end
        text_ = _original_span(answer.text, sentence[max(0, p - 1)].start, end)
        return [Flag("object", says, text_, "object")]
    return []


_KNOBS = {
    "lr": "the learning rate",
    "batch": "the batch size",
    "wd": "weight decay",
    "dropout": "dropout",
    "warmup": "warmup",
    "epoch": "the epochs",
}
"""The run's settings a remedy turns up or down, as the lexicon folds them, and as a flag names
them."""
_TURNS = {
    "increas": "raises",
    "mor": "raises",
    "doubl": "doubles",
    "tripl": "triples",
    "boost": "raises",
    "lengthen": "lengthens",
    "extend": "extends",
    "add": "adds",
    "decreas": "lowers",
    "drop": "lowers",
    "slash": "cuts",
    "shorten": "shortens",
}
"""A direction word right before a setting ("raise the LR", "more dropout", "double the batch",
"cut the LR"), and what the flag says it does."""
_TOUCHED = frozenset(
    {
        *_TURNS,
        "up",
        "down",
        "low",
        "high",
        "larg",
        "small",
        "longer",
        "shorter",
        "big",
        "extra",
    }
    | {"scal", "ramp", "too", "tun", "chang", "adjust", "sweep", "decay", "peak", "match"}
)
"""Words that, within `_TOUCH_REACH` words of a setting in the card's text, make changing that
setting the card's own subject ("LR too low", "scale the LR with the batch", "sweep the LR")."""
_TOUCH_REACH = 3
_TURN_REACH = 1  # words between a direction word and the setting ("raise the peak lr")


def _turns(sentence: Sequence[_Tok], folded: str) -> Iterator[tuple[int, str, str]]:
    """(position, direction word, setting): each setting a sentence turns up or down, the
    setting right after the direction word or one word on ("raise the peak lr"), in its clause,
    with no list and no preposition between ("more data, dropout"; "turned upward around epoch
    four" says when, not what is turned). `folded`: the answer's folded text."""
    for p, tok in enumerate(sentence):
        if tok.word not in _TURNS:
            continue
        for k in range(p + 1, min(len(sentence), p + 2 + _TURN_REACH)):
            other = sentence[k]
            between = folded[tok.end : other.start]
            if other.clause != tok.clause or _LIST_GAP.search(between):
                break
            if _BETWEEN_STOP.search(between) or other.word in _TURNS or other.num is not None:
                break
            if other.word in _KNOBS:
                if not _counted(tok, other, folded):
                    yield p, tok.word, other.word
                break


_COUNTED = frozenset({"batch"})
_COUNTING = frozenset({"mor", "add", "drop"})
"""Settings that "more", "add" and "drop" count, add or take away ("more batches of junk", "drop
the bad batch"), not turn up or down."""


def _counted(turn: _Tok, setting: _Tok, folded: str) -> bool:
    """Does the direction word count the setting rather than turn it? "more batches of junk",
    "drop the bad batch" (`_COUNTING`); batches in the plural after a verb ("cut the offending
    batches"), but not after a comparative ("bigger batches", "smaller batches": the batch
    size), "fewer" excepted."""
    if setting.word not in _COUNTED:
        return False
    if turn.word in _COUNTING:
        return True
    said = folded[turn.start : turn.end]
    return folded[setting.start : setting.end].endswith("batches") and (
        not said.endswith("er") or said == "fewer"
    )


_BETWEEN_STOP = re.compile(
    r"\b(?:around|at|after|before|by|during|for|from|in|into|near|of|on|over|per|since|than"
    r"|through|to|toward|towards|until|via|with|any|each|every|that|this|these|those)\b"
)
"""A preposition or a determiner other than "the" between a direction word and a setting: the
setting is not what is turned ("turned upward around epoch four", "declines any batch")."""
_SCHEDULE = frozenset({"peak", "warmup", "decay", "anneal", "cosin", "schedul", "ramp"})
"""Words of the learning rate's schedule: a card that speaks of it changes the learning rate
("from zero up to peak", "decay to 10% of peak") without naming it."""


@lru_cache(maxsize=256)
def _card_touches(text: str) -> frozenset[str]:
    """The settings the card's text changes, or says are off or changed, anywhere; the
    learning rate too where it speaks of the schedule."""
    out: set[str] = set()
    for sentence in normalise(text):
        for p, w in enumerate(sentence):
            if w in _SCHEDULE:
                out.add("lr")
            if w in _KNOBS and any(
                (x in _TOUCHED or _MULTIPLE.match(x)) and not _owned(sentence, q, w)
                for q, x in enumerate(sentence)
                if abs(q - p) <= _TOUCH_REACH
            ):
                out.add(w)
    return frozenset(out)


_RELATING = frozenset({"scal", "match", "tun", "sweep", "adjust"})
"""Change words that relate settings ("scale the LR with the batch"): they touch every setting
near them."""


def _owned(sentence: Sequence[str], q: int, knob: str) -> bool:
    """Is the change word at `q` another setting's, standing right beside it ("skip the batches
    around the spike, drop the learning rate": the drop is the LR's, not the batch's)?"""
    if sentence[q] in _RELATING:
        return False
    return any(x in _KNOBS and x != knob for x in sentence[max(0, q - 1) : q + 2])


@lru_cache(maxsize=256)
def _named_items(answer: str) -> frozenset[str]:
    """The settings the short answer names as items by themselves ("dropout", "weight decay";
    not "bad batch")."""
    out: set[str] = set()
    for main, _ in items_of(answer):
        words = [w for sentence in normalise(main) for w in sentence]
        if len(words) == 1 and words[0] in _KNOBS:
            out.add(words[0])
    return frozenset(out)


_MULTIPLE = re.compile(r"^\{[\d.]+x\}$")
"""A multiple as the normaliser writes it ("{10x}"): a setting scaled by one is one the card
changes ("the LR 10x below"); a plain count beside it is not ("one freak batch")."""


def _change_flags(card: Card, answer: _Answer) -> list[Flag]:
    """A remedy that turns one of the run's settings up or down ("raise the batch size", "more
    dropout", "cut the LR") where the card's text never touches that setting: no direction
    word near it, no schedule for the learning rate, and not an item of the short answer by
    itself ("Weight decay, dropout, ..." makes "more dropout" the card's own remedy). A denied,
    dismissed or conditional change is none; one after "so" is made ("..., so double the
    batch"). Written on tuning rows before the fresh81 pass; on the held-out sets it righted 14
    built-in verdicts and 59 on the deck made from the seed CSV, and turned none the other way;
    the verbs added after the pass ("slash", "shorten", "drop" ...) righted 3 and 10 more, and
    a change word read as touching only the setting it stands beside (the fresh83 pass)
    0 and 14 more (docs/grader-rules.md)."""
    if not (card.explanation or card.context):
        return []  # a short answer alone says too little to tell what the card leaves alone
    touched = _card_touches(
        " ".join(t for t in (card.question, card.answer, card.explanation, card.context) if t)
    ) | _named_items(card.answer)
    folded = _fold(answer.text)
    for s, sentence in enumerate(answer.sentences):
        for p, turn, knob in _turns(sentence, folded):
            if knob in touched or _unasserted(answer, s, (p,), condition=False):
                continue
            if _supposed(answer, s, (p,)):
                continue  # "if it recurs, lower the LR"; but ", so double the batch" is made
            says = f"{_TURNS[turn]} {_KNOBS[knob]}, which the card's text never changes"
            end = sentence[min(len(sentence) - 1, p + 2)].end
            text_ = _original_span(answer.text, sentence[p].start, end)
            return [Flag("change", says, text_, "change")]
    return []


_MORE = frozenset({"high", "increas", "mor", "most", "biggest", "largest", "highest", "greatest"})
_LESS = frozenset({"low", "decreas", "least", "smallest", "lowest", "fewest"})


def _pole_key(word: str) -> str:
    """One key for a word and its forms: "noise", "noisy" and "noisi(er)" all read "nois"."""
    return word.rstrip("eyi")[:6]


_MATTERS = _pole_key("important")  # one key with "most important", "least important"
_POLAR = {
    **dict.fromkeys(("important", "critical", "crucial", "essential", "vital"), (_MATTERS, 1)),
    "unimportant": (_MATTERS, -1),
    **dict.fromkeys(("anchor", "pin", "held", "fix", "frozen", "moor", "constrain"), ("~held", 1)),
    **dict.fromkeys(("free", "freer", "freest", "unconstrain"), ("~held", -1)),
}
"""Words that say a pole by themselves (stems): how much a thing matters ("critical",
"unimportant"; "most important" is the word after "most") and whether it is held in place or
left free ("anchored", "pinned", "frozen" against "free", "unconstrained")."""
_MATTER = "matter"  # "the weights that mattered most": how much they matter
_COMPARED = re.compile(r"([a-z]{3,}?)(?:ier|iest)")
"""A comparative of its own, "noisier", "noisiest": more of the word it is made from."""
_Pole = tuple[int, str, int]  # (position, key, +1 more of it / -1 less)


def _poles(sentence: Sequence[_Tok], folded: str) -> list[_Pole]:
    """What a sentence says there is more or less of: "a larger batch" (batch, +1), "a
    lower-noise estimate" (noise, -1), "a noisier gradient" (noise, +1). A word of more or less
    counts for the word of substance right after it, in its clause. A few words are poles by
    themselves (`_POLAR`): "critical ones are anchored" is (matters, +1) and (held, +1)."""
    out: list[_Pole] = []
    taken: set[int] = set()
    for p, tok in enumerate(sentence):
        if p in taken or tok.num is not None:
            continue
        sign = 1 if tok.word in _MORE else -1 if tok.word in _LESS else 0
        if tok.word == _MATTER and p + 1 < len(sentence):
            after = sentence[p + 1]
            way = 1 if after.word in _MORE else -1 if after.word in _LESS else 0
            if way and after.clause == tok.clause:
                out.append((p, _MATTERS, way))
                taken.add(p + 1)
                continue
        if tok.word in _POLAR:
            out.append((p, *_POLAR[tok.word]))
            continue
        if sign:
            if p + 1 < len(sentence):
                after = sentence[p + 1]
                if (
                    after.clause == tok.clause
                    and _substantive(after)
                    and after.word not in _MORE | _LESS
                    and after.word not in GENERIC
                ):
                    out.append((p, _pole_key(after.word), sign))
                    taken.add(p + 1)
            continue
        m = _COMPARED.fullmatch(folded[tok.start : tok.end])
        if m:
            out.append((p, _pole_key(m.group(1)), 1))
    return out


def _pole_pairs(
    sentence: Sequence[_Tok], folded: str, measures: Mapping[str, str] | None = None
) -> Iterator[tuple[int, int, frozenset[str], int]]:
    """Each two things of one clause with more or less of them, as (positions, the pair, +1
    when both go the same way, -1 when they go opposite ways). A thing the card measures
    another by (`_measures`) stands for what it measures."""
    poles = [(p, (measures or {}).get(k, k), x) for p, k, x in _poles(sentence, folded)]
    for (p, a, x), (q, b, y) in itertools.combinations(poles, 2):
        if a != b and sentence[p].clause == sentence[q].clause:
            yield p, q, frozenset((a, b)), x * y


_MEASURED_BY = re.compile(
    r"\b([a-z]{4,}) (?:is |are |being |gets |get )?(?:estimated|measured|given|captured"
    r"|approximated|quantified|read) by (?:the |its |their )?([a-z]{3,})"
)


@lru_cache(maxsize=1024)
def _measures(text: str) -> dict[str, str]:
    """What the card's text says one thing is measured by ("importance being estimated by the
    Fisher information"): the measure's pole key to the measured one's, so "high-Fisher
    weights" say as much as "important weights" do."""
    out = {}
    for m in _MEASURED_BY.finditer(_fold(text)):
        said = [t.word for t in _analyse_sentence(m.group(2), 0)]
        if said:
            out[_pole_key(said[0])] = _pole_key(m.group(1))
    return out


@lru_cache(maxsize=1024)
def _pairings(text: str) -> dict[frozenset[str], tuple[int, str]]:
    """What the card's text says goes with what, more with less or more with more, one clause
    at a time: "a larger batch is a lower-noise estimate" pairs batch and noise one up, one
    down (-1), with the card's words that say it. A pair the text says both ways is left
    out."""
    folded = _fold(text)
    seen: dict[frozenset[str], set[int]] = {}
    said: dict[frozenset[str], str] = {}
    for offset, piece in _sentences(folded):
        sentence = _analyse_sentence(piece, offset)
        for p, q, pair, way in _pole_pairs(sentence, folded):
            seen.setdefault(pair, set()).add(way)
            # the word it qualifies, unless it is a pole by itself ("... are anchored")
            last = q if sentence[q].word in _POLAR else min(q + 1, len(sentence) - 1)
            end = sentence[last].end
            said.setdefault(pair, _original_span(text, sentence[p].start, end))
    return {pair: (ways.pop(), said[pair]) for pair, ways in seen.items() if len(ways) == 1}


def _pairing_flags(card: Card, answer: _Answer) -> list[Flag]:
    """Two things the card's text pairs, paired the other way round: "a bigger batch gives a
    noisier gradient", or "small batches give less noise", where the card says "a larger batch
    is a lower-noise estimate". Only what the answer claims, in one clause. Written on tuning
    rows at the start of the fresh83 pass; on the held-out sets it righted 12 verdicts on the
    deck made from the seed CSV (none on the built-in deck, whose rubrics list these) and
    turned none the other way; the words that are poles by themselves and the purpose clause
    read as claimed (the fresh85 pass) righted 12 more there and 2 on the built-in deck
    (docs/grader-rules.md)."""
    text = " ".join(t for t in (card.answer, card.explanation, card.context) if t)
    pairs = _pairings(text)
    if not pairs:
        return []
    folded = _fold(answer.text)
    measures = _measures(text)
    for s, sentence in enumerate(answer.sentences):
        for p, q, pair, way in _pole_pairs(sentence, folded, measures):
            said = pairs.get(pair)
            if said is None or way == said[0]:
                continue
            if _unasserted(answer, s, (p, q), condition=False) or _supposed(answer, s, (p, q)):
                continue
            says = f"pairs two things the other way round from the card's text (“{said[1]}”)"
            span = _original_span(answer.text, sentence[p].start, sentence[q].end)
            return [Flag("reversed", says, span, "pairing")]
    return []


@lru_cache(maxsize=256)
def _asked(question: str) -> frozenset[str]:
    """The words (canonical stems) a card's question says: an answer seldom repeats them, and a
    step or a thing named by them alone is no step or thing of the answer's own."""
    return frozenset(w for s in normalise(question) for w in s)


_THEN = re.compile(
    r"\b(?:then|eventually|finally|afterwards?|followed by|(?:and|only|much) later|after (?:that"
    r"|a while|a bit|some time|a few \w+))\b"
    r"|> to\b|\bbefore\b"
)
"""What the folded text says comes next: "X, then Y", "X and eventually Y", "X -> Y", "X before
Y", "X, and after a while Y"."""
_AFTER = re.compile(r"\bafter\b(?! (?:that|a while|a bit|some time|a few)\b)")
"""What it says came first: "Y after X"; opening a clause ("after X, Y") the comma is the step."""
_AFTER_OPENS = re.compile(r"(?:^|[.;:!?(]\s*)after\b[^,.;:!?]*(,)")
_UNSTEPPED = frozenset(
    {"first", "eventual", "final", "later", "afterward", "next", "onc", "then", "time", "start"}
    | {"befor", "after", "while", "bit", "few", "som"}
    | {"begin", "end", "initial", "early", "late", "long", "short", "quick", "fast", "slow"}
    | {"mor", "less", "increas", "decreas", "up", "down", "high", "low"}
)
"""Words that name no step: order, time and direction ("falls early", "a long descent")."""
_IF_THEN = re.compile(r"(?:^|[.;:!?]\s*)(?:if|say|suppose|assuming|whenever)\b[^.;:!?]*$")
"""A "then" that closes a condition ("if it blows up at 1e-2, then take 1e-3") orders nothing."""
_RANKED = re.compile(r"\b(?:cheap|cost|expensive|prefer|last resort|order of)")
"""A sentence of the card's that ranks options by cost or preference: another order is a
different priority, not a false sequence ("the cheap first moves, then augmentation")."""


def _steps(
    answer: _Answer, asked: frozenset[str]
) -> list[tuple[frozenset[str], frozenset[str], tuple[int, int]]]:
    """The steps a text puts one before the other: (words of the earlier, words of the later,
    the span of the folded text that says both), from its sequence words (`_THEN`,
    `_AFTER`). A step's words are its substantive stems, less the question's own, those that
    name no step (`_UNSTEPPED`) and those denied; a sentence that ranks (`_RANKED`) orders
    nothing, and a later step whose own clause denies a verb tells an outcome, not a step
    ("grads/S before the optimizer step -> tiny grads don't underflow")."""
    folded = _fold(answer.text)
    marks: list[tuple[int, int]] = []  # (offset, +1: what follows is later, -1: earlier, 0: none)
    opened = {m.start(1) for m in _AFTER_OPENS.finditer(folded)}
    for m in _THEN.finditer(folded):
        if not _IF_THEN.search(folded, 0, m.start()):
            marks.append((m.start(), 1))
    for m in _AFTER.finditer(folded):
        opens = any(m.start() < c and not folded[m.end() : c].count(",") for c in opened)
        marks.append((m.start(), 0 if opens else -1))
    marks += [(c, 1) for c in opened]
    marks.sort()
    ranked = [m.span() for m in _RANKED.finditer(folded)]
    # each step: its relation to the one before, its words, where it starts, and how many of
    # its words it has as a later step (which ends with its clause: "... before the mix: yes,
    # multiply ..."); as an earlier step it reaches back to the step before
    steps: list[tuple[int, list[_Tok], tuple[int, int], list[int]]] = []
    denied: set[int] = set()  # steps whose own clause denies a verb: what does not happen
    for s, sentence in enumerate(answer.sentences):
        ranks = any(sentence[0].start <= a and b <= sentence[-1].end for a, b in ranked)
        for p, tok in enumerate(sentence):
            before = steps[-1][1][-1].end if steps and steps[-1][1] else -1
            between = [way for at, way in marks if before <= at <= tok.start]
            if p == 0 or between:
                way = 0 if ranks else between[-1] if between else 0
                steps.append((way, [], (s, p), []))
            step = steps[-1]
            if tok.verbal and sentence[step[2][1]].clause == tok.clause:
                denied.add(len(steps) - 1)
            if not _unasserted(answer, s, (p,), condition=False):
                step[1].append(tok)
                if sentence[step[2][1]].clause == tok.clause:
                    step[3].append(len(step[1]))

    def words(toks: list[_Tok]) -> frozenset[str]:
        return frozenset(
            t.word
            for t in toks
            if _substantive(t)
            and t.word not in asked
            and t.word not in GENERIC
            and t.word not in _UNSTEPPED
            and not t.neg
        )

    out = []
    for i, ((_, a, _, _), (way, b, _, kept)) in enumerate(itertools.pairwise(steps)):
        said = b[: max(kept, default=0)] if way == 1 else b
        span = (a[0].start, said[-1].end) if a and said else (0, 0)
        if way == 1:
            if i + 1 in denied:
                continue  # an outcome, not a step: "... before the step -> grads don't vanish"
            out.append((words(a), words(said), span))
        elif way == -1:
            if i in denied:
                continue
            out.append((words(b), words(a), span))
    return [(a, b, span) for a, b, span in out if a and b]


@lru_cache(maxsize=256)
def _told_steps(
    question: str, *texts: str | None
) -> list[tuple[frozenset[str], frozenset[str], tuple[int, int]]]:
    """The steps a card's own text (short answer, explanation, context) puts in order."""
    return _steps(_analyse(" ".join(t for t in texts if t)), _asked(question))


def _sequence_flags(card: Card, answer: _Answer) -> list[Flag]:
    """Two steps the card's text puts in an order ("gradient norms that spike ..., and eventually
    NaNs", "hit a minimum, then blow up"), told the other way round: "first it NaNs, then the loss
    bounces". Each step of the answer is known by the card's step it shares most words with (and
    none of the other of the two); an order the card's text also tells the answer's way round is
    no reversal."""
    told = _told_steps(card.question, card.answer, card.explanation, card.context)
    if not told:
        return []
    asked = _asked(card.question)
    known = {step for a, b, _ in told for step in (a, b)}

    def named(step: frozenset[str], card_step: frozenset[str]) -> bool:
        """The answer's step is that one of the card's: none shares more words with it."""
        shared = len(step & card_step)
        return shared > 0 and all(len(step & k) <= shared for k in known)

    for early, late, (start, end) in _steps(answer, asked):
        for first, then, _ in told:
            if not (named(early, then) and named(late, first)) or early & first or late & then:
                continue
            if any(early & a and late & b for a, b, _ in told):
                continue  # the card's text tells it this way too
            says = "puts two steps in the reverse of the card's order"
            return [Flag("order", says, _original_span(answer.text, start, end), "sequence")]
    return []


_FIRST = re.compile(r"\bfirst\b")
_FAILED = re.compile(
    r"\b(?:if not|failing that|if (?:that|this) fails|(?:if|unless) (?:it|that|this|the (?:loss"
    r"|run|spike|curve))\s+(?:does ?n[o']t|has ?n[o']t|is ?n[o']t|won'?t|did ?n[o']t|fails?|still"
    r"|keeps)|until (?:it|the (?:loss|run|spike|curve)) (?:recovers?|settles?|comes? back))\b"
)
"""A condition that the first attempt has failed: "only if it hasn't recovered", "failing that"."""
_DELAYED = re.compile(
    r"\b(?:only (?:then|after|if|once|later|when)|afterwards?|after that|later|as a (?:last"
    r"|final) resort)\b"
)
"""Words that put an action after another: "only then", "afterwards", "as a last resort"."""
_LOOK_FIRST = re.compile(
    r"\W*(?:(?:quickly|first|double[- ]?)\s*)?(?:check|look|confirm|inspect|verify|glance|eyeball)"
    r"\b"
)
"""A look before the action is no action before it: "double check grad norms, then restart"."""
_THEN_WORD = re.compile(r"\bthen\b")
_CONDITIONAL_IF = re.compile(r"(?<!see )(?<!check )(?<!tell )(?<!whether )\bif\b")
"""An "if" that opens a condition ("see if it recovers" asks whether, and waits)."""


def _first_flags(card: Card, view: _View, hits: Sequence[_Hit]) -> list[Flag]:
    """A question that asks for the first action ("Spike — first action?"), answered with the
    card's action put after another or after waiting to see: "lower the LR and keep going; only
    roll back to the checkpoint if it hasn't recovered". The key point is named, but not first.
    Read in the key point's clause (a delay or a failed first attempt), the clause before it in
    its sentence (the same, or a "then" not closing an "if"), and the clause after it (a failed
    first attempt only: "roll back, and if it spikes again later, skip the batch" is first)."""
    if not _FIRST.search(card.question.lower()):
        return []
    folded = view.folded
    for hit in sorted(hits, key=lambda h: (h.sentence, h.positions[0])):
        sentence = view.answer.sentences[hit.sentence]
        at = sentence[hit.positions[0]]
        own = [t for t in sentence if t.clause == at.clause]
        before = [t for t in sentence if t.clause == at.clause - 1]
        after = [t for t in sentence if t.clause == at.clause + 1]
        begin = view.answer.sentences[hit.sentence - 1][-1].end if hit.sentence else 0
        start = max(begin, (before or own)[0].start - 12)
        end = max(t.end for t in own)
        pre = folded[start : at.start]
        late = bool(_DELAYED.search(folded, start, end) or _FAILED.search(folded, start, end))
        opened = max(begin, sentence[0].start - 12)  # "if X, then Y": the "then" closes the "if"
        late |= (
            bool(_THEN_WORD.search(pre))
            and not _CONDITIONAL_IF.search(folded, opened, at.start)
            and not _LOOK_FIRST.match(folded, opened)
        )
        late |= bool(after) and bool(_FAILED.search(folded, end, max(t.end for t in after)))
        if late:
            says = "puts the card's first action after another, or after waiting to see"
            quote = _original_span(view.answer.text, (before or own)[0].start, end)
            return [Flag("first", says, quote, "first")]
    return []


_AMPLE = frozenset({"plenty", "lots", "ample", "wide", "wider", "widest", "abundant"})
_SCANT = re.compile(
    r"\b(?:almost|nearly|virtually|practically) no\b|\bhardly any\b|\bvery little\b"
)
_PLENTY = re.compile(r"\b(?:too|so) much\b")
"""Said of a thing, "plenty of range" (or "too much range") is more of it and "almost no range"
less (`_degrees`); a bare "much" is not ("not much range", "much better")."""
_THAN = frozenset({"than", "vs", "versus", "compar", "relativ", "unlik", "like"})
_INTENSIFIERS = frozenset({"too", "way", "far", "so", "overly", "extremely"})
"""Words between a thing and its degree that leave it the thing's: "updates are too large"."""
_SETTING = re.compile(r"\b(?:in|with|under|using|on)\s+(?:pure\s+|plain\s+)?$")
"""A thing named after one of these is where the clause is set, not what it is about: "in BF16
the updates are huge" says it of the updates."""


_STRONG = frozenset(
    {"tiny", "negligible", "minuscule", "huge", "enormous", "massive", "vast", "plenty", "lots"}
)
"""Words that say a great deal or very little, as the card's text must to be read for a degree
("updates are tiny relative to the weights"; "almost no dynamic range", `_SCANT`)."""


def _within(at: int, spans: Sequence[tuple[int, int]]) -> bool:
    """Does the character at `at` fall inside one of `spans`?"""
    return any(a <= at < b for a, b in spans)


def _degrees(
    answer: _Answer, asked: frozenset[str], strong: bool = False
) -> list[tuple[int, int, int, str, int]]:
    """What each clause says there is a lot or little of, as (sentence, position of the degree
    word, position of the thing, the thing, +1 a lot / -1 little): "tiny updates" and "updates
    are tiny" (update, -1), "plenty of dynamic range" and "more dynamic range" (dynamic and
    range, +1), "almost no dynamic range" (-1). A clause that names first another thing than
    the card asks about ("BF16 has more range") says it of that thing, and is left out."""
    folded = _fold(answer.text)
    scant = [m.span() for m in _SCANT.finditer(folded)]
    plenty = [m.span() for m in _PLENTY.finditer(folded)]
    named = partners()
    out = []
    for s, sentence in enumerate(answer.sentences):
        for p, tok in enumerate(sentence):
            scanty = _within(tok.start, scant)
            sign = (
                1
                if tok.word in _MORE
                or tok.word in _AMPLE
                or (tok.word == "much" and not tok.neg and _within(tok.start, plenty))
                else -1
                if tok.word in _LESS or (tok.neg and scanty)
                else 0
            )
            if not sign:
                continue
            if strong and folded[tok.start : tok.end] not in _STRONG and not scanty:
                continue
            clause = [q for q, t in enumerate(sentence) if t.clause == tok.clause]
            if any(
                sentence[q].word in named
                and sentence[q].word not in asked
                and (q == 0 or sentence[q - 1].word not in _THAN)
                and not _SETTING.search(folded, 0, sentence[q].start)
                for q in clause
                if q < p
            ):
                continue  # "BF16 has more range": said of the other thing
            before = p - 2 if p >= 2 and sentence[p - 1].word in _INTENSIFIERS else p - 1
            around = [q for q in (before, p + 1, p + 2) if q in clause]
            for q in around:
                t = sentence[q]
                if q == p + 2 and not (
                    _substantive(sentence[p + 1]) and sentence[p + 1].word not in GENERIC
                ):
                    continue  # two words on only through a word of substance ("more dynamic range")
                if (
                    _substantive(t)
                    and t.word not in GENERIC
                    and t.word not in asked
                    and t.word not in _MORE | _LESS | _AMPLE | _THAN
                    and t.word not in named
                ):
                    out.append((s, p, q, t.word, sign))
    return out


@lru_cache(maxsize=256)
def _card_degrees(question: str, *texts: str | None) -> dict[str, tuple[int, str]]:
    """What the card's text says there is a lot or little of, and never the other way, with the
    words that say it."""
    asked = _asked(question)
    text = " ".join(t for t in texts if t)
    read = _analyse(text)
    ways: dict[str, set[int]] = {}
    said: dict[str, str] = {}
    for _, _, _, thing, sign in _degrees(read, asked):
        ways.setdefault(thing, set()).add(sign)
    for s, p, q, thing, _ in _degrees(read, asked, strong=True):
        sentence = read.sentences[s]
        start, end = sentence[min(p, q)].start, sentence[max(p, q)].end
        said.setdefault(thing, _original_span(text, start, end))
    return {t: (w.pop(), said[t]) for t, w in ways.items() if len(w) == 1 and t in said}


def _degree_flags(card: Card, answer: _Answer) -> list[Flag]:
    """A thing the card's text says there is little of said to be ample, or the other way round:
    "FP8 has plenty of dynamic range" where the card says "8 bits has almost no dynamic range",
    "the updates are huge relative to the weights" where it says "updates are tiny relative to
    the weights". Only what the answer claims; a clause that names another thing first ("BF16
    has more range") is about that thing."""
    told = _card_degrees(card.question, card.answer, card.explanation, card.context)
    if not told:
        return []
    asked = _asked(card.question)
    for s, p, _, thing, sign in _degrees(answer, asked):
        way = told.get(thing)
        if way is None or way[0] == sign:
            continue
        if _unasserted(answer, s, (p,), condition=False) or _supposed(answer, s, (p,)):
            continue
        sentence = answer.sentences[s]
        says = (
            f"says there is {'plenty' if sign > 0 else 'very little'} of what the card's text"
            f" says there is {'very little' if sign > 0 else 'plenty'} of (“{way[1]}”)"
        )
        span = _original_span(answer.text, sentence[p].start, sentence[p].end)
        return [Flag("reversed", says, span, "degree")]
    return []


_UP_WORDS = frozenset({"abov", "mor", "increas", "over", "exceed", "up"})
_DOWN_WORDS = frozenset({"decreas", "below", "down", "under", "decay", "divid", "drop"})
"""Said beside a share or a multiple: "10% above" is more, "10x lower" a tenth."""


def _gives(
    card_nums: Sequence[tuple[float, float, str]], span: tuple[float, float], kind: str
) -> bool:
    """Does the card's text give this range in this unit (to float precision)?"""
    return any(k == kind and _same(span[0], lo) and _same(span[1], hi) for lo, hi, k in card_nums)


def _same(x: float, y: float) -> bool:
    return abs(x - y) < 1e-6 * max(1.0, abs(y))


def _show_unit(lo: float, hi: float, kind: str) -> str:
    span = f"{lo:g}" if lo == hi else f"{lo:g}-{hi:g}"
    return span + kind


def _closest(sentence: Sequence[_Tok], words: frozenset[str]) -> tuple[int, ...] | None:
    """The positions of all `words` in one clause, closest together (None: not all there, or
    spread over more than two words more than they number)."""
    where = {w: [p for p, t in enumerate(sentence) if t.word == w] for w in words}
    if not all(where.values()):
        return None
    best: tuple[int, ...] | None = None
    for anchor in where[min(words)]:
        chosen = sorted(min(ps, key=lambda p: abs(p - anchor)) for ps in where.values())
        if len({sentence[p].clause for p in chosen}) != 1:
            continue
        if chosen[-1] - chosen[0] <= len(words) + 2 and (
            best is None or chosen[-1] - chosen[0] < best[-1] - best[0]
        ):
            best = tuple(chosen)
    return best


def _outweighed(hit: _Hit | None, against: _Hit | None) -> bool:
    """A key point matched by a weaker phrase while a stronger one is denied in a main clause.

    "activations don't grow with batch size" matches `activations` but denies `activations ..
    grow .. batch`: the answer states the opposite of the point, so it is a contradiction.
    """
    if hit is None or hit.negated or against is None:
        return False
    return len(against.positions) > len(hit.positions)


def _in_order(choices: Sequence[Sequence[tuple[int, int]]]) -> bool:
    """Can each point be given one of its places, (sentence, position) sorted, so that they run
    in order? (Greedy: each point takes its earliest place after the one before.)"""
    last = (-1, -1)
    for options in choices:
        later = [at for at in options if at > last]
        if not later:
            return False
        last = later[0]
    return True


def _misordered_in_a_sentence(places: Sequence[Sequence[tuple[int, int]]]) -> bool:
    """Does one sentence name three or more of the sequence's points, all of those the answer
    names, with no choice of their places in it that runs in order? That sentence states the
    order ("plateau first, then warmup, then the descent"), and a mention of a point in a later
    sentence does not undo it."""
    if len(places) < 3:
        return False
    sentences = {s for point in places for s, _ in point}
    return any(
        all(in_s := [[at for at in point if at[0] == s] for point in places])
        and not _in_order(in_s)
        for s in sentences
    )


def _order_flags(rubric: Rubric, starts: dict[str, tuple[int, int]], view: _View) -> list[Flag]:
    present = [pid for pid in rubric.order if pid in starts]
    seq = [starts[pid] for pid in present]
    if all(a < b for a, b in zip(seq, seq[1:], strict=False)):
        return []
    if "order.any" not in disabled():
        # each point's places, the first of each phrase in each sentence: the answer may name a
        # point in passing before it runs through the sequence ("falls hard ... a quick early fall")
        points = {p.id: p for p in rubric.points}
        places = [placements(view, _valid(points[pid].match)) for pid in present]
        if _in_order(places) and not _misordered_in_a_sentence(places):
            return []
    says = "out of order: should be " + " -> ".join(rubric.order)
    first = min(seq)
    last = max(seq)
    sentences = view.answer.sentences
    start = sentences[first[0]][first[1]].start
    end = sentences[last[0]][last[1]].end
    return [Flag("order", says, _original_span(view.answer.text, start, end), "order")]


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


CASE_RULES = (
    "case.asked",
    "case.evaluated",
    "case.quoted",
    "case.verdict-after",
    "case.paired",
    "case.fronted",
    "case.outdone",
    "case.warned",
    "case.unless",
    "case.stance",
)
"""The case's own rules for red flags, by id, each can be turned off for an ablation run."""

_AFFIRMED = re.compile(
    r"[\s\W]*(?:(?:honestly|frankly|truthfully|well|sadly|unfortunately|in short|short answer)"
    r"[\s,:]+)?(?:yes|yeah|yep|yup|sure|definitely|absolutely|certainly|of course|indeed|probably"
    r"|most likely|likely|i would|i'd|we would|we'd|i will|i'll|for sure)\b"
)
_SUGGESTED = re.compile(
    r"[\s\W]*(?:why not|why don'?t|how about|what about|shouldn'?t|should we|could we|can we"
    r"|maybe|perhaps|possibly"
    r"|couldn'?t we|wouldn'?t it|isn'?t it)\b"
)


# a question in the first person that proposes: "I'd probably just restart from the
# beginning to be safe, maybe?", "I'm thinking maybe a bigger batch would smooth it out?"
_PROPOSED = re.compile(
    r"\b(?:i|we)(?:'d|'ll| would| will| should| might)\b(?! not\b| never\b)"
    r"|\b(?:i think|i'm thinking|i am thinking|i guess|i reckon|i suppose)\b"
)


_CLAUSE_OPEN = re.compile(
    r"(?:^|[.;:!?,(\n]|\s-\s)\W*(?:(?:and|but|also|so|plus|just|simply|only|even|a|an|the|any"
    r"|this|that|such|some|my|your)\s+)*(?:[a-z]+ing\s+(?:(?:a|an|the|it|on|to)\s+)?"
    r"|(?:motion|idea|suggestion|proposal|notion|option|temptation|urge|instinct|theory|thought"
    r"|talk|call|push|pitch|plan)\s+(?:to|of|that)\s+(?:(?:a|an|the)\s+)?)?$"
)
# an aside between the idea and its judgement: "blaming bit flips, though, would be a cop-out"
_ASIDE = r"(?:\s*,\s*(?:though|however|honestly|frankly|then|too|imo|i think|i'd say)\s*,)?"
_COPULA = re.compile(
    _ASIDE + r"\s+(?:[a-z0-9'-]+\s+){0,3}?(?:is|are|was|were|'s|'re|would be|will be|seems?|sounds?"
    r"|feels?|looks?)\s+([^.;:!?,\n]*)"
)
_AFFIRMING = re.compile(
    r"\b(?:cause|causes|culprit|reason|explanation|answer|fix|solution|remedy|way|move|option"
    r"|call|plan|best|safest|safe|simplest|cleanest|right|correct|likely|probable|probably"
    r"|blame|responsible|enough|sufficient|all (?:it|you|we|that)|necessary|needed|required"
    r"|warranted|justified"
    r"|worth|fine|ok|okay|good|great|smart|wise|sensible|standard|usual|typical|fault|behind"
    r"|first|how|what|default|go-to|better|real|true|certain|definitely|clearly|obviously"
    r"|happening|the one|possible|plausible|candidate|suspect|contender)\b"
    r"|^\s*(?:it|all)\s*$"  # "lower the LR, that's it" (or "that's all"): all it takes
)


_POOR = re.compile(
    r"\b(?<!not )(?<!n't )(?:shallow|weak|poor|naive|incomplete|half|wrong|bad|lazy|insufficient"
    r"|inadequate)\b|\bnot (?:the|a|an|enough|sufficient)\b"
)
"""A judgement that finds the idea wanting, whatever it calls it: "... is shallow answer", "...
is the wrong call" ("... is not bad" finds nothing wanting)."""


_LINK = r"(?!(?:and|or|but|nor|so|then|because|which|that|while|if|when|as)\b)"
_NEGATED = re.compile(
    _ASIDE
    + r"\s+(?:"
    + _LINK
    + r"[a-z0-9'-]+\s+){0,3}?(?:(?:and|or)\s+[a-z]+ing\s+(?:"
    + _LINK
    + r"[a-z0-9'-]+\s+){0,4}?)?(?:[a-z]+n't|(?:is|are|was|were|do|does|did|will|would|can"
    r"|could|should|may|might|must|has|have)\s+(?:not|never)|never|cannot|[a-z]+nae)\s+"
    r"([^.;:!?,\n]*)"
)
_LIMITED = re.compile(
    _ASIDE
    + r"\s+(?:"
    + _LINK
    + r"[a-z0-9'-]+\s+){0,2}?(?:would|will|could|can|might|may|'d|'ll)\s+(?:only|merely)"
    + r"\s+([^.;:!?,\n]*)"
)
_RESUMED = re.compile(
    r"(?:\s+"
    + _LINK
    + r"[a-z0-9'-]+){0,3}?\s*,\s*(?:(?P<doubt>(?:i|we)\s+(?:don't|do not|doubt)\s+"
    r"(?:think|believe|reckon|expect|suppose)\s+(?:that\s+|it\s+|this\s+)?)"
    r"|(?:that|it|this)(?='|\s))(?P<said>[^.;:!?,\n]*)"
)
# what a negation turns round into a yes: "... wouldn't hurt", "... isn't a bad idea",
# "... can't be ruled out"
_TURNED = re.compile(
    r"\b(?:hurt|hurts|harm|harms|bad|wrong|mistake|crazy|mad|silly|unreasonable|excluded"
    r"|ruled|discounted|dismissed|ignored|unlikely|rare|impossible|out of the question)\b"
)


def _evaluated(view: _View, hit: _Hit) -> bool:
    """A red-flag idea as the subject of a judgement, not put forward: "Restarting from scratch
    is throwing the baby out with the bathwater", "a bigger batch would be a sledgehammer",
    "bumping the batch size wouldn't do anything", "lowering the LR alone, I don't think that
    will be enough". The idea opens its clause and a copula, a negated verb, or a comma and a
    pronoun that takes it up follows it; the answer judges it rather than proposes it, unless
    the judgement affirms it ("... is the safest fix", "bit flips are the likely cause", "...
    is all it takes") or its negation does ("... wouldn't hurt", "... can't be ruled out"). (A
    judgement the grader knows the words of, "a waste", "rarely", is read as a dismissal before
    this.)"""
    if "case.evaluated" in disabled():
        return False
    sentence = view.answer.sentences[hit.sentence]
    first = sentence[min(hit.positions)]
    folded = view.folded
    if not _CLAUSE_OPEN.search(folded, 0, first.start):
        return False
    last = sentence[max(hit.positions)]
    if _judged_after(folded, last.end):
        return True
    # "lowering the LR alone, I don't think that will be enough": the phrase reaches into the
    # judgement, which follows the words of its first clause
    opening = max(p for p in hit.positions if sentence[p].clause == first.clause)
    return sentence[opening] is not last and _resumed(folded, sentence[opening].end)


_QUOTED = re.compile(
    r"(?<![\w'])(?!'(?:twas|tis|twere|twill|em|cause|cos|til|bout|round|n'|nuff|kay)\b)(['\"])"
    r"(?=\S)((?:[^'\"\n]|(?<=\w)'(?=\w)){2,120}?)(?<=\S)\1(?!\w)"
)
"""A span in quotation marks; an apostrophe inside a word ("it'll") or opening an elided one
("'Twas", "'cause") is no quotation mark."""


def _quoted(view: _View, hit: _Hit, judged: bool = False) -> bool:
    """A red-flag idea inside quotation marks is named, not put forward: "if a student wrote
    'just lower the LR' I'd give it a D", "'it's cosmic rays' is cope". Unless a judgement
    after the quote affirms it ("'restart from scratch' is the safest fix"); one that denies
    ("'hardware glitch' is not an accepted root cause") does not. With `judged` (a case part's
    step), the quote counts only when a judgement follows it: "then 'lower the LR' and clip"
    names the step, "an A/B whose only arm is 'lower the LR' isn't a test" does not."""
    if "case.quoted" in disabled():
        return False
    sentence = view.answer.sentences[hit.sentence]
    first = min(hit.positions)
    rest = [p for p in hit.positions if p != first]
    # "an A/B whose only arm is 'lower the LR'": a qualifier outside the quote frames the idea
    inner = sentence[min(rest)].start if rest and sentence[first].word in _QUALIFIERS else None
    start, end = sentence[first].start, sentence[max(hit.positions)].end
    folded = view.folded
    for quote in _QUOTED.finditer(folded):
        framed = inner is not None and start < quote.start() < inner
        if (quote.start() < start or framed) and end < quote.end():
            if _AGREED.match(folded, quote.end()):
                return False  # "'increase the batch' ... I'd go with that": taken up
            copula = _COPULA.match(folded, quote.end())
            if copula is None:  # "only 'lower the LR' works" puts it forward
                return not (framed or judged) or _judged_after(folded, quote.end())
            return (
                _POOR.search(copula.group(1)) is not None
                or _DENIED_JUDGEMENT.match(copula.group(1)) is not None
                or not _AFFIRMING.search(copula.group(1))
            )
    return False


_QUALIFIERS = frozenset({"only", "just", "simply", "solely", "merely"})
"""A word that frames a quoted idea from outside the quote ("the only arm is 'lower the LR'")."""

_AGREED = re.compile(
    r"[\s.,;:!-]*(?:and |so |which )?(?:i(?:'d| would| will|'ll)? (?:go with|agree with|back"
    r"|second|buy|take) (?:that|it|this|them|him|her)\b|i (?:agree|agreed|concur)\b|agreed\b"
    r"|(?:that's|that is|which is|and it's) (?:right|correct|true|spot on)\b|spot on\b|exactly\b)"
)
"""Agreement right after a quote: the quoted idea is taken up ("'increase the batch size.' I'd
go with that", "... and I agree", "spot on")."""


_DENIED_JUDGEMENT = re.compile(
    r"(?:not|never|no|hardly|nowhere near)\b(?!\s+(?:only|just|merely)\b)"
)
"""A judgement after a quote that denies what it names: "'hardware glitch' is not an accepted
root cause", "'start over' is never the fix" (but "is not only the cause" affirms)."""


_COSTS = re.compile(
    _ASIDE + r"\s+(?:[a-z0-9'-]+\s+){0,2}?(?:would\s+|will\s+|just\s+)?(?:throws?|throwing"
    r"|threw) away|\s+(?:[a-z0-9'-]+\s+){0,2}?(?:would\s+|will\s+|just\s+)?(?:wastes?|burns?"
    r"|costs?|forfeits?|sacrifices?|squanders?|bins?)\s+(?!nothing|little|no\b)"
)
"""A cost said of the idea before it: "starting over from scratch throws away weeks of edge"."""


def _judged_after(folded: str, end: int) -> bool:
    """Whether the words after `end` judge what comes before (see `_evaluated`)."""
    if _COSTS.match(folded, end):
        return True
    copula = _COPULA.match(folded, end)
    if copula is not None:
        said = copula.group(1)
        return _POOR.search(said) is not None or not _AFFIRMING.search(said)
    negated = _NEGATED.match(folded, end)
    if negated is not None:
        return not _TURNED.search(negated.group(1))
    limited = _LIMITED.match(folded, end)  # "... would only treat a symptom"
    if limited is not None:  # ... but "... will only help" is for it
        said = limited.group(1)
        return not _AFFIRMING.search(said) and not re.match(r"(?:help|work|improve)", said)
    return _resumed(folded, end)


def _resumed(folded: str, end: int) -> bool:
    """Whether a comma and a pronoun that takes up what comes before `end` judge it."""
    resumed = _RESUMED.match(folded, end)
    if resumed is None:
        return False
    said = resumed.group("said")
    if resumed.group("doubt"):
        return not _TURNED.search(said)  # "..., I don't think that will be enough"
    if _REFUSED_BY_ME.match(said):
        return True  # "..., that one I'd avoid", "..., that I would skip"
    return _judged_after(" " + said.lstrip(), 0) if said else False


_REFUSED_BY_ME = re.compile(
    r"\s*(?:one\s+)?(?:i|we)(?:'d|'ll| would| will| should)?\s+(?:[a-z]+ly\s+)?(?:avoid|skip"
    r"|pass on|rule out|never|not|wouldn't|won't|don't|steer clear)\b"
)


def _unasked(view: _View) -> _View:
    """The answer as a case's red flags read it: a red-flag idea only asked about ("Restart from
    scratch? Quatsch.", "Bit flips?? In this economy?") is not put forward. A question counts
    when it suggests ("why not just restart?") or its reply takes it up ("Restart? Yes, I
    would"); a reply that turns it down is read as before (grill.grader.scope)."""
    sentences = view.answer.sentences
    if not any(sentences) or "case.asked" in disabled():
        return view
    folded = view.folded
    asked: set[int] = set()
    for s, sentence in enumerate(sentences):
        if not sentence:
            continue
        start = sentences[s - 1][-1].end if s and sentences[s - 1] else 0
        end = next((n[0].start for n in sentences[s + 1 :] if n), len(folded))
        gap = folded[sentence[-1].end : end]
        if "?" not in gap:
            continue
        reply = folded[sentence[-1].end + gap.index("?") + 1 :]
        if (
            _SUGGESTED.match(folded, start)
            or _PROPOSED.search(folded, start, sentence[-1].end)
            or _AFFIRMED.match(reply)
        ):
            continue
        asked.add(s)
    cut = {
        s: at for s, sentence in enumerate(sentences) if (at := _verdict_after(folded, sentence))
    }
    if not asked and not cut:
        return view
    out = copy.copy(view)
    out.index = [
        {}
        if s in asked
        else {w: [p for p in ps if p >= cut[s]] for w, ps in idx.items()}
        if s in cut
        else idx
        for s, idx in enumerate(view.index)
    ]
    out.numbers = [
        [] if s in asked else [p for p in nums if p >= cut.get(s, 0)]
        for s, nums in enumerate(view.numbers)
    ]
    return out


_VERDICT_MARK = re.compile(r"\s+(?:-|\u2013|\u2014|=)\s+$|\s*:\s+$")
_VERDICT_AFTER_WORDS = 4
"""The words of a verdict after a dash, colon or `=` that can turn down what comes before it."""
_VERDICT_JUDGED = re.compile(
    r"(?:not|no|never)\s+(?:(?:really|even|at all|remotely)\s+)?(?:worth|an option|the answer"
    r"|a fix|the fix|a solution|the solution|happening|likely|needed|necessary|warranted|justified"
    r"|advisable|recommended|wise|smart|sensible|a good idea|useful|helpful|on|for me|for us)\b"
)
"""How a longer verdict opens when it judges what comes before ("- not worth it, ..."), as
against a new claim that opens with a negator ("- no need to touch clipping")."""


def _verdict_after(folded: str, sentence: Sequence[_Tok]) -> int:
    """Rule case.verdict-after: a sentence that ends on a short verdict after a dash, colon or
    `=` ("9) bigger batch to smooth things out - not worth it", "bigger bs = lol no") puts
    forward nothing before it when the verdict opens with a negator, ends on one or dismisses,
    as a question's short reply does; "... - yes", "... - no doubt" affirm. The position the
    verdict starts at, or 0."""
    if "case.verdict-after" in disabled() or len(sentence) < 2:
        return 0
    for at in range(1, len(sentence)):
        if not _VERDICT_MARK.search(folded[sentence[at - 1].end : sentence[at].start]):
            continue
        reply = folded[sentence[at].start : sentence[-1].end]
        if _AFFIRMED.match(reply) or _NO_DOUBT.match(reply):
            return 0
        short = len(sentence) - at <= _VERDICT_AFTER_WORDS
        # a longer verdict gives its reason after it ("- not worth it without an ECC error");
        # "- no need to touch clipping" says something new
        tail = (
            sentence[at:]
            if short
            else [
                t
                for t in sentence[at : at + _VERDICT_AFTER_WORDS]
                if t.clause == sentence[at].clause
            ]
        )
        opens = (any(denies(c) for c in tail[0].cues) or tail[0].neg == 1) and (
            short or _VERDICT_JUDGED.match(reply) is not None
        )
        ends = short and (any(denies(c) for c in tail[-1].cues) or tail[-1].neg == 1)
        dismissed = any(dismisses(c) for t in tail for c in t.cues)
        if opens or ends or dismissed:
            return at
        if short:
            return 0
    return 0


_OUTDONE = re.compile(
    r"\b(?:beats?|trumps?|(?:is |are |works )?better than|outperforms?|wins? over|prefer(?:red|s)?"
    r" [a-z0-9 -]{1,30}? (?:over|to))\s+(?:(?:just|simply|merely|only)\s+)?$"
)


def _outdone(view: _View, hit: _Hit) -> bool:
    """Rule case.outdone: a red-flag idea that something else beats ("clipping beats just
    lowering the LR every time", "I'd prefer a rollback over a restart from scratch") is the
    loser of the comparison, not put forward."""
    if "case.outdone" in disabled():
        return False
    sentence = view.answer.sentences[hit.sentence]
    first = hit.positions[0]
    start = sentence[0].start if first else 0
    return _OUTDONE.search(view.folded, start, sentence[first].start) is not None


_SUPPOSED = re.compile(
    r"\W*(?:(?:and|but|so|now|look|see)\W+)?(?:if|when|once|say)\s+(?:you|we|they|someone"
    r"|anyone|somebody|people|a team|the team|i|he|she)\b[^,;:]*$"
)
_BAD_OUTCOME = re.compile(
    r"\b(?:be back|come back|comes back|coming back|came back|recurs?|returns?|lose|loses|losing"
    r"|lost|waste|wastes|wasted|wasting|burn|burns|burned|burnt|throw away|throws away|thrown"
    r"|threw away|regret|fixed nothing|fix nothing|fixes nothing|solved nothing|solves"
    r" nothing|mask|masks|masked|masking|hide|hides|hid|hidden|paper over|papers over"
    r"|papered over|(?:spikes?|spiking|blows? up|happens?|diverges?|explodes?) again)\b"
)


def _warned(view: _View, hit: _Hit) -> bool:
    """Rule case.warned: a red-flag idea supposed in a sentence's opening condition, whose main
    clause says what goes wrong ("If you only lowered the LR and walked away, you'd be back in
    my office next week", "if we restart from scratch, we lose three weeks") is a warning
    against it, not put forward. The idea in the main clause ("if it spikes again, restart
    from scratch") is not supposed."""
    if "case.warned" in disabled():
        return False
    sentence = view.answer.sentences[hit.sentence]
    folded = view.folded
    first, last = sentence[min(hit.positions)], sentence[max(hit.positions)]
    start = max(folded.rfind(mark, 0, first.start) for mark in ".!?\n") + 1
    if not _SUPPOSED.match(folded, start, first.start):
        return False
    end = min((i for i in (folded.find(m, last.end) for m in ".!?\n") if i >= 0), default=None)
    end = len(folded) if end is None else end
    comma = folded.find(",", last.end, end)
    return comma >= 0 and _BAD_OUTCOME.search(folded, comma, end) is not None


def _excused(view: _View, hit: _Hit, flag: Point) -> bool:
    """Rule case.unless: a red flag said in a sentence that also says what its `unless` names
    ("I'll consider cosmic rays when someone shows me an ECC error log", "long odds against
    bit flips unless there's evidence") is not the flag: a flag defined "without evidence" is
    not raised beside the evidence. Evidence denied ("without evidence") excuses nothing."""
    if not flag.unless or "case.unless" in disabled():
        return False
    # a question's reply says it too: "Bit flips? Only the day someone hands me an ECC log."
    sentences = view.answer.sentences
    here = {hit.sentence}
    nxt = hit.sentence + 1
    if nxt < len(sentences) and sentences[nxt] and sentences[hit.sentence]:
        if "?" in view.folded[sentences[hit.sentence][-1].end : sentences[nxt][0].start]:
            here.add(nxt)
    only = copy.copy(view)
    only.index = [idx if s in here else {} for s, idx in enumerate(view.index)]
    only.numbers = [n if s in here else [] for s, n in enumerate(view.numbers)]
    said = _match_point_phrases(only, _valid(flag.unless), strict=False)
    return said is not None and not said.negated


_PAIRED = re.compile(r"\s+(?:(?:it|them|that|this|things)\s+)?(?:and|or)\s+")


def _paired(view: _View, hit: _Hit) -> bool:
    """Rule case.paired: a red-flag idea whose verb follows a bare `and` or `or` after a clause
    with a negated verb, or another person's idea reported, shares its negation ("I would not
    scuttle the run and start from scratch", "you don't cancel the wedding and start from
    scratch"); with a subject of its own after the `and` ("..., and we restart from scratch")
    it is a claim of its own."""
    if "case.paired" in disabled():
        return False
    sentence = view.answer.sentences[hit.sentence]
    clause = sentence[hit.positions[0]].clause
    first = next(p for p, t in enumerate(sentence) if t.clause == clause)
    if first == 0:
        return False
    gap = view.folded[sentence[first - 1].end : sentence[first].start]
    if not _PAIRED.fullmatch(gap):
        return False
    before = sentence[first - 1].clause
    return any(
        t.clause == before and (_negated_verb(t) or _reported(t) or _no_reason(sentence, p))
        for p, t in enumerate(sentence[:first])
    )


_NO_REASON = frozenset("reason need point call excus justif sens cause".split())
"""After a negator, the nouns whose infinitive is the act turned down: "it's not a reason to
nuke the run and retrain", "no call to scrap it and relaunch"."""


def _no_reason(sentence: Sequence[_Tok], p: int) -> bool:
    """A negator right before one of `_NO_REASON` and its `to` ("not a reason to ...")."""
    if sentence[p].neg != 1 or p + 2 >= len(sentence):
        return False
    return sentence[p + 1].word in _NO_REASON and sentence[p + 2].word == "to"


def _negated_verb(tok: _Tok) -> bool:
    return tok.neg == 1 and tok.verbal


def _reported(tok: _Tok) -> bool:
    """The mark reported speech leaves (grill.grader.text: "my manager wrongly wanted to scrap
    it"): the idea is another person's."""
    return tok.word == "wrong" and "dismissal" in tok.cues


_FRONTED = re.compile(
    r"(?:(?!\b(?:and|but|so|then|or|because|if)\b)[\w\s']){0,24}?\b(?:i|we)(?:'d|'ll| would"
    r"| will| should)?\s+(?:[a-z]+ly\s+)?(?:skip|avoid"
    r"|pass on|rule out|leave out|steer clear of|not (?:do|touch|bother with|try)|never (?:do"
    r"|touch|try))\b"
)


_SUBJECT = re.compile(r"\b(?:i|we|you|they|he|she|i'd|we'd|you'd|they'd|let's)\b")


def _fronted(view: _View, hit: _Hit) -> bool:
    """Rule case.fronted: a red-flag idea that opens its clause and is then turned down by the
    speaker in the same clause, the idea put first ("Increasing the batch to smooth it I would
    skip", "restarting from scratch we'd never do") is the object of the refusal."""
    if "case.fronted" in disabled():
        return False
    sentence = view.answer.sentences[hit.sentence]
    first, last = hit.positions[0], hit.positions[-1]
    if any(t.clause == sentence[first].clause for t in sentence[:first]):
        return False  # something comes before the idea in its clause: it is not put first
    start = sentence[first - 1].end if first else 0
    if _SUBJECT.search(view.folded, start, sentence[first].start):
        return False  # "we restart from scratch and ...": the idea has its subject
    return _FRONTED.match(view.folded, sentence[last].end) is not None


_NO_DOUBT = re.compile(r"\W*no (?:doubt|question|brainer)\b|\W*no-brainer\b")


_NOT_ONLY = re.compile(
    r"(?i)(?:\b(?:not|never|dont|doesnt|didnt|wont|cant|shouldnt)|n['’]t)"
    r"\s+(?:just|only|simply|merely|solely)\b"
)
"""An answer that says "not just X" says X is not the whole answer."""


def case_phrases(case: Case) -> tuple[str, ...]:
    """Every phrase a case is read by: its parts' items and red flags, with what excuses them."""
    return tuple(
        ph
        for point in (*(i for p in case.parts for i in p.items), *case.red_flags)
        for ph in (*point.match, *point.unless)
    )


def red_flag_hits(case: Case, flag_view: _View) -> Iterable[tuple[Point, _Hit | None, bool]]:
    """Each red flag of `case`, where its phrases first say it in the answer (None: nowhere),
    and whether the hand-written case rules read that as putting the idea forward."""
    for flag in case.red_flags:
        hit = _match_point_phrases(flag_view, _valid(flag.match), strict=True)
        # a flag that is itself a negation ("no need to touch clipping"), dismissed ("...,
        # that's overkill"): the dismissal says it again
        agreed = (
            hit is not None
            and hit.negated
            and hit.rule in ("refusal", "dismissal")
            and any(flag_view.answer.sentences[hit.sentence][p].neg for p in hit.positions)
        )
        if agreed and hit is not None:
            hit = replace(hit, negated=False, rule="")
        rules = (
            hit is not None
            and not hit.negated
            and (agreed or not _evaluated(flag_view, hit))
            and not _quoted(flag_view, hit)
            and not _paired(flag_view, hit)
            and not _fronted(flag_view, hit)
            and not _outdone(flag_view, hit)
            and not _warned(flag_view, hit)
            and not _excused(flag_view, hit, flag)
        )
        yield flag, hit, rules


def _says_needed(view: _View, flag: Point) -> bool:
    """A red flag with `needs` counts only in an answer that says one of those phrases."""
    return not flag.needs or _match_point_phrases(view, _valid(flag.needs), False) is not None


def grade_case(case: Case, answer: str) -> CaseGrade:
    """Judge an open-ended case answer: parts covered, red flags, the standard's case verdict."""
    analysed = _analyse(answer)
    if _is_idk(analysed, answer):
        parts = tuple(PartGrade(p.id, False, (), p.items) for p in case.parts)
        return CaseGrade(case.id, Verdict.WRONG, 0.0, parts, (), answer)
    view = _view(analysed, case_phrases(case))
    graded: list[PartGrade] = []
    for part in case.parts:
        hits = []
        for item in part.items:
            hit = _match_point_phrases(view, _valid(item.match), strict=False)
            if (
                hit is not None
                and not hit.negated
                and not _evaluated(view, hit)
                and not _quoted(view, hit, judged=True)
            ):
                hits.append(item)
        missed = tuple(i for i in part.items if i not in hits)
        graded.append(PartGrade(part.id, len(hits) >= part.need, tuple(hits), missed))
    flags = []
    named = {i.id: i for p in graded for i in p.items}
    flag_view = _unasked(view)
    learned = "case.stance" not in disabled()
    for flag, hit, rules in red_flag_hits(case, flag_view):
        if (
            hit is not None
            and rules
            and _says_needed(view, flag)
            and (not learned or stance.committed(flag_view, hit, rules, flag.id))
        ):
            flags.append(Flag(flag.id, flag.says, _hit_text(view, hit)))
        elif (
            flag.alone
            and flag.alone[0] in named
            and set(named) <= set(flag.alone)
            and not _NOT_ONLY.search(answer)  # "don't just lower the LR": not the whole answer
        ):
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
