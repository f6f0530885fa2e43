"""The report's Markdown: what was played and how to repeat it, a summary, and one section
per experiment."""

from __future__ import annotations

import platform
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ... import __version__
from ..experiments import (
    DANGER_MARGIN,
    MIN_GAMES,
    Analysis,
    CardEffects,
    CardRow,
    Estimate,
    SeatOrderCell,
)
from .text import (
    MATCH_NAMES,
    ORDINALS,
    card_label,
    md_table,
    num,
    options_text,
    pct,
    position_name,
    pp,
)

SIGNIFICANT = 0.01  # the level at which a position effect is reported
COMMON = 30  # a card laid fewer times at a dangerous total is left out of the verdicts


def _position_effects(cells: Sequence[SeatOrderCell]) -> list[SeatOrderCell]:
    """The configurations whose positions do not win equally often."""
    return [c for c in cells if c.p_value < SIGNIFICANT]


def _largest_gap(cells: Sequence[SeatOrderCell]) -> tuple[SeatOrderCell, int]:
    """The configuration and position whose win rate is furthest from the fair share."""
    worst = max(cells, key=lambda c: max(abs(e.value - c.fair) for e in c.rates))
    k = max(range(worst.players), key=lambda i: abs(worst.rates[i].value - worst.fair))
    return worst, k


def _common(eff: CardEffects) -> list[CardRow]:
    """The card kinds laid often enough at a dangerous total to be judged."""
    return [r for r in eff.cards if r.played >= COMMON]


def _seat_section(a: Analysis) -> list[str]:
    cells = a.seat_order
    t = cells[0]
    out = [
        f"`{t.bot}` in every seat, each edition's default rules, {t.games:,} games per row; the "
        "first dealer is drawn at random from each game's seed. A seat's *position* is where it "
        "sits relative to that first dealer: 1st plays first in round 1, the dealer plays last. "
        "(In a tokens match the deal then passes clockwise each round.) The χ² test asks "
        "whether all positions could win equally often; a small p says they do not.",
        "",
    ]
    strong = _position_effects(cells)
    worst, k = _largest_gap(cells)
    out.append(
        f"- In {len(strong)} of {len(cells)} configurations the positions' win rates differ "
        "from equal shares at the 1% level"
        + (": " + ", ".join(f"{c.edition} with {c.players}" for c in strong) if strong else "")
        + "."
    )
    out.append(
        f"- The largest gap: {worst.edition} edition, {worst.players} players — the "
        f"{position_name(k, worst.players)} position wins {pct(worst.rates[k])} against a fair "
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
    out += [md_table(header, rows, right=1), ""]
    return out


def _length_section(a: Analysis) -> list[str]:
    cells, seats = a.game_length, a.seat_order
    t = cells[0]
    out = [
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
    out += [md_table(header, rows, right=2), ""]
    out += [
        "By number of players (the games of section 1, each edition's default match format):",
        "",
        "![Game length by players](length_by_players.png)",
        "",
    ]
    rows = [[s.edition, MATCH_NAMES[s.match], str(s.players), num(s.turns)] for s in seats]
    out += [md_table(["edition", "match", "players", "turns per game"], rows, right=2), ""]
    return out


def _card_section(a: Analysis) -> list[str]:
    effects = a.card_effects
    t = effects[0]
    out = [
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
        common = _common(eff)
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
        out += [md_table(header, rows, right=1), ""]
    return out


def _house_section(a: Analysis) -> list[str]:
    cells = a.house_rules
    t = cells[0]
    out = [
        "Each house rule is turned on alone, against the edition's defaults "
        f"({t.players} players). *Length*: {t.games:,} games of {t.players} × {t.bot} per rule "
        "set. *Edge*: the strong bot "
        f"`{t.strong}`{options_text(t.strong_options)} against {t.players - 1} × `{t.bot}`, "
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
                f"  - {c.rule}: turns {turn_change}; edge {pp(c.edge)}, change {edge_change}."
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
    out += [md_table(header, rows, right=2), ""]
    return out


class _Section(NamedTuple):
    field: str  # the Analysis field it reports
    topic: str  # what it is about, in a sentence
    heading: str
    write: Callable[[Analysis], list[str]]


SECTIONS = (  # in the order of the report (and of EXPERIMENTS)
    _Section("seat_order", "seat order", "1. Does the order of play matter?", _seat_section),
    _Section("game_length", "game length", "2. How long do games last?", _length_section),
    _Section(
        "card_effects",
        "card effects",
        "3. Which cards save players, and which knock them out?",
        _card_section,
    ),
    _Section("house_rules", "house rules", "4. What do the house rules change?", _house_section),
)


def _summary(a: Analysis) -> list[str]:
    """The headline of each section, with its interval."""
    out = ["## Summary", ""]
    seats = a.seat_order
    if seats:
        flagged = _position_effects(seats)
        worst, k = _largest_gap(seats)
        out.append(
            f"- **Seat order**: {len(flagged)} of {len(seats)} edition × player-count "
            "configurations show a position effect at the 1% level. The largest gap: "
            f"{worst.edition} with {worst.players} players, where the "
            f"{position_name(k, worst.players)} position wins {pct(worst.rates[k])} against a "
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
        saver = max(_common(eff), key=lambda r: r.survived.low, default=None)
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
        base = mine[0]
        longer = [c for c in mine[1:] if c.turns_vs_default.excludes(0)]
        edges = [c for c in mine[1:] if c.edge_vs_default.excludes(0)]
        if base.turns.too_few():
            length = f"{_too_few(base.turns.n)} whether a rule changes the length"
        elif longer:
            length = "length changes under " + ", ".join(
                f"{c.rule} ({num(c.turns_vs_default, 2, sign=True)} turns)" for c in longer
            )
        else:
            length = "no rule changes the length measurably"
        if base.edge.too_few():
            edge = f"{_too_few(base.edge.n)} whether a rule changes it"
        elif edges:
            edge = "and changes under " + ", ".join(
                f"{c.rule} ({pp(c.edge_vs_default)})" for c in edges
            )
        else:
            edge = "and no rule changes it measurably at this number of games"
        out.append(
            f"- **House rules, {edition}**: {length}; {base.strong}'s edge over greedy is "
            f"{pp(base.edge)} with the defaults, {edge}."
        )
    out.append("")
    return out


def _too_few(n: int) -> str:
    return f"too few games ({n:,}; a change needs at least {MIN_GAMES}) to tell"


def _change(e: Estimate, text: str) -> str:
    if e.too_few():
        return f"not told: too few games ({e.n:,}; a change needs at least {MIN_GAMES})"
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
        "in seat *s* gets a seed hashed from them and *s* (`ono99.sim.seeding.game_seeds`, "
        "the rule of `ono99 tournament` and `ono99 simulate` too).",
        f"- Strong bot: {a.strong}{options_text(a.strong_options)}; the other bots are greedy "
        "(src/ono99/bots/greedy.py).",
        "- Every figure describes these bots' play: a better or worse player may see other "
        "numbers.",
        "- All the numbers are in `results.json`.",
        "",
    ]
    lines += _summary(a)
    for section in SECTIONS:
        if getattr(a, section.field):  # a partial report has only the experiments it finished
            lines += [f"## {section.heading}", "", *section.write(a)]
    return "\n".join(lines).rstrip() + "\n"


def _partial_note(a: Analysis) -> list[str]:
    """What a report of a run stopped early holds, at its top."""
    missing = [section.topic for section in SECTIONS if not getattr(a, section.field)]
    names = ", ".join(missing[:-1]) + " and " + missing[-1] if len(missing) > 1 else missing[0]
    sections = "sections" if len(missing) > 1 else "section"
    return [
        f"**Partial report**: the run was interrupted during its {a.stopped_during} phase, "
        f"so the {sections} on {names} {'are' if len(missing) > 1 else 'is'} missing; the "
        "sections here are complete. The command below repeats the whole run.",
        "",
    ]
