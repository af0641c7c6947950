"""Agreement with a scripted teacher, by decision kind, and matches where the teacher takes
chosen kinds of decisions (``evaluation.agreement``)."""

import json

import numpy as np
import pytest

import envs
from agents import make_policy
from agents.policy import RandomPolicy
from evaluation.agreement import DecisionKinds, TeacherTakes, agreement, main, take_over
from evaluation.entrants import resolve
from evaluation.harness import Batch, play_batch
from evaluation.match import play_match

GAME = dict(game="amongus", num_players=4)
SPEC = envs.registry["amongus"]
PARAMS = SPEC.resolve(num_players=4)
HEURISTIC = make_policy("heuristic", SPEC, PARAMS)
IMPOSTOR_KINDS = {"show+sabotage", "offer+no+sabotage", "give+sabotage", "end+sabotage",
                  "no+sabotage", "guess"}


def test_a_decision_kind_is_the_set_of_leading_words_of_the_legal_actions():
    kinds = DecisionKinds(SPEC)
    mask = np.zeros((3, SPEC.num_actions), bool)
    names = list(SPEC.action_names)
    mask[0, [names.index("show red"), names.index("show blue"), names.index("sabotage")]] = True
    mask[1, [names.index("no sabotage"), names.index("sabotage")]] = True
    mask[2, names.index("clear, look at +1")] = True
    assert [kinds.label(int(c)) for c in kinds.codes(mask)] == [
        "show+sabotage", "no+sabotage", "clear"]
    assert kinds.parse("sabotage+no") == kinds.parse("no+sabotage") == kinds.codes(mask)[1]


def test_the_teacher_agrees_with_itself_everywhere():
    result = agreement("amongus", HEURISTIC, "impostor", games=64, seed=3, num_players=4)
    assert {kind for kind, _, _ in result.kinds} >= IMPOSTOR_KINDS
    assert all(agreed == n for _, n, agreed in result.kinds)
    assert result.as_dict()["agreement"] == 1.0


def test_a_random_policy_agrees_less():
    result = agreement("amongus", RandomPolicy(1), "impostor", games=64, seed=3, num_players=4)
    d = result.as_dict()
    assert d["agreement"] < 0.9
    guess = next(r for r in d["kinds"] if r["kind"] == "guess")
    assert guess["agreement"] < 0.6  # two wrong colours of three at 4 players


def test_the_kinds_partition_every_decision_of_the_teachers_own_games():
    """Both teams' decisions, over the kinds, are every decision of the deals 0 .. 39 as the
    evaluation harness plays them with the teacher in every seat."""
    counted = {team: agreement("amongus", HEURISTIC, team, games=40, seed=9, slots=16,
                               num_players=4).as_dict() for team in SPEC.teams}
    heuristic = resolve("heuristic", SPEC, PARAMS)
    log = play_batch(Batch("amongus", PARAMS, (heuristic, heuristic), 9, 0, 40))
    assert sum(d["decisions"] for d in counted.values()) == int(log.length.sum())
    for d in counted.values():
        assert sum(r["share"] for r in d["kinds"]) == pytest.approx(1.0)
        assert sum(r["decisions"] for r in d["kinds"]) == d["decisions"]


def test_a_free_for_all_compares_every_seat():
    spec = envs.registry["maniacal"]
    bot = make_policy("heuristic", spec, spec.resolve(num_players=3))
    result = agreement("maniacal", bot, None, games=8, seed=1, num_players=3)
    assert result.team == "player" and result.as_dict()["agreement"] == 1.0
    assert len(result.kinds) > 3


def test_the_teacher_taking_every_kind_plays_exactly_the_teachers_games():
    kinds = DecisionKinds(SPEC)
    every = TeacherTakes(RandomPolicy(2), HEURISTIC, kinds, range(1 << len(kinds.words)))
    match = {"crew": HEURISTIC}
    taken = play_match("amongus", {**match, "impostor": every}, 150, seed=5, num_players=4)
    teacher = play_match("amongus", {**match, "impostor": HEURISTIC}, 150, seed=5, num_players=4)
    alone = play_match("amongus", {**match, "impostor": RandomPolicy(2)}, 150, seed=5,
                       num_players=4)
    assert every.rows_taken == every.rows > 0
    assert (taken.wins, taken.decisions) == (teacher.wins, teacher.decisions)
    assert alone.wins["impostor"] < teacher.wins["impostor"]


def test_take_over_of_one_kind_routes_only_those_decisions():
    # 300 games: at 100 the heuristic's guesses alone won as many as the whole heuristic
    # (53 and 53) once both sides showed one decoy colour (2026-12-07); at 300, 13 < 133 < 170
    result = take_over("amongus", RandomPolicy(2), "impostor", ["guess"], games=300, seed=5,
                       num_players=4)
    assert result.taken == ["guess"] and 0 < result.taken_share < 0.5
    assert [label for label, _ in result.rows] == [
        "random alone", "heuristic takes guess", "heuristic (reference)"]
    (_, alone), (_, guessed), (_, teacher) = result.rows
    assert alone.wins["impostor"] < guessed.wins["impostor"] < teacher.wins["impostor"]


def test_the_command_prints_the_agreement_of_a_checkpoint(checkpoint, capsys):
    path = checkpoint(team="impostor", num_players=4, kind="gru", hidden=(16,))
    main([path, "--game", "amongus", "--players", "4", "--games", "16", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert d["team"] == "impostor" and d["games"] == 16
    assert sum(r["decisions"] for r in d["kinds"]) == d["decisions"] > 0


def test_the_command_plays_a_take_over(checkpoint, capsys):
    path = checkpoint(team="crew", num_players=4)
    main([path, "--game", "amongus", "--players", "4", "--games", "20", "--greedy",
          "--teacher-takes", "offer+no"])
    out = capsys.readouterr().out
    assert "| heuristic takes offer+no |" in out and "| heuristic (reference) |" in out


@pytest.mark.parametrize("argv, message", [
    (["--game", "menace"], "trained for game 'amongus', not 'menace'"),
    (["--game", "amongus", "--players", "5"], "num_players: checkpoint 4 vs requested 5"),
    (["--game", "amongus", "--players", "4", "--team", "crew"],
     "checkpoint is for team 'impostor', not 'crew'"),
    (["--game", "amongus", "--players", "4", "--teacher-takes", "guess,vote+fly"],
     "'vote+fly' is not a decision kind (['fly'] not among"),
    (["--game", "amongus", "--players", "4", "--teacher-takes", "guess,vote+fly"],
     "games (seed 777) are of the kinds "),
    (["--game", "amongus", "--players", "4", "--teacher-takes", "sabotage"],
     "no decision of the impostor is of the kind 'sabotage'; the impostor's decisions in 256"),
    (["--game", "amongus", "--players", "4", "--games", "0"], "--games must be positive"),
    (["--game", "amongus", "--players", "4", "--greedy"], "--greedy goes with --teacher-takes"),
    (["--game", "amongus", "--players", "4", "--teacher", "chainsaw"], "unknown policy"),
])
def test_bad_input_is_refused_with_a_clear_message(argv, message, checkpoint, capsys):
    path = checkpoint(team="impostor", num_players=4)
    with pytest.raises(SystemExit) as e:
        main([path, *argv])
    assert e.value.code == 2
    assert message in capsys.readouterr().err


def test_a_free_for_all_take_over_scores_half_the_seats_by_mean_position():
    """Random in half the seats places far behind the heuristic; with the heuristic taking its
    draft (build or sell) it places better; the heuristic against itself is 2.5 exactly."""
    result = take_over("maniacal", RandomPolicy(3), None, ["build+sell"], games=6, seed=2,
                       num_players=4)
    assert result.taken == ["build+sell"] and 0 < result.taken_share < 1
    assert result.seatings == 6 and result.deals == 6
    (_, alone, _), (_, drafted, _), (_, teacher, theirs) = result.rows
    assert teacher.mean_position == theirs.mean_position == 2.5
    assert alone.mean_position > drafted.mean_position > 2.5
    assert "mean position" in result.format_table()
