"""One seeding rule (``ono99.sim.seeding``) and one runner (``ono99.sim.batches``): simulate,
tournaments and the analysis deal game i of a run alike, and the runner gives the same results
however many processes play."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from ono99.engine import load_record, make_rules, record_of
from ono99.sim.batches import play_batch
from ono99.sim.experiments.cells import CellGames, self_play
from ono99.sim.experiments.game_length import length_game
from ono99.sim.seated import Seated
from ono99.sim.seeding import derived_seed, game_seeds, play_seeded
from ono99.sim.tournament import Tournament, play_one


def test_the_seeds_of_game_i_are_hashed_from_the_run_seed_and_i() -> None:
    seeds = game_seeds(11, 3, 4)
    assert seeds.deal == derived_seed(11, 3)
    assert seeds.bots == tuple(derived_seed(11, 3, "seat", s) for s in range(4))
    assert game_seeds(11, 4, 4).deal != seeds.deal
    assert len({game_seeds(11, i, 4).deal for i in range(200)}) == 200


def test_tournament_simulate_and_analysis_deal_game_i_alike() -> None:
    rules = make_rules("2022", players=4)
    tournament = Tournament(rules, ("greedy",) * 4, games=5, seed=7)
    simulate = Seated(rules, ("greedy",) * 4, games=5, seed=7)
    for i in range(5):
        game = play_one(tournament, i)
        analysis = self_play("2022", 4, {}, "greedy", 7, i)
        seated = play_seeded(rules, ("greedy",) * 4, 7, i)
        assert game.seed == analysis.setup.seed == seated.setup.seed == derived_seed(7, i)
        assert record_of(analysis) == record_of(seated)  # the same deal, the same moves
        assert load_record(game.record) == record_of(analysis)  # meta aside
        assert analysis.winners == game.winners
        assert simulate.play(i) == (analysis.winners, analysis.moves, analysis.round)


@dataclass(frozen=True)
class Failing:
    """A batch whose game 5 raises."""

    games: int = 9

    def play(self, index: int) -> int:
        if index == 5:
            raise RuntimeError("game 5 failed")
        return index * index


@pytest.mark.parametrize("workers", [1, 2])
def test_a_game_that_raises_stops_the_batch_with_its_error(workers: int) -> None:
    with pytest.raises(RuntimeError, match="game 5 failed"):
        list(play_batch(Failing(), workers=workers))


def test_cells_come_back_in_order_whatever_the_workers() -> None:
    cells = (("2022", 3, {"match": "single"}, "greedy"), ("1980", 3, {}, "random"))
    batch = CellGames(length_game, cells, games_per_cell=6, seed=3)
    done: list[int] = []
    serial = list(play_batch(batch))
    assert list(play_batch(batch, workers=2, on_done=done.append)) == serial
    assert sum(done) == batch.games == 12
    assert serial[6] == length_game("1980", 3, {}, "random", 3, 0)
