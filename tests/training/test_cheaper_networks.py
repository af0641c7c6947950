"""The network options that make training cheaper (``Args.activation``, ``Args.critic_hidden``)
and the update's unchecked distribution: every network saved before them builds and answers as
it did, the options reach the learner, its snapshots and its checkpoints, and bad settings are
named."""

import pytest
import torch

import envs
from agents import make_policy, zoo
from agents.checkpoint import load_checkpoint
from agents.neural import ActorCritic, MaskedCategorical, load_policy
from agents.sparse_input import InputLinear, SparseRows
from training.ppo import Args, train
from training.recipes import load

from .conftest import TINY

CONFIG = {"kind": "mlp", "observation_size": 12, "num_actions": 5, "critic_input_size": 12,
          "hidden": [16, 8]}


def test_a_saved_network_without_the_options_is_the_tanh_network_it_was():
    """Every zoo policy's logits are those of its weights through linear and tanh layers, as
    before the options existed (its config names neither)."""
    name = zoo.names()[0]
    entry = zoo.entry(name)
    params = {"num_players": entry["players"]}
    policy = make_policy(f"zoo:{name}", envs.registry[entry["game"]], params)
    assert "activation" not in policy.model.config and "critic_hidden" not in policy.model.config
    vec = envs.make_vec(entry["game"], 8, seed=3, **params)
    x = torch.from_numpy(vec.observe(vec.current_seat))
    weights = [(m.weight, m.bias) for m in policy.model.actor if isinstance(m, torch.nn.Linear)]
    with torch.inference_mode():
        expected = x
        for k, (w, b) in enumerate(weights):
            expected = torch.nn.functional.linear(expected, w, b)
            if k + 1 < len(weights):
                expected = torch.tanh(expected)
        assert torch.equal(policy.model.actor(x), expected)


def test_critic_hidden_sizes_the_critic_alone_and_keeps_the_actors_weights():
    torch.manual_seed(5)
    plain = ActorCritic(CONFIG)
    torch.manual_seed(5)
    narrow = ActorCritic({**CONFIG, "critic_hidden": [4]})
    assert [p.shape for p in narrow.critic.parameters()] == [(4, 12), (4,), (1, 4), (1,)]
    for a, b in zip(plain.actor.parameters(), narrow.actor.parameters()):
        assert torch.equal(a, b)


def test_relu_replaces_tanh_in_the_actor_and_the_critic():
    model = ActorCritic({**CONFIG, "activation": "relu"})
    kinds = {type(m) for m in [*model.actor, *model.critic]
             if not isinstance(m, torch.nn.Linear)}
    assert kinds == {torch.nn.ReLU}


@pytest.mark.parametrize("change,message", [
    ({"activation": "gelu"}, "activation must be one of"),
    ({"critic_hidden": (8, 0)}, "critic_hidden must list positive widths"),
])
def test_bad_settings_are_named(change, message):
    with pytest.raises(ValueError, match=message):
        Args(**{**TINY, **change}).check()


def test_a_run_trains_saves_and_loads_its_activation_and_critic_widths(tmp_path):
    args = Args(out=str(tmp_path), **{**TINY, "activation": "relu", "critic_hidden": (8,),
                                      "hidden": (16,)})
    paths = train(args)
    for team, path in paths.items():
        model = load_checkpoint(path)["metadata"]["model"]
        assert model["activation"] == "relu" and model["critic_hidden"] == [8]
        policy = load_policy(path, "amongus", team=team, num_players=4)
        assert isinstance(policy.model.actor[1], torch.nn.ReLU)
        assert policy.model.critic[0].weight.shape == (8, policy.model.config["critic_input_size"])
    pool = torch.load(paths["crew"].parent / "trainer.pt", weights_only=True)["pool"]
    assert all(s["0.weight"].shape[0] == 16 for s in pool["crew"]["recent"])


def test_a_recipe_sets_the_options(tmp_path):
    path = tmp_path / "cheap.toml"
    path.write_text('game = "amongus"\nplayers = 6\nsteps = 1000\n[trainer]\n'
                    'activation = "relu"\ncritic_hidden = [64, 64]\nupdate_epochs = 1\n'
                    '[score]\nplay = "sampled"\n')
    args = load(str(path)).args(seed=1, out=str(tmp_path / "run"))
    assert (args.activation, args.critic_hidden, args.update_epochs) == ("relu", (64, 64), 1)


def test_the_unchecked_distribution_is_the_checked_one():
    logits = torch.randn(6, 5)
    mask = torch.rand(6, 5) < 0.6
    mask[:, 2] = True
    checked, unchecked = MaskedCategorical(logits, mask), MaskedCategorical(logits, mask, False)
    actions = torch.tensor([2, 2, 2, 2, 2, 2])
    assert torch.equal(checked.log_prob(actions), unchecked.log_prob(actions))
    assert torch.equal(checked.entropy(), unchecked.entropy())


def test_the_sparse_first_layer_gives_the_dense_product_and_gradient():
    torch.manual_seed(2)
    dense = (torch.rand(40, 30) < 0.1) * torch.randn(40, 30)
    dense[3] = 0.0  # a row with no entry at all
    layer = InputLinear(30, 7)
    out = layer(dense)
    out.square().sum().backward()
    expected = [p.grad.clone() for p in layer.parameters()]
    layer.zero_grad()
    sparse_out = layer(SparseRows(dense))
    sparse_out.square().sum().backward()
    assert torch.allclose(sparse_out, out, atol=1e-5)
    for got, want in zip([p.grad for p in layer.parameters()], expected):
        assert torch.allclose(got, want, atol=1e-4)


def test_a_run_with_sparse_observations_trains_and_is_cpu_only(tmp_path):
    paths = train(Args(out=str(tmp_path), **{**TINY, "sparse_observations": True}))
    assert set(paths) == {"crew", "impostor"}
    with pytest.raises(ValueError, match="cpu only"):
        Args(**{**TINY, "sparse_observations": True, "device": "cuda"}).check()
