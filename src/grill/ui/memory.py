"""The `grill memory` screen: the fitted models, their weights and how well each predicted."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from grill.memory import Evaluation, MemoryFit
from grill.memory.fitting import recalibrated

__all__ = ["render_memory"]

_NAMES = {
    "default": "FSRS, average learner",
    "personal": "FSRS, fitted to you",
    "steep": "FSRS, exponential, sloped",
    "hlr": "half-life regression",
}


def render_memory(console: Console, fitted: MemoryFit, sentence: str) -> None:
    when = "never" if fitted.fitted_at is None else fitted.fitted_at.strftime("%Y-%m-%d %H:%M")
    console.print(
        f"[bold]Your memory[/]  fitted {when} on {fitted.reviews} reviews "
        f"({fitted.trials} asked on a later day, {fitted.cards} cards)"
    )
    console.print(sentence)
    judged = next((c.evaluation.n for c in fitted.candidates if c.evaluation), 0)
    table = Table(
        title="Candidate models",
        title_justify="left",
        caption=(f"log loss: on {judged} later reviews, lower is better; " if judged else "")
        + "70% becomes: a 70% chance from the model, corrected by how it missed them",
        caption_justify="left",
    )
    table.add_column("model")
    table.add_column("weight", justify="right", no_wrap=True)
    # the numbers are short: let their headers wrap so a narrow window keeps the model names
    table.add_column("time scale", justify="right", max_width=6)
    table.add_column("log loss", justify="right", max_width=6)
    table.add_column("70% becomes", justify="right", max_width=8)
    for c in fitted.candidates:
        table.add_row(
            _NAMES.get(c.model.name, c.model.name),
            f"{c.weight:.0%}",
            f"{c.kappa:.2f}x",
            _loss(c.evaluation),
            f"{recalibrated(0.7, c.shift):.0%}",
        )
    if fitted.reference is not None:
        table.add_row("average learner, as is", "-", "1.00x", _loss(fitted.reference), "-")
    console.print(table)
    best = max(fitted.candidates, key=lambda c: c.weight)
    if best.evaluation is not None and best.evaluation.bins:
        bins = Table(
            title="Predicted and observed recall, later reviews",
            title_justify="left",
            caption=f"predicted by: {_NAMES.get(best.model.name, best.model.name)}",
            caption_justify="left",
            min_width=50,
        )
        bins.add_column("predicted", justify="right")
        bins.add_column("observed", justify="right")
        bins.add_column("reviews", justify="right")
        for p, o, n in best.evaluation.bins:
            bins.add_row(f"{p:.0%}", f"{o:.0%}", str(n))
        console.print(bins)
    for note in fitted.notes:
        console.print(f"[dim]{note}[/]")


def _loss(ev: Evaluation | None) -> str:
    return "-" if ev is None else f"{ev.log_loss:.3f}"
