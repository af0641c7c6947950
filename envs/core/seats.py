"""Seat arithmetic shared by every game: observations and actions name seats relative to the
observer (0 = itself, 1 = next clockwise), never by absolute number."""

from .jit import kernel


@kernel
def relative(seat, observer, n):
    """Where ``seat`` sits counted clockwise from ``observer``."""
    d = seat - observer
    return d + n if d < 0 else d


@kernel
def absolute(offset, observer, n):
    """The seat ``offset`` places clockwise from ``observer``."""
    j = observer + offset
    return j - n if j >= n else j
