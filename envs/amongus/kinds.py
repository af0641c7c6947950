"""Among Us's decision kinds: the phase, which alone says what is asked (investigation is the
show, end of turn the vote, clear or kill), observed as the ``phase`` piece."""

from .rules import PHASE_NAMES as NAMES

PIECE = "phase"
__all__ = ["NAMES", "PIECE"]
