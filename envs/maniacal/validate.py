"""Relations of a MANIACAL record that hold only in one phase, checked by ``set_records``
beside ``limits.check`` (see ``envs/core/limits.py``): the pushes they guard happen only then.

- The pending decision belongs to the phase: a Draft only while building bases, the decisions of
  a turn (``TURN`` to ``AFTER_ACTION``) only in the Contract phase, ``UNPAID`` and ``FIRE`` only
  in the Clean-up. A turn's decision pending in another phase would run the Contract phase's
  pushes on a record that keeps none of its relations.
- During the Contract phase each seat whose time runs out is pushed once onto the next Player
  Order, so that pile holds exactly the finished seats, each once, then empty slots. Outside it
  the pile is stale until the next Contract phase clears it. A count raised alone
  (``next_order_n=4`` with nobody finished) sent the next push past the pile's end (audit N1,
  ``rules.leave_time_track``).
"""

import numpy as np

from .rules import (
    AFTER_ACTION,
    BASE_BUILDING,
    CLEAN_UP,
    CONTRACT_PHASE,
    DRAFT,
    FIRE,
    TURN,
    UNPAID,
)

_PHASE_OF = np.full(max(DRAFT, AFTER_ACTION, UNPAID, FIRE) + 1, -1, np.int64)  # by decision
_PHASE_OF[DRAFT] = BASE_BUILDING
_PHASE_OF[TURN:AFTER_ACTION + 1] = CONTRACT_PHASE
_PHASE_OF[[UNPAID, FIRE]] = CLEAN_UP


def check(records: np.ndarray, params: dict):
    """The first ``(record, what is wrong)``, or None."""
    n = params["num_players"]
    contract = records["phase"] == CONTRACT_PHASE
    finished = records["finished"][:, :n].astype(bool)
    count = records["next_order_n"].astype(np.int64)
    order = records["next_order"].astype(np.int64)
    slots = np.arange(order.shape[1]) < count[:, None]
    held = np.zeros_like(finished)  # each seat among the first next_order_n slots
    rows = np.repeat(np.arange(len(records)), order.shape[1])
    seats = order.reshape(-1)
    ok = (seats >= 0) & (seats < n) & slots.reshape(-1)
    held[rows[ok], seats[ok]] = True
    checks = (
        (_PHASE_OF[records["decision"]] != records["phase"],
         "the pending decision is not one of this phase"),
        (contract & (count != finished.sum(-1)),
         "next_order_n differs from the seats finished this Contract phase"),
        (contract[:, None] & (held != finished),
         "the next Player Order does not hold exactly the finished seats"),
        (contract[:, None] & ((order >= 0) != slots),
         "the next Player Order does not hold next_order_n seats, then empty slots"),
    )
    for bad, message in checks:
        bad = bad.reshape(len(records), -1).any(-1)
        if bad.any():
            return int(np.flatnonzero(bad)[0]), message
    return None
