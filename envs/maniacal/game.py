"""MANIACAL as the engine runs it."""

from ..core.engine import GameDef
from .observe import god_view, observe
from .render import render
from .rules import DTYPE, legal_actions, reset, step, team_of
from .spec import SPEC

GAME = GameDef(
    spec=SPEC,
    dtype=DTYPE,
    reset=reset,
    step=step,
    legal_actions=legal_actions,
    observe=observe,
    god_view=god_view,
    team_of=team_of,
    render=render,
)
