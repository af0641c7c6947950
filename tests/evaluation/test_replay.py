"""Replays: every recorded game, from a games file or a results database, ends as recorded."""

import gzip
import json

import pytest

from evaluation.cli import main
from evaluation.crossplay import cross_play
from evaluation.replay import load, play_record, records
from evaluation.tournament import run_tournament


@pytest.fixture(scope="module")
def games_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("replay")
    result = cross_play("menace", {"crew": ["heuristic", "random"], "menace": ["heuristic"]}, 12,
                        seed=3, workers=1, slots=4, num_players=5)
    result.write(out)
    return out / "games.jsonl.gz"


def test_every_recorded_game_replays_to_its_result(games_file, tmp_path):
    recorded = list(records(games_file))
    assert len(recorded) == 24
    for record in recorded:
        play_record(record)
    db = tmp_path / "r.sqlite"
    run_tournament("amongus", ["random", "heuristic"], 10, db=db, workers=1, batch_games=4,
                   slots=3, num_players=5)
    stored = list(records(db))
    assert len(stored) == 4 * 10  # self-play pairings included
    for record in stored:
        play_record(record)


def test_a_tampered_record_is_caught(games_file):
    record = load(games_file, 1)
    record.actions = record.actions[:-1]
    with pytest.raises(ValueError, match="still running"):
        play_record(record)
    record = load(games_file, 2)
    record.rewards = [-r for r in record.rewards]
    with pytest.raises(ValueError, match="recorded winner"):
        play_record(record)
    record = load(games_file, 3)
    record.version += 1
    with pytest.raises(ValueError, match="cannot be replayed"):
        play_record(record)


def test_a_seat_sees_only_its_own_decisions(games_file, capsys):
    assert main(["replay", str(games_file), "--game", "5", "--seat", "2"]) == 0
    seat_view = capsys.readouterr().out
    assert "as recorded" in seat_view
    decisions = [line for line in seat_view.splitlines() if line.startswith("-- decision")]
    for line in decisions:
        assert line.split(": ")[1] == "player_2" or line.endswith(": decides")
    assert any("player_2" in d and not d.endswith("decides") for d in decisions)
    assert main(["replay", str(games_file), "--game", "5", "--god"]) == 0
    god_view = capsys.readouterr().out
    assert "decides" not in god_view and len(god_view) > len(seat_view) / 2


def test_replay_errors_are_one_line(tmp_path, games_file, capsys):
    assert main(["replay", str(games_file), "--game", "99"]) == 2
    assert "has no game 99; it holds 24" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl.gz"
    with gzip.open(bad, "wt") as f:
        f.write(json.dumps({"format": "other"}) + "\n")
    assert main(["replay", str(bad)]) == 2
    assert "not a hiddendeck-games/1 file" in capsys.readouterr().err
