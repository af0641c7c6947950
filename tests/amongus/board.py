"""A scenario builder for Among Us rule tests: a real dealt game, then the board we want."""

from __future__ import annotations

import numpy as np

import envs
from envs.amongus import rules
from envs.amongus.cards import COLOUR_NAMES, MAX_PLAYERS


class Table:
    """One game (a batch of one) whose record a test may rewrite before acting."""

    def __init__(self, num_players: int = 4, impostor: int = 1, seed: int = 0, **params):
        self.vec = envs.make_vec("amongus", 1, seed=seed, num_players=num_players, **params)
        self.n = num_players
        rec = self.vec.records.copy()
        s = rec[0]
        s["colour"][:num_players] = np.arange(num_players)  # seat i holds colour i
        s["impostor"] = impostor
        s["impostor_colour"] = impostor
        self.vec.set_records(rec)

    @property
    def s(self) -> np.void:
        return self.vec.records[0]

    def edit(self, **fields) -> "Table":
        rec = self.vec.records.copy()
        for name, value in fields.items():
            rec[0][name] = value
        self.vec.set_records(rec)
        return self

    def hands(self, *hands: dict) -> "Table":
        """``hands(seat0, seat1, ...)``, each ``{colour_name: count}``."""
        rec = self.vec.records.copy()
        rec[0]["hand"][:, :] = 0
        for seat, hand in enumerate(hands):
            for name, count in hand.items():
                rec[0]["hand"][seat, COLOUR_NAMES.index(name)] = count
        self.vec.set_records(rec)
        return self

    def turn(self, seat: int, phase: int = rules.TRADE) -> "Table":
        """It is ``seat``'s turn (its first of the round unless it is the first player)."""
        first = int(self.s["first_player"])
        return self.edit(
            phase=phase,
            turn_owner=seat,
            current_seat=seat,
            turn_index=(seat - first) % self.n,
            investigation_index=self.n,
        )

    def legal(self) -> list[str]:
        return self.vec.legal_action_names(0)

    def act(self, name: str):
        spec = self.vec.spec
        if name not in spec.action_names:
            raise KeyError(name)
        rewards, terminated, truncated = self.vec.step(np.array([spec.action_names.index(name)]))
        return rewards[0].copy(), bool(terminated[0]), bool(truncated[0])

    def let_the_window_pass(self) -> list[int]:
        """Every seat asked in the open sabotage window declines; returns them in order."""
        asked = []
        while int(self.s["phase"]) == rules.SABOTAGE_WINDOW:
            asked.append(int(self.s["current_seat"]))
            self.act("no sabotage")
        return asked

    def hand(self, seat: int) -> dict:
        return {COLOUR_NAMES[c]: int(k) for c, k in enumerate(self.s["hand"][seat]) if k}

    def observation(self, seat: int) -> dict:
        return self.vec.observation_layout.split(self.vec.observe(seat)[0])


def shown(**colours_by_seat) -> np.ndarray:
    """A ``shown_total`` board: ``seat0=["pink", "green"]`` means seat 0 showed each once."""
    total = np.zeros((MAX_PLAYERS, MAX_PLAYERS), np.int8)
    for seat, names in colours_by_seat.items():
        for name in names:
            total[int(seat[-1]), COLOUR_NAMES.index(name)] += 1
    return total


# Seat 1 is the impostor (blue): red, green and pink are left for seats 0, 2 and 3. Seat 0
# showed pink and green, seat 3 showed green: only one deal fits them all (seat 0 red, seat 3
# pink), so seat 2 is green, though seat 2 itself showed nothing; each other deal has a seat
# holding a colour it showed.
ONE_DEAL_FITS = shown(seat0=["pink", "green"], seat3=["green"])

# Seat 3 is the impostor (pink). Seat 1 showed green, seat 2 blue, seat 3 blue and green: of the
# deals of blue, green and pink to seats 1-3, the one that fits every show has seat 3 pink, and
# seat 3 is the impostor 905 times in 1000 (seat 1: 48, seat 2: 47).
SEAT_3_SHOWED_THE_OTHERS = shown(seat1=["green"], seat2=["blue"], seat3=["blue", "green"])
# Seat 3 showed only green: seats 1 and 3 are each the impostor 476 times in 1000.
SEATS_1_AND_3_ALIKE = shown(seat1=["green"], seat2=["blue"], seat3=["green"])
