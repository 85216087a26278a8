"""The labelled answer sets for the recall grader are well formed and follow the standard's rules.

`tests/grading/dev.jsonl` tunes the grader; `tests/grading/dev2.jsonl` is a second tuning set,
written independently of the rubrics; `tests/grading/dev3.jsonl` is a third tuning set of verbose
answers whose traps each bury one false claim; `tests/grading/dev4.jsonl` is a fourth, with three
subtle traps per card, and `tests/grading/dev5.jsonl` a fifth, whose correct answers often reject a
wrong idea first; `tests/grading/holdout.jsonl`, `holdout2.jsonl` and `holdout3.jsonl` only
measure it, and `fresh1.jsonl` measured it at first contact, in voices none of the others use,
as `fresh5.jsonl` to `fresh8.jsonl` do for writers blind to the grader and the other sets.
These tests check what can be checked without a grader: every line parses, every card exists,
kinds and labels agree, each card has enough answers (and, in dev, every kind; in dev2, at least
two traps; in dev3, at least three), the loss-spike case follows the case rule, and no answer is
shared between the sets (a shared answer would leak the holdout into tuning).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

from grill.deck import load_library

GRADING = Path(__file__).parent / "grading"
CASE_ID = "spike"
KIND_LABEL = {
    "paraphrase": "correct",
    "terse": "correct",
    "partial": "partial",
    "trap": "wrong",
    "offtopic": "wrong",
}
PARTS = ("culprits", "triage", "prevention")
RED_FLAGS = ("restart_from_scratch", "blame_bitflips", "only_lower_lr", "increase_batch_size")
MIN_PER_CARD = {
    "dev": 6,
    "dev2": 5,
    "dev3": 4,
    "dev4": 6,
    "dev5": 5,
    "holdout": 3,
    "holdout2": 5,
    "holdout3": 4,
    "fresh1": 3,
    "fresh2": 3,
    "fresh3": 3,
    "fresh4": 3,
    "fresh5": 3,
    "fresh6": 3,
    "fresh7": 3,
    "fresh8": 3,
    "fresh9": 3,
    "fresh10": 3,
    "fresh11": 3,
    "fresh12": 3,
    "fresh13": 3,
    "fresh14": 3,
    "fresh15": 3,
    "fresh16": 3,
    "fresh17": 3,
    "fresh18": 3,
    "fresh19": 3,
    "fresh20": 3,
    "fresh21": 3,
    "fresh22": 3,
    "fresh23": 3,
    "fresh24": 3,
    "fresh25": 3,
    "fresh26": 3,
    "fresh27": 3,
    "fresh28": 3,
    "fresh29": 3,
    "fresh30": 3,
    "fresh31": 3,
    "fresh32": 3,
    "fresh33": 3,
    "fresh34": 5,
    "fresh35": 5,
    "fresh36": 5,
    "fresh37": 5,
    "fresh38": 5,
    "fresh39": 5,
    "fresh40": 5,
    "fresh41": 5,
    "fresh42": 5,
    "fresh43": 5,
    "fresh44": 5,
    "fresh45": 5,
    "fresh46": 5,
    "fresh47": 5,
    "fresh48": 5,
    "fresh49": 5,
    "fresh50": 5,
    "fresh51": 5,
    "fresh52": 5,
    "fresh53": 5,
    "fresh54": 5,
    "fresh55": 5,
    "fresh56": 5,
    "fresh57": 5,
    "fresh58": 5,
    "fresh59": 5,
    "fresh60": 5,
    "fresh61": 5,
    "fresh62": 5,
    "fresh63": 5,
    "fresh64": 5,
    "fresh65": 5,
    "fresh66": 5,
    "fresh67": 5,
    "fresh68": 5,
    "fresh69": 5,
    "fresh70": 5,
    "fresh71": 5,
    "fresh72": 5,
    "fresh73": 5,
    "fresh74": 5,
    "fresh75": 5,
    "fresh76": 5,
    "fresh77": 5,
    "fresh78": 5,
    "fresh79": 5,
    "fresh80": 5,
    "fresh81": 5,
    "fresh82": 5,
    "fresh83": 5,
    "fresh84": 5,
    "fresh85": 5,
    "fresh86": 5,
    "fresh87": 5,
    "fresh88": 5,
    "fresh89": 5,
    "fresh90": 5,
    "fresh91": 5,
    "fresh92": 5,
    "fresh93": 5,
    "fresh94": 5,
    "fresh95": 5,
    "fresh96": 5,
    "fresh97": 5,
    "fresh98": 5,
    "fresh99": 5,
    "fresh100": 5,
    "fresh101": 5,
    "fresh102": 5,
    "fresh103": 5,
    "fresh104": 5,
    "fresh105": 5,
    "fresh106": 5,
    "fresh107": 5,
    "fresh108": 5,
    "fresh109": 5,
    "fresh110": 5,
    "fresh111": 5,
    "fresh112": 5,
    "fresh113": 5,
    "fresh114": 5,
    "fresh115": 5,
    "fresh116": 5,
    "fresh117": 5,
    "fresh118": 5,
}
SETS = tuple(MIN_PER_CARD)  # every set, each named once with its minimum
MIN_TRAPS_PER_CARD = {"dev2": 2, "dev3": 3, "dev4": 3, "dev5": 2}
MIN_CASE = {
    "dev": 10,
    "dev2": 10,
    "dev3": 8,
    "dev4": 12,
    "dev5": 10,
    "holdout": 6,
    "holdout2": 10,
    "holdout3": 8,
    "fresh1": 12,
    "fresh2": 12,
    "fresh3": 12,
    "fresh4": 12,
    "fresh5": 12,
    "fresh6": 12,
    "fresh7": 12,
    "fresh8": 12,
    "fresh9": 12,
    "fresh10": 12,
    "fresh11": 12,
    "fresh12": 12,
    "fresh13": 12,
    "fresh14": 12,
    "fresh15": 12,
    "fresh16": 12,
    "fresh17": 12,
    "fresh18": 12,
    "fresh19": 12,
    "fresh20": 12,
    "fresh21": 24,
    "fresh22": 24,
    "fresh23": 24,
    "fresh24": 24,
    "fresh25": 24,
    "fresh26": 24,
    "fresh27": 24,
    "fresh28": 24,
    "fresh29": 24,
    "fresh30": 24,
    "fresh31": 24,
    "fresh32": 24,
    "fresh33": 24,
    "fresh34": 24,
    "fresh35": 24,
    "fresh36": 24,
    "fresh37": 24,
    "fresh38": 24,
    "fresh39": 24,
    "fresh40": 24,
    "fresh41": 24,
    "fresh42": 24,
    "fresh43": 24,
    "fresh44": 24,
    "fresh45": 24,
    "fresh46": 24,
    "fresh47": 24,
    "fresh48": 24,
    "fresh49": 24,
    "fresh50": 24,
    "fresh51": 24,
    "fresh52": 24,
    "fresh53": 24,
    "fresh54": 24,
    "fresh55": 24,
    "fresh56": 24,
    "fresh57": 24,
    "fresh58": 24,
    "fresh59": 24,
    "fresh60": 24,
    "fresh61": 24,
    "fresh62": 24,
    "fresh63": 24,
    "fresh64": 24,
    "fresh65": 24,
    "fresh66": 24,
    "fresh67": 24,
    "fresh68": 24,
    "fresh69": 24,
    "fresh70": 24,
    "fresh71": 24,
    "fresh72": 24,
    "fresh73": 24,
    "fresh74": 24,
    "fresh75": 24,
    "fresh76": 24,
    "fresh77": 24,
    "fresh78": 24,
    "fresh79": 24,
    "fresh80": 24,
    "fresh81": 24,
    "fresh82": 24,
    "fresh83": 24,
    "fresh84": 24,
    "fresh85": 24,
    "fresh86": 24,
    "fresh87": 24,
    "fresh88": 24,
    "fresh89": 24,
    "fresh90": 24,
    "fresh91": 24,
    "fresh92": 24,
    "fresh93": 24,
    "fresh94": 24,
    "fresh95": 24,
    "fresh96": 24,
    "fresh97": 24,
    "fresh98": 24,
    "fresh99": 24,
    "fresh100": 24,
    "fresh101": 24,
    "fresh102": 24,
    "fresh103": 24,
    "fresh104": 24,
    "fresh105": 24,
    "fresh106": 24,
    "fresh107": 24,
    "fresh108": 24,
    "fresh109": 24,
    "fresh110": 24,
    "fresh111": 24,
    "fresh112": 24,
    "fresh113": 24,
    "fresh114": 24,
    "fresh115": 24,
    "fresh116": 24,
    "fresh117": 24,
    "fresh118": 24,
}


def load_set(name: str) -> list[dict[str, Any]]:
    rows = []
    path = GRADING / f"{name}.jsonl"
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        assert line.strip(), f"{path.name}:{n}: blank line"
        row = json.loads(line)
        assert isinstance(row, dict), f"{path.name}:{n}: not an object"
        rows.append(row | {"_where": f"{path.name}:{n}"})
    return rows


def case_label(parts: list[str], red_flags: list[str]) -> str:
    if red_flags or not parts:
        return "wrong"
    return "correct" if set(parts) == set(PARTS) else "partial"


@pytest.fixture(scope="module")
def card_ids() -> set[str]:
    return {card.id for card in load_library().cards()}


@pytest.mark.parametrize("name", SETS)
def test_every_row_is_well_formed(name: str, card_ids: set[str]) -> None:
    for row in load_set(name):
        where = row["_where"]
        is_case = row.get("card") == CASE_ID
        expected = {"card", "answer", "label", "kind", "_where"}
        if is_case:
            expected |= {"parts", "red_flags"}
        assert set(row) == expected, f"{where}: fields {sorted(row)}"
        assert is_case or row["card"] in card_ids, f"{where}: unknown card {row['card']!r}"
        assert isinstance(row["answer"], str), where
        assert row["kind"] in KIND_LABEL, f"{where}: kind {row['kind']!r}"
        assert row["label"] in ("correct", "partial", "wrong"), f"{where}: label {row['label']!r}"


@pytest.mark.parametrize("name", SETS)
def test_card_labels_follow_their_kind(name: str) -> None:
    for row in load_set(name):
        if row["card"] != CASE_ID:
            assert row["label"] == KIND_LABEL[row["kind"]], row["_where"]


@pytest.mark.parametrize("name", SETS)
def test_every_card_has_enough_answers(name: str, card_ids: set[str]) -> None:
    counts = Counter(row["card"] for row in load_set(name))
    thin = {cid: counts[cid] for cid in card_ids if counts[cid] < MIN_PER_CARD[name]}
    assert not thin, f"cards with too few {name} answers: {thin}"
    assert counts[CASE_ID] >= MIN_CASE[name]


@pytest.mark.parametrize("name", sorted(MIN_TRAPS_PER_CARD))
def test_every_card_has_enough_traps(name: str, card_ids: set[str]) -> None:
    traps = Counter(row["card"] for row in load_set(name) if row["kind"] == "trap")
    thin = {cid: traps[cid] for cid in card_ids if traps[cid] < MIN_TRAPS_PER_CARD[name]}
    assert not thin, f"cards with too few {name} traps: {thin}"


def test_dev_covers_every_kind_on_every_card(card_ids: set[str]) -> None:
    kinds: dict[str, set[str]] = defaultdict(set)
    for row in load_set("dev"):
        kinds[row["card"]].add(row["kind"])
    missing = {cid: sorted(set(KIND_LABEL) - kinds[cid]) for cid in card_ids}
    assert not {cid: m for cid, m in missing.items() if m}


def test_holdout_has_a_trap_on_every_card(card_ids: set[str]) -> None:
    with_trap = {row["card"] for row in load_set("holdout") if row["kind"] == "trap"}
    assert card_ids <= with_trap, sorted(card_ids - with_trap)


@pytest.mark.parametrize("name", SETS)
def test_case_answers_follow_the_case_rule(name: str) -> None:
    for row in load_set(name):
        if row["card"] != CASE_ID:
            continue
        parts, flags = row["parts"], row["red_flags"]
        assert set(parts) <= set(PARTS) and len(set(parts)) == len(parts), row["_where"]
        assert set(flags) <= set(RED_FLAGS) and len(set(flags)) == len(flags), row["_where"]
        assert row["label"] == case_label(parts, flags), row["_where"]


@pytest.mark.parametrize("name", ["dev", "dev2", "dev3", "dev4", "dev5"])
def test_tuning_case_answers_show_every_verdict_and_red_flag(name: str) -> None:
    case = [row for row in load_set(name) if row["card"] == CASE_ID]
    assert {row["label"] for row in case} == {"correct", "partial", "wrong"}
    assert {flag for row in case for flag in row["red_flags"]} == set(RED_FLAGS)


def test_case_rule_covers_each_verdict() -> None:
    assert case_label(list(PARTS), []) == "correct"
    assert case_label(["triage"], []) == "partial"
    assert case_label([], []) == "wrong"
    assert case_label(list(PARTS), ["blame_bitflips"]) == "wrong"


def test_no_answer_appears_twice_across_the_sets() -> None:
    seen: dict[str, str] = {}
    for name in SETS:
        for row in load_set(name):
            text = " ".join(row["answer"].lower().split())
            assert text not in seen, f"{row['_where']} repeats {seen.get(text)}"
            seen[text] = row["_where"]
