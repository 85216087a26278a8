"""The review log as exported, defined once: its fields, in order, with the CSV column and the
SQL each is read with. The JSON report's objects and the CSV report's rows are both made from
this table, whether Python writes them (`LogRow`s, a short log) or SQLite does
(`Store.export_log`, a long one): the SQL here is the same format, written for SQLite.

A field is named as the JSON key (and the `LogRow` attribute); the CSV column is the same name,
but for `reviewed_at`. Times are UTC ISO-8601 as `datetime.isoformat()` writes them
(microseconds only when not zero); rating and verdict are labels; a missing value is JSON null
and an empty CSV cell. A text cell in CSV is neutralised as `csvlog.neutralise` does it (a
leading apostrophe before what a spreadsheet would evaluate), then quoted as csv.writer quotes
(QUOTE_MINIMAL, CRLF lines).

    FIELDS                              the table
    LogRow(...).values() / .to_dict()   one review in Python, the fields in order
    json_sql() / csv_sql()              SQL for one review as a JSON object / a CSV row
    json_around(indent) / CSV_AROUND    what goes around the reviews of a chunk (export_log)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from grill.clock import to_utc
from grill.model import Rating, Verdict

__all__ = [
    "CSV_AROUND",
    "FIELDS",
    "RISKY_START",
    "Field",
    "LogRow",
    "csv_sql",
    "json_around",
    "json_sql",
    "neutralise",
]


@dataclass(frozen=True)
class Field:
    """One field of an exported review: its name (JSON key), CSV column, and its value in SQL
    over the review `r` and its card's number `m.n`."""

    name: str
    column: str
    sql: str
    text: bool = False
    """Free text, neutralised and quoted in CSV (what else is exported never needs it)."""
    nullable: bool = False


def _labels(column: str, enum: type[Rating] | type[Verdict]) -> str:
    cases = " ".join(f"WHEN {int(member)} THEN '{member.label}'" for member in enum)
    return f"CASE {column} {cases} END"


# a review's time as `datetime.isoformat()` writes it: without microseconds when they are zero
_AT = "replace(r.reviewed_at, '.000000+', '+')"

FIELDS = (
    Field("id", "id", "r.id"),
    Field("at", "reviewed_at", _AT),
    Field("deck", "deck", "r.deck", text=True),
    Field("card", "card", "r.card_id", text=True),
    Field("n", "n", "m.n", nullable=True),
    Field("mode", "mode", "r.mode"),
    Field("rating", "rating", _labels("r.rating", Rating)),
    Field("verdict", "verdict", _labels("r.verdict", Verdict), nullable=True),
    Field("answer", "answer", "r.answer", text=True, nullable=True),
    Field("response_ms", "response_ms", "r.response_ms", nullable=True),
    Field("session", "session", "r.session_id", nullable=True),
)


@dataclass(frozen=True)
class LogRow:
    """One row of the review log as exported (CSV, JSON); its attributes are the `FIELDS`."""

    id: int
    at: datetime
    deck: str
    card: str
    n: int | None
    mode: str
    rating: str
    verdict: str | None
    answer: str | None
    response_ms: int | None
    session: int | None

    def values(self) -> tuple[object, ...]:
        """The exported values, in `FIELDS` order; `at` as UTC ISO-8601 text."""
        at = to_utc(self.at).isoformat()
        return tuple(at if f.name == "at" else getattr(self, f.name) for f in FIELDS)

    def to_dict(self) -> dict[str, object]:
        """The review as the JSON report's object."""
        return dict(zip((f.name for f in FIELDS), self.values(), strict=True))


CSV_AROUND = ("", "\r\n", "\r\n")
"""Before, between and after the CSV rows of a chunk: each row ends in CRLF."""


def json_around(indent: str) -> tuple[str, str, str]:
    """Before, between and after the JSON objects of a chunk: one per line after `indent`,
    joined by ",\\n"."""
    return (indent, ",\n" + indent, "")


def json_sql() -> str:
    """SQL for one review as its compact JSON object, the fields in order."""
    pairs = ", ".join(f"'{f.name}', {f.sql}" for f in FIELDS)
    return f"json_object({pairs})"


def csv_sql() -> str:
    """SQL for one review as its CSV row, without the line end. One printf, not `||` between
    cells: each `||` copies the row so far (3.6 s a million rows against 2.0 s)."""
    cells = [_csv_cell(f) for f in FIELDS]
    return f"printf('{','.join(['%s'] * len(cells))}', {', '.join(cells)})"


_FORMULA_START = ("=", "+", "-", "@")
RISKY_START = frozenset("=+-@\t\r ")
"""What a cell `neutralise` may change starts with: any other cell is left as it is."""


def neutralise(cell: str) -> str:
    """A text cell a spreadsheet will show as text, never evaluate (as `_csv_text` in SQL)."""
    if cell.startswith(("\t", "\r")) or cell.lstrip(" ").startswith(_FORMULA_START):
        return "'" + cell
    return cell


def _csv_cell(field: Field) -> str:
    if field.text:
        return _csv_text(field.sql)
    return f"coalesce({field.sql}, '')" if field.nullable else field.sql


def _csv_text(x: str) -> str:
    """SQL for the text `x` as a CSV cell: neutralised (as `neutralise`), then quoted as
    csv.writer quotes (QUOTE_MINIMAL); NULL is an empty cell.
    Each test is a GLOB on the column itself: no copy of the text is made unless it is
    changed."""
    special = "'*[,\"' || char(13) || char(10) || ']*'"
    risky = (
        f"({x} GLOB '[-=+@' || char(9) || char(13) || ']*'"
        f" OR ({x} GLOB ' *' AND ltrim({x}, ' ') GLOB '[-=+@]*'))"
    )
    quoted = f"replace({x}, '\"', '\"\"')"
    return (
        f"CASE WHEN {x} IS NULL THEN ''"
        f" WHEN {risky} THEN"
        f" CASE WHEN {x} GLOB {special} THEN '\"''' || {quoted} || '\"' ELSE '''' || {x} END"
        f" WHEN {x} GLOB {special} THEN '\"' || {quoted} || '\"'"
        f" ELSE {x} END"
    )
