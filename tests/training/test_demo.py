"""The demo's table and verdicts say what the intervals say."""

from evaluation.demo import demo_seed, format_table, verdict
from evaluation.match import wilson_interval
from training.evaluate import eval_seed


def row(crew_wins: int, games: int = 2000) -> dict:
    rates = {"crew": crew_wins / games, "menace": 1 - crew_wins / games}
    return {"games": games, "win_rate": rates,
            "interval95": {"crew": wilson_interval(crew_wins, games),
                           "menace": wilson_interval(games - crew_wins, games)}}


def test_verdicts_follow_the_intervals():
    heuristic = row(900)
    assert "WORSE" in verdict("crew", "crew", row(700), heuristic)
    assert "as good as" in verdict("crew", "crew", row(890), heuristic)
    assert "better than" in verdict("crew", "crew", row(1100), heuristic)
    assert "better than" in verdict("menace", "menace", row(700), heuristic)


def test_the_table_shows_both_sides_with_intervals():
    text = format_table([("trained", "heuristic", row(900))], ("crew", "menace"))
    assert "45.0%" in text and "55.0%" in text and text.count("[") == 2


def test_the_demo_and_the_curves_deal_apart_from_training():
    for seed in (0, 1, 7):
        assert len({seed, demo_seed(seed), eval_seed(seed)}) == 3
