"""A heuristic player of MANIACAL, from its observation alone.

It plays the game's evident strategy. In the draft it builds the rooms whose attraction wins it
henchmen (points on a track where it can outbid the table and pay the face-up card's Cost) and
whose effects it will use, and sells what it cannot afford or does not need, keeping money for
salaries (and, in round 3, for the money bonus). In the Contract Phase it attempts the contract
with the most expected Infamy for the team it can field (the hidden front averaged over every
card with the same back) whenever that is at least 1 Infamy at a 25% chance or better. Its odds
count its Lackey's re-roll of the blanks (a die then fails 1 time in 4, not 1 in 2), and it
fields the Lackey where the re-roll is worth more than a stronger member: without the re-roll it
undervalued every contract its Lackey joined, Hard and Legendary ones most, and an audit's seat
that attempted the hardest legal Hard or Legendary contract whenever it could placed 2.31 on
average at 4 players (par 2.5; turn-4 audit, MA-1). It sends its strongest uninjured henchmen
(with the Lackey or without, as above), runs its Action rooms with the Supervillain or a
henchman no contract needs, hires a Mercenary when its team is short, and otherwise visits The
Underground. It spends rooms and Schemes on its own roll only while they can still change the
result, re-rolls to maximise its chance of success, plays its negative Schemes against the
leader (or anyone attempting a Legendary contract ahead of it), gives Powers to its strongest
recruit, and loses its weakest henchman when it must lose one.

The policy has no memory: the same observation always gets the same action.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import kernel, njit
from envs.maniacal import actions as A
from envs.maniacal import cards as c
from envs.maniacal import rules as R
from envs.maniacal.observe import (
    ATTEMPT_CONTINENT,
    ATTEMPT_SEAT,
    ATTRACTION,
    BONUS,
    DECISION,
    FACES,
    HENCHMAN_COST_PIECE,
    HENCHMAN_EXHAUSTED,
    HENCHMAN_INJURIES,
    HENCHMAN_ON_TEAM,
    HENCHMAN_OWNER,
    HENCHMAN_TRAITS_PIECE,
    HENCHMAN_TYPE_PIECE,
    HENCHMAN_WHERE,
    INFAMY,
    MAP_DIFFICULTY,
    MAP_PRESENT,
    MAP_TEAM,
    MAP_TRAIT,
    MONEY,
    NEGATIVE_SCHEME,
    PENDING_ROOM,
    POOL,
    RESULT_ICONS,
    ROOMS_BUILT,
    ROUND,
    SUBJECT,
    SUPERVILLAIN_EXHAUSTED,
    TARGET,
    TIME_COST,
    TIME_LEFT,
)
from envs.maniacal.odds import BACK, FACE, MAX_DICE, MAX_TARGET, P_SUCCESS, success_table
from envs.maniacal.spec import DIE_FACES
from envs.maniacal.tables import (
    CONTRACT_RESULT,
    CONTRACT_TARGET,
    LACKEY,
    MERCENARY,
    N_CONTINENTS,
    N_CONTRACTS,
    N_HENCHMEN,
    N_ROOM_KINDS,
    N_SCHEME_KINDS,
    ROOM_AMOUNT,
    ROOM_ATTRACTION,
    ROOM_CATEGORY,
    ROOM_COST,
    ROOM_EFFECT,
    ROOM_WEEKS,
    SCHEME_NEG,
    SCHEME_NEG_AMOUNT,
    SCHEME_POS,
    SCHEME_POS_AMOUNT,
)

from .policy import ScriptedPolicy

H, RK, SK, C = N_HENCHMEN, N_ROOM_KINDS, N_SCHEME_KINDS, N_CONTINENTS

# Worth of one activation of a room, in Infamy (a dollar is worth about half an Infamy point).
MONEY_WORTH = 0.5
ROOM_WORTH = np.zeros(RK, np.float64)
for _k in range(RK):
    _e, _a = ROOM_EFFECT[_k], ROOM_AMOUNT[_k]
    ROOM_WORTH[_k] = {
        c.NO_EFFECT: 0.0,
        c.GAIN_MONEY: _a * MONEY_WORTH,
        c.MONEY_PER_WORKER_TRAIT: 2.5 * MONEY_WORTH,
        c.DRAW_SCHEME: 0.8 * _a,
        c.GRANT_POWER: 1.6,
        c.HEAL: 0.5,
        c.GAIN_ATTRACTION: 0.4 * _a,
        c.BUY_INFAMY: _a - c.BUY_INFAMY_PRICE * MONEY_WORTH,
        c.ADD_DICE: 0.5 * _a,
        c.ADD_DICE_RECOMMENDED: 0.5 * _a,
        c.ADD_WORKER_DICE: 1.2,
        c.ADD_SUCCESSES: 1.0 * _a,
        c.REROLL_BLANKS: 0.9,
        c.ON_SUCCESS_MONEY: 0.6 * _a * MONEY_WORTH,
        c.CANCEL_CAPTURE: 0.4,
    }[_e]


def _reroll_table() -> np.ndarray:
    """``[d, t]``: the chance that d dice reach t successes when every blank is rolled once
    more, as the heuristic does with its Lackey's re-roll whenever it is short (P-17)."""
    after = FACE * (1.0 + FACE[0])  # a blank's second roll lands on every face
    after[0] = FACE[0] * FACE[0]
    return success_table(after)


P_REROLL = _reroll_table()

# The harm a negative Scheme half does to an attempt, in Infamy.
NEGATIVE_WORTH = np.zeros(SK, np.float64)
for _s in range(SK):
    _e, _a = SCHEME_NEG[_s], SCHEME_NEG_AMOUNT[_s]
    NEGATIVE_WORTH[_s] = {
        c.TARGET_UP: 1.2 * _a,
        c.REMOVE_DICE: 0.6 * _a,
        c.NO_REROLL: 0.6,
        c.NO_CONTRACT_ROOMS: 0.6,
        c.ON_FAIL_INJURE: 0.3,
        c.ON_SUCCESS_MONEY_DOWN: _a * MONEY_WORTH,
    }[_e]
# What a contract result's Captured and Injured icons cost, in Infamy (valuing its Scheme and
# Power icons too, or a Captured henchman by the rounds left, changed nothing measurable).
CAPTURE_WORTH = 1.5
INJURY_WORTH = 0.3


@kernel
def count(x, scale):
    """An observation entry back to the integer it encodes (``scale`` is its divisor)."""
    return int(x * scale + 0.5)


@kernel
def one_hot(obs, start, size):
    """The index of the set entry of a one-hot piece; -1 if none is set."""
    for i in range(size):
        if obs[start + i] > 0.5:
            return i
    return -1


@kernel
def mine(obs, off, n, h):
    """The observer owns henchman h (column 0 of the owner rows is the observer)."""
    return (
        obs[off[HENCHMAN_OWNER] + (n + 1) * h] > 0.5
        and obs[off[HENCHMAN_WHERE] + 5 * h + R.OWNED] > 0.5
    )


@kernel
def trait(obs, off, h, t):
    return count(obs[off[HENCHMAN_TRAITS_PIECE] + 4 * h + t], 7.0)


@kernel
def is_type(obs, off, h, kind):
    return obs[off[HENCHMAN_TYPE_PIECE] + 6 * h + kind] > 0.5


@kernel
def best_trait(obs, off, h):
    best = 0
    for t in range(4):
        best = max(best, trait(obs, off, h, t))
    return best


@kernel
def dice(obs, off, h):
    """Dice henchman h brings to a contract: every trait point, a Lackey's best trait only."""
    if is_type(obs, off, h, LACKEY):
        return best_trait(obs, off, h)
    total = 0
    for t in range(4):
        total += trait(obs, off, h, t)
    return total


@kernel
def injured(obs, off, h):
    return obs[off[HENCHMAN_INJURIES] + h] > 0.01


@kernel
def exhausted(obs, off, h):
    return obs[off[HENCHMAN_EXHAUSTED] + h] > 0.5


@kernel
def keep_worth(obs, off, h):
    """What losing henchman h costs: its dice, a Lackey's re-roll, less if it leaves anyway."""
    worth = float(dice(obs, off, h))
    if is_type(obs, off, h, LACKEY):
        worth += 2.0
    if is_type(obs, off, h, MERCENARY):
        worth *= 0.3  # it goes back to its deck at Clean-up
    if injured(obs, off, h):
        worth -= 1.0
    return worth


@kernel
def my_henchmen(obs, off, n):
    total = 0
    for h in range(H):
        if mine(obs, off, n, h):
            total += 1
    return total


@kernel
def reserve(obs, off, n, rnd):
    """Money to keep: this round's salaries with a spare dollar, more before the money bonus."""
    keep = my_henchmen(obs, off, n) + 1
    if rnd == 3:
        keep += 3
    return keep


@kernel
def available(obs, off, n, h):
    """Henchman h is the observer's and may join a team now (unexhausted, uninjured)."""
    return mine(obs, off, n, h) and not exhausted(obs, off, h) and not injured(obs, off, h)


@kernel
def team_dice(obs, off, n, team, without):
    """Dice of the best `team` available henchmen of the observer, leaving out henchman
    `without` (-1: none left out); -1 if it has too few."""
    best = np.zeros(max(team, 1), np.int64)
    found = 0
    for h in range(H):
        if h != without and available(obs, off, n, h):
            d = dice(obs, off, h)
            found += 1
            # insert into the top `team`
            for i in range(team):
                if d > best[i]:
                    for j in range(team - 1, i, -1):
                        best[j] = best[j - 1]
                    best[i] = d
                    break
    if found < team:
        return -1
    return int(best[:team].sum())


@kernel
def my_lackey(obs, off, n):
    """The observer's Lackey if it may join a team now; -1 if not."""
    for h in range(H):
        if is_type(obs, off, h, LACKEY) and available(obs, off, n, h):
            return h
    return -1


@kernel
def result_worth(card, r, money):
    """What result r (0 success, 1 failure) of a contract card is worth, in Infamy."""
    icons = CONTRACT_RESULT[card, r, 2]
    worth = CONTRACT_RESULT[card, r, 0] + money * CONTRACT_RESULT[card, r, 1]
    if icons & c.CAPTURED:
        worth -= CAPTURE_WORTH
    if icons & c.INJURED:
        worth -= INJURY_WORTH
    return worth


@kernel
def back_worth(back, d, reroll, rnd):
    """Expected (worth in Infamy, success chance) of a contract with this back for a team of
    d dice, its front averaged over every card with the back; with ``reroll``, the team's
    Lackey re-rolls the blanks when short."""
    money = MONEY_WORTH * (1.3 if rnd == 3 else 1.0)
    worth = 0.0
    chance = 0.0
    cards = 0
    for card in range(N_CONTRACTS):
        if BACK[card] != back:
            continue
        t = min(CONTRACT_TARGET[card], MAX_TARGET)
        p = P_REROLL[d, t] if reroll else P_SUCCESS[d, t]
        worth += p * result_worth(card, 0, money) + (1.0 - p) * result_worth(card, 1, money)
        chance += p
        cards += 1
    return worth / cards, chance / cards


@kernel
def contract_plan(obs, off, n, k, extra_dice, rnd):
    """Expected (worth, success chance, Lackey on the team) of attempting continent k's
    contract now with the better of two teams: the strongest henchmen without the Lackey, or
    the Lackey (whose re-roll of the blanks is worth more than its dice) and the strongest
    others. Worth is -1 where neither team can be fielded."""
    difficulty = one_hot(obs, off[MAP_DIFFICULTY] + 3 * k, 3)
    team = one_hot(obs, off[MAP_TEAM] + 4 * k, 4) + 1
    t = one_hot(obs, off[MAP_TRAIT] + 4 * k, 4)
    back = difficulty * 16 + (team - 1) * 4 + t
    best_worth, best_chance, with_lackey = -1.0, 0.0, False
    lackey = my_lackey(obs, off, n)
    d = team_dice(obs, off, n, team, lackey)
    if d >= 0:
        best_worth, best_chance = back_worth(back, min(d + extra_dice, MAX_DICE), False, rnd)
    if lackey >= 0:
        d = team_dice(obs, off, n, team - 1, lackey)
        if d >= 0:
            d = min(d + dice(obs, off, lackey) + extra_dice, MAX_DICE)
            worth, chance = back_worth(back, d, True, rnd)
            if worth > best_worth:
                best_worth, best_chance, with_lackey = worth, chance, True
    return best_worth, best_chance, with_lackey


@kernel
def contract_worth(obs, off, n, k, extra_dice, rnd):
    """Expected (Infamy, success chance) of attempting continent k's contract now, its hidden
    front averaged over every card with the same back (-1 Infamy: too few henchmen)."""
    worth, chance, _ = contract_plan(obs, off, n, k, extra_dice, rnd)
    return worth, chance


@kernel
def spare_room_dice(obs, off, n):
    """Dice the observer's unused before-the-roll Contract rooms could add (if a worker is free)."""
    if obs[off[SUPERVILLAIN_EXHAUSTED]] > 0.5:
        return 0
    best = 0
    for k in range(RK):
        if ROOM_CATEGORY[k] != c.CONTRACT:
            continue
        if count(obs[off[ROOMS_BUILT] + k], 3.0) == 0:
            continue
        if ROOM_EFFECT[k] == c.ADD_DICE or ROOM_EFFECT[k] == c.ADD_DICE_RECOMMENDED:
            best = max(best, ROOM_AMOUNT[k])
    return best


# --- the draft ----------------------------------------------------------------------------


@kernel
def face_up_cost(obs, off, kind):
    for h in range(H):
        if obs[off[HENCHMAN_WHERE] + 5 * h + R.FACE_UP] > 0.5 and is_type(obs, off, h, kind):
            return count(obs[off[HENCHMAN_COST_PIECE] + h], 7.0)
    return 99


@kernel
def attraction_worth(obs, off, n, k):
    """Henchmen room k would win: a point counts most where it lifts the observer to the top of
    a track at or above the face-up card's Cost."""
    worth = 0.0
    for t in range(4):
        gain = ROOM_ATTRACTION[k, t]
        if gain == 0:
            continue
        mine_now = count(obs[off[ATTRACTION] + t], 10.0)
        rival = 0
        for r in range(1, n):
            rival = max(rival, count(obs[off[ATTRACTION] + 4 * r + t], 10.0))
        after = mine_now + gain
        if after > rival and after >= face_up_cost(obs, off, t):
            worth += 1.3 * gain
        elif after + 3 > rival:
            worth += 0.8 * gain
        else:
            worth += 0.4 * gain
    return worth


@kernel
def decide_draft(obs, mask, off, n, rnd, money):
    keep = reserve(obs, off, n, rnd)
    rounds_left = 4 - rnd
    best, best_value = -1, -1e9
    for k in range(RK):
        if not (mask[A.BUILD + k] or mask[A.SELL + k]):
            continue
        cost = ROOM_COST[k]
        if mask[A.BUILD + k]:
            uses = rounds_left
            if ROOM_EFFECT[k] == c.GAIN_ATTRACTION:
                uses = rounds_left - 1  # it only helps next round's recruiting
            effect = 2.0 * ROOM_WORTH[k] * uses * 0.6  # in dollars; used most rounds
            if count(obs[off[ROOMS_BUILT] + k], 3.0) > 0:
                effect *= 0.7
            price = 0.9 if money - cost >= keep else 1.8
            value = attraction_worth(obs, off, n, k) + effect - price * cost
            if value > best_value:
                best, best_value = A.BUILD + k, value
        if mask[A.SELL + k]:
            price = 1.0 if money >= keep else 1.5
            if rnd == 3:
                price += 0.4
            value = price * cost
            if value > best_value:
                best, best_value = A.SELL + k, value
    return best


# --- the Contract Phase ---------------------------------------------------------------------


@kernel
def first_scheme(obs, mask, effect, injured_needed, off, n):
    """A legal Scheme whose positive half is `effect` (the one with the largest amount)."""
    best, best_amount = -1, -1
    for s in range(SK):
        if mask[A.SCHEME + s] and SCHEME_POS[s] == effect and SCHEME_POS_AMOUNT[s] > best_amount:
            best, best_amount = A.SCHEME + s, SCHEME_POS_AMOUNT[s]
    if best >= 0 and injured_needed:
        for h in range(H):
            if mine(obs, off, n, h) and injured(obs, off, h):
                return best
        return -1
    return best


@kernel
def free_scheme(obs, mask, off, n):
    """A free positive play that is never wrong: money now, or healing an injured henchman."""
    choice = first_scheme(obs, mask, c.P_GAIN_MONEY, False, off, n)
    if choice < 0:
        choice = first_scheme(obs, mask, c.P_HEAL, True, off, n)
    return choice


@kernel
def spare_worker(obs, off, n):
    """A worker whose exhaustion costs no contract: the Supervillain, or an injured henchman."""
    if obs[off[SUPERVILLAIN_EXHAUSTED]] < 0.5:
        return True
    for h in range(H):
        if mine(obs, off, n, h) and not exhausted(obs, off, h) and injured(obs, off, h):
            return True
    return False


@kernel
def decide_turn(obs, mask, off, n, rnd, money):
    choice = free_scheme(obs, mask, off, n)
    if choice >= 0:
        return choice
    keep = reserve(obs, off, n, rnd)
    time_left = count(obs[off[TIME_LEFT]], 10.0)
    extra = spare_room_dice(obs, off, n)
    best_contract, best_rate, best_chance, best_worth = -1, 0.0, 0.0, 0.0
    short = False
    for k in range(C):
        if obs[off[MAP_PRESENT] + k] < 0.5:
            continue
        if not mask[A.CONTRACT + k]:
            team = one_hot(obs, off[MAP_TEAM] + 4 * k, 4) + 1
            if team_dice(obs, off, n, team, -1) < 0:
                short = True
            continue
        worth, chance = contract_worth(obs, off, n, k, extra, rnd)
        weeks = count(obs[off[TIME_COST] + k], 5.0)
        rate = worth / weeks
        if worth > best_worth:
            best_contract, best_rate, best_chance, best_worth = A.CONTRACT + k, rate, chance, worth
    if best_contract >= 0 and best_chance >= 0.25 and best_worth >= 1.0:
        return best_contract
    # Action rooms, with a worker no contract needs (or when no contract is worth it)
    free = spare_worker(obs, off, n) or best_contract < 0
    best_room, best_room_rate = -1, 0.3
    for k in range(RK):
        if not mask[A.ROOM + k]:
            continue
        worth = ROOM_WORTH[k]
        if ROOM_EFFECT[k] == c.GAIN_ATTRACTION and rnd == 3:
            worth = 0.0
        if ROOM_EFFECT[k] == c.BUY_INFAMY and money - c.BUY_INFAMY_PRICE < keep:
            worth = 0.0
        if not free:
            worth *= 0.5
        rate = worth / ROOM_WEEKS[k]
        if rate > best_room_rate:
            best_room, best_room_rate = A.ROOM + k, rate
    if best_room >= 0:
        return best_room
    contracts_left = 0
    for k in range(C):
        if obs[off[MAP_PRESENT] + k] > 0.5:
            contracts_left += 1
    lounge = A.VISIT + A.LOUNGE
    if (
        mask[lounge] and contracts_left > 0 and time_left >= 5 and money >= keep + 1
        and (short or best_chance < 0.6)
    ):
        return lounge
    hospital = A.VISIT + A.HOSPITAL
    if mask[hospital] and contracts_left > 0 and time_left >= 5 and money >= keep + 2:
        return hospital
    if best_contract >= 0 and best_worth >= 1.0:
        return best_contract
    underground = A.VISIT + A.UNDERGROUND
    if mask[underground]:
        return underground
    return A.PASS


@kernel
def decide_worker(obs, mask, off, n):
    """A room paying by the worker's trait takes the best-trait henchman; any other room the
    Supervillain, or else the henchman a contract needs least."""
    room = one_hot(obs, off[PENDING_ROOM], RK)
    by_trait = room >= 0 and (
        ROOM_EFFECT[room] == c.MONEY_PER_WORKER_TRAIT or ROOM_EFFECT[room] == c.ADD_WORKER_DICE
    )
    if mask[A.SUPERVILLAIN] and not by_trait:
        return A.SUPERVILLAIN
    best, best_value = -1, -1e9
    for h in range(H):
        if not mask[A.HENCHMAN + h]:
            continue
        if by_trait:
            value = best_trait(obs, off, h) + (1.5 if injured(obs, off, h) else 0.0)
        else:
            value = -keep_worth(obs, off, h) + (5.0 if injured(obs, off, h) else 0.0)
        if value > best_value:
            best, best_value = A.HENCHMAN + h, value
    return best


@kernel
def decide_team(obs, mask, off, n, rnd):
    """The lowest id (P-34) of the team its contract plan fields: the strongest henchmen,
    with the Lackey where its re-roll is worth more than a stronger member, else without it."""
    k = one_hot(obs, off[ATTEMPT_CONTINENT], C)
    if k < 0:
        return -1
    _, _, with_lackey = contract_plan(obs, off, n, k, spare_room_dice(obs, off, n), rnd)
    remaining = one_hot(obs, off[MAP_TEAM] + 4 * k, 4) + 1
    last = -1
    for h in range(H):
        if obs[off[HENCHMAN_ON_TEAM] + h] > 0.5:
            last = h
            remaining -= 1
    chosen = np.zeros(H, np.bool_)
    lackey = my_lackey(obs, off, n)
    if lackey > last and obs[off[HENCHMAN_ON_TEAM] + lackey] < 0.5 and remaining > 0:
        if with_lackey:
            chosen[lackey] = True
            remaining -= 1
    for _ in range(max(remaining, 0)):
        best, best_dice = -1, -1
        for h in range(last + 1, H):
            if (
                not chosen[h] and available(obs, off, n, h) and h != lackey
                and obs[off[HENCHMAN_ON_TEAM] + h] < 0.5 and dice(obs, off, h) > best_dice
            ):
                best, best_dice = h, dice(obs, off, h)
        if best >= 0:
            chosen[best] = True
    for h in range(H):
        if chosen[h] and mask[A.HENCHMAN + h]:
            return A.HENCHMAN + h
    return -1


@kernel
def decide_negative(obs, mask, off, n):
    """Against the leader (ties included), or against a Legendary attempt by a seat level with
    or ahead of the observer: the most harmful Scheme held."""
    attacker = one_hot(obs, off[ATTEMPT_SEAT], n)
    k = one_hot(obs, off[ATTEMPT_CONTINENT], C)
    if attacker <= 0 or k < 0:
        return A.PASS
    theirs = count(obs[off[INFAMY] + attacker], 50.0)
    leader = True
    for r in range(n):
        if r != attacker and count(obs[off[INFAMY] + r], 50.0) > theirs:
            leader = False
    legendary = obs[off[MAP_DIFFICULTY] + 3 * k + c.LEGENDARY] > 0.5
    if not (leader or (legendary and theirs >= count(obs[off[INFAMY]], 50.0))):
        return A.PASS
    lackey_on_team = False
    for h in range(H):
        if obs[off[HENCHMAN_ON_TEAM] + h] > 0.5 and is_type(obs, off, h, LACKEY):
            lackey_on_team = True
    best, best_value = A.PASS, 0.5
    for s in range(SK):
        if not mask[A.SCHEME + s]:
            continue
        value = NEGATIVE_WORTH[s]
        if SCHEME_NEG[s] == c.NO_REROLL and not lackey_on_team:
            value = 0.2
        if value > best_value:
            best, best_value = A.SCHEME + s, value
    return best


@kernel
def roll_state(obs, off):
    """(Target, successes so far, blanks, ones, twos, dice in the pool) of the attempt."""
    target = count(obs[off[TARGET]], 15.0)
    blanks = count(obs[off[FACES]], 16.0)
    ones = count(obs[off[FACES] + 1], 16.0)
    twos = count(obs[off[FACES] + 2], 16.0)
    extra = count(obs[off[BONUS]], 8.0)
    pool = 0
    for t in range(4):
        pool += count(obs[off[POOL] + t], 16.0)
    return target, ones + 2 * twos + extra, blanks, ones, twos, pool


@kernel
def decide_before_roll(obs, mask, off, n):
    target, _, _, _, _, pool = roll_state(obs, off)
    chance = P_SUCCESS[min(pool, MAX_DICE), min(target, MAX_TARGET)]
    choice = first_scheme(obs, mask, c.P_GAIN_MONEY, False, off, n)
    if choice >= 0:
        return choice
    if chance < 0.97:
        for k in range(RK):
            if mask[A.ROOM + k]:
                return A.ROOM + k
    if chance < 0.85:
        s = first_scheme(obs, mask, c.P_ADD_DICE, False, off, n)
        if s >= 0:
            gain = SCHEME_POS_AMOUNT[s - A.SCHEME]
            if P_SUCCESS[min(pool + gain, MAX_DICE), min(target, MAX_TARGET)] - chance >= 0.08:
                return s
    return A.PASS


@kernel
def decide_after_roll(obs, mask, off, n):
    target, hits, blanks, _, _, _ = roll_state(obs, off)
    short = target - hits
    choice = first_scheme(obs, mask, c.P_GAIN_MONEY, False, off, n)
    if choice >= 0:
        return choice
    win_captured = obs[off[RESULT_ICONS]] > 0.5  # (success, failure) x icons, Captured first
    fail_captured = obs[off[RESULT_ICONS] + 4] > 0.5
    if short > 0:
        for k in range(RK):
            if mask[A.ROOM + k] and ROOM_EFFECT[k] == c.ADD_SUCCESSES:
                return A.ROOM + k
        if mask[A.REROLL] and blanks > 0:
            return A.REROLL
        for k in range(RK):
            if mask[A.ROOM + k] and ROOM_EFFECT[k] == c.REROLL_BLANKS and blanks > 0:
                return A.ROOM + k
        total = 0
        best, best_amount = -1, 0
        for s in range(SK):
            if mask[A.SCHEME + s] and SCHEME_POS[s] == c.P_ADD_SUCCESSES:
                total += SCHEME_POS_AMOUNT[s]
                if SCHEME_POS_AMOUNT[s] > best_amount:
                    best, best_amount = A.SCHEME + s, SCHEME_POS_AMOUNT[s]
        if best >= 0 and total >= short:
            return best
        s = first_scheme(obs, mask, c.P_REROLL, False, off, n)
        if s >= 0 and blanks > 0:
            if P_SUCCESS[min(blanks, MAX_DICE), min(short, MAX_TARGET)] >= 0.2:
                return s
        if fail_captured:
            for k in range(RK):
                if mask[A.ROOM + k] and ROOM_EFFECT[k] == c.CANCEL_CAPTURE:
                    return A.ROOM + k
        return A.PASS
    for k in range(RK):
        if mask[A.ROOM + k] and ROOM_EFFECT[k] == c.ON_SUCCESS_MONEY:
            return A.ROOM + k
    if win_captured:
        for k in range(RK):
            if mask[A.ROOM + k] and ROOM_EFFECT[k] == c.CANCEL_CAPTURE:
                return A.ROOM + k
    return A.PASS


@kernel
def decide_reroll_count(obs, mask, off):
    """The number of one-success dice to re-roll (blanks go anyway, P-17) that gives the best
    chance of reaching the Target."""
    target, hits, blanks, ones, twos, _ = roll_state(obs, off)
    base = hits - ones  # twos and bonus successes stay
    best, best_chance = -1, -1.0
    for k in range(min(ones, A.MAX_COUNT - 1) + 1):
        if not mask[A.COUNT + k]:
            continue
        need = max(target - base - (ones - k), 0)
        chance = P_SUCCESS[min(blanks + k, MAX_DICE), min(need, MAX_TARGET)]
        if chance > best_chance + 1e-12:
            best, best_chance = A.COUNT + k, chance
    return best


@kernel
def decide_trait(obs, mask, off, n):
    """The Lackey's best trait; on a tie, not the trait a negative Scheme strips dice from."""
    lackey = -1
    for h in range(H):
        if mine(obs, off, n, h) and is_type(obs, off, h, LACKEY):
            lackey = h
    k = one_hot(obs, off[ATTEMPT_CONTINENT], C)
    stripped = -1
    negative = one_hot(obs, off[NEGATIVE_SCHEME], SK)
    if k >= 0 and negative >= 0 and SCHEME_NEG[negative] == c.REMOVE_DICE:
        stripped = one_hot(obs, off[MAP_TRAIT] + 4 * k, 4)
    best, best_value = -1, -1.0
    for t in range(4):
        if not mask[A.TRAIT + t]:
            continue
        value = float(trait(obs, off, lackey, t)) if lackey >= 0 else 0.0
        if t == stripped:
            value -= 0.5
        if value > best_value:
            best, best_value = A.TRAIT + t, value
    return best


@kernel
def decide_henchman(obs, mask, off, n, subject):
    """Who is captured, injured, left unpaid or fired: the one worth least; who gets a Power or
    is healed: the strongest (a Power never to a Mercenary, which loses it at Clean-up)."""
    best, best_value = -1, -1e9
    for h in range(H):
        if not mask[A.HENCHMAN + h]:
            continue
        worth = keep_worth(obs, off, h)
        if subject == R.INJURED_ONE:
            value = -worth + (10.0 if injured(obs, off, h) else 0.0)  # a second token costs nothing
        elif subject == R.POWER_ONE or subject == R.ROOM_POWER:
            value = float(dice(obs, off, h))
            if is_type(obs, off, h, MERCENARY):
                value -= 20.0
            if is_type(obs, off, h, LACKEY):
                value -= 2.0
            if injured(obs, off, h):
                value -= 1.0
        elif subject == R.ROOM_HEAL or subject == R.SCHEME_HEAL:
            value = worth
        else:
            value = -worth
        if value > best_value:
            best, best_value = A.HENCHMAN + h, value
    return best


@kernel
def choose(obs, mask, off, n):
    """The heuristic's own choice for this decision (-1 where it has none)."""
    decision = one_hot(obs, off[DECISION], R.FIRE + 1)
    subject = one_hot(obs, off[SUBJECT], R.SCHEME_REROLL + 1)
    rnd = one_hot(obs, off[ROUND], 3) + 1
    money = count(obs[off[MONEY]], 30.0)
    choice = -1
    if decision == R.DRAFT:
        choice = decide_draft(obs, mask, off, n, rnd, money)
    elif decision == R.TURN:
        choice = decide_turn(obs, mask, off, n, rnd, money)
    elif decision == R.WORKER:
        choice = decide_worker(obs, mask, off, n)
    elif decision == R.TEAM:
        choice = decide_team(obs, mask, off, n, rnd)
    elif decision == R.NEGATIVE_SCHEME:
        choice = decide_negative(obs, mask, off, n)
    elif decision == R.BEFORE:
        choice = decide_before_roll(obs, mask, off, n)
    elif decision == R.AFTER:
        choice = decide_after_roll(obs, mask, off, n)
    elif decision == R.REROLL_COUNT:
        choice = decide_reroll_count(obs, mask, off)
    elif decision == R.CHOOSE_TRAIT:
        choice = decide_trait(obs, mask, off, n)
    elif decision == R.CHOOSE_HENCHMAN or decision == R.UNPAID:
        choice = decide_henchman(obs, mask, off, n, subject)
    elif decision == R.HEAL:
        if money - 2 >= reserve(obs, off, n, rnd) - 1:
            choice = decide_henchman(obs, mask, off, n, R.ROOM_HEAL)
        else:
            choice = A.PASS
    elif decision == R.AFTER_ACTION:
        choice = free_scheme(obs, mask, off, n)
        if choice < 0:
            choice = A.PASS
    elif decision == R.FIRE:
        choice = A.PASS
        if rnd < 3 and money < my_henchmen(obs, off, n):
            weakest = decide_henchman(obs, mask, off, n, R.NO_SUBJECT)
            if weakest >= 0 and keep_worth(obs, off, weakest - A.HENCHMAN) <= 2.0:
                choice = weakest
    return choice


@kernel
def decide(obs, mask, off, n):
    choice = choose(obs, mask, off, n)
    if choice < 0 or not mask[choice]:
        for a in range(mask.shape[0]):  # whatever is legal
            if mask[a]:
                return a
    return choice


@njit
def _decide_batch(obs, mask, off, n, out):
    # The same loop as the other games': a loop given its decide as an argument is not cached
    # on disk by numba, and would recompile this player in every process.
    for b in range(obs.shape[0]):
        out[b] = decide(obs[b], mask[b], off, n)


class ManiacalHeuristic(ScriptedPolicy):
    """Every seat plays for itself; the same player serves any seat at any table size."""

    game = "maniacal"
    decide_batch = _decide_batch
