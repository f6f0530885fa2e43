"""The analysis report: ``report.md`` and its PNG plots, from an ``Analysis``.

``text`` writes estimates and names, ``plots`` draws one PNG per question, ``markdown`` writes
the report itself: what was played, with which seeds, and the command that repeats it.
``results.json`` holds every number of the report.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..experiments import Analysis
from .markdown import report_markdown
from .plots import (
    plot_card_effects,
    plot_game_length,
    plot_house_edge,
    plot_house_length,
    plot_length_by_players,
    plot_seat_order,
)


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
        paths += plot_card_effects(a.card_effects, out)
    if a.house_rules:
        paths += [plot_house_length(a.house_rules, out), plot_house_edge(a.house_rules, out)]
    results = out / "results.json"
    data = {"command": command, **analysis.to_dict()}
    results.write_text(json.dumps(data, indent=1, allow_nan=False) + "\n", encoding="utf-8")
    report = out / "report.md"
    report.write_text(report_markdown(analysis, command, runtime, workers), encoding="utf-8")
    return [report, results, *paths]


__all__ = ["report_markdown", "write_report"]
