"""The scripted Among Us players on set boards: the immediate vote chain, the heuristic
impostor's use of sabotage windows and its counting, and the heuristic crew's count of who the
impostor is.

Seat i holds colour i (red, blue, green, pink, orange).
"""

import numpy as np
import pytest

import envs
from agents import make_policy, scripted
from agents.amongus_chain import AmongUsChain
from agents.amongus_styles import STYLES
from envs.amongus import rules

from .board import ONE_DEAL_FITS, SEAT_3_SHOWED_THE_OTHERS, SEATS_1_AND_3_ALIKE, Table, shown


def plays(t: Table, name: str) -> str:
    policy = make_policy(name, t.vec.spec, t.vec.params)
    return t.vec.spec.action_names[int(policy.act(t.vec.observation, t.vec.action_mask)[0])]


def test_chain_votes_at_once_for_the_next_seat_not_yet_revealed():
    t = Table(num_players=5, impostor=3).edit(first_player=1).turn(1)
    assert plays(t, "chain") == "no trade"
    t.act("no trade")
    assert plays(t, "chain") == "vote +1"  # seat 2
    t.act("vote +1")
    t.let_the_window_pass()
    assert int(t.s["current_seat"]) == 2  # face up now, its vote still to use
    t.act(plays(t, "chain"))
    assert plays(t, "chain") == "vote +1"  # seat 3, the next face-down seat
    rewards, terminated, _ = t.act("vote +1")
    assert terminated and rewards.tolist()[:5] == [1.0, 1.0, 1.0, -1.0, 1.0]


def test_chain_names_a_seat_that_took_its_turn_without_voting():
    t = Table(num_players=5, impostor=1).edit(first_player=1).turn(1, rules.END_OF_TURN)
    t.act("end turn")  # only the impostor cannot vote
    t.act(plays(t, "chain"))  # seat 2's trade
    assert plays(t, "chain") == "vote +4"  # seat 1, not seat 3


def test_chain_crew_declines_every_window_and_plays_the_heuristic_impostor():
    t = Table(num_players=4, impostor=3).edit(first_player=0).turn(0, rules.END_OF_TURN)
    t.act("vote +2")  # seats 0 and 2 up: the impostor knows every colour but seat 1's, red
    assert int(t.s["current_seat"]) == 1 and plays(t, "chain") == "no sabotage"
    t.act("no sabotage")
    assert plays(t, "chain") == plays(t, "heuristic") == "sabotage"


def test_chain_is_a_policy_of_among_us_only():
    spec = envs.registry["menace"]
    with pytest.raises(ValueError, match=r"'chain' plays \['amongus'\], not 'menace'"):
        make_policy("chain", spec, spec.resolve())
    spec = envs.registry["amongus"]
    with pytest.raises(ValueError, match=r"unknown.*'chian'.*\['random', 'chain', 'heuristic'\]"):
        make_policy("chian", spec, spec.resolve())


def exploit_plays(t: Table) -> str:
    policy = scripted(AmongUsChain.exploit, t.vec.spec, t.vec.params)
    return t.vec.spec.action_names[int(policy.act(t.vec.observation, t.vec.action_mask)[0])]


def vote_then_ask(t: Table, ballot: str, seat: int) -> Table:
    """The turn owner trades nothing and casts ``ballot``; the window that opens passes to
    ``seat``, whose decision it is then."""
    t.act("no trade")
    t.act(ballot)
    while int(t.s["current_seat"]) != seat:
        t.act("no sabotage")
    return t


def test_chain_exploit_sabotages_in_the_window_before_the_seat_that_will_name_it():
    """Seat 0 names seat 1, seat 1 will name seat 2, seat 2 will name seat 3, the impostor."""
    t = Table(num_players=6, impostor=3).edit(first_player=0).turn(0)
    vote_then_ask(t, "vote +1", 3)  # seats 0 and 1 face up; seat 2 is still to vote
    assert exploit_plays(t) == plays(t, "heuristic") == "no sabotage"  # not named next
    t.let_the_window_pass()
    vote_then_ask(t, "vote +1", 3)  # seat 1 names seat 2, and seat 2 seat 3 on its turn, next
    # Seats 4 and 5 are a coin toss: enough for the heuristic since version 6 (one half).
    assert exploit_plays(t) == plays(t, "heuristic") == "sabotage"


def test_chain_exploit_sabotages_at_its_show_when_the_seat_before_it_opens_the_round():
    t = Table(num_players=6, impostor=2)  # seat 1 opens round 1 and names seat 2 on its turn
    assert int(t.s["current_seat"]) == 1 and int(t.s["phase"]) == rules.INVESTIGATION
    t.act(plays(t, "chain"))
    assert int(t.s["current_seat"]) == 2
    assert plays(t, "heuristic").startswith("show") and exploit_plays(t) == "sabotage"


def test_chain_exploit_opening_the_round_sabotages_at_its_own_end_of_turn():
    t = Table(num_players=6, impostor=1).turn(1, rules.END_OF_TURN)  # seat 2 names it next
    assert plays(t, "heuristic") == "end turn" and exploit_plays(t) == "sabotage"
    t = Table(num_players=6, impostor=1).turn(1, rules.END_OF_TURN).edit(voted=[0, 0, 1] + [0] * 7)
    assert exploit_plays(t) == "end turn"  # seat 2 has used its vote


def test_heuristic_impostor_sabotages_in_a_window_once_it_knows_every_colour():
    t = Table(num_players=5, impostor=4).edit(first_player=0, revealed=[0, 0, 0, 1] + [0] * 6)
    t.turn(0, rules.END_OF_TURN).act("vote +1")  # seats 0, 1 and 3 up: seat 2 must be green
    assert int(t.s["current_seat"]) == 2 and plays(t, "heuristic") == "no sabotage"
    t.act("no sabotage")
    assert int(t.s["current_seat"]) == 4 and plays(t, "heuristic") == "sabotage"


def test_heuristic_impostor_guesses_at_once_when_the_crew_can_name_it():
    """Seats 0 and 2 are face up and seat 4 publicly cleared: seat 1, the one other suspect,
    knows the impostor is seat 3. Guessing blue and orange beats being named."""
    cornered = dict(revealed=[1, 0, 1, 0, 0] + [0] * 5, voted=[1] + [0] * 9)
    t = Table(num_players=5, impostor=3).edit(not_impostor=[0, 0, 0, 0, 1] + [0] * 5, **cornered)
    assert plays(t.turn(3, rules.END_OF_TURN), "heuristic") == "sabotage"
    # At 6 players with seats 4 and 5 suspects too, three colours are open: it waits.
    t = Table(num_players=6, impostor=3).edit(**cornered)
    assert plays(t.turn(3, rules.END_OF_TURN), "heuristic") == "end turn"


def test_balance_table_pits_three_crews_against_the_heuristic_impostor():
    from evaluation.balance import format_balance, run_balance

    result = run_balance("amongus", games=40, players=(4, 6))
    assert [(r["num_players"], r["pairing"]) for r in result["rows"]] == [
        (n, p) for n in (4, 6) for p in ("heuristic", "chain vs heuristic", "random vs heuristic")
    ]
    assert all(r["policies"]["impostor"] == "heuristic" for r in result["rows"])
    assert format_balance(result).count("\n") == 7


def test_heuristic_impostor_guesses_before_a_crew_voting_in_seating_order_names_it():
    """Seat 0 names seat 1 and seat 1 will name seat 2: seat 3, the impostor, waits (each wrong
    vote turns two colours up). Then seat 1 names seat 2, and seat 2 names seat 3 on its turn,
    which comes next: the impostor guesses now, though four colours are open (1 in 24)."""
    t = Table(num_players=8, impostor=3).edit(first_player=0).turn(0)
    vote_then_ask(t, "vote +1", 3)
    assert plays(t, "heuristic") == "no sabotage"
    t.let_the_window_pass()
    vote_then_ask(t, "vote +1", 3)
    assert plays(t, "heuristic") == "sabotage"


def test_heuristic_impostor_waits_while_a_crew_voting_in_seating_order_names_other_seats():
    """Seats 2-4 each showed one colour only, twice: the impostor (seat 5) would guess them
    right half the time, and sabotages in the window of a vote that broke the order. After a
    vote in seating order, the next vote names seat 2, not seat 5: each such vote turns two
    more colours up, so it waits."""
    twice = shown(seat0=["red"], seat2=["green"] * 2, seat3=["pink"] * 2, seat4=["orange"] * 2)
    t = Table(num_players=6, impostor=5).edit(first_player=0, shown_total=twice).turn(0)
    vote_then_ask(t, "vote +2", 5)  # seat 2: not the nearest seat
    assert plays(t, "heuristic") == "sabotage"
    t = Table(num_players=6, impostor=5).edit(first_player=0, shown_total=twice).turn(0)
    vote_then_ask(t, "vote +1", 5)
    assert plays(t, "heuristic") == "no sabotage"


def test_heuristic_impostor_believes_shows_once_face_up_seats_had_shown_their_own_colour():
    """Seats 1 and 2 are face up; seat 3 showed pink, seat 0 nothing. Where seats 1 and 2 had
    shown other colours, a crewmate hides its own: seat 3 is red, seat 0 pink. Where they had
    shown their own, seat 3 is pink and seat 0 red. The impostor guesses seat 0 first."""
    for seen, guess in ((dict(seat1=["green"], seat2=["blue"]), "guess pink"),
                        (dict(seat1=["blue"], seat2=["green"]), "guess red")):
        board = shown(seat3=["pink"], **seen)
        t = Table(num_players=5, impostor=4).edit(shown_total=board,
                                                  revealed=[0, 1, 1, 0, 0] + [0] * 5)
        t.turn(4, rules.END_OF_TURN).act("sabotage")
        assert plays(t, "heuristic") == guess


def test_heuristic_impostor_guesses_the_colour_no_other_seat_can_hold():
    t = Table(num_players=4, impostor=1).edit(shown_total=ONE_DEAL_FITS)
    t.turn(1, rules.END_OF_TURN).act("sabotage")  # guesses run clockwise: seat 2 first
    assert plays(t, "heuristic") == "guess green"  # not red, the first colour left
    t.act("guess green")
    assert plays(t, "heuristic") == "guess pink"


def test_heuristic_impostor_sabotages_once_its_guesses_would_be_right_six_times_in_ten():
    """With nothing shown, three seats could hold three colours any way (1 in 6): it waits.
    Once every deal but one needs a seat to hold a colour it showed, it sabotages (version 5
    waited for nine in ten; an outside audit found one half won 30 points more at 6 players;
    six in ten since issue 46, where one half guessed too soon against random crews)."""
    t = Table(num_players=4, impostor=1)
    assert plays(t.turn(1, rules.END_OF_TURN), "heuristic") == "end turn"
    t = Table(num_players=4, impostor=1).edit(shown_total=ONE_DEAL_FITS)
    assert plays(t.turn(1, rules.END_OF_TURN), "heuristic") == "sabotage"


def test_heuristic_impostor_waits_at_an_investigation():
    """Issue 46: the board on which it sabotages at its end of turn, at its show: it shows, as
    ``mono_impostor`` did when it beat the heuristic at 4 to 6 players; the round's shows and
    ends of turn are still to come."""
    t = Table(num_players=4, impostor=1).edit(shown_total=ONE_DEAL_FITS)
    t.hands({"red": 2}, {"green": 2, "pink": 2})
    t.edit(first_player=1, investigation_index=0, phase=rules.INVESTIGATION, current_seat=1)
    assert plays(t, "heuristic") == "show green"


def test_heuristic_crew_takes_no_word_from_a_show_of_the_impostors_colour():
    """The impostor may show its own colour (the ``flash`` style): a seat that showed pink,
    the impostor's, is as suspect as one that showed nothing."""
    t = Table(num_players=4, impostor=3, assist=0).edit(shown_total=shown(seat3=["pink"]))
    t.hands({"red": 5}, {"blue": 5}, {"green": 5}, {"pink": 5}).turn(0, rules.END_OF_TURN)
    assert plays(t, "heuristic") == "clear, look at +1"  # a tie: the first clockwise


def style_plays(t: Table, name: str) -> str:
    policy = STYLES[name](t.vec.spec, t.vec.params)
    return t.vec.spec.action_names[int(policy.act(t.vec.observation, t.vec.action_mask)[0])]


def test_flash_impostor_shows_its_own_colour_and_liar_crew_theirs():
    t = Table(num_players=4, impostor=1).hands({"red": 2, "blue": 3}, {"blue": 1, "red": 4})
    t.edit(first_player=1, investigation_index=0, phase=rules.INVESTIGATION, current_seat=1)
    assert style_plays(t, "flash") == "show blue"  # the impostor's colour
    assert plays(t, "heuristic") == "show red"
    t.edit(first_player=0, current_seat=0)
    assert style_plays(t, "liar") == "show red"  # its own
    assert style_plays(t, "liar_chain") == "show red"
    assert plays(t, "heuristic") == "show blue"


def test_late_vote_crew_sits_still_until_the_last_round_then_votes_the_chain():
    t = Table(num_players=5, impostor=3).edit(first_player=1).turn(1)
    assert style_plays(t, "late_vote") == "no trade"
    t.act("no trade")
    assert style_plays(t, "late_vote") == "end turn"
    t.edit(round=30)
    assert style_plays(t, "late_vote") == "vote +1"


def test_every_style_plays_one_side():
    assert {name: cls.teams for name, cls in STYLES.items()} == {
        "passive": ("crew",), "liar": ("crew",), "liar_chain": ("crew",),
        "late_vote": ("crew",), "flash": ("impostor",), "hider": ("impostor",),
    }


def test_heuristic_crew_looks_at_the_seat_most_likely_to_be_the_impostor():
    t = Table(num_players=4, impostor=3).edit(shown_total=SEAT_3_SHOWED_THE_OTHERS)
    t.hands({"red": 5}, {"blue": 5}, {"green": 5}, {"pink": 5}).turn(0, rules.END_OF_TURN)
    assert plays(t, "heuristic") == "clear, look at +3"  # none showed pink: it counts


def test_heuristic_crew_votes_once_the_impostor_is_seven_times_in_ten():
    def crewmate_plays(board, **fields):
        t = Table(num_players=4, impostor=3).edit(shown_total=board, **fields)
        t.hands({"red": 4, "blue": 1}, {"blue": 4}, {"green": 5}, {"pink": 5, "red": 1})
        return plays(t.turn(0, rules.END_OF_TURN), "heuristic")

    assert crewmate_plays(SEAT_3_SHOWED_THE_OTHERS) == "vote +3"
    assert crewmate_plays(SEATS_1_AND_3_ALIKE) == "end turn"
    last_round = crewmate_plays(SEATS_1_AND_3_ALIKE, round=30)
    assert last_round == "vote +1"  # a tie goes to the first clockwise


def v3_plays(t: Table, cls) -> str:
    policy = cls(t.vec.spec, t.vec.params)
    return t.vec.spec.action_names[int(policy.act(t.vec.observation, t.vec.action_mask)[0])]


def test_heuristic_shows_its_decoy_every_round_on_either_side():
    """Audit turn 4, AU-1 to AU-3: seats 0 (crew) and 1 (the impostor) each showed green
    once. Both show green again rather than pink, which they hold more of: each new colour
    shown would rule one more colour out of the seat's own for the other side's count. The
    mono styles show the same."""
    from agents.amongus_styles import AmongUsMono, AmongUsMonoImpostor

    t = Table(num_players=4, impostor=1).hands({"red": 1, "green": 1, "pink": 3},
                                               {"blue": 2, "green": 1, "pink": 2})
    t.edit(shown_total=shown(seat0=["green"], seat1=["green"]))
    t.edit(first_player=0, investigation_index=0, phase=rules.INVESTIGATION, current_seat=0)
    assert plays(t, "heuristic") == v3_plays(t, AmongUsMono) == "show green"
    t.edit(first_player=1, current_seat=1)
    assert plays(t, "heuristic") == v3_plays(t, AmongUsMonoImpostor) == "show green"


def test_heuristic_never_trades_away_its_last_decoy_card():
    """From 5 players; at 4, where a clear (five cards of its own colour) decides the short
    game, a crewmate lets its decoy go."""
    from agents.amongus_styles import AmongUsMono

    t = Table(num_players=5, impostor=1).hands({"red": 1, "green": 1}, {"blue": 2, "pink": 2},
                                               {"green": 2}, {"pink": 2, "green": 1}, {})
    t.edit(shown_total=shown(seat0=["green"]), first_player=0).turn(0)
    assert plays(t, "heuristic") == v3_plays(t, AmongUsMono) == "no trade"


def test_heuristic_crew_lets_its_last_decoy_go_near_a_clear_at_5_players():
    """Issue 46: keeping its last decoy card all game, a crewmate never cleared at 5 players,
    and an impostor that waits at the investigations held that crew below a random crew. At 5
    it lets the decoy go once it holds three cards of its own colour (red); with two, or from 6
    players, it keeps it."""
    for n, red, trades in ((5, 3, True), (5, 2, False), (6, 3, False)):
        t = Table(num_players=n, impostor=1).hands({"red": red, "green": 1})
        t.edit(shown_total=shown(seat0=["green"]), first_player=0).turn(0)
        assert plays(t, "heuristic").startswith("offer green") == trades, (n, red)


def test_honest_first_chain_shows_its_own_colour_among_the_rounds_first_three():
    """Audit turn 4, AU-5: seat 0 plays third this round (from seat 4) and shows its own
    colour, red; playing fourth (from seat 3), it shows the chain's spare colour."""
    from agents.amongus_styles import AmongUsHonestFirst

    t = Table(num_players=6, impostor=5).hands({"red": 2, "green": 1, "pink": 2})
    t.edit(first_player=4, investigation_index=0, phase=rules.INVESTIGATION, current_seat=0)
    assert plays(t, "chain") == "show pink"
    assert v3_plays(t, AmongUsHonestFirst) == "show red"
    t.edit(first_player=3)
    assert plays(t, "chain") == v3_plays(t, AmongUsHonestFirst) == "show pink"


@pytest.mark.parametrize("num_players", [6, 7, 10])
def test_heuristic_shows_one_colour_all_game_and_never_its_own(num_players):
    """Audit turn 4, AU-3: a seat whose shows change rules a colour out of its own at each new
    one, which handed the other side its colour (a random crew beat the heuristic crew). In
    heuristic self-play from 6 players each seat shows one colour all game besides the
    impostor's (a crewmate whose hand holds nothing but its own and the impostor's shows that),
    and a crewmate never its own, so its shows tell no more than one colour it is not. (At 5 a
    crewmate near a clear lets its decoy go, and may then show another colour.)"""
    from agents.amongus_heuristic import AmongUsHeuristic

    games = 64
    vec = envs.make_vec("amongus", games, seed=5, num_players=num_players)
    heuristic = AmongUsHeuristic(vec.spec, vec.params)
    done = np.zeros(games, bool)
    while not done.all():
        before = vec.records.copy()
        _, terminated, truncated = vec.step(heuristic.act(vec.observation, vec.action_mask))
        for b in np.flatnonzero((terminated | truncated) & ~done):
            s = before[b]
            for seat in range(num_players):
                colours = set(np.flatnonzero(s["shown_total"][seat, :num_players]))
                assert len(colours - {s["impostor_colour"]}) <= 1, (b, seat, colours)
                if seat != s["impostor"]:
                    assert s["colour"][seat] not in colours, (b, seat, colours)
        done |= terminated | truncated


def test_heuristic_crew_takes_no_word_from_a_gift_of_the_impostors_colour():
    """Issue 46's exploit search: the heuristic impostor never gave a card of its own colour,
    so the crew's count read one as 20 to 1 that the giver is a crewmate, a handshake a crew
    trade can use and an impostor fake. Seats 1 and 3 are alike; seat 1 gave seat 0 a pink card
    (the impostor's colour). The heuristic, in the last round, still votes the first of the two
    clockwise; ``handshake``, which reads the gift, votes seat 3."""
    from agents.amongus_styles import AmongUsHandshake

    t = Table(num_players=4, impostor=3).edit(shown_total=SEATS_1_AND_3_ALIKE, round=30)
    t.hands({"red": 4, "blue": 1}, {"blue": 4}, {"green": 5}, {"pink": 5, "red": 1})
    given = np.zeros_like(t.s["given"])
    given[1, 0, 3] = 1  # seat 1 gave seat 0 a pink card, in a trade seat 1 started
    trades = np.zeros_like(t.s["trades"])
    trades[1, 0] = 1
    t.edit(given=given, trades=trades).turn(0, rules.END_OF_TURN)
    assert plays(t, "heuristic") == "vote +1"
    assert v3_plays(t, AmongUsHandshake) == "vote +3"


def test_heuristic_impostor_reads_a_card_given_to_it_as_two_to_one():
    """Issue 46's exploit search: a crewmate that can no longer clear may give its own colour,
    and a crew trade that did so beat the impostor that read a gift as 20 to 1 against holding
    its colour; it reads one as 2 to 1 now. Seat 0 gave the impostor pink and green, seat 3
    green: read at 20 to 1 (the board of one deal that fits) it would sabotage (the fitting
    deal 0.83); at 2 to 1 it waits (0.31)."""
    t = Table(num_players=4, impostor=1)
    given = np.zeros_like(t.s["given"])
    given[0, 1, [3, 2]] = 1  # seat 0 gave seat 1 pink and green
    given[3, 1, 2] = 1
    trades = np.zeros_like(t.s["trades"])
    trades[1, [0, 3]] = 1  # trades the impostor started
    t.edit(given=given, trades=trades)
    assert plays(t.turn(1, rules.END_OF_TURN), "heuristic") == "end turn"


def test_heuristic_impostor_fakes_the_handshake_from_5_players():
    """From 5 players the impostor gives a card of its own colour (blue) while it holds one to
    three: a crew that read such a gift as a crewmate's (``handshake``) held it to 0.06 at 6
    players. At 4, where crewmates clear and such a card blocks them, it does not."""
    for n, hand, gives in ((5, {"blue": 2, "green": 3}, "give blue"),
                           (5, {"blue": 4, "green": 1}, "give green"),
                           (4, {"blue": 2, "green": 3}, "give green")):
        t = Table(num_players=n, impostor=1).hands({"red": 2, "pink": 3}, hand)
        t.edit(first_player=0).turn(0).act("offer red to +1")
        assert plays(t, "heuristic") == gives, (n, hand)
