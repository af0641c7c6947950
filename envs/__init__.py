"""hiddendeck environments: one batched engine (``make_vec``) and PettingZoo views of each game."""

from .core.registry import make_vec, registry

__all__ = ["make_vec", "registry"]
