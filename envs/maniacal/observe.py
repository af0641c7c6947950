"""What one seat may know, written as the named pieces of ``spec.observation_layout``.

Seats are relative to the observer. Never read here for another seat: its draft hand, its
pending pick, its Schemes (only their number), a contract's front before the flip, any deck's
order or contents (only sizes), the random state (spec §5, "must never leak").
"""

from ..core.jit import kernel
from ..core.seats import absolute, relative
from .odds import BACK, BACK_ODDS, MAX_DICE
from .rules import CONTRACT_PHASE, OVER, OWNED, PICKS, WORKER
from .spec import observation_layout, state_layout
from .tables import (
    CONTRACT_DECK_SIZES, CONTRACT_DIFFICULTY, CONTRACT_RESULT, CONTRACT_TEAM, CONTRACT_TRAIT,
    FIRST_MERCENARY, HENCHMAN_COST, HENCHMAN_TRAITS, HENCHMAN_TYPE, LACKEY, N_CONTINENTS,
    N_CONTRACTS,
    N_HENCHMEN,
    N_MERCENARIES, N_POWERS, N_ROOM_CARDS, N_ROOM_KINDS, N_SCHEME_CARDS, N_SCHEME_KINDS,
    N_SUPERVILLAINS, VILLAIN_WEEKS,
)

H, R, S, C = N_HENCHMEN, N_ROOM_KINDS, N_SCHEME_KINDS, N_CONTINENTS

_OBS = observation_layout({"num_players": 4, "reward_mode": 0})
ROUND = _OBS.index("round")
PHASE = _OBS.index("phase")
PICK = _OBS.index("pick")
CLOCKWISE = _OBS.index("clockwise")
DECISION = _OBS.index("decision")
SUBJECT = _OBS.index("subject")
PENDING_ROOM = _OBS.index("pending_room")
DECIDING_SEAT = _OBS.index("deciding_seat")
ACTIVE_SEAT = _OBS.index("active_seat")
WEEKS_PIECE = _OBS.index("weeks")
MAP_PRESENT = _OBS.index("map_present")
MAP_DIFFICULTY = _OBS.index("map_difficulty")
MAP_TEAM = _OBS.index("map_team")
MAP_TRAIT = _OBS.index("map_trait")
CONTRACT_ODDS = _OBS.index("contract_odds")
TIME_COST = _OBS.index("time_cost")
ATTEMPT_SEAT = _OBS.index("attempt_seat")
ATTEMPT_CONTINENT = _OBS.index("attempt_continent")
NEGATIVE_SCHEME = _OBS.index("negative_scheme")
NEGATIVE_BY = _OBS.index("negative_by")
DECLINED = _OBS.index("declined")
FLIPPED = _OBS.index("flipped")
TARGET = _OBS.index("target")
RESULT_REWARDS = _OBS.index("result_rewards")
RESULT_ICONS = _OBS.index("result_icons")
LACKEY_TRAIT = _OBS.index("lackey_trait")
POOL = _OBS.index("pool")
FACES = _OBS.index("faces")
BONUS = _OBS.index("bonus")
REROLLED = _OBS.index("rerolled")
MODIFIERS = _OBS.index("modifiers")
MONEY = _OBS.index("money")
INFAMY = _OBS.index("infamy")
SUPERVILLAIN = _OBS.index("supervillain")
SUPERVILLAIN_EXHAUSTED = _OBS.index("supervillain_exhausted")
SCHEMES_HELD = _OBS.index("schemes_held")
ATTRACTION = _OBS.index("attraction")
HENCHMEN = _OBS.index("henchmen")
PLAYER_ORDER = _OBS.index("player_order")
SPENT = _OBS.index("spent")
TIME_LEFT = _OBS.index("time_left")
ON_TOP = _OBS.index("on_top")
FINISHED = _OBS.index("finished")
NEXT_ORDER = _OBS.index("next_order")
ROOMS_BUILT = _OBS.index("rooms_built")
ROOMS_USED = _OBS.index("rooms_used")
REVEALED_PICK = _OBS.index("revealed_pick")
HENCHMAN_OWNER = _OBS.index("henchman_owner")
HENCHMAN_WHERE = _OBS.index("henchman_where")
HENCHMAN_TYPE_PIECE = _OBS.index("henchman_type")
HENCHMAN_COST_PIECE = _OBS.index("henchman_cost")
HENCHMAN_TRAITS_PIECE = _OBS.index("henchman_traits")
HENCHMAN_INJURIES = _OBS.index("henchman_injuries")
HENCHMAN_EXHAUSTED = _OBS.index("henchman_exhausted")
HENCHMAN_ON_TEAM = _OBS.index("henchman_on_team")
HENCHMAN_POWERS = _OBS.index("henchman_powers")
DECK_SIZES = _OBS.index("deck_sizes")
SCHEME_DISCARD = _OBS.index("scheme_discard")
POWER_DISCARD = _OBS.index("power_discard")
MERCENARY_BOTTOM = _OBS.index("mercenary_bottom")
HAND = _OBS.index("hand")
OWN_PICK = _OBS.index("own_pick")
PASSED = _OBS.index("passed")
OWN_SCHEMES = _OBS.index("own_schemes")


@kernel
def capped(x, scale):
    return min(x * scale, 2.0)


@kernel
def henchman_dice(s, h):
    """Dice henchman h brings to a contract: every trait point, a Lackey's best trait only."""
    total, best = 0, 0
    for t in range(4):
        value = HENCHMAN_TRAITS[h, t] + s["bonus"][h, t]
        total += value
        best = max(best, value)
    return best if HENCHMAN_TYPE[h] == LACKEY else total


@kernel
def best_four(s, seat):
    """The dice of the seat's four best available henchmen (uninjured, unexhausted), most first
    (0 past the last), and how many it has: scalars, so that no observation allocates."""
    t0 = t1 = t2 = t3 = 0
    found = 0
    for h in range(H):
        if s["owner"][h] != seat or s["where"][h] != OWNED or s["exhausted"][h] \
                or s["injuries"][h]:
            continue
        d = henchman_dice(s, h)
        found += 1
        if d > t0:
            t0, t1, t2, t3 = d, t0, t1, t2
        elif d > t1:
            t1, t2, t3 = d, t1, t2
        elif d > t2:
            t2, t3 = d, t2
        elif d > t3:
            t3 = d
    return t0, t1, t2, t3, found


@kernel
def team_dice(best, size):
    """Dice of the best ``size`` henchmen of ``best_four``; -1 if the seat has fewer."""
    t0, t1, t2, t3, found = best
    if found < size:
        return -1
    return t0 + (t1 if size > 1 else 0) + (t2 if size > 2 else 0) + (t3 if size > 3 else 0)


@kernel
def observe(s, seat, out, off, n):
    rnd = s["round"]
    phase = s["phase"]
    if phase == OVER:
        phase = 2
    out[off[ROUND] + min(rnd, 3) - 1] = 1.0
    out[off[PHASE] + phase] = 1.0
    if phase == 0:
        out[off[PICK] + min(s["pick"], PICKS - 1)] = 1.0
    out[off[CLOCKWISE]] = 0.0 if rnd == 2 else 1.0
    if not s["terminated"]:
        out[off[DECISION] + s["decision"]] = 1.0
        out[off[SUBJECT] + s["subject"]] = 1.0
        if s["decision"] == WORKER:
            out[off[PENDING_ROOM] + s["pending_room"]] = 1.0
    out[off[DECIDING_SEAT] + relative(s["current_seat"], seat, n)] = 1.0
    if s["phase"] == CONTRACT_PHASE and s["active"] >= 0:
        out[off[ACTIVE_SEAT] + relative(s["active"], seat, n)] = 1.0
    week_count = 7 + rnd
    out[off[WEEKS_PIECE]] = week_count * 0.1
    # the map: backs only, and what the observer's own henchmen could make of each
    best = best_four(s, seat)
    for k in range(C):
        card = s["map"][k]
        if card >= 0:
            out[off[MAP_PRESENT] + k] = 1.0
            out[off[MAP_DIFFICULTY] + 3 * k + CONTRACT_DIFFICULTY[card]] = 1.0
            out[off[MAP_TEAM] + 4 * k + CONTRACT_TEAM[card] - 1] = 1.0
            out[off[MAP_TRAIT] + 4 * k + CONTRACT_TRAIT[card]] = 1.0
            dice = team_dice(best, CONTRACT_TEAM[card])  # the back's team size: public
            if dice >= 0:
                odds = BACK_ODDS[BACK[card], min(dice, MAX_DICE)]  # the back, not the front
                o = off[CONTRACT_ODDS] + 4 * k
                out[o] = odds[0]
                out[o + 1] = odds[1] / 15.0
                out[o + 2] = odds[2] / 6.0
                out[o + 3] = odds[3]
    # the attempt
    if s["attempt_seat"] >= 0:
        out[off[ATTEMPT_SEAT] + relative(s["attempt_seat"], seat, n)] = 1.0
        out[off[ATTEMPT_CONTINENT] + s["continent"]] = 1.0
        if s["negative"] >= 0:
            out[off[NEGATIVE_SCHEME] + s["negative"]] = 1.0
            out[off[NEGATIVE_BY] + relative(s["negative_by"], seat, n)] = 1.0
        if s["flipped"]:
            card = s["contract"]
            out[off[FLIPPED]] = 1.0
            out[off[TARGET]] = capped(s["target"], 1.0 / 15)
            for r in range(2):
                out[off[RESULT_REWARDS] + 2 * r] = capped(CONTRACT_RESULT[card, r, 0], 1.0 / 15)
                out[off[RESULT_REWARDS] + 2 * r + 1] = capped(CONTRACT_RESULT[card, r, 1], 1.0 / 6)
                for i in range(4):
                    if CONTRACT_RESULT[card, r, 2] & (1 << i):
                        out[off[RESULT_ICONS] + 4 * r + i] = 1.0
            if s["lackey_trait"] >= 0:
                out[off[LACKEY_TRAIT] + s["lackey_trait"]] = 1.0
            for t in range(4):
                out[off[POOL] + t] = capped(s["pool"][t], 1.0 / 16)
            if s["rolled"]:
                for f in range(3):
                    out[off[FACES] + f] = capped(s["faces"][f], 1.0 / 16)
            out[off[BONUS]] = capped(s["extra"], 1.0 / 8)
            out[off[REROLLED]] = 1.0 if s["rerolled"] else 0.0
        o = off[MODIFIERS]
        out[o] = 1.0 if s["no_reroll"] else 0.0
        out[o + 1] = 1.0 if s["no_rooms"] else 0.0
        out[o + 2] = 1.0 if s["fail_injure"] else 0.0
        out[o + 3] = capped(s["money_down"], 1.0 / 6)
        out[o + 4] = capped(s["money_up"], 1.0 / 6)
        out[o + 5] = 1.0 if s["cancel_capture"] else 0.0
    # the seats
    for h in range(H):
        if s["where"][h] == OWNED:
            r = relative(s["owner"][h], seat, n)
            out[off[HENCHMEN] + r] = min(out[off[HENCHMEN] + r] + 0.1, 2.0)
    for r in range(n):
        j = absolute(r, seat, n)
        if s["attempt_seat"] >= 0 and s["declined"][j]:
            out[off[DECLINED] + r] = 1.0
        v = s["villain"][j]
        for k in range(C):
            out[off[TIME_COST] + C * r + k] = VILLAIN_WEEKS[v, k] * 0.2
        out[off[MONEY] + r] = capped(s["money"][j], 1.0 / 30)
        out[off[INFAMY] + r] = capped(s["infamy"][j], 1.0 / 50)
        out[off[SUPERVILLAIN] + N_SUPERVILLAINS * r + v] = 1.0
        out[off[SUPERVILLAIN_EXHAUSTED] + r] = 1.0 if s["villain_exhausted"][j] else 0.0
        out[off[SCHEMES_HELD] + r] = capped(s["scheme_count"][j], 0.2)
        for t in range(4):
            out[off[ATTRACTION] + 4 * r + t] = capped(s["attraction"][j, t], 0.1)
        for i in range(n):
            if s["order"][i] == j:
                out[off[PLAYER_ORDER] + n * r + i] = 1.0
        if s["phase"] == CONTRACT_PHASE:
            out[off[SPENT] + r] = s["spent"][j] * 0.1
            out[off[TIME_LEFT] + r] = (week_count - s["spent"][j]) * 0.1
            on_top = not s["finished"][j]
            for k in range(n):
                if (
                    not s["finished"][k]
                    and s["spent"][k] == s["spent"][j]
                    and s["arrival"][k] > s["arrival"][j]
                ):
                    on_top = False
            out[off[ON_TOP] + r] = 1.0 if on_top else 0.0
            out[off[FINISHED] + r] = 1.0 if s["finished"][j] else 0.0
            for i in range(s["next_order_n"]):
                if s["next_order"][i] == j:
                    out[off[NEXT_ORDER] + n * r + i] = 1.0
        for k in range(R):  # most kinds are absent: only the others are written
            if s["base"][j, k]:
                out[off[ROOMS_BUILT] + R * r + k] = capped(s["base"][j, k], 1.0 / 3)
                if s["used"][j, k]:
                    out[off[ROOMS_USED] + R * r + k] = capped(s["used"][j, k], 1.0 / 3)
        if s["phase"] == 0 and s["revealed_kind"][j] >= 0:
            side = 0 if s["revealed_build"][j] else 1
            out[off[REVEALED_PICK] + 2 * R * r + R * side + s["revealed_kind"][j]] = 1.0
    # the henchmen
    for h in range(H):
        where = s["where"][h]
        owner = s["owner"][h]
        holder = relative(owner, seat, n) if owner >= 0 else n
        out[off[HENCHMAN_OWNER] + (n + 1) * h + holder] = 1.0
        out[off[HENCHMAN_WHERE] + 5 * h + where] = 1.0
        out[off[HENCHMAN_TYPE_PIECE] + 6 * h + HENCHMAN_TYPE[h]] = 1.0
        out[off[HENCHMAN_COST_PIECE] + h] = HENCHMAN_COST[h] / 7.0
        for t in range(4):
            value = HENCHMAN_TRAITS[h, t] + s["bonus"][h, t]
            if value:
                out[off[HENCHMAN_TRAITS_PIECE] + 4 * h + t] = capped(value, 1.0 / 7)
        if where != OWNED:
            continue  # the rest is zero for a card no one holds
        if s["injuries"][h]:
            out[off[HENCHMAN_INJURIES] + h] = capped(s["injuries"][h], 1.0 / 3)
        if s["exhausted"][h]:
            out[off[HENCHMAN_EXHAUSTED] + h] = 1.0
        if s["on_team"][h]:
            out[off[HENCHMAN_ON_TEAM] + h] = 1.0
        if s["powers"][h]:
            out[off[HENCHMAN_POWERS] + h] = capped(s["powers"][h], 1.0 / 3)
    # decks: sizes and public discards
    o = off[DECK_SIZES]
    out[o] = s["room_deck_n"] / N_ROOM_CARDS
    for d in range(3):
        out[o + 1 + d] = s["contract_deck_n"][d] / CONTRACT_DECK_SIZES[d]
    for k in range(4):
        out[o + 4 + k] = (10 - s["henchman_top"][k]) * 0.1
    out[o + 8] = s["scheme_deck_n"] / N_SCHEME_CARDS
    out[o + 9] = s["power_deck_n"] / N_POWERS
    out[o + 10] = s["mercenary_deck_n"] / N_MERCENARIES
    for k in range(S):
        out[off[SCHEME_DISCARD] + k] = capped(s["scheme_discarded"][k], 1.0 / 3)
    for i in range(s["power_discard_n"]):
        out[off[POWER_DISCARD] + s["power_discard"][i]] = 1.0
    deck_n = s["mercenary_deck_n"]
    for i in range(deck_n - s["mercenary_known"], deck_n):
        out[off[MERCENARY_BOTTOM] + s["mercenary_deck"][i] - FIRST_MERCENARY] = (deck_n - i) / 8.0
    # private
    for k in range(R):
        out[off[HAND] + k] = capped(s["hand"][seat, k], 1.0 / 3)
        out[off[PASSED] + k] = capped(s["passed"][seat, 0, k], 1.0 / 3)
        out[off[PASSED] + R + k] = capped(s["passed"][seat, 1, k], 1.0 / 3)
    if s["phase"] == 0 and s["pick_kind"][seat] >= 0:
        side = 0 if s["pick_build"][seat] else 1
        out[off[OWN_PICK] + R * side + s["pick_kind"][seat]] = 1.0
    for k in range(S):
        out[off[OWN_SCHEMES] + k] = capped(s["schemes"][seat, k], 1.0 / 3)


_STATE = state_layout({"num_players": 4, "reward_mode": 0})
ALL_HANDS = _STATE.index("all_hands")
ALL_PICKS = _STATE.index("all_picks")
ALL_SCHEMES = _STATE.index("all_schemes")
MAP_FRONTS = _STATE.index("map_fronts")
HENCHMAN_DEPTH = _STATE.index("henchman_depth")
POWER_DEPTH = _STATE.index("power_depth")
SCHEME_DECK = _STATE.index("scheme_deck")
ROOM_DECK = _STATE.index("room_deck")


@kernel
def god_view(s, out, off):
    """Seat 0's observation (relative to seat 0 is absolute), then every hidden fact."""
    n = s["num_players"]
    observe(s, 0, out, off, n)
    for j in range(n):
        for k in range(R):
            out[off[ALL_HANDS] + R * j + k] = capped(s["hand"][j, k], 1.0 / 3)
        if s["phase"] == 0 and s["pick_kind"][j] >= 0:
            side = 0 if s["pick_build"][j] else 1
            out[off[ALL_PICKS] + 2 * R * j + R * side + s["pick_kind"][j]] = 1.0
        for k in range(S):
            out[off[ALL_SCHEMES] + S * j + k] = capped(s["schemes"][j, k], 1.0 / 3)
    for k in range(C):
        if s["map"][k] >= 0:
            out[off[MAP_FRONTS] + N_CONTRACTS * k + s["map"][k]] = 1.0
    for kind in range(4):
        for i in range(s["henchman_top"][kind], 10):
            h = s["henchman_deck"][kind, i]
            out[off[HENCHMAN_DEPTH] + h] = (i - s["henchman_top"][kind]) * 0.1
    for i in range(s["mercenary_deck_n"]):
        out[off[HENCHMAN_DEPTH] + s["mercenary_deck"][i]] = i * 0.1
    for i in range(s["power_deck_n"]):
        out[off[POWER_DEPTH] + s["power_deck"][i]] = (s["power_deck_n"] - i) / N_POWERS
    for i in range(s["scheme_deck_n"]):
        out[off[SCHEME_DECK] + s["scheme_deck"][i]] = min(
            out[off[SCHEME_DECK] + s["scheme_deck"][i]] + 1.0 / 3, 2.0
        )
    for i in range(s["room_deck_n"]):
        out[off[ROOM_DECK] + s["room_deck"][i]] = min(
            out[off[ROOM_DECK] + s["room_deck"][i]] + 1.0 / 3, 2.0
        )
