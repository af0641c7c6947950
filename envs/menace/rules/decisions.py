"""Walking the game: `advance` runs everything automatic up to the next pending decision,
`step` applies one decision, `legal_actions` is the mask of the decision pending.
"""

import numpy as np

from ...core.jit import kernel
from .. import cards as c
from ..actions import CARD, CLAIM, DRAW, PASS, PICK, PLAY, SEAT, USE, YES
from .abilities import (
    begin_ability,
    calibrate,
    can_use,
    can_use_when_delegated,
    continue_ability,
    finish_ability,
    has_delegated_action,
    relay,
    target_ok,
)
from .accusation import call_vote, can_be_voted, next_call, next_talk, next_vote
from .action_phase import can_draw, next_turn
from .board import (
    ABILITY_TARGET_CHOICE,
    ABSTAINED,
    ACTION,
    AGENDA_TARGET,
    BLOODWORK_REVEAL,
    BRAWL_TARGET,
    CALIBRATE_CHOICE,
    CALLING,
    CALL_VOTE,
    DELEGATED,
    FOLLOW_UP,
    HAND_LIMIT,
    NOBODY,
    PAY_DISCARD,
    PICKING,
    PICK_CHARACTER,
    RELAY_GIFT,
    RESOLUTION,
    RUSH_PLAY,
    T,
    TALKING,
    TALK_ACCUSE_CARD,
    TALK_ACCUSE_SEAT,
    TALK_CLAIM,
    TINKER_DISCARD,
    TURN,
    VETO_CHOICE,
    VOTE,
    VOTING,
    count_up,
    decide,
    has_wound,
    over_hand_limit,
    playable,
    playable_count,
    seat_after,
)
from .end_of_round import end_of_round
from .fates import agenda_target_ok, use_agenda_ability, wound
from .hands import discard_card, draw_card, play_card
from .resolution import next_reveal, veto
from .setup import next_pick, pick_character, set_up


@kernel
def reset(s):
    """Set up a new game (`setup.py`) and walk to its first decision, the first pick."""
    set_up(s)
    advance(s)


@kernel
def has_agenda_target(s, owner):
    for target in range(s["num_players"]):
        if agenda_target_ok(s, owner, target):
            return True
    return False


@kernel
def advance(s):
    """Run everything automatic until a seat must decide or the game is over.

    Priority: an ability's own follow-up, hand limits, agenda abilities of the fallen, the
    ability in progress, a delegated action, Rush plays, a Brawl choice, then the stage.
    """
    while not (s["terminated"] or s["truncated"]):
        if s["ab_user"] != NOBODY and s["ab_stage"] == FOLLOW_UP and s["ab_follow_up"] >= 0:
            decide(s, s["ab_follow_up"], s["ab_follow_up_seat"])
            return
        seat = over_hand_limit(s)
        if seat != NOBODY:
            decide(s, HAND_LIMIT, seat)
            return
        due = NOBODY
        for k in range(s["num_players"]):
            seat = seat_after(s, s["mission_leader"], k)
            if s["agenda_due"][seat]:
                due = seat
                break
        if due != NOBODY:
            if has_agenda_target(s, due):
                decide(s, AGENDA_TARGET, due)
                return
            s["agenda_due"][due] = False
            continue
        if s["ab_user"] != NOBODY:
            if continue_ability(s):
                return
            continue
        if s["delegated"] != NOBODY:
            seat = np.int64(s["delegated"])
            if has_delegated_action(s, seat):
                decide(s, DELEGATED, seat)
                return
            s["delegated"] = NOBODY
            continue
        if s["rush_left"] > 0:
            if playable_count(s, np.int64(s["rush_seat"])) > 0:
                decide(s, RUSH_PLAY, s["rush_seat"])
                return
            s["rush_left"] = 0
            continue
        if s["brawl_pending"]:
            decide(s, BRAWL_TARGET, s["mission_leader"])
            return
        stage = s["stage"]
        if stage == PICKING:
            presented = next_pick(s)
        elif stage == ACTION:
            presented = next_turn(s)
        elif stage == RESOLUTION:
            presented = next_reveal(s)
        elif stage == CALLING:
            presented = next_call(s)
        elif stage == TALKING:
            presented = next_talk(s)
        elif stage == VOTING:
            presented = next_vote(s)
        else:
            end_of_round(s)
            presented = False
        if presented:
            return


@kernel
def step(s, action):
    """Apply the pending seat's (already validated) action, then walk on."""
    n = s["num_players"]
    seat = s["current_seat"]
    decision = s["decision"]
    target = (seat + action - SEAT) % n
    card = action - CARD
    if decision == PICK_CHARACTER:
        pick_character(s, seat, action - PICK)
    elif decision == TURN or decision == DELEGATED or decision == RUSH_PLAY:
        if decision == TURN:
            s["turn_pos"] += 1
        elif decision == DELEGATED:
            s["delegated"] = NOBODY
        else:
            s["rush_left"] -= 1
        if action == DRAW:
            draw_card(s, seat)
        elif action < USE:
            play_card(s, seat, action - PLAY)
        else:
            begin_ability(s, seat, action - USE)
    elif decision == PAY_DISCARD:
        discard_card(s, seat, card)
        s["ab_discards_left"] -= 1
    elif decision == ABILITY_TARGET_CHOICE:
        s["ab_target"] = target
        s["ability_target"][s["ab_user"], s["ab_slot"]] = target
    elif decision == BLOODWORK_REVEAL:
        s["bloodwork"][seat] = card
        finish_ability(s)
    elif decision == RELAY_GIFT:
        relay(s, seat, card)
        finish_ability(s)
    elif decision == TINKER_DISCARD:
        discard_card(s, seat, card)
        finish_ability(s)
    elif decision == CALIBRATE_CHOICE:
        calibrate(s, action == YES)
        finish_ability(s)
    elif decision == HAND_LIMIT:
        discard_card(s, seat, card)
    elif decision == VETO_CHOICE:
        if action == YES:
            veto(s)
        else:
            s["veto_asked"] = True
    elif decision == BRAWL_TARGET:
        s["brawl_pending"] = False
        s["brawl_by"] = seat
        s["brawl_target"] = target
        wound(s, target)
    elif decision == AGENDA_TARGET:
        s["agenda_due"][seat] = False
        if action != PASS:
            count_up(s["game_agenda_targets"][seat], target, 1)
            use_agenda_ability(s, seat, target)
    elif decision == CALL_VOTE:
        if action == YES:
            call_vote(s)
        else:
            s["call_pos"] += 1
    elif decision == TALK_CLAIM:
        s["claim"][seat] = 3 if action == PASS else action - CLAIM
    elif decision == TALK_ACCUSE_SEAT:
        s["accused"][seat] = n if action == PASS else target
    elif decision == TALK_ACCUSE_CARD:
        s["accused_card"][seat] = card
    else:
        s["ballot"][seat] = ABSTAINED if action == PASS else target
        s["vote_pos"] += 1
    advance(s)


@kernel
def mask_cards_in_hand(s, seat, mask):
    for card in range(T):
        if s["hand"][seat, card] > 0:
            mask[CARD + card] = True


@kernel
def legal_actions(s, mask):
    n = s["num_players"]
    seat = s["current_seat"]
    decision = s["decision"]
    if decision == PICK_CHARACTER:
        for ch in range(c.N_CHARACTERS):
            mask[PICK + ch] = s["offer"][seat, ch]
    elif decision == TURN or decision == DELEGATED or decision == RUSH_PLAY:
        if decision == TURN:
            mask[DRAW] = can_draw(s, seat)
        for card in range(T):
            mask[PLAY + card] = playable(s, seat, card)
        for slot in range(2):
            if decision == TURN:
                mask[USE + slot] = can_use(s, seat, slot)
            elif decision == DELEGATED:
                mask[USE + slot] = can_use_when_delegated(s, seat, slot, np.int64(-1))
    elif decision == ABILITY_TARGET_CHOICE:
        for k in range(n):
            mask[SEAT + k] = target_ok(s, seat, np.int64(s["ab_id"]), seat_after(s, seat, k))
    elif decision == CALIBRATE_CHOICE or decision == VETO_CHOICE or decision == CALL_VOTE:
        mask[PASS] = True
        mask[YES] = True
    elif decision == BRAWL_TARGET:
        for k in range(n):
            mask[SEAT + k] = s["alive"][seat_after(s, seat, k)]
    elif decision == AGENDA_TARGET:
        mask[PASS] = True
        for k in range(n):
            mask[SEAT + k] = agenda_target_ok(s, seat, seat_after(s, seat, k))
    elif decision == TALK_CLAIM:
        mask[PASS] = True
        for category in range(3):
            mask[CLAIM + category] = True
    elif decision == TALK_ACCUSE_SEAT:
        mask[PASS] = True
        for k in range(1, n):
            mask[SEAT + k] = s["alive"][seat_after(s, seat, k)]
    elif decision == TALK_ACCUSE_CARD:
        for card in range(T):
            mask[CARD + card] = True
    elif decision == VOTE:
        any_target = False
        for k in range(1, n):
            ok = can_be_voted(s, seat, seat_after(s, seat, k))
            mask[SEAT + k] = ok
            any_target = any_target or ok
        mask[PASS] = not (has_wound(s, seat, c.PARANOIA) and any_target)
    else:  # a card from hand: discard, reveal or give
        mask_cards_in_hand(s, seat, mask)
