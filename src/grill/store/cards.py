"""Card state: the part of the store that reads and writes the `cards` table, and finds the
cards with history that no deck defines any more (orphans, whose history is kept)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from grill.model import CardState, Orphan
from grill.store.connection import Database
from grill.store.rows import from_db_time, state_from_row, state_values, to_db_time

__all__ = ["Cards"]


class Cards(Database):
    """Each studied card's scheduling state, keyed by (deck, card_id)."""

    def state(self, deck: str, card_id: str) -> CardState | None:
        """The card's scheduling state, or None when it has never been studied."""
        with self._errors("read card state"):
            row = self._conn.execute(
                "SELECT * FROM cards WHERE deck = ? AND card_id = ?", (deck, card_id)
            ).fetchone()
        return state_from_row(deck, card_id, row, "") if row else None

    def states(
        self, deck: str | None = None, *, due_by: datetime | None = None
    ) -> dict[tuple[str, str], CardState]:
        """Every studied card's state (or one deck's), keyed by (deck, card_id); with `due_by`,
        only the cards due by then (read through the index on `due`)."""
        where: list[str] = []
        args: list[str] = []
        if deck is not None:
            where.append("deck = ?")
            args.append(deck)
        if due_by is not None:
            where.append("due <= ?")
            args.append(to_db_time(due_by))
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        # with `due_by`, `+` keeps SQLite from walking the primary key in order (every card)
        # to save sorting the few due ones: it reads them through cards_by_due instead
        order = "+deck, +card_id" if due_by is not None else "deck, card_id"
        with self._errors("read card states"):
            rows = self._conn.execute(
                f"SELECT * FROM cards {clause} ORDER BY {order}", args
            ).fetchall()
        out = {}
        for row in rows:
            state = state_from_row(row["deck"], row["card_id"], row, "")
            if state is not None:
                out[state.key] = state
        return out

    def studied(self) -> set[tuple[str, str]]:
        """The (deck, card_id) of every card with a state, without building the states."""
        with self._errors("read card states"):
            cursor = self._conn.cursor()
            cursor.row_factory = None  # plain tuples: thousands of keys, no Row objects
            return set(cursor.execute("SELECT deck, card_id FROM cards").fetchall())

    def orphan_keys(
        self,
        known: Collection[tuple[str, str]],
        studied: Collection[tuple[str, str]] | None = None,
    ) -> list[tuple[str, str]]:
        """(deck, card_id) of the cards with state or history that are not in `known` (what
        the loaded decks define: pass cards and cases), sorted. `studied`: what `studied()`
        returned, when the caller has it already.

        The log is not scanned: a card with a scheduled review always has a row in `cards`
        (`record_review` writes it in the same transaction; `undo_last` removes it only with
        the card's first and last scheduled review), so the cards with history are those in
        `cards` plus those with log-only reviews, which an index of their own lists."""
        with self._errors("list orphaned cards"):
            cursor = self._conn.cursor()
            cursor.row_factory = None  # plain tuples: thousands of keys, no Row objects
            keys = set(self.studied() if studied is None else studied)
            keys.update(
                cursor.execute("SELECT deck, card_id FROM reviews WHERE after_state IS NULL")
            )
        return sorted(keys.difference(known))

    def orphans(self, known: Collection[tuple[str, str]]) -> list[Orphan]:
        """The orphaned cards (`orphan_keys`) with their review count, last review and state.
        Their history is kept, never dropped."""
        found = []
        with self._errors("list orphaned cards"):
            for deck, card_id in self.orphan_keys(known):
                count, last = self._conn.execute(
                    "SELECT COUNT(*), MAX(reviewed_at) FROM reviews WHERE deck = ? AND card_id = ?",
                    (deck, card_id),
                ).fetchone()
                when = None if last is None else from_db_time(last)
                found.append(Orphan(deck, card_id, int(count), when, self.state(deck, card_id)))
        return found

    def _put_state(self, state: CardState) -> None:
        self._conn.execute(
            "INSERT OR REPLACE INTO cards (deck, card_id, state, step, stability, difficulty,"
            " due, last_review, content_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (state.deck, state.card_id, *state_values(state)),
        )
