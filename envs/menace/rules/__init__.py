"""The Menace Among Us, the rules as scalar code over one game record, one module per phase.

A reader finds a rule where the rulebook has it:

- `board`: the record of one game, its stages and pending decisions, small facts read off it;
- `setup`: tracks, decks, agendas, characters, personal decks and starting hands;
- `action_phase` and `abilities`: turns from the Mission Leader, and every Above Deck Action;
- `resolution`: EmMA, the shuffle and every Below Deck card;
- `accusation`: calling a vote, table talk, the secret ballot, exile;
- `end_of_round`: burns, deaths, Moxie and Vigil, the record of the round, the token;
- `tracks`, `hands` and `fates`: what every phase uses: Oxygen, Energy and the end of the game;
  cards in hand and deck; wounds, deaths, exile and the Mission Leader token;
- `decisions`: `advance` walks the game forward to the next decision; `step` applies one
  decision and calls it again; `legal_actions` is the pending decision's mask.

Every function takes the record `s` of one game; the engine runs them over a whole batch. The
modules import one another in that order, from `board` up to `decisions`, never in a circle;
this package re-exports the names other code uses (`from envs.menace import rules`).

numba compiles a function once per distinct argument types, and a constant or a record field
narrower than int64 counts as a type of its own (`Literal[int](1)`, `int8`); each such copy of
a function also recompiles everything it calls. So amounts, seats and slots handed to the
functions with large call trees (tracks, wounds, the end of the game, ability checks) are
passed as int64, `np.int64(...)` where a constant or an int8 field would go, and ability slots
are looped over rather than written out.
"""

from .abilities import (  # noqa: F401
    begin_ability,
    calibrate,
    can_use,
    can_use_when_delegated,
    commandeer,
    continue_ability,
    crunch,
    finish_ability,
    follow_up,
    has_delegated_action,
    may_be_delegated,
    pilfer,
    plain_target_ok,
    ready_ability,
    relay,
    resolve_ability,
    target_ok,
)
from .accusation import (  # noqa: F401
    call_vote,
    can_be_voted,
    can_call_vote,
    can_vote,
    count_votes,
    next_call,
    next_talk,
    next_vote,
)
from .action_phase import (  # noqa: F401
    can_draw,
    has_turn_action,
    next_turn,
    start_of_round_flags,
    start_round,
)
from .board import (  # noqa: F401
    ABILITY_TARGET_CHOICE,
    ABSTAINED,
    ACTION,
    AGENDA_TARGET,
    BLANK_WOUND,
    BLOODWORK_REVEAL,
    BRAWL_TARGET,
    CALIBRATE_CHOICE,
    CALLING,
    CALL_VOTE,
    COUNT_SEEN,
    CREW_TEAM,
    DELEGATED,
    DID_NOT_VOTE,
    DTYPE,
    END_OF_ROUND,
    ENERGY_GOAL,
    FOLLOW_UP,
    HAND_LIMIT,
    MAX_WOUNDS,
    MENACE_TEAM,
    NOBODY,
    OVERLOAD,
    P,
    PAST_COL_ACCUSED,
    PAST_COL_ACCUSED_CARD,
    PAST_COL_BALLOT,
    PAST_COL_BRAWL_BY,
    PAST_COL_BRAWL_TARGET,
    PAST_COL_CALLER,
    PAST_COL_CLAIM,
    PAST_COL_CARDS,
    PAST_COL_ENERGY,
    PAST_COL_EXILED,
    PAST_COL_HELD,
    PAST_COL_KILLED,
    PAST_COL_OXYGEN,
    PAST_COL_PLAYED,
    PAST_COL_REVEALED,
    PAST_COL_TARGET,
    PAST_COL_USED,
    PAST_WIDTH,
    PAYING,
    PAY_DISCARD,
    PICKING,
    PICK_CHARACTER,
    POOL,
    RELAY_GIFT,
    RESOLUTION,
    RUSH_PLAY,
    SAFETY_THRESHOLD,
    T,
    TALKING,
    TALK_ACCUSE_CARD,
    TALK_ACCUSE_SEAT,
    TALK_CLAIM,
    TARGETING,
    TINKER_DISCARD,
    TURN,
    VETO_CHOICE,
    VOTE,
    VOTING,
    decide,
    hand_limit,
    has_wound,
    is_crew,
    is_menace,
    menace_alive,
    over_hand_limit,
    playable,
    playable_count,
    removable_wound,
    seat_after,
    team_of,
    wounds_to_kill,
)
from .decisions import (  # noqa: F401
    advance,
    has_agenda_target,
    legal_actions,
    mask_cards_in_hand,
    reset,
    step,
)
from .end_of_round import (  # noqa: F401
    begin_end_of_round,
    end_of_round,
    remember_round,
)
from .fates import (  # noqa: F401
    agenda_target_ok,
    devoted_last_repair,
    exile,
    kill,
    pass_mission_leader,
    remove_wound,
    use_agenda_ability,
    wound,
)
from .hands import (  # noqa: F401
    add_emma_card,
    add_to_pool,
    discard_card,
    discard_hand,
    discard_random_card,
    draw_card,
    emma_top,
    play_card,
    random_card,
)
from .resolution import (  # noqa: F401
    finish_resolution,
    next_reveal,
    resolve_backstab,
    resolve_brawl,
    resolve_card,
    resolve_command,
    resolve_panic,
    resolve_reactor_leak,
    resolve_track_card,
    reveal,
    start_resolution,
    veto,
)
from .setup import (  # noqa: F401
    build_decks,
    clear_table,
    deal_agendas,
    deal_characters,
    deal_unclaimed_characters,
    next_pick,
    pick_character,
    set_up,
)
from .tracks import (  # noqa: F401
    change_oxygen,
    check_end,
    gain_energy,
    individual_goal_met,
    lose_energy,
    update_coward,
    win,
)
