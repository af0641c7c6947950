"""Training hiddendeck's games from outside libraries (RLlib, TorchRL, Tianshou, SB3): each
trains an Among Us crew against a fixed impostor and is judged against a random crew on
held-out deals (``examples.setting``; figures in ``examples/README.md``). Run from the
repository root, e.g. ``python -m examples.rllib_ppo``; RLlib, TorchRL and Tianshou come with
``pip install -e ".[integrations]"`` (a venv of its own: RLlib pins an older gymnasium).
``tests/test_examples.py`` runs each at a small size and asserts it learned."""
