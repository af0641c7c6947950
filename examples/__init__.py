"""Training hiddendeck's games from outside libraries, one role per policy (RLlib, TorchRL,
Tianshou, SB3). Run from the repository root, e.g. ``python -m examples.rllib_ppo``; RLlib,
TorchRL and Tianshou come with ``pip install -e ".[integrations]"`` (a venv of its own: RLlib
pins an older gymnasium). ``tests/test_examples.py`` runs each at a tiny size."""
