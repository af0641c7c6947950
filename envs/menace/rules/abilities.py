"""Above Deck Actions (rulebook "Character Cards"): when a seat may use one, whom it may choose,
paying its costs, and one branch per ability's effect.
"""

import numpy as np

from ...core.jit import kernel
from .. import cards as c
from ..tables import (
    ABILITY_DISCARDS,
    ABILITY_ENERGY,
    ABILITY_OXYGEN,
    ABILITY_TARGET,
    ABILITY_WOUNDS,
    CHARACTER_ABILITIES,
)
from .board import (
    ABILITY_TARGET_CHOICE,
    BLOODWORK_REVEAL,
    CALIBRATE_CHOICE,
    FOLLOW_UP,
    NOBODY,
    PAYING,
    PAY_DISCARD,
    RELAY_GIFT,
    TARGETING,
    TINKER_DISCARD,
    decide,
    has_wound,
    playable_count,
    removable_wound,
)
from .fates import remove_wound, wound
from .hands import (
    add_emma_card,
    discard_card,
    discard_random_card,
    draw_card,
    emma_top,
    random_card,
)
from .tracks import change_oxygen, gain_energy


@kernel
def plain_target_ok(s, user, ability, target):
    """Whom an Above Deck Action may choose, Delegate's extra condition aside."""
    if not s["alive"][target]:
        return False
    if target != user and s["hidden"][target]:
        return False
    kind = ABILITY_TARGET[ability]
    if kind == c.TARGET_OTHER or kind == c.TARGET_OTHER_PLAYED:
        if target == user:
            return False
    if kind == c.TARGET_UNWOUNDED and s["wound_n"][target] > 0:
        return False
    if kind == c.TARGET_WOUNDED and removable_wound(s, target) < 0:
        return False
    if kind == c.TARGET_OTHER_PLAYED and s["played_n"][target] == 0:
        return False
    if ability == c.BLOODWORK or ability == c.PILFER or ability == c.PRUNE:
        return s["hand_n"][target] > 0
    if ability == c.COMMANDEER or ability == c.INTERCEPT:
        return s["deck_n"][target] > 0
    if ability == c.LOCKDOWN:
        return not s["exiled"][target]
    if ability == c.COURSE_CORRECTION:
        return target != s["mission_leader"] and not has_wound(s, target, c.DISLOCATED_SHOULDER)
    return True


@kernel
def target_ok(s, user, ability, target):
    """A delegated seat must seem to have something to do, or Delegate cannot name it."""
    if not plain_target_ok(s, user, ability, target):
        return False
    if ability == c.DELEGATE:
        return may_be_delegated(s, target)
    return True


@kernel
def ready_ability(s, seat, slot, playable):
    """The ability in `slot` if the seat may use it now, targets aside; else -1. `playable`:
    the cards the seat may play, as far as the one deciding knows (Rush needs two); -1 for
    the seat's own count, taken only for Rush (it is a loop over the hand)."""
    if not s["alive"][seat] or s["used"][seat, slot]:
        return -1
    if s["exiled"][seat] and s["agenda"][seat] != c.THE_STEWARD:
        return -1
    if s["suppressed"][seat] or has_wound(s, seat, c.BROKEN_LEG):
        return -1
    ability = CHARACTER_ABILITIES[s["character"][seat], slot]
    if s["oxygen"] < ABILITY_OXYGEN[ability] or s["energy"] < ABILITY_ENERGY[ability]:
        return -1
    hand_needed = ABILITY_DISCARDS[ability]
    if ability == c.RELAY:
        hand_needed = 1
    if s["hand_n"][seat] < hand_needed:
        return -1
    if ability == c.RUSH:
        if playable < 0:
            playable = playable_count(s, seat)
        if playable < 2:
            return -1
    if ability == c.CALIBRATE or ability == c.EMERGENCY_PROTOCOL:
        if s["emma_n"] + s["emma_discard_n"] == 0:
            return -1
    if ability == c.REQUISITION or ability == c.TINKER:
        if s["deck_n"][seat] == 0:
            return -1
    if ability == c.SELF_REPAIR and removable_wound(s, seat) < 0:
        return -1
    return ability


@kernel
def can_use(s, seat, slot):
    ability = ready_ability(s, seat, slot, np.int64(-1))
    if ability < 0:
        return False
    if ABILITY_TARGET[ability] == c.TARGET_NONE:
        return True
    for target in range(s["num_players"]):
        if target_ok(s, seat, ability, target):
            return True
    return False


@kernel
def can_use_when_delegated(s, seat, slot, playable):
    """A delegated seat's abilities; Delegate itself is Andrew Nance's, never the delegated's."""
    ability = ready_ability(s, seat, slot, playable)
    if ability < 0 or ability == c.DELEGATE:
        return False
    if ABILITY_TARGET[ability] == c.TARGET_NONE:
        return True
    for target in range(s["num_players"]):
        if plain_target_ok(s, seat, ability, target):
            return True
    return False


@kernel
def has_delegated_action(s, seat):
    """A delegated seat must play a card or use an Above Deck Action; has it any? If not, the
    delegation comes to nothing and the turn order goes on."""
    if not s["alive"][seat]:
        return False
    playable = playable_count(s, seat)
    if playable > 0:
        return True
    for slot in range(2):
        if can_use_when_delegated(s, seat, slot, playable):
            return True
    return False


@kernel
def may_be_delegated(s, seat):
    """`has_delegated_action` as the Delegate user can judge it: from the public hand size, as
    if every card in hand could be played. Burned Hands forbids the Repairs, but which cards
    a hand holds is secret: a mask that asked would tell the user for free (audit F4)."""
    if not s["alive"][seat]:
        return False
    held = np.int64(s["hand_n"][seat])
    if held > 0:
        return True
    for slot in range(2):
        if can_use_when_delegated(s, seat, slot, held):
            return True
    return False


@kernel
def begin_ability(s, seat, slot):
    """Announce, pay Oxygen, Energy and wounds now; discards and the target come next."""
    ability = CHARACTER_ABILITIES[s["character"][seat], slot]
    s["used"][seat, slot] = True
    s["ab_user"] = seat
    s["ab_id"] = ability
    s["ab_slot"] = slot
    s["ab_stage"] = PAYING
    s["ab_discards_left"] = ABILITY_DISCARDS[ability]
    s["ab_target"] = NOBODY
    s["ab_follow_up"] = -1
    s["energy"] -= ABILITY_ENERGY[ability]
    for _ in range(ABILITY_WOUNDS[ability]):
        wound(s, seat)
    if ABILITY_OXYGEN[ability] > 0:
        change_oxygen(s, -ABILITY_OXYGEN[ability])


@kernel
def follow_up(s, decision, seat):
    s["ab_stage"] = FOLLOW_UP
    s["ab_follow_up"] = decision
    s["ab_follow_up_seat"] = seat


@kernel
def finish_ability(s):
    s["ab_user"] = NOBODY
    s["ab_follow_up"] = -1


@kernel
def continue_ability(s):
    """Walk the ability in progress to its next decision; False once it is over."""
    user = s["ab_user"]
    ability = s["ab_id"]
    if s["ab_stage"] == PAYING:
        if s["ab_discards_left"] > 0:
            decide(s, PAY_DISCARD, user)
            return True
        s["ab_stage"] = TARGETING
    if s["ab_stage"] == TARGETING:
        if ABILITY_TARGET[ability] != c.TARGET_NONE and s["ab_target"] == NOBODY:
            decide(s, ABILITY_TARGET_CHOICE, user)
            return True
        resolve_ability(s, ability, user, s["ab_target"])
    if s["ab_stage"] == FOLLOW_UP and s["ab_follow_up"] >= 0:
        decide(s, s["ab_follow_up"], s["ab_follow_up_seat"])
        return True
    finish_ability(s)
    return False


@kernel
def resolve_ability(s, ability, user, target):
    """One branch per Above Deck Action; those that need one more choice set a follow-up."""
    s["ab_stage"] = FOLLOW_UP
    if ability == c.BLOODWORK:
        follow_up(s, BLOODWORK_REVEAL, target)
    elif ability == c.FIRST_AID or ability == c.SERMON:
        remove_wound(s, target)
    elif ability == c.DELEGATE:
        s["delegated"] = target
    elif ability == c.COMMANDEER:
        commandeer(s, user, target)
    elif ability == c.CRUNCH:
        crunch(s, target)
    elif ability == c.MOXIE:
        s["moxie"] += 1
    elif ability == c.VETO:
        s["veto_user"] = user
        s["veto_armed"] = True
    elif ability == c.LASER_PISTOL:
        wound(s, target)
    elif ability == c.OVERCLOCK or ability == c.JURY_RIG:
        gain_energy(s, np.int64(2))
    elif ability == c.SURVEILLANCE:
        s["seen_played"][user, target, :] = s["played"][target, :]
    elif ability == c.LOCKDOWN:
        s["locked_down"][target] = True
    elif ability == c.RELAY:
        follow_up(s, RELAY_GIFT, user)
    elif ability == c.INTERCEPT:
        s["seen_top"][user, target] = s["deck"][target, s["deck_n"][target] - 1]
    elif ability == c.ANALYZE:
        s["seen_hand"][user, target, :] = s["hand"][target, :]
    elif ability == c.CALIBRATE:
        s["seen_emma"][user] = emma_top(s)
        follow_up(s, CALIBRATE_CHOICE, user)
    elif ability == c.REQUISITION:
        draw_card(s, user)
        draw_card(s, user)
    elif ability == c.SHARE_RATIONS:
        draw_card(s, user)
        draw_card(s, target)
    elif ability == c.RUSH:
        s["rush_seat"] = user
        s["rush_left"] = 2
    elif ability == c.COURSE_CORRECTION:
        s["mission_leader"] = target
    elif ability == c.VIGIL:
        s["vigil"] += 1
    elif ability == c.SCRAP:
        gain_energy(s, np.int64(1))
    elif ability == c.TINKER:
        draw_card(s, user)
        follow_up(s, TINKER_DISCARD, user)
    elif ability == c.HIDE:
        s["hidden"][user] = True
    elif ability == c.PILFER:
        pilfer(s, user, target)
    elif ability == c.SELF_REPAIR:
        remove_wound(s, user)
    elif ability == c.EMERGENCY_PROTOCOL:
        add_emma_card(s)
    elif ability == c.PHOTOSYNTHESIS:
        change_oxygen(s, np.int64(1))
    elif ability == c.PRUNE:
        discard_random_card(s, target)
    elif ability == c.SHIELD:
        s["shielded"][target] = True
    elif ability == c.SUPPRESS:
        s["suppressed"][target] = True


@kernel
def commandeer(s, user, target):
    """The top card of any crewmember's deck into the user's hand."""
    k = s["deck_n"][target] - 1
    card = s["deck"][target, k]
    s["deck_n"][target] = k
    s["hand"][user, card] += 1
    s["hand_n"][user] += 1


@kernel
def crunch(s, target):
    for _ in range(3):
        draw_card(s, target)
    wound(s, target)


@kernel
def pilfer(s, user, target):
    card = random_card(s, target)
    discard_card(s, target, card)
    s["hand"][user, card] += 1
    s["hand_n"][user] += 1


@kernel
def relay(s, user, card):
    target = s["ab_target"]
    discard_card(s, user, card)
    s["hand"][target, card] += 1
    s["hand_n"][target] += 1


@kernel
def calibrate(s, to_bottom):
    """The looked-at EmMA card stays on top, or goes to the bottom."""
    if to_bottom:
        emma = s["emma"]
        k = s["emma_n"] - 1
        top = emma[k]
        for j in range(k, 0, -1):
            emma[j] = emma[j - 1]
        emma[0] = top
