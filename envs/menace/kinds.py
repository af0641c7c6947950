"""The Menace's decision kinds: the observation's ``decision`` piece, named as the rules number
them (``rules/board.py``)."""

from .spec import DECISION_NAMES as NAMES

PIECE = "decision"
__all__ = ["NAMES", "PIECE"]
