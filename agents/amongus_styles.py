"""Scripted styles of Among Us that a reference population holds (``agents.populations``), each a
way a careful player might try to break the counting heuristic. ``STYLES`` maps a short name to
the class; each plays one side (``teams``) and is the heuristic everywhere its style is silent.

- ``passive``: a crew that never acts: no trade, no vote, no clear; at an investigation it
  shows the first card it may. An outside audit found it forces a draw in every game against
  the heuristic impostor of version 5 (it waits out the round limit).
- ``flash``: the heuristic impostor, but it shows a card of the impostor's (its own) colour
  whenever it holds one. A show costs nothing, and the version 5 crew counted a seat that
  showed a colour as 20 times less likely to hold it: the audit's crew fell from 0.81 to 0.18.
- ``liar``: the heuristic crew, but each crewmate shows its own colour whenever it holds one;
  the impostor that reads shows as the counting prior does guesses them wrong.
- ``liar_chain``: the vote chain (``agents.amongus_chain``) showing its own colour: the audit's
  best crew script against the version 5 impostor (0.401 -> 0.088 for the impostor).
- ``late_vote``: a crew that sits still, showing its own colour, and votes the chain's target
  only in the last round (the audit's ``passive_last``: its best worst-case crew script).
- ``hider``: the heuristic impostor that never sabotages unless cornered or in the last round;
  it waits for kills and for votes to turn colours up.

Population v3 adds the turn-4 audit's styles (``shared/audits/turn4/amongus-maniacal.md``; not in
``STYLES``, which stays population v1's):

- ``mono`` (crew, AU-1): the heuristic crew showing one decoy colour every round.
- ``mono_impostor`` (impostor, AU-2): the heuristic impostor doing the same.

  The heuristic has since taken up the decoy itself (``agents/amongus_heuristic.py``), and its
  impostor the wait at investigations ``mono_impostor`` showed (it never sabotages at a show),
  so these two now differ from it only where it lets its last decoy card go (a crewmate at 4
  players, and at 5 near a clear) and in the card they give instead of it; they stay in the
  population to hold it there.
- ``honest_first`` (crew, AU-5): the vote chain, the first ``HONEST_SEATS`` seats of the round
  showing their own colour.

Issue 46's exploit search adds one crew style, in no population:

- ``handshake`` (crew): the exploit search's crew trade as a script: the heuristic crew trading
  on where it would decline (a card of the impostor's colour to the seat it suspects least,
  else its own colour to the seat it suspects most), reading a gift of the impostor's colour as
  a crewmate's. It beat the heuristic impostor until the impostor faked the handshake (from 6
  players, and from 5 since the second change of 2026-12-08: ``docs/evaluation.md``,
  "Population tables (v3)").

``python -m agents.amongus_styles`` prints the population table of ``docs/rules/amongus.md``.
"""

from __future__ import annotations

import argparse

import numpy as np

from envs.amongus import actions as A
from envs.amongus.cards import HAND_SIZE
from envs.amongus.pieces import (
    FIRST_PLAYER,
    HAND,
    IMPOSTOR_COLOUR,
    IS_IMPOSTOR,
    OWN_COLOUR,
    PHASE,
    ROUND,
    SHOWN_TOTAL,
)
from envs.amongus.rules import END_OF_TURN, INVESTIGATION, REPLY, SABOTAGE_WINDOW, TRADE
from envs.amongus.spec import NUM_PHASES
from envs.core.jit import kernel, njit

from .amongus_chain import chain_target
from .amongus_chain import decide as chain_decide
from .amongus_heuristic import decide as heuristic_decide
from .amongus_heuristic import (
    CREW_IMP_GIFTS, CREW_OWN_OUT, CREW_TRADES_ON, SETTINGS, SURE_AT, decide_with, decoy_colour,
)
from .policy import Policy, ScriptedPolicy

# The passive choices, in order of preference: whichever of these the decision allows.
PASSIVE = np.array([A.PASS, A.NO_TRADE, A.NO_SABOTAGE], np.int64)


class AmongUsPassive(Policy):
    """Never trades, votes, clears or sabotages; otherwise the first legal action."""

    name = "passive"
    teams = ("crew",)

    def __init__(self, spec=None, params=None):
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        mask = np.asarray(action_mask, bool)
        out = mask.argmax(axis=1).astype(np.int64)
        for action in PASSIVE[::-1]:  # the most preferred last, so it wins
            out[mask[:, action]] = action
        return out


@kernel
def _own_colour_shown(obs, mask, off, n):
    """At an investigation, a show of the seat's own colour (the impostor's, for the impostor)
    if it holds one; -1 otherwise."""
    phase = np.argmax(obs[off[PHASE] : off[PHASE] + NUM_PHASES])
    own = np.argmax(obs[off[OWN_COLOUR] : off[OWN_COLOUR] + n])
    if phase == INVESTIGATION and obs[off[HAND] + own] > 0 and mask[A.SHOW + own]:
        return A.SHOW + own
    return -1


@kernel
def decide_flash(obs, mask, off, n):
    show = _own_colour_shown(obs, mask, off, n)
    if obs[off[IS_IMPOSTOR]] > 0.5 and show >= 0:
        return show
    return heuristic_decide(obs, mask, off, n)


@kernel
def decide_liar(obs, mask, off, n):
    show = _own_colour_shown(obs, mask, off, n)
    if obs[off[IS_IMPOSTOR]] < 0.5 and show >= 0:
        return show
    return heuristic_decide(obs, mask, off, n)


@kernel
def decide_liar_chain(obs, mask, off, n):
    show = _own_colour_shown(obs, mask, off, n)
    if obs[off[IS_IMPOSTOR]] < 0.5 and show >= 0:
        return show
    return chain_decide(obs, mask, off, n)


@kernel
def decide_late_vote(obs, mask, off, n):
    if obs[off[IS_IMPOSTOR]] > 0.5:
        return heuristic_decide(obs, mask, off, n)
    show = _own_colour_shown(obs, mask, off, n)
    if show >= 0:
        return show
    phase = np.argmax(obs[off[PHASE] : off[PHASE] + NUM_PHASES])
    if phase == TRADE:
        return A.NO_TRADE
    if phase == SABOTAGE_WINDOW:
        return A.NO_SABOTAGE
    if phase == END_OF_TURN:
        target = chain_target(obs, off, n)
        if obs[off[ROUND]] >= 1.0 - 1e-6 and target > 0 and mask[A.VOTE + target - 1]:
            return A.VOTE + target - 1
        return A.PASS
    return heuristic_decide(obs, mask, off, n)


HIDER = SETTINGS.copy()
HIDER[SURE_AT] = 2.0  # a chance above 1: never sure enough


@kernel
def decide_hider(obs, mask, off, n):
    return decide_with(obs, mask, off, n, HIDER)


# The crew handshake: the heuristic crew that, rather than decline a trade while it keeps its
# last decoy card, offers another spare card, else a card of the impostor's colour to the seat
# it suspects least, else one of its own colour; and reads a card of the impostor's colour given
# to it as 20 to 1 that the giver is a crewmate (the heuristic impostor never gives one unless
# it holds nothing else).
HANDSHAKE = SETTINGS.copy()
HANDSHAKE[CREW_TRADES_ON] = HANDSHAKE[CREW_OWN_OUT] = HANDSHAKE[CREW_IMP_GIFTS] = 1.0


@kernel
def decide_handshake(obs, mask, off, n):
    return decide_with(obs, mask, off, n, HANDSHAKE)


@njit
def _handshake_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = decide_handshake(obs[b], mask[b], off, n)


@njit
def _flash_batch(obs, mask, off, n, out):
    # One loop per style: a loop given its decide as an argument is not cached on disk.
    for b in range(obs.shape[0]):
        out[b] = decide_flash(obs[b], mask[b], off, n)


@njit
def _liar_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = decide_liar(obs[b], mask[b], off, n)


@njit
def _liar_chain_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = decide_liar_chain(obs[b], mask[b], off, n)


@njit
def _late_vote_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = decide_late_vote(obs[b], mask[b], off, n)


@njit
def _hider_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = decide_hider(obs[b], mask[b], off, n)


class AmongUsFlash(ScriptedPolicy):
    """The heuristic impostor showing its own (the impostor's) colour whenever it can."""

    name = "flash"
    teams = ("impostor",)
    game = "amongus"
    decide_batch = _flash_batch
    strategy_for = ("impostor",)


class AmongUsHider(ScriptedPolicy):
    """The heuristic impostor that sabotages only when cornered or in the last round."""

    name = "hider"
    teams = ("impostor",)
    game = "amongus"
    decide_batch = _hider_batch
    strategy_for = ("impostor",)


class AmongUsLiar(ScriptedPolicy):
    """The heuristic crew, each crewmate showing its own colour whenever it can."""

    name = "liar"
    teams = ("crew",)
    game = "amongus"
    decide_batch = _liar_batch
    strategy_for = ("crew",)


class AmongUsLiarChain(ScriptedPolicy):
    """The vote chain, each crewmate showing its own colour whenever it can."""

    name = "liar_chain"
    teams = ("crew",)
    game = "amongus"
    decide_batch = _liar_chain_batch
    strategy_for = ("crew",)


class AmongUsLateVote(ScriptedPolicy):
    """Sits still showing its own colour; votes the chain's target in the last round."""

    name = "late_vote"
    teams = ("crew",)
    game = "amongus"
    decide_batch = _late_vote_batch
    strategy_for = ("crew",)


@kernel
def decide_mono(obs, mask, off, n, impostor):
    """Shows its decoy colour (the one it has shown most and still holds, never its own nor the
    impostor's) at every investigation and never trades or gives away its last card of it, on
    the side ``impostor`` says; the heuristic everywhere else."""
    return mono_with(obs, mask, off, n, impostor, heuristic_decide(obs, mask, off, n))


@kernel
def mono_with(obs, mask, off, n, impostor, choice):
    """``decide_mono`` on top of another player's ``choice``."""
    if (obs[off[IS_IMPOSTOR]] > 0.5) != impostor:
        return choice
    own = np.argmax(obs[off[OWN_COLOUR] : off[OWN_COLOUR] + n])
    imp = np.argmax(obs[off[IMPOSTOR_COLOUR] : off[IMPOSTOR_COLOUR] + n])
    decoy = decoy_colour(obs[off[HAND] : off[HAND] + n],
                         obs[off[SHOWN_TOTAL] : off[SHOWN_TOTAL] + n], n, own, imp)
    if decoy < 0:  # no show yet: its first show (the heuristic's) becomes the decoy
        return choice
    phase = np.argmax(obs[off[PHASE] : off[PHASE] + NUM_PHASES])
    if phase == INVESTIGATION and mask[A.SHOW + decoy]:
        return A.SHOW + decoy
    if obs[off[HAND] + decoy] * HAND_SIZE > 1.5:  # more than one: it may part with one
        return choice
    if phase == TRADE and A.OFFER + decoy * A.O <= choice < A.OFFER + (decoy + 1) * A.O:
        return A.NO_TRADE
    if phase == REPLY and choice == A.GIVE + decoy:
        for c in range(n):
            if c != decoy and mask[A.GIVE + c]:
                return A.GIVE + c
    return choice


HONEST_SEATS = 3  # the seats of a round, from its first player, that show their own colour


@kernel
def decide_honest_first(obs, mask, off, n):
    """The vote chain; a crewmate among the round's first ``HONEST_SEATS`` to play shows its
    own colour when it holds one."""
    first = np.argmax(obs[off[FIRST_PLAYER] : off[FIRST_PLAYER] + n])
    position = (n - first) % n  # the observer's place in this round's turn order
    show = _own_colour_shown(obs, mask, off, n)
    if obs[off[IS_IMPOSTOR]] < 0.5 and position < HONEST_SEATS and show >= 0:
        return show
    return chain_decide(obs, mask, off, n)


@njit
def _mono_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = decide_mono(obs[b], mask[b], off, n, False)


@njit
def _mono_impostor_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = decide_mono(obs[b], mask[b], off, n, True)


@njit
def _honest_first_batch(obs, mask, off, n, out):
    for b in range(obs.shape[0]):
        out[b] = decide_honest_first(obs[b], mask[b], off, n)


class AmongUsMono(ScriptedPolicy):
    """Audit turn 4, AU-1, a crew style: the heuristic crew, but each crewmate shows the same
    decoy colour every round (the one it has shown most, not its own, not the impostor's) and
    keeps its last card of it. The heuristic's changing shows rule out colour after colour;
    one decoy rules out one. It held the heuristic impostor to 0.030 wins at 6 players."""

    name = "mono"
    teams = ("crew",)
    game = "amongus"
    decide_batch = _mono_batch
    strategy_for = ("crew",)


class AmongUsMonoImpostor(ScriptedPolicy):
    """Audit turn 4, AU-2, an impostor style: the heuristic impostor showing one decoy colour
    every round (not the impostor's) and keeping its last card of it. It held the heuristic crew
    to 0.140 wins at 6 players."""

    name = "mono_impostor"
    teams = ("impostor",)
    game = "amongus"
    decide_batch = _mono_impostor_batch
    strategy_for = ("impostor",)


class AmongUsHonestFirst(ScriptedPolicy):
    """Audit turn 4, AU-5, a crew style: the vote chain, but a crewmate among the first three
    to play in a round shows its own colour (the rest show the chain's spare colour). The
    developers' suggested exploit of the honest-table reading: the crew won 0.561 against the
    heuristic impostor at 6 players (the chain: 0.508)."""

    name = "honest_first"
    teams = ("crew",)
    game = "amongus"
    decide_batch = _honest_first_batch
    strategy_for = ("crew",)


class AmongUsHandshake(ScriptedPolicy):
    """The exploit search's crew trade (issue 46), as a script: the heuristic crew, trading on
    while it keeps its last decoy card (another spare card, else a card of the impostor's
    colour to the seat it suspects least, else one of its own to the seat it suspects most),
    and reading a card of the impostor's colour given to it as 20 to 1 that the giver is a
    crewmate. The heuristic impostor never gives one: on the heuristic of before 2026-12-08
    (which declined those trades and read such gifts so), this trade alone took the crew from
    0.613 to 0.926 at 6 players (seed 77, 1,000 games), the trade exploiter to 0.856."""

    name = "handshake"
    teams = ("crew",)
    game = "amongus"
    decide_batch = _handshake_batch
    strategy_for = ("crew",)


STYLES: dict[str, type] = {
    "passive": AmongUsPassive,
    "liar": AmongUsLiar,
    "liar_chain": AmongUsLiarChain,
    "late_vote": AmongUsLateVote,
    "flash": AmongUsFlash,
    "hider": AmongUsHider,
}


def population_table(players: int, games: int, seed: int = 0) -> list[tuple[str, str, float,
                                                                             tuple]]:
    """The heuristic crew against every impostor of the population and the heuristic impostor
    against every crew, ``games`` games each on the same deals (one seed): rows of (side the
    heuristic plays, opponent, heuristic's win rate, 95% interval)."""
    import envs
    from agents import make_policy
    from evaluation.match import play_match

    spec = envs.registry["amongus"]
    params = spec.resolve(num_players=players)

    def member(name):
        if name in STYLES:
            return STYLES[name](spec, params)
        return make_policy(name, spec, params, seed=seed)

    heuristic = member("heuristic")
    crews = ["random", "heuristic", "chain"] + [k for k, v in STYLES.items() if "crew" in v.teams]
    impostors = ["random", "heuristic"] + [k for k, v in STYLES.items() if "impostor" in v.teams]
    rows = []
    for name in impostors:
        r = play_match("amongus", {"crew": heuristic, "impostor": member(name)}, games,
                       num_envs=min(games, 1000), seed=seed, num_players=players)
        rows.append(("crew", name, r.rate("crew"), r.interval("crew")))
    for name in crews:
        r = play_match("amongus", {"crew": member(name), "impostor": heuristic}, games,
                       num_envs=min(games, 1000), seed=seed, num_players=players)
        rows.append(("impostor", name, r.rate("impostor"), r.interval("impostor")))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=population_table.__doc__)
    parser.add_argument("--players", type=int, nargs="+", default=[6])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for players in args.players:
        print(f"## {players} players, {args.games} games per row, seed {args.seed}")
        print("| heuristic plays | against | its win rate | 95% interval |")
        print("| --- | --- | --- | --- |")
        for side, name, rate, (low, high) in population_table(players, args.games, args.seed):
            print(f"| {side} | {name} | {rate:.3f} | {low:.3f}-{high:.3f} |")


if __name__ == "__main__":
    main()
