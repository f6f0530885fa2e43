"""The report's plots: drawn on bare ``matplotlib.figure.Figure`` objects (the Agg canvas, no
pyplot and no display), one PNG per question, each with a title, labelled axes with units
and 95% error bars."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # before anything draws: files only, never a window

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from PIL import Image  # matplotlib's own dependency

from ..experiments import CardEffects, Estimate, HouseRuleCell, LengthCell, SeatOrderCell
from .text import MATCH_NAMES, ORDINALS, card_label, default_match, options_text

DPI = 100
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
GREY = "#555555"


def _figure(
    width: float, height: float, cols: int, rows: int = 1, sharey: bool = False
) -> tuple[Figure, list[Axes]]:
    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False, sharey=sharey)
    return fig, [ax for row in axes for ax in row]


def _save(fig: Figure, out: Path, name: str) -> Path:
    """Write the figure as a 256-colour PNG: a third of the size of the full-colour one,
    and the same to the eye (flat colours and text)."""
    path = out / name
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI)
    buffer.seek(0)
    with Image.open(buffer) as image:
        small = image.convert("RGB").quantize(256, dither=Image.Dither.NONE)
        small.save(path, format="PNG", optimize=True)
    return path


def _arms(estimates: Sequence[Estimate], scale: float = 1.0) -> list[list[float]]:
    """Error-bar arms (below, above) for matplotlib, NaN-safe; a single value's unbounded
    interval has none (the report's text says it is too few games to tell)."""

    def arm(x: float) -> float:
        return max(0.0, x * scale) if math.isfinite(x) else 0.0

    below = [arm(e.value - e.low) for e in estimates]
    above = [arm(e.high - e.value) for e in estimates]
    return [below, above]


def plot_seat_order(cells: Sequence[SeatOrderCell], out: Path) -> Path:
    editions = list(dict.fromkeys(c.edition for c in cells))
    fig, axes = _figure(11, 4.8, len(editions), sharey=True)
    for ax, edition in zip(axes, editions, strict=True):
        mine = [c for c in cells if c.edition == edition]
        width = 0.8 / max(c.players for c in mine)
        for g, cell in enumerate(mine):
            n = cell.players
            xs = [g + (k - (n - 1) / 2) * width for k in range(n)]
            values = [(e.value - cell.fair) * 100 for e in cell.rates]
            ax.bar(
                xs,
                values,
                width * 0.9,
                color=[COLOURS[k] for k in range(n)],
                yerr=_arms(cell.rates, 100),
                ecolor=GREY,
                capsize=2,
            )
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xticks(
            range(len(mine)),
            [f"{c.players}\np={c.p_value:.2g}" for c in mine],
        )
        ax.set_xlabel("players (and the χ² test's p for equal shares)")
        match = MATCH_NAMES[mine[0].match]
        ax.set_title(f"{edition} edition, {match}")
        ax.set_ylabel("win rate − fair share (percentage points)")
        ax.grid(axis="y", alpha=0.3)
    handles = [
        Patch(color=COLOURS[k], label=f"plays {ORDINALS[k]}")
        for k in range(max(c.players for c in cells))
    ]
    fig.legend(handles=handles, loc="outside right center", title="in round 1\n(last = dealer)")
    fig.suptitle(
        f"Does the order of play matter? {cells[0].bot} in every seat, "
        f"{cells[0].games:,} games per player count, 95% intervals",
        fontweight="bold",
    )
    return _save(fig, out, "seat_order.png")


def plot_length_by_players(cells: Sequence[SeatOrderCell], out: Path) -> Path:
    editions = list(dict.fromkeys(c.edition for c in cells))
    fig, axes = _figure(10, 3.8, len(editions))
    for i, (ax, edition) in enumerate(zip(axes, editions, strict=True)):
        mine = [c for c in cells if c.edition == edition]
        ax.errorbar(
            [c.players for c in mine],
            [c.turns.value for c in mine],
            yerr=_arms([c.turns for c in mine]),
            marker="o",
            capsize=3,
            color=COLOURS[i],
        )
        ax.set_xticks([c.players for c in mine])
        ax.set_xlabel("players")
        ax.set_ylabel("turns per game (mean)")
        ax.set_ylim(bottom=0)
        ax.set_title(f"{edition} edition ({MATCH_NAMES[mine[0].match]})")
        ax.grid(alpha=0.3)
    fig.suptitle("Game length by number of players (95% intervals)", fontweight="bold")
    return _save(fig, out, "length_by_players.png")


def plot_game_length(cells: Sequence[LengthCell], out: Path) -> Path:
    editions = list(dict.fromkeys(c.edition for c in cells))
    matches = list(dict.fromkeys(c.match for c in cells))
    fig, axes = _figure(12, 3.3 * len(editions), len(matches), len(editions))
    for i, edition in enumerate(editions):
        for j, match in enumerate(matches):
            ax = axes[i * len(matches) + j]
            cell = next(c for c in cells if c.edition == edition and c.match == match)
            dist = cell.turns
            values = [v for v, _ in dist.counts]
            weights = [k * 100 / cell.games for _, k in dist.counts]
            width = max(1, math.ceil((dist.high - dist.low + 1) / 40))  # whole turns per bin
            bins = [dist.low - 0.5 + width * b for b in range((dist.high - dist.low) // width + 2)]
            ax.hist(values, bins=bins, weights=weights, color=COLOURS[j], alpha=0.85)
            ax.axvline(dist.mean.value, color="black", linestyle="--", linewidth=1)
            ax.text(
                0.97,
                0.93,
                f"mean {dist.mean.value:.1f}\nmedian {dist.median:.0f}",
                transform=ax.transAxes,
                ha="right",
                va="top",
                fontsize=9,
                bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "none"},
            )
            ax.set_title(f"{edition} edition, {MATCH_NAMES[match]}")
            ax.set_xlabel("turns per game")
            ax.set_ylabel("games (%)")
            ax.grid(alpha=0.3)
    n = cells[0]
    fig.suptitle(
        f"How long games last: {n.players} × {n.bot}, {n.games:,} games per panel",
        fontweight="bold",
    )
    return _save(fig, out, "game_length.png")


@dataclass(frozen=True)
class _CardPlot:
    """One of the card plots: ``{threshold}`` in its words is the dangerous total."""

    name: str
    question: str  # the title's start; the threshold and the lineup follow it
    xlabel: str
    series: tuple[tuple[str, str], ...]  # (CardRow attribute, legend label)
    base: str | None = None  # CardEffects attribute drawn as a reference line


CARD_PLOTS = (
    _CardPlot(
        "card_saves.png",
        "Which cards save a player? Cards laid",
        "player got through their next turn (% of the times laid)",
        (("survived", "got through"),),
        base="survived",
    ),
    _CardPlot(
        "card_attacks.png",
        "Which cards knock out the next player? Cards laid",
        "next player knocked out (% of the times laid)",
        (("knocked_next", "next player knocked out"),),
        base="knocked_next",
    ),
    _CardPlot(
        "card_knockouts.png",
        "Which cards sink their holder? Hands when knocked out vs hands able to play",
        "hands holding at least one (%)",
        (
            ("held_at_knockout", "knocked-out hands"),
            ("held_in_danger", "hands with a card to play at a total ≥ {threshold}"),
        ),
    ),
)


def _card_panels(effects: Sequence[CardEffects], out: Path, plot: _CardPlot) -> Path:
    """Dots with 95% error bars, one row per card kind (a card never seen is left out)."""
    t = effects[0]
    series = [(attr, label.format(threshold=t.threshold)) for attr, label in plot.series]
    base = plot.base
    fig, axes = _figure(12, 5.4, len(effects))
    for ax, eff in zip(axes, effects, strict=True):
        rows = [r for r in eff.cards if getattr(r, series[0][0]).n > 0]
        ys = list(range(len(rows)))
        step = 0.3 if len(series) > 1 else 0.0
        for k, (attr, label) in enumerate(series):
            ests = [getattr(r, attr) for r in rows]
            ax.errorbar(
                [e.value * 100 for e in ests],
                [y + (k - (len(series) - 1) / 2) * step for y in ys],
                xerr=_arms(ests, 100),
                fmt="o",
                color=COLOURS[k],
                capsize=3,
                label=label,
            )
        if base:
            ref: Estimate = getattr(eff, base)
            ax.axvspan(ref.low * 100, ref.high * 100, color="black", alpha=0.12)
            ax.axvline(ref.value * 100, color="black", linestyle="--", linewidth=1)
        labels = [card_label(r, eff.edition) + (f" (n={r.played:,})" if base else "") for r in rows]
        ax.set_yticks(ys, labels)
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_xlabel(plot.xlabel)
        ax.set_ylabel("card")
        title_base = f"{eff.edition} edition ({MATCH_NAMES[eff.match]}, {eff.games:,} games)"
        if base:
            ref = getattr(eff, base)
            title_base += f"\nall cards: {ref.value:.1%} (dashed line, grey band)"
        ax.set_title(title_base)
        ax.grid(alpha=0.3)
    if len(series) > 1:
        handles, labels = axes[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncols=len(series))
    fig.suptitle(
        f"{plot.question} at a total ≥ {t.threshold}, {t.players} × {t.bot}, 95% intervals",
        fontweight="bold",
    )
    return _save(fig, out, plot.name)


def plot_card_effects(effects: Sequence[CardEffects], out: Path) -> list[Path]:
    """The card plots (``CARD_PLOTS``), in order."""
    return [_card_panels(effects, out, plot) for plot in CARD_PLOTS]


def plot_house_length(cells: Sequence[HouseRuleCell], out: Path) -> Path:
    editions = list(dict.fromkeys(c.edition for c in cells))
    fig, axes = _figure(12, 4, len(editions))
    for ax, edition in zip(axes, editions, strict=True):
        mine = [c for c in cells if c.edition == edition]
        base = mine[0]
        rules = mine[1:]
        ys = list(range(len(rules)))
        ests = [c.turns_vs_default for c in rules]
        ax.barh(
            ys,
            [e.value for e in ests],
            0.6,
            xerr=_arms(ests),
            color=[COLOURS[2] if e.value >= 0 else COLOURS[3] for e in ests],
            ecolor=GREY,
            capsize=3,
        )
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(
            ys,
            [
                f"{c.rule}\n"
                + (
                    "(never came into play)"
                    if e.low == e.high == 0
                    else f"({c.turns.value:.1f} turns)"
                )
                for c, e in zip(rules, ests, strict=True)
            ],
        )
        ax.invert_yaxis()
        ax.set_xlabel("change in mean turns per game (turns)")
        ax.set_title(
            f"{edition} edition, {MATCH_NAMES[default_match(edition)]}\n"
            f"defaults: {base.turns.value:.1f} turns per game"
        )
        ax.grid(axis="x", alpha=0.3)
    b = cells[0]
    fig.suptitle(
        f"House rules and game length: {b.players} × {b.bot}, {b.games:,} games per rule set "
        "(same seeds), 95% intervals",
        fontweight="bold",
    )
    return _save(fig, out, "house_rules_length.png")


def plot_house_edge(cells: Sequence[HouseRuleCell], out: Path) -> Path:
    editions = list(dict.fromkeys(c.edition for c in cells))
    fig, axes = _figure(12, 4, len(editions))
    for ax, edition in zip(axes, editions, strict=True):
        mine = [c for c in cells if c.edition == edition]
        ys = list(range(len(mine)))
        ests = [c.edge for c in mine]
        ax.barh(
            ys,
            [e.value * 100 for e in ests],
            0.6,
            xerr=_arms(ests, 100),
            color=[GREY if c.rule == "defaults" else COLOURS[0] for c in mine],
            ecolor="black",
            capsize=3,
        )
        ax.axvline(0, color="black", linewidth=0.8)
        ax.axvline(mine[0].edge.value * 100, color=GREY, linestyle="--", linewidth=1)
        ax.set_yticks(ys, [f"{c.rule}\n(wins {c.win_rate.value:.0%})" for c in mine])
        ax.invert_yaxis()
        ax.set_xlabel("win rate − fair share (percentage points)")
        ax.set_title(
            f"{edition} edition, {MATCH_NAMES[default_match(edition)]}\n(dashed line: defaults)"
        )
        ax.grid(axis="x", alpha=0.3)
    b = cells[0]
    budget = options_text(b.strong_options)
    fig.suptitle(
        f"The strong bot's edge under each house rule: {b.strong}{budget} vs "
        f"{b.players - 1} × {b.bot}, {b.strong_games:,} games per rule set, 95% intervals",
        fontweight="bold",
    )
    return _save(fig, out, "house_rules_edge.png")
