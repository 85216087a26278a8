"""Recent recall against the forecast: is the user recalling what the model says they will?

Every forecast grill prints rests on its memory model (grill.memory, the person's fit as last
stored). The review log holds the test of that model: over the last `RECENT` reviews of cards last
seen on an earlier study day, the cards recalled (any rating but Again) against the sum of the
chances the model gives them at the moment they were asked, from each card's reviews before it
(`grill.memory.components`, the forecast's own computation). Re-asks on the day a card was last
seen are left out: they test the answer just shown, not forgetting. Under the model the count
recalled is Poisson-binomial; when it is improbably low (P(X <= recalled) < `ALPHA`) and at least
`MIN_GAP` cards short, the drill summary says so in a plain sentence: the forecast is then too
high for this person, at least until the model is refitted to the reviews that show it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table
from rich.text import Text

from grill.memory import MemoryFit, Trace, Trial, components, trials
from grill.odds import at_least, poisson_binomial

__all__ = [
    "ALPHA",
    "MIN_GAP",
    "RECENT",
    "RecallCheck",
    "recall_check",
    "render_recall_warning",
]

RECENT = 20
"""How many of the latest later-day reviews are checked."""
ALPHA = 0.05
MIN_GAP = 3.0
"""Cards short of the expected count before the gap is worth a sentence."""


@dataclass(frozen=True)
class RecallCheck:
    """Recall observed on recent later-day reviews against the model's prediction for them."""

    reviews: int
    recalled: int
    expected: float
    p_low: float
    """P(recalled or fewer) if the model were right."""

    @property
    def far_below(self) -> bool:
        """Recall improbably low under the model, and by enough cards to matter."""
        return (
            self.reviews >= RECENT // 2
            and self.p_low < ALPHA
            and self.expected - self.recalled >= MIN_GAP
        )

    def sentence(self) -> str:
        return (
            f"You recalled {self.recalled} of the last {self.reviews} reviews of cards seen on an "
            f"earlier day; grill expected about {self.expected:.0f}: your memory may be "
            "fading faster than the model assumes, so its forecasts are likely too high."
        )


def recall_check(
    traces: Iterable[Trace], fitted: MemoryFit, count: int = RECENT
) -> RecallCheck | None:
    """The check over the last `count` reviews in `traces` (the cards' whole histories) asked on
    a later study day than the card's review before; None when there is none."""
    later = [t for t in trials(list(traces)) if t.cross_day][-count:]
    if not later:
        return None
    chances = [_chance(fitted, t) for t in later]
    recalled = sum(1 for t in later if t.recalled)
    p_low = 1.0 - at_least(poisson_binomial(chances), recalled + 1)
    return RecallCheck(len(later), recalled, sum(chances), max(0.0, p_low))


def render_recall_warning(console: Console, check: RecallCheck | None) -> None:
    """One line after the drill summary, only when recall is far below the prediction."""
    if check is None or not check.far_below:
        return
    grid = Table.grid()
    grid.add_column(width=10, no_wrap=True, style="bold")  # beside the summary's labels
    grid.add_column()
    grid.add_row("memory", Text(check.sentence(), style="yellow"))
    console.print(grid)


def _chance(fitted: MemoryFit, trial: Trial) -> float:
    """The model's chance of recall at the trial's moment, from the card's reviews before it."""
    comps = components(fitted, [trial.trace.upto(trial.index)], trial.at)
    return sum(c.weight * c.chances[0] for c in comps)
