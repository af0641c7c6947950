"""The calling process does not grow with the games played (issue 42, L8): ``eval`` without
``--out`` keeps what its table needs, a tournament (which stores every batch) keeps nothing.
The million-game measurement: ``tests/reliability/parent_memory.py``."""

import pytest

from evaluation import tournament
from evaluation.crossplay import GameLog, Outcomes, cross_play

LINEUPS = {"crew": ["random", "heuristic"], "impostor": ["random"]}


def test_a_match_without_replays_gives_the_same_matrix_from_outcomes_only(tmp_path):
    whole = cross_play("amongus", LINEUPS, 40, batch_games=16, workers=1, num_players=4)
    lean = cross_play("amongus", LINEUPS, 40, batch_games=16, workers=1, num_players=4,
                      replays=False)
    assert lean.as_dict() == whole.as_dict()
    assert lean.format_table() == whole.format_table()
    assert all(isinstance(c.log, Outcomes) for c in lean.cells)
    assert all(isinstance(c.log, GameLog) for c in whole.cells)
    with pytest.raises(ValueError, match="without keeping its games"):
        lean.write(tmp_path / "out")
    assert not any((tmp_path / "out").iterdir())


def test_a_tournament_keeps_none_of_the_games_it_stored(tmp_path, monkeypatch):
    returned = []
    real = tournament.run_batches
    monkeypatch.setattr(tournament, "run_batches",
                        lambda batches, **kw: returned.append(real(batches, **kw)))
    tournament.run_tournament("amongus", ["random,heuristic"], 8, db=tmp_path / "r.sqlite",
                              workers=1, num_players=4)
    assert returned == [[]]
