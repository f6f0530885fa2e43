"""The analysis report: ``report.md`` and its PNG plots, from an ``Analysis``.

Plots are drawn on bare ``matplotlib.figure.Figure`` objects (the Agg canvas, no pyplot and
no display), one file per question, each with a title, labelled axes with units and 95%
error bars. The Markdown states what was played, with which seeds, and the command that
repeats it. ``results.json`` holds every number of the report.
"""

from __future__ import annotations

import io
import json
import math
import platform
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # before anything draws: files only, never a window

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from PIL import Image  # matplotlib's own dependency

from .. import __version__
from ..engine import defaults
from ..engine.cards import parse_card
from ..i18n import card_label as card_words
from .experiments import (
    DANGER_MARGIN,
    EXPERIMENTS,
    Analysis,
    CardEffects,
    CardRow,
    Estimate,
    HouseRuleCell,
    LengthCell,
    SeatOrderCell,
)

DPI = 100
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
GREY = "#555555"
MATCH_NAMES = {"single": "single game", "tokens": "tokens match", "points": "points match"}
SECTION_NAMES = {
    "seat_order": "seat order",
    "game_length": "game length",
    "card_effects": "card effects",
    "house_rules": "house rules",
}
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th")


# --------------------------------------------------------------------------- text helpers


def _f(x: float, spec: str) -> str:
    """``format(x, spec)``, but never "-0.0": a value that rounds to zero prints as zero."""
    text = format(x, spec)
    return text.replace("-", "+" if "+" in spec else "", 1) if float(text) == 0 else text


def pct(e: Estimate, digits: int = 1) -> str:
    """``56.5% [53.2, 59.8]``"""
    if math.isnan(e.value):
        return "–"
    d = f".{digits}f"
    return f"{_f(e.value * 100, d)}% [{_f(e.low * 100, d)}, {_f(e.high * 100, d)}]"


def pp(e: Estimate) -> str:
    """A difference of proportions in percentage points: ``+6.5 pp [+3.2, +9.8]``."""
    return f"{_f(e.value * 100, '+.1f')} pp [{_f(e.low * 100, '+.1f')}, {_f(e.high * 100, '+.1f')}]"


def num(e: Estimate, digits: int = 1, sign: bool = False) -> str:
    """A mean with its interval: ``40.0 [39.5, 40.5]``."""
    if math.isnan(e.value):
        return "–"
    f = f"+.{digits}f" if sign else f".{digits}f"
    return f"{_f(e.value, f)} [{_f(e.low, f)}, {_f(e.high, f)}]"


def card_label(row: CardRow, edition: str) -> str:
    return card_words(parse_card(row.card), edition)  # English: the catalog's default


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], right: int = 1) -> str:
    """A Markdown table; columns from ``right`` on are right-aligned."""
    lines = ["| " + " | ".join(header) + " |"]
    lines.append("|" + "|".join("---:" if i >= right else "---" for i in range(len(header))) + "|")
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def _position_name(k: int, players: int) -> str:
    return "dealer" if k == players - 1 else ORDINALS[k]


# --------------------------------------------------------------------------- plots


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
    """Error-bar arms (below, above) for matplotlib, NaN-safe."""
    below = [
        max(0.0, (e.value - e.low) * scale) if not math.isnan(e.value) else 0.0 for e in estimates
    ]
    above = [
        max(0.0, (e.high - e.value) * scale) if not math.isnan(e.value) else 0.0 for e in estimates
    ]
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


def _card_panels(
    effects: Sequence[CardEffects],
    out: Path,
    name: str,
    title: str,
    xlabel: str,
    series: Sequence[tuple[str, str]],  # (CardRow attribute, legend label)
    base: str | None = None,  # CardEffects attribute drawn as a reference line
) -> Path:
    """Dots with 95% error bars, one row per card kind (a card never seen is left out)."""
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
        n_attr = "played" if base else None
        labels = [
            card_label(r, eff.edition) + (f" (n={r.played:,})" if n_attr else "") for r in rows
        ]
        ax.set_yticks(ys, labels)
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_xlabel(xlabel)
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
    fig.suptitle(title + ", 95% intervals", fontweight="bold")
    return _save(fig, out, name)


def plot_card_saves(effects: Sequence[CardEffects], out: Path) -> Path:
    t = effects[0]
    return _card_panels(
        effects,
        out,
        "card_saves.png",
        f"Which cards save a player? Cards laid at a total ≥ {t.threshold}, {t.players} × {t.bot}",
        "player got through their next turn (% of the times laid)",
        [("survived", "got through")],
        base="survived",
    )


def plot_card_attacks(effects: Sequence[CardEffects], out: Path) -> Path:
    t = effects[0]
    return _card_panels(
        effects,
        out,
        "card_attacks.png",
        f"Which cards knock out the next player? Cards laid at a total ≥ {t.threshold}, "
        f"{t.players} × {t.bot}",
        "next player knocked out (% of the times laid)",
        [("knocked_next", "next player knocked out")],
        base="knocked_next",
    )


def plot_card_knockouts(effects: Sequence[CardEffects], out: Path) -> Path:
    t = effects[0]
    return _card_panels(
        effects,
        out,
        "card_knockouts.png",
        f"Which cards sink their holder? Hands when knocked out vs hands able to play "
        f"at a total ≥ {t.threshold}, {t.players} × {t.bot}",
        "hands holding at least one (%)",
        [
            ("held_at_knockout", "knocked-out hands"),
            ("held_in_danger", f"hands with a card to play at a total ≥ {t.threshold}"),
        ],
    )


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
            f"{edition} edition, {MATCH_NAMES[_match(edition)]}\n"
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


def _match(edition: str) -> str:
    return str(defaults(edition)["match"])


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
        ax.set_title(f"{edition} edition, {MATCH_NAMES[_match(edition)]}\n(dashed line: defaults)")
        ax.grid(axis="x", alpha=0.3)
    b = cells[0]
    budget = _options_text(b.strong_options)
    fig.suptitle(
        f"The strong bot's edge under each house rule: {b.strong}{budget} vs "
        f"{b.players - 1} × {b.bot}, {b.strong_games:,} games per rule set, 95% intervals",
        fontweight="bold",
    )
    return _save(fig, out, "house_rules_edge.png")


def _options_text(options: dict[str, Any]) -> str:
    if not options:
        return ""
    return " (" + ", ".join(f"{k}={v}" for k, v in options.items()) + ")"


# --------------------------------------------------------------------------- the Markdown


def _seat_section(cells: Sequence[SeatOrderCell]) -> list[str]:
    t = cells[0]
    out = [
        "## 1. Does the order of play matter?",
        "",
        f"`{t.bot}` in every seat, each edition's default rules, {t.games:,} games per row; the "
        "first dealer is drawn at random from each game's seed. A seat's *position* is where it "
        "sits relative to that first dealer: 1st plays first in round 1, the dealer plays last. "
        "(In a tokens match the deal then passes clockwise each round.) The χ² test asks "
        "whether all positions could win equally often; a small p says they do not.",
        "",
    ]
    strong = [c for c in cells if c.p_value < 0.01]
    worst = max(cells, key=lambda c: max(abs(e.value - c.fair) for e in c.rates))
    k = max(range(worst.players), key=lambda i: abs(worst.rates[i].value - worst.fair))
    out.append(
        f"- In {len(strong)} of {len(cells)} configurations the positions' win rates differ "
        "from equal shares at the 1% level"
        + (": " + ", ".join(f"{c.edition} with {c.players}" for c in strong) if strong else "")
        + "."
    )
    out.append(
        f"- The largest gap: {worst.edition} edition, {worst.players} players — the "
        f"{_position_name(k, worst.players)} position wins {pct(worst.rates[k])} against a fair "
        f"share of {worst.fair:.1%}."
    )
    for edition in dict.fromkeys(c.edition for c in cells):
        mine = [c for c in cells if c.edition == edition]
        firsts = ", ".join(f"{c.players}p {pct(c.rates[0])}" for c in mine)
        dealers = ", ".join(f"{c.players}p {pct(c.rates[-1])}" for c in mine)
        out.append(f"- {edition}: first to play wins {firsts}; the dealer wins {dealers}.")
    out += ["", "![Seat order](seat_order.png)", ""]
    width = max(c.players for c in cells)
    header = ["edition", "players", *[ORDINALS[k] for k in range(width)], "χ² p"]
    rows = []
    for c in cells:
        rates = [
            pct(c.rates[k]) + (" (dealer)" if k == c.players - 1 else "") if k < c.players else ""
            for k in range(width)
        ]
        rows.append([c.edition, str(c.players), *rates, f"{c.p_value:.2g}"])
    out += [_table(header, rows, right=1), ""]
    return out


def _length_section(cells: Sequence[LengthCell], seats: Sequence[SeatOrderCell]) -> list[str]:
    t = cells[0]
    out = [
        "## 2. How long do games last?",
        "",
        f"{t.players} × `{t.bot}`, {t.games:,} games per row, each edition's rules with the match "
        "format shown. A *turn* is one player's go (one card, or two when they owe a Play 2); "
        "*actions* are everything the players did (with draws automatic, the cards laid); "
        "*rounds* are deals (a single game is one round). Means with 95% intervals; p10–p90 "
        "holds the middle 80% of games.",
        "",
    ]
    for c in cells:
        out.append(
            f"- {c.edition}, {MATCH_NAMES[c.match]}: {num(c.turns.mean)} turns"
            + (f" and {num(c.rounds.mean, 2)} rounds" if c.match != "single" else "")
            + f" per game (median {c.turns.median:.0f} turns, 80% of games between "
            f"{c.turns.p10:.0f} and {c.turns.p90:.0f})."
        )
    out += ["", "![Game length](game_length.png)", ""]
    header = [
        "edition",
        "match",
        "turns: mean",
        "median",
        "p10–p90",
        "actions: mean",
        "rounds: mean",
        "median",
        "p10–p90",
    ]
    rows = [
        [
            c.edition,
            MATCH_NAMES[c.match],
            num(c.turns.mean),
            f"{c.turns.median:.0f}",
            f"{c.turns.p10:.0f}–{c.turns.p90:.0f}",
            num(c.actions.mean),
            num(c.rounds.mean, 2),
            f"{c.rounds.median:.0f}",
            f"{c.rounds.p10:.0f}–{c.rounds.p90:.0f}",
        ]
        for c in cells
    ]
    out += [_table(header, rows, right=2), ""]
    out += [
        "By number of players (the games of section 1, each edition's default match format):",
        "",
        "![Game length by players](length_by_players.png)",
        "",
    ]
    rows = [[s.edition, MATCH_NAMES[s.match], str(s.players), num(s.turns)] for s in seats]
    out += [_table(["edition", "match", "players", "turns per game"], rows, right=2), ""]
    return out


def _card_section(effects: Sequence[CardEffects]) -> list[str]:
    t = effects[0]
    out = [
        "## 3. Which cards save players, and which knock them out?",
        "",
        f"{t.players} × `{t.bot}`, each edition's default rules, {t.games:,} games per edition. "
        f"A total is *dangerous* from max_total − {DANGER_MARGIN} = {t.threshold} up. A player "
        "is *knocked out* when they must play and cannot (eliminated in a single game, losing "
        "the round in a tokens match, out of the round in a points match).",
        "",
        "- **Saves**: of the times a card was laid at a dangerous total, the share after which "
        "its player got through their *next* turn (the round or game ending first counts as "
        "getting through). A card saves when this is above the rate for all cards laid there.",
        "- **Knocks out the next player**: of the same plays, the share after which another "
        "player was knocked out before the next player's turn was over.",
        "- **Sinks its holder**: the share of knocked-out hands (the hand the player could not "
        "play from) holding at least one such card, against the share of hands holding one "
        "among players who were to play at a dangerous total and had a card to play. A card "
        "over-represented in knocked-out hands is one that leaves you stuck.",
        "",
        "These are observations of one bot's play, not controlled experiments: a card's "
        "numbers include the situations in which that bot chooses it (greedy lays −10, Reverse "
        "and Hold only when it has no number that fits, so they arrive in the worst spots).",
        "",
    ]
    for eff in effects:
        common = [r for r in eff.cards if r.played >= 30]
        above = [r for r in common if r.survived.low > eff.survived.value]
        below = [r for r in common if r.survived.high < eff.survived.value]
        attack = [r for r in common if r.knocked_next.low > eff.knocked_next.value]
        sink = [
            r
            for r in eff.cards
            if r.held_at_knockout.low > r.held_in_danger.high and r.held_at_knockout.n
        ]
        sink.sort(key=lambda r: r.held_at_knockout.value - r.held_in_danger.value, reverse=True)

        def names(rs: Sequence[CardRow], attr: str, edition: str = eff.edition) -> str:
            if not rs:
                return "none"
            return "; ".join(f"{card_label(r, edition)} {pct(getattr(r, attr))}" for r in rs)

        out.append(
            f"- {eff.edition}: {eff.danger_plays:,} cards laid at a dangerous total; their "
            f"players got through {pct(eff.survived)} of the time and the next player was "
            f"knocked out {pct(eff.knocked_next)} of the time. Saves (interval above the "
            f"base rate): {names(above, 'survived')}. Worse than the base rate: "
            f"{names(below, 'survived')}. Knock out the next player more often than the base "
            f"rate: {names(attack, 'knocked_next')}. In knocked-out hands "
            f"({eff.knockouts:,}) more often than in playable hands: "
            + (
                "; ".join(
                    f"{card_label(r, eff.edition)} {r.held_at_knockout.value:.0%} vs "
                    f"{r.held_in_danger.value:.0%}"
                    for r in sink
                )
                or "none"
            )
            + "."
        )
    out += [
        "",
        "![Cards that save](card_saves.png)",
        "",
        "![Cards that knock out the next player](card_attacks.png)",
        "",
        "![Cards in knocked-out hands](card_knockouts.png)",
        "",
    ]
    for eff in effects:
        out.append(
            f"**{eff.edition} edition** — {eff.danger_plays:,} cards laid at a dangerous total, "
            f"{eff.knockouts:,} knock-outs, {eff.danger_hands:,} hands to play at a dangerous "
            "total."
        )
        out.append("")
        header = [
            "card",
            "laid at danger",
            "got through next turn",
            "next player knocked out",
            "in knocked-out hands",
            "in hands that could play",
        ]
        rows = [
            [
                card_label(r, eff.edition),
                f"{r.played:,}",
                pct(r.survived),
                pct(r.knocked_next),
                pct(r.held_at_knockout),
                pct(r.held_in_danger),
            ]
            for r in eff.cards
        ]
        rows.append(
            [
                "**all cards**",
                f"{eff.danger_plays:,}",
                pct(eff.survived),
                pct(eff.knocked_next),
                "",
                "",
            ]
        )
        out += [_table(header, rows, right=1), ""]
    return out


def _house_section(cells: Sequence[HouseRuleCell]) -> list[str]:
    t = cells[0]
    out = [
        "## 4. What do the house rules change?",
        "",
        "Each house rule is turned on alone, against the edition's defaults "
        f"({t.players} players). *Length*: {t.games:,} games of {t.players} × {t.bot} per rule "
        "set. *Edge*: the strong bot "
        f"`{t.strong}`{_options_text(t.strong_options)} against {t.players - 1} × `{t.bot}`, "
        f"{t.strong_games:,} games per rule set, taking every seat in turn; its edge is its win "
        f"rate minus the fair share of {t.fair:.0%}. Every rule set plays the same seeds, so "
        "each change is measured game by game against the defaults (a paired difference) and "
        "its interval is narrower than the two separate intervals suggest. A rule that never "
        "comes into play in these games changes nothing (a difference of exactly 0).",
        "",
    ]
    for edition in dict.fromkeys(c.edition for c in cells):
        mine = [c for c in cells if c.edition == edition]
        base = mine[0]
        out.append(
            f"- {edition} defaults: {num(base.turns)} turns per game; {base.strong} wins "
            f"{pct(base.win_rate)}, an edge of {pp(base.edge)}."
        )
        for c in mine[1:]:
            turn_change = _change(c.turns_vs_default, num(c.turns_vs_default, 2, sign=True))
            edge_change = _change(c.edge_vs_default, pp(c.edge_vs_default))
            out.append(
                f"  - {c.rule}: turns {turn_change}; edge {pp(c.edge)}, a change of {edge_change}."
            )
    out += [
        "",
        "![House rules: game length](house_rules_length.png)",
        "",
        "![House rules: the strong bot's edge](house_rules_edge.png)",
        "",
    ]
    header = [
        "edition",
        "rule set",
        "turns per game",
        "change",
        "rounds per game",
        f"{t.strong} wins",
        "edge",
        "edge change",
    ]
    rows = [
        [
            c.edition,
            c.rule,
            num(c.turns),
            "" if c.rule == "defaults" else num(c.turns_vs_default, 2, sign=True),
            num(c.rounds, 2),
            pct(c.win_rate),
            pp(c.edge),
            "" if c.rule == "defaults" else pp(c.edge_vs_default),
        ]
        for c in cells
    ]
    out += [_table(header, rows, right=2), ""]
    return out


def _summary(a: Analysis) -> list[str]:
    """The headline of each section, with its interval."""
    out = ["## Summary", ""]
    seats = a.seat_order
    if seats:
        flagged = [c for c in seats if c.p_value < 0.01]
        worst = max(seats, key=lambda c: max(abs(e.value - c.fair) for e in c.rates))
        k = max(range(worst.players), key=lambda i: abs(worst.rates[i].value - worst.fair))
        out.append(
            f"- **Seat order**: {len(flagged)} of {len(seats)} edition × player-count "
            "configurations show a position effect at the 1% level. The largest gap: "
            f"{worst.edition} with {worst.players} players, where the "
            f"{_position_name(k, worst.players)} position wins {pct(worst.rates[k])} against a "
            f"fair {worst.fair:.1%}."
        )
    parts = [
        f"{c.edition} {MATCH_NAMES[c.match]} {c.turns.mean.value:.0f} turns"
        + (f" over {c.rounds.mean.value:.1f} rounds" if c.match != "single" else "")
        for c in a.game_length
    ]
    if parts:
        out.append(
            f"- **Game length** ({a.game_length[0].players} players, mean): "
            + "; ".join(parts)
            + "."
        )
    for eff in a.card_effects:
        common = [r for r in eff.cards if r.played >= 30]
        saver = max(common, key=lambda r: r.survived.low, default=None)
        sinks = [r for r in eff.cards if r.held_at_knockout.n and r.held_in_danger.n]
        sinker = max(
            sinks, key=lambda r: r.held_at_knockout.value - r.held_in_danger.value, default=None
        )
        text = f"- **Cards, {eff.edition}**: "
        if saver:
            text += (
                f"the best save at a total ≥ {eff.threshold} is {card_label(saver, eff.edition)} "
                f"(its player gets through {pct(saver.survived)} vs {pct(eff.survived)} for all "
                "cards)"
            )
        if sinker:
            text += (
                f"; the card that most sinks its holder is {card_label(sinker, eff.edition)} "
                f"(in {pct(sinker.held_at_knockout)} of knocked-out hands vs "
                f"{pct(sinker.held_in_danger)} of hands that could play)"
            )
        out.append(text + ".")
    for edition in dict.fromkeys(c.edition for c in a.house_rules):
        mine = [c for c in a.house_rules if c.edition == edition]
        longer = [c for c in mine[1:] if c.turns_vs_default.excludes(0)]
        edges = [c for c in mine[1:] if c.edge_vs_default.excludes(0)]
        text = (
            f"- **House rules, {edition}**: "
            + (
                "length changes under "
                + ", ".join(
                    f"{c.rule} ({num(c.turns_vs_default, 2, sign=True)} turns)" for c in longer
                )
                if longer
                else "no rule changes the length measurably"
            )
            + f"; {mine[0].strong}'s edge over greedy is {pp(mine[0].edge)} with the defaults, "
            + (
                "and changes under "
                + ", ".join(f"{c.rule} ({pp(c.edge_vs_default)})" for c in edges)
                if edges
                else "and no rule changes it measurably at this number of games"
            )
            + "."
        )
        out.append(text)
    out.append("")
    return out


def _change(e: Estimate, text: str) -> str:
    if e.low == e.high == 0:
        return "none in any game (the same seeds gave the same results: the rule never mattered)"
    if not e.excludes(0):
        return text + " (not distinguishable from no change)"
    return text


def report_markdown(
    analysis: Analysis, command: str, runtime: float | None = None, workers: int = 1
) -> str:
    a = analysis
    total = (
        sum(c.games for c in a.seat_order)
        + sum(c.games for c in a.game_length)
        + sum(c.games for c in a.card_effects)
        + sum(c.games + c.strong_games for c in a.house_rules)
    )
    lines = [
        "# ONO 99 — what bot games say about the rules",
        "",
        *(_partial_note(a) if a.partial else []),
        f"Written by `ono99 analyze` (ono99 {__version__}, Python {platform.python_version()}).",
        "Every number is an estimate from simulated games with its 95% interval in brackets: "
        "Wilson intervals for rates, normal intervals for means and for paired differences.",
        "",
        "Reproduce it with:",
        "",
        "```sh",
        command,
        "```",
        "",
        f"- Games: {a.games:,} per cell ({a.strong_games:,} per rule set for the strong bot), "
        f"{total:,} in all"
        + (
            f"; {runtime / 60:.1f} minutes of wall-clock time with {workers} worker "
            f"process{'es' if workers > 1 else ''}."
            if runtime
            else "."
        ),
        f"- Seeds: game *i* of every cell is dealt from a seed hashed from {a.seed} and *i* "
        "(the same deals across cells), with the first dealer drawn from that seed; the bot "
        "in seat *s* gets a seed hashed from them and *s* (`ono99.sim.batch.game_seeds`, "
        "the rule of `ono99 tournament` and `ono99 simulate` too).",
        f"- Strong bot: {a.strong}{_options_text(a.strong_options)}; the other bots are greedy "
        "(src/ono99/bots/greedy.py).",
        "- Every figure describes these bots' play: a better or worse player may see other "
        "numbers.",
        "- All the numbers are in `results.json`.",
        "",
    ]
    lines += _summary(a)
    if a.seat_order:
        lines += _seat_section(a.seat_order)
    if a.game_length:
        lines += _length_section(a.game_length, a.seat_order)
    if a.card_effects:
        lines += _card_section(a.card_effects)
    if a.house_rules:
        lines += _house_section(a.house_rules)
    return "\n".join(lines).rstrip() + "\n"


def _partial_note(a: Analysis) -> list[str]:
    """What a report of a run stopped early holds, at its top."""
    missing = [SECTION_NAMES[name] for name in EXPERIMENTS if not getattr(a, name)]
    names = ", ".join(missing[:-1]) + " and " + missing[-1] if len(missing) > 1 else missing[0]
    sections = "sections" if len(missing) > 1 else "section"
    return [
        f"**Partial report**: the run was interrupted during its {a.stopped_during} phase, "
        f"so the {sections} on {names} {'are' if len(missing) > 1 else 'is'} missing; the "
        "sections here are complete. The command below repeats the whole run.",
        "",
    ]


def write_report(
    analysis: Analysis,
    out: Path,
    command: str,
    runtime: float | None = None,
    workers: int = 1,
) -> list[Path]:
    """Write ``report.md``, ``results.json`` and the PNGs into ``out``; return the paths."""
    out.mkdir(parents=True, exist_ok=True)
    a = analysis
    paths = []  # the plots of the experiments there are (all but in a partial report)
    if a.seat_order:
        paths += [plot_seat_order(a.seat_order, out), plot_length_by_players(a.seat_order, out)]
    if a.game_length:
        paths.append(plot_game_length(a.game_length, out))
    if a.card_effects:
        paths += [
            plot_card_saves(a.card_effects, out),
            plot_card_attacks(a.card_effects, out),
            plot_card_knockouts(a.card_effects, out),
        ]
    if a.house_rules:
        paths += [plot_house_length(a.house_rules, out), plot_house_edge(a.house_rules, out)]
    results = out / "results.json"
    data = {"command": command, **analysis.to_dict()}
    results.write_text(json.dumps(data, indent=1, allow_nan=False) + "\n", encoding="utf-8")
    report = out / "report.md"
    report.write_text(report_markdown(analysis, command, runtime, workers), encoding="utf-8")
    return [report, results, *paths]
