"""A text picture of one game, as the whole table (``seat=None``) or as one seat sees it."""

import numpy as np

from . import cards as c
from .actions import henchman_name
from .rules import CONTRACT_PHASE, OWNED
from .spec import DECISION_NAMES, PHASE_NAMES, SUBJECT_NAMES, WEEKS
from .tables import CONTRACT_TARGET, HENCHMAN_TRAITS, N_HENCHMEN, VILLAIN_WEEKS

DIFFICULTY = ("Easy", "Hard", "Legendary")


def _kinds(counts, names) -> str:
    return ", ".join(f"{names[k]}x{int(v)}" for k, v in enumerate(counts) if v > 0) or "-"


def _henchman(s: np.void, h: int) -> str:
    traits = "/".join(str(int(HENCHMAN_TRAITS[h, t] + s["bonus"][h, t])) for t in range(4))
    tags = [t for t, on in (("exhausted", s["exhausted"][h]), ("team", s["on_team"][h])) if on]
    if s["injuries"][h]:
        tags.append(f"injured x{int(s['injuries'][h])}")
    return f"{henchman_name(h)} [{traits}]" + (f" ({', '.join(tags)})" if tags else "")


def render(s: np.void, seat: int | None = None) -> str:
    n = int(s["num_players"])
    rnd, phase = int(s["round"]), int(s["phase"])
    room_names = [r.name for r in c.ROOMS]
    scheme_names = [x.name for x in c.SCHEMES]
    head = f"round {rnd}/3  phase: {PHASE_NAMES[min(phase, 2)]}"
    if s["terminated"]:
        head += "  (game over)"
    else:
        head += (
            f"  deciding: player_{int(s['current_seat'])} "
            f"({DECISION_NAMES[int(s['decision'])]}"
            + (f", {SUBJECT_NAMES[int(s['subject'])]}" if s["subject"] else "")
            + ")"
        )
    if phase == 0:
        head += f"  pick {int(s['pick']) + 1}/3"
    lines = [head]
    order = " > ".join(f"player_{int(x)}" for x in s["order"][:n])
    lines.append(f"  player order: {order}")
    slots = []
    for k in range(6):
        card = int(s["map"][k])
        if card < 0:
            slots.append(f"{c.CONTINENT_NAMES[k]}: -")
            continue
        k_ = c.CONTRACTS[card]
        text = f"{DIFFICULTY[k_.difficulty]} team {k_.team} {c.TRAITS[k_.trait]}"
        if seat is None:
            text += f" [{k_.name}, target {k_.target}]"
        slots.append(f"{c.CONTINENT_NAMES[k]}: {text}")
    lines.append("  map: " + "; ".join(slots))
    if s["attempt_seat"] >= 0:
        k_ = c.CONTRACTS[int(s["contract"])]
        where = c.CONTINENT_NAMES[int(s["continent"])]
        text = f"  attempt by player_{int(s['attempt_seat'])} on {where}"
        if s["negative"] >= 0:
            text += f"; scheme {scheme_names[int(s['negative'])]} by player_{int(s['negative_by'])}"
        if s["flipped"]:
            printed = int(CONTRACT_TARGET[int(s["contract"])])
            text += f"; {k_.name}, target {int(s['target'])} (printed {printed})"
            text += f"; pool {'/'.join(str(int(x)) for x in s['pool'])}"
        if s["rolled"]:
            f = s["faces"]
            text += f"; rolled {int(f[0])}x0 {int(f[1])}x1 {int(f[2])}x2 +{int(s['extra'])}"
        lines.append(text)
    for j in range(n):
        left = ""
        if phase == CONTRACT_PHASE:
            left = f" time {int(s['spent'][j])}/{WEEKS[rnd - 1]}"
            left += " done" if s["finished"][j] else ""
        lines.append(
            f"  player_{j}: ${int(s['money'][j])} infamy {int(s['infamy'][j])} "
            f"villain {c.SUPERVILLAINS[int(s['villain'][j])].name} "
            f"(weeks {'/'.join(str(int(x)) for x in VILLAIN_WEEKS[int(s['villain'][j])])})"
            f" attraction {'/'.join(str(int(x)) for x in s['attraction'][j])} "
            f"schemes {int(s['scheme_count'][j])}{left}"
        )
        lines.append(f"    base: {_kinds(s['base'][j], room_names)}")
        crew = [
            _henchman(s, h)
            for h in range(N_HENCHMEN)
            if s["owner"][h] == j and s["where"][h] == OWNED
        ]
        lines.append(f"    henchmen: {'; '.join(crew) or '-'}")
        if seat is None or seat == j:
            if phase == 0:
                lines.append(f"    hand: {_kinds(s['hand'][j], room_names)}")
            lines.append(f"    schemes: {_kinds(s['schemes'][j], scheme_names)}")
    if s["terminated"]:
        rewards = [float(x) for x in s["rewards"][:n]]
        lines.append(f"  over: player_{int(s['winner'])} wins; rewards {rewards}")
    return "\n".join(lines)
