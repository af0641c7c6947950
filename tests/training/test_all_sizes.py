"""All-sizes recipes: a seat network trained at several table sizes is scored at every size
it is asked for (by default every size its game deals), one row a size, the sizes it trained
at told from those it never met; the shipped all-sizes recipes parse; a bad size is refused by
name; the zoo says the sizes a member trained at and plays."""

import json
import shutil

import pytest

import envs
from agents import zoo
from evaluation.cli import main
from training.recipes import PLAYS, load
from training.sweep import sweep

TINY_ALL = '''
name = "tiny-all"
game = "menace"
players = [4, 5]
steps = 1024

[trainer]
model = "seats"
num_envs = 64
num_steps = 8
imitation_steps = 1024
eval_every = 0
hidden = [32, 32]

[score]
seeds = [1_000_003]
games = 8
play = "sampled"
players = [4, 6]
'''


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """One seed of a tiny Menace run at 4 and 5 players, scored at 4 (met) and 6 (not)."""
    root = tmp_path_factory.mktemp("all_sizes")
    recipe = root / "tiny-all.toml"
    recipe.write_text(TINY_ALL)
    result = sweep(str(recipe), [1], root / "sweep", threads=1)
    return root, result


def test_a_mixed_run_is_scored_at_each_size_asked_for_one_row_a_size(swept):
    root, result = swept
    score = json.loads((root / "sweep" / "seed-1" / "score.json").read_text())
    assert score["players"] == [4, 6] and score["trained_at"] == [4, 5]
    assert sorted(score["teams"]) == ["crew@4p", "crew@6p", "menace@4p", "menace@6p"]
    for key, row in score["teams"].items():
        assert key == f"{row['team']}@{row['players']}p"
        assert [b["params"]["num_players"] for b in row["benchmarks"]] == [row["players"]]
        assert row["excluded"] == ["heuristic"]  # imitated: seen in training at every size
    page = (root / "sweep" / "results.md").read_text()
    assert "never met in training: 6" in page
    for team in ("crew", "menace"):
        table = page.split(f"**{team}**")[1].split("\n\n")[1].splitlines()
        assert [line.split(" | ")[:2] for line in table[2:]] == [["| 4", "trained at"],
                                                                 ["| 6", "never met"]]


def test_the_benchmark_scores_one_checkpoint_at_several_sizes(swept, capsys):
    root, _ = swept
    crew = next((root / "sweep" / "seed-1" / "checkpoints").glob("*/crew.pt"))
    assert main(["benchmark", "menace", "--team", "crew", "--policy", str(crew),
                 "--players", "4,6", "--games", "4"]) == 0
    rows = capsys.readouterr().out.split("by table size")[1].splitlines()[2:]
    assert [row.split()[:3] for row in rows] == [["4", "trained", "at"], ["6", "never", "met"]]


def test_a_mixed_recipe_is_scored_by_default_at_every_size_its_game_deals(tmp_path):
    path = tmp_path / "mixed.toml"
    path.write_text(TINY_ALL.replace("players = [4, 6]\n", ""))
    assert load(str(path)).score_sizes == (4, 5, 6, 7, 8)
    assert load("menace5").score_sizes == (5,)  # a single-size recipe: its own table


@pytest.mark.parametrize("name,sizes", [("menace-all", range(4, 9)),
                                        ("amongus-all", range(4, 11)),
                                        ("maniacal-all", range(2, 6))])
def test_each_all_sizes_recipe_trains_one_seat_network_at_every_size(name, sizes):
    recipe = load(name)
    args = recipe.args(seed=1, out="runs/x")
    assert args.model == "seats" and args.table_sizes == tuple(sizes)
    assert recipe.score_sizes == tuple(sizes) and recipe.population == "v3"
    assert recipe.play in PLAYS
    spec = envs.registry[recipe.game]
    assert (spec.min_players, spec.max_players) == (sizes[0], sizes[-1])


@pytest.mark.parametrize("players,message", [
    ("[3]", "\\[score\\] players: 3 is not a table size of menace \\(it deals 4 to 8"),
    ("[4, 9]", "\\[score\\] players: 9 is not a table size of menace"),
    ("[4, 4]", "\\[score\\] players: \\[4, 4\\] names a table size twice"),
    ("[]", "\\[score\\] players: expected a non-empty list"),
    ('"every"', "\\[score\\] players: expected a non-empty list of table sizes or \"all\""),
])
def test_a_bad_scoring_size_is_refused_by_name(tmp_path, players, message):
    path = tmp_path / "bad.toml"
    path.write_text(TINY_ALL.replace("players = [4, 6]", f"players = {players}"))
    with pytest.raises(ValueError, match=message):
        load(str(path))


def test_a_network_of_one_table_is_not_scored_at_another(tmp_path):
    path = tmp_path / "mlp.toml"
    path.write_text('game = "menace"\nplayers = 5\nsteps = 100\n'
                    '[score]\nplay = "sampled"\nplayers = [5, 7]\n')
    with pytest.raises(ValueError, match="players: 7 players: a 'mlp' network reads the one "
                       "table it trained at \\(5\\)"):
        load(str(path))


def test_benchmark_refuses_a_size_the_game_does_not_deal(capsys):
    assert main(["benchmark", "menace", "--team", "crew", "--policy", "random", "--players",
                 "4,11"]) == 2
    assert "--players 4,11: 11 is not a table size of menace" in capsys.readouterr().err


def test_a_zoo_card_says_the_sizes_it_trained_at_and_plays(swept, tmp_path, monkeypatch):
    root, _ = swept
    for file in zoo.HERE.iterdir():
        if file.suffix in (".pt", ".json", ".md"):
            shutil.copy(file, tmp_path / file.name)
    monkeypatch.setattr(zoo, "HERE", tmp_path)
    monkeypatch.setattr(zoo, "INDEX", tmp_path / "index.json")
    run = root / "sweep" / "seed-1"
    crew = next((run / "checkpoints").glob("*/crew.pt"))
    record = zoo.add(crew, "tiny-all-crew", run / "score.json", trained_against="a test")
    assert record["table_sizes"] == [4, 5] and sorted(record["score_by_size"]) == ["4", "6"]
    (tmp_path / "tiny-all-crew.md").write_text("# a test card\n")
    card = zoo.card("tiny-all-crew")
    assert "trained against: a test (at 4, 5 players; plays 4 to 8 players)" in card
    assert "    at 6 players: held-out win rate" in card
    mlp = zoo.card("menace5-crew-s1")
    assert "(at 5 players; plays 5 players only)" in mlp
