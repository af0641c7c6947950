"""The seat-token network (``model = "seats"``, ``agents.seat_encoder``): every piece of every
game splits into seat tokens by comparing its sizes, a seat's rows reach its token alone,
padding never changes an answer, and one checkpoint plays every table size of its game."""

import numpy as np
import pytest
import torch

import envs
from agents.checkpoint import CheckpointError, load_checkpoint
from agents.neural import ActorCritic, load_policy
from agents.seat_encoder import SeatLayoutError, SeatPlan, classify, seat_plans
from envs.core.spec import Layout, Piece
from evaluation.match import play_match
from training.cli import args_from_namespace, register
from training.ppo import Args, model_config, train

from .conftest import TINY

# every game at its defaults, and the parameters that change which pieces have rows
VARIANTS = [("amongus", {}), ("amongus", {"assist": 1}), ("maniacal", {}), ("menace", {}),
            ("menace", {"table_talk": 1, "advanced": 1, "history_rounds": 8}),
            ("menace", {"history_rounds": 0, "game_counts": 0})]


def _config(game: str, n: int, **extra) -> dict:
    env = envs.make_vec(game, 1, seed=0, num_players=n)
    return model_config(env, Args(game=game, num_players=n, model="seats", hidden=(32, 32),
                                  **extra))


@pytest.mark.parametrize("game,params", VARIANTS)
def test_every_float_of_every_table_size_lands_in_exactly_one_token(game, params):
    """The observation's and the god-view's pieces all classify, at every table size, and each
    column of the flat vector is read by one token feature exactly once."""
    for plan in seat_plans(game, params):
        for n in plan.sizes:
            size = plan.size_of[n]
            read = np.concatenate([plan.seat_index[n].ravel(), plan.global_index[n]])
            read = read[read != size]  # the padding zero
            assert np.array_equal(np.sort(read), np.arange(size)), (plan.what, n)
            assert (plan.seat_index[n][n:] == size).all()  # absent seats read zeros only


@pytest.mark.parametrize("shape,message", [
    (lambda n: (2 * n,), "axis 0 is .* neither fixed nor n \\+ c"),
    (lambda n: (n - 1, 3), "axis 0 is .* neither fixed nor n \\+ c"),
    (lambda n: (n, n, n), "has 3 seat axes"),
    (lambda n: (n,) * (n - 3), "changes rank"),
])
def test_a_piece_that_is_not_seats_plus_a_constant_is_refused_by_name(shape, message):
    def layout(n):
        return Layout((Piece("fine", (n, 4)), Piece("odd", shape(n))))

    with pytest.raises(SeatLayoutError, match="piece 'odd' " + message):
        classify({n: layout(n) for n in (4, 5, 6)})


def test_seat_axes_with_extras_keep_their_extras_apart():
    """A ballot row ``n + 1`` long (the last column: abstained) pads its seats to the largest
    table and keeps "abstained" at one place; a ``[H, n + 1]`` owner piece gives each seat its
    column and the global token the "nobody" column."""
    def layout(n):
        return Layout((Piece("ballots", (n, n + 1)), Piece("owner", (2, n + 1))))

    plan = SeatPlan(layout, range(3, 6))
    n = 3
    ballots = np.arange(n * (n + 1)).reshape(n, n + 1)
    owner = n * (n + 1) + np.arange(2 * (n + 1)).reshape(2, n + 1)
    pad = plan.size_of[n]
    assert plan.seat_width == 5 + 1 + 2 + 0 and plan.global_width == 2  # 5 seats + abstained
    for j in range(n):
        assert list(plan.seat_index[n][j]) == [*ballots[j, :n], pad, pad, ballots[j, n],
                                               *owner[:, j]]
    assert list(plan.global_index[n]) == list(owner[:, n])


def test_a_change_to_one_seats_rows_changes_its_token_alone():
    """Seat ``j``'s slice of every seat-indexed piece (its rows in relative seating) reaches
    token ``j`` and nothing else; the pieces without a seat axis reach the global token."""
    n = 6
    plan, _ = seat_plans("amongus", {"max_rounds": 30, "assist": 0})
    model = ActorCritic(_config("amongus", n))
    encoder = model.actor.encoder
    vec = envs.make_vec("amongus", 4, seed=2, num_players=n)
    layout = vec.observation_layout
    x = torch.from_numpy(vec.observe(vec.current_seat))
    _, seat, glob, _ = encoder.tokens(x)
    rng = np.random.default_rng(0)
    for j in range(n):
        changed = x.numpy().copy()
        views = layout.split(changed)  # views into ``changed``
        for piece, axes in zip(layout.pieces, plan.axes):
            if axes.seat_axes:
                index = [slice(None)] * (1 + len(piece.shape))
                index[1 + axes.seat_axes[0]] = j
                views[piece.name][tuple(index)] = rng.random(views[piece.name][tuple(index)].shape)
        _, seat2, glob2, _ = encoder.tokens(torch.from_numpy(changed))
        differs = (seat2 != seat).any(-1).any(0)
        assert differs.tolist() == [k == j for k in range(plan.max_seats)]
        assert torch.equal(glob, glob2)
    changed = x.numpy().copy()
    changed[:, layout.offsets[layout.index("phase")]] += 1.0
    _, seat2, glob2, _ = encoder.tokens(torch.from_numpy(changed))
    assert torch.equal(seat, seat2) and not torch.equal(glob, glob2)


@pytest.mark.parametrize("game,n", [("amongus", 4), ("menace", 5), ("maniacal", 2)])
def test_the_answer_does_not_depend_on_the_padding(game, n):
    """A table of ``n``'s logits, values and beliefs are the same whether its tokens are padded
    to ``n`` seats or to any larger table, and whatever the absent seats' tokens hold."""
    torch.manual_seed(1)
    model = ActorCritic(_config(game, n)).eval()
    encoder = model.actor.encoder
    vec = envs.make_vec(game, 8, seed=3, num_players=n)
    x = torch.from_numpy(vec.observe(vec.current_seat))
    with torch.no_grad():
        pooled, seats = encoder(x, pad_to=n)
        for S in range(n, encoder.plan.max_seats + 1):
            other, other_seats = encoder(x, pad_to=S)
            torch.testing.assert_close(other, pooled, rtol=1e-5, atol=1e-5)
            torch.testing.assert_close(other_seats, seats, rtol=1e-5, atol=1e-5)
        _, seat, glob, absent = encoder.tokens(x)
        junk = torch.where(absent.unsqueeze(-1), torch.randn_like(seat) * 10, seat)
        torch.testing.assert_close(encoder.attend(junk, glob, absent)[0], pooled,
                                   rtol=1e-5, atol=1e-5)


def test_the_pooled_row_is_the_same_whatever_order_the_other_seats_tokens_come_in():
    """Attention and pooling are symmetric in the other seats' tokens (each carries its own
    place at the table): reordering seats 1 .. n-1's tokens, place features with them, leaves
    the pooled row as it was. The observer's token stays first."""
    torch.manual_seed(2)
    n = 7
    encoder = ActorCritic(_config("amongus", n)).actor.encoder.eval()
    vec = envs.make_vec("amongus", 8, seed=4, num_players=n)
    with torch.no_grad():
        _, seat, glob, absent = encoder.tokens(torch.from_numpy(vec.observe(vec.current_seat)))
        pooled, _ = encoder.attend(seat, glob, absent)
        order = torch.tensor([0, 3, 6, 1, 5, 2, 4, *range(n, encoder.plan.max_seats)])
        shuffled, _ = encoder.attend(seat[:, order], glob, absent[:, order])
    torch.testing.assert_close(shuffled, pooled, rtol=1e-5, atol=1e-5)


def test_bad_settings_are_named():
    for change, message in [({"sparse_observations": True}, "sparse_observations"),
                            ({"belief_input": True}, "belief_input"),
                            ({"deduction": "amongus-counts"}, "deduction")]:
        with pytest.raises(ValueError, match=message):
            Args(game="amongus", model="seats", total_steps=10, **change).check()
    with pytest.raises(ValueError, match="divide by seat_heads 4"):
        ActorCritic({**_config("amongus", 4), "hidden": [30, 8]})
    with pytest.raises(ValueError, match="none of this game's table sizes"):
        ActorCritic({**_config("amongus", 4), "observation_size": 192})
    with pytest.raises(ValueError, match="seat_params"):
        ActorCritic({**_config("amongus", 4), "seat_params": {"num_players": 4}})


def test_the_command_line_and_a_recipe_select_the_seat_network(tmp_path):
    import argparse

    from training.recipes import load

    parser = argparse.ArgumentParser().add_subparsers()
    ns = register(parser).parse_args(["amongus", "--model", "seats"])
    assert args_from_namespace(ns).model == "seats"
    recipe = tmp_path / "seats.toml"
    recipe.write_text('game = "amongus"\nplayers = 5\nsteps = 1000\n[trainer]\nmodel = "seats"\n'
                      '[score]\nplay = "sampled"\n')
    assert load(str(recipe)).args(seed=1, out=tmp_path).model == "seats"


@pytest.fixture(scope="module")
def seats_run(tmp_path_factory):
    """A tiny Among Us run of the seat network at 4 players, warm-started by imitation, with a
    centralised critic: checkpoints to play at every table size."""
    args = Args(out=str(tmp_path_factory.mktemp("seats_run")), model="seats", hidden=(32, 32),
                centralised_critic=True,
                **{**TINY, "imitate": "heuristic", "imitation_steps": 64 * 8 * 2})
    return args, train(args)


def test_a_seat_network_trains_warm_starts_and_saves(seats_run):
    args, paths = seats_run
    checkpoint = load_checkpoint(paths["crew"])
    config = checkpoint["metadata"]["model"]
    assert config["kind"] == "seats" and config["seat_game"] == "amongus"
    assert "num_players" not in config["seat_params"]
    assert checkpoint["metadata"]["steps"] == args.total_steps
    model = ActorCritic(config)
    model.load_state_dict(checkpoint["model"])  # the index buffers are rebuilt, not saved
    assert not [k for k in checkpoint["model"] if "index" in k or "position" in k]


def test_one_checkpoint_plays_every_table_size_through_the_match_harness(seats_run):
    """Trained at 4 players, the crew and impostor checkpoints play Among Us at 4 to 10; the
    role head answers for every other seat at each size."""
    _, paths = seats_run
    spec = envs.registry["amongus"]
    for n in range(spec.min_players, spec.max_players + 1):
        policies = {team: load_policy(paths[team], "amongus", team=team, seed=n, num_players=n)
                    for team in spec.teams}
        result = play_match("amongus", policies, num_games=4, num_envs=4, seed=n,
                            num_players=n, max_rounds=3)
        assert sum(result.wins.values()) + result.draws == 4
        vec = envs.make_vec("amongus", 4, seed=n, num_players=n)
        beliefs = policies["crew"].beliefs(vec.observe(vec.current_seat))
        assert beliefs.shape == (4, n) and (beliefs[:, 0] == 0).all()


def test_a_seat_checkpoint_is_still_checked_against_its_game(seats_run, tiny_run):
    _, paths = seats_run
    with pytest.raises(CheckpointError, match="max_rounds"):
        load_policy(paths["crew"], "amongus", num_players=6, max_rounds=7)
    with pytest.raises(CheckpointError, match="not 'menace'"):
        load_policy(paths["crew"], "menace", num_players=6)
    _, mlp = tiny_run  # an MLP reads one table size and says so
    with pytest.raises(CheckpointError, match="num_players: checkpoint 4 vs requested 6; a "
                                              "'mlp' network reads one table size"):
        load_policy(mlp["crew"], "amongus", num_players=6)
