"""PettingZoo AEC view of The Menace Among Us: ``env()`` (wrapped) and ``raw_env()``."""

from .core.aec import RawEnv, make_env
from .core.registry import game


def raw_env(render_mode=None, **params) -> RawEnv:
    return RawEnv(game("menace"), render_mode=render_mode, **params)


def env(render_mode=None, **params):
    return make_env(game("menace"), render_mode=render_mode, **params)
