import pytest

from training.ppo import Args, train

TINY = dict(game="amongus", num_players=4, num_envs=64, num_steps=8, total_steps=64 * 8 * 2,
            tensorboard=False, progress=False, snapshot_every=1, checkpoint_every=1,
            imitate=None, eval_every=0)


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory):
    """Two updates of a tiny Among Us run: checkpoints to load, corrupt and resume."""
    out = tmp_path_factory.mktemp("tiny_run")
    args = Args(out=str(out), **TINY)
    return args, train(args)
