"""Among Us – The Card Game: one test per rule, board before and after.

Seat i holds colour i in these boards (red, blue, green, pink, ...); seat 1 (blue) is the
impostor unless a test says otherwise.
"""

import numpy as np
import pytest

import envs
from envs.amongus import rules
from envs.amongus.cards import HAND_SIZE, TASKS_PER_COLOUR

from .board import Table

FIVE = HAND_SIZE


def test_setup_deals_one_character_and_five_task_cards_each():
    vec = envs.make_vec("amongus", 64, seed=3, num_players=7)
    for s in vec.records:
        n = int(s["num_players"])
        assert sorted(s["colour"][:n]) == list(range(n))
        assert (s["hand"][:n].sum(axis=1) == HAND_SIZE).all()
        assert (s["hand"][:n, :n].sum(axis=0) == TASKS_PER_COLOUR).all()
        assert s["colour"][s["impostor"]] == s["impostor_colour"]


def test_first_turn_and_first_show_go_to_the_dealers_left():
    t = Table(num_players=5)
    t.vec.reset(seed=1)
    assert int(t.s["current_seat"]) == 1 and int(t.s["phase"]) == rules.INVESTIGATION


def test_investigation_shows_one_card_each_in_turn_order_publicly():
    t = Table(num_players=4, impostor=3).hands(
        {"red": 5}, {"blue": 1, "green": 4}, {"green": 1, "pink": 4}, {"pink": 1, "blue": 4}
    )
    t.edit(phase=rules.INVESTIGATION, current_seat=1, first_player=1, investigation_index=0)
    assert t.legal() == ["show blue", "show green"]
    t.act("show green")
    assert int(t.s["current_seat"]) == 2
    assert t.hand(1) == {"blue": 1, "green": 4}  # the card goes back to the hand
    for seat in range(4):  # everyone sees it, seat-relative
        shown = t.observation(seat)["shown_now"]
        assert shown[(1 - seat) % 4].argmax() == 2 and shown[(1 - seat) % 4].sum() == 1


def test_after_investigation_the_first_player_takes_the_first_turn():
    t = Table(num_players=4).edit(
        phase=rules.INVESTIGATION, current_seat=0, first_player=1, investigation_index=3
    )
    t.act(t.legal()[0])
    assert (int(t.s["phase"]), int(t.s["current_seat"]), int(t.s["turn_owner"])) == (rules.TRADE, 1, 1)


def test_cleared_player_does_not_investigate():
    t = Table(num_players=4).edit(cleared=[0, 0, 1, 0, 0, 0, 0, 0, 0, 0])
    t.edit(phase=rules.INVESTIGATION, current_seat=1, first_player=1, investigation_index=0)
    t.act(t.legal()[0])
    assert int(t.s["current_seat"]) == 3


def test_trade_offer_then_partner_chooses_the_card_in_return():
    t = Table(num_players=4).hands({"red": 3, "green": 2}, {"blue": 5}, {"red": 2, "pink": 3}, {})
    t.turn(0)
    t.act("offer green to +2")
    assert int(t.s["phase"]) == rules.REPLY and int(t.s["current_seat"]) == 2
    assert t.legal() == ["give red", "give pink", "sabotage"][:2]
    t.act("give red")
    assert t.hand(0) == {"red": 4, "green": 1}
    assert t.hand(2) == {"red": 1, "green": 1, "pink": 3}
    assert int(t.s["phase"]) == rules.END_OF_TURN and int(t.s["current_seat"]) == 0


def test_trade_contents_are_seen_only_by_the_traders_but_the_pair_is_public():
    t = Table(num_players=4).hands({"red": 3, "green": 2}, {"blue": 5}, {"red": 2, "pink": 3}, {})
    t.turn(0)
    t.act("offer green to +2")
    t.act("give red")
    me = t.observation(0)
    assert me["given_to"][2, 2] > 0 and me["received_from"][2, 0] > 0
    partner = t.observation(2)
    assert partner["received_from"][2, 2] > 0 and partner["given_to"][2, 0] > 0  # seat 0 is +2 of 2
    for seat in (1, 3):
        other = t.observation(seat)
        assert other["given_to"].sum() == 0 and other["received_from"].sum() == 0
        assert other["trades"][(0 - seat) % 4, (2 - seat) % 4] > 0


def test_partner_does_not_see_the_offered_card_before_replying():
    a = Table(num_players=4).hands({"red": 3, "green": 2}, {"blue": 5}, {"red": 2, "pink": 3}, {})
    b = Table(num_players=4).hands({"red": 3, "green": 2}, {"blue": 5}, {"red": 2, "pink": 3}, {})
    a.turn(0).act("offer green to +2")
    b.turn(0).act("offer red to +2")
    assert np.array_equal(a.vec.observation, b.vec.observation)


def test_no_trade_ends_the_trade_step():
    t = Table(num_players=4).turn(0)
    t.act("no trade")
    assert int(t.s["phase"]) == rules.END_OF_TURN and int(t.s["current_seat"]) == 0


def test_no_trades_with_or_by_a_cleared_player():
    t = Table(num_players=4).hands({"red": 4, "green": 1}, {"blue": 5}, {"green": 4, "red": 1}, {})
    t.edit(cleared=[0, 0, 1, 0, 0, 0, 0, 0, 0, 0]).turn(0)
    assert not any(a.endswith("to +2") for a in t.legal())
    t.edit(first_player=0).turn(1, rules.END_OF_TURN)
    t.act("end turn")  # a cleared player's turn skips the trade
    assert int(t.s["current_seat"]) == 2 and int(t.s["phase"]) == rules.END_OF_TURN


def test_vote_for_the_impostor_wins_for_the_crew_at_once_with_no_window():
    t = Table(num_players=4, impostor=1).turn(0, rules.END_OF_TURN)
    rewards, terminated, _ = t.act("vote +1")
    assert terminated and int(t.vec.winner[0]) == rules.CREW
    assert rewards.tolist()[:4] == [1.0, -1.0, 1.0, 1.0]
    assert int(t.s["window"]) == rules.NO_WINDOW


def test_wrong_vote_reveals_both_characters_and_the_game_goes_on():
    t = Table(num_players=4, impostor=1).edit(first_player=0).turn(0, rules.END_OF_TURN)
    _, terminated, _ = t.act("vote +2")
    assert not terminated
    assert t.s["revealed"][:4].tolist() == [1, 0, 1, 0] and t.s["voted"][0]
    for seat in range(4):
        known = t.observation(seat)["known_colour"]
        assert known[(2 - seat) % 4, 2] == 1 and known[(0 - seat) % 4, 0] == 1
    assert t.let_the_window_pass() == [1, 3]
    assert (int(t.s["phase"]), int(t.s["current_seat"])) == (rules.TRADE, 1)  # next turn


def test_wrong_vote_opens_a_sabotage_window_for_every_face_down_seat():
    """Crew and impostor alike are asked, clockwise from the voter, so who decides tells
    nobody which of them could sabotage."""
    t = Table(num_players=5, impostor=3).edit(first_player=0).turn(0, rules.END_OF_TURN)
    t.act("vote +2")  # seats 0 and 2 face up; 1, 3, 4 face down
    assert int(t.s["phase"]) == rules.SABOTAGE_WINDOW and int(t.s["window"]) == rules.AFTER_VOTE
    assert int(t.s["current_seat"]) == 1 and t.legal() == ["no sabotage"]  # a crewmate
    t.act("no sabotage")
    assert int(t.s["current_seat"]) == 3 and t.legal() == ["sabotage", "no sabotage"]  # impostor
    t.act("no sabotage")
    assert int(t.s["current_seat"]) == 4 and t.legal() == ["no sabotage"]
    t.act("no sabotage")
    assert int(t.s["window"]) == rules.NO_WINDOW
    assert (int(t.s["phase"]), int(t.s["current_seat"])) == (rules.TRADE, 1)


def test_wrong_vote_that_turns_no_card_face_up_opens_no_window():
    """A cleared voter (face up) naming a seat already face up turns no card: the ruling's window
    follows a card turned face up, so the turn simply ends (version 6; before, a window opened)."""
    up = [1, 0, 1, 0, 0, 0, 0, 0, 0, 0]
    t = Table(num_players=4, impostor=3).edit(first_player=0, cleared=up, revealed=up)
    t.turn(0, rules.END_OF_TURN)
    _, terminated, _ = t.act("vote +2")
    assert not terminated and t.s["voted"][0] and int(t.s["ballot"][0]) == 2
    assert t.s["revealed"][:4].tolist() == [1, 0, 1, 0]
    assert int(t.s["window"]) == rules.NO_WINDOW
    assert (int(t.s["phase"]), int(t.s["current_seat"])) == (rules.TRADE, 1)  # next turn


def test_the_ballot_is_public_and_remembered_for_the_whole_game():
    t = Table(num_players=4, impostor=1).edit(first_player=0).turn(0, rules.END_OF_TURN)
    t.act("vote +2")
    t.let_the_window_pass()
    for seat in range(4):
        voted_for = t.observation(seat)["voted_for"].reshape(4, 4)
        assert voted_for[(0 - seat) % 4, (2 - seat) % 4] == 1 and voted_for.sum() == 1
    t.edit(round=9, shown_now=[-1] * 10)  # rounds later, still there
    assert t.observation(3)["voted_for"].reshape(4, 4)[1, 3] == 1


def test_who_is_asked_in_a_window_does_not_depend_on_who_the_impostor_is():
    asked = []
    for impostor in (1, 3, 4):
        t = Table(num_players=5, impostor=impostor).edit(first_player=0).turn(0, rules.END_OF_TURN)
        t.act("vote +2")
        asked.append(t.let_the_window_pass())
    assert asked == [[1, 3, 4]] * 3


def test_impostor_may_sabotage_in_the_window_after_a_wrong_vote():
    t = Table(num_players=4, impostor=3).edit(first_player=0).turn(0, rules.END_OF_TURN)
    t.act("vote +2")
    t.act("no sabotage")  # seat 1
    assert int(t.s["current_seat"]) == 3
    t.act("sabotage")  # it now knows red (seat 0) and green (seat 2)
    assert int(t.s["phase"]) == rules.SABOTAGE_GUESS and int(t.s["window"]) == rules.NO_WINDOW
    assert t.s["revealed"][:4].tolist() == [1, 0, 1, 1]
    t.act("guess red")  # seat 0, clockwise from the impostor
    t.act("guess blue")  # seat 1
    rewards, terminated, _ = t.act("guess green")  # seat 2
    assert terminated and rewards.tolist()[:4] == [-1.0, -1.0, -1.0, 1.0]


def test_window_observation_names_the_open_window_and_the_cards_turned_up():
    t = Table(num_players=5, impostor=3).edit(first_player=0).turn(0, rules.END_OF_TURN)
    assert not t.observation(1)["window"].any() and not t.observation(1)["window_cards"].any()
    t.act("vote +2")
    for seat in range(5):
        obs = t.observation(seat)
        assert obs["phase"].argmax() == rules.SABOTAGE_WINDOW
        assert obs["window"].tolist() == [1, 0]  # after a wrong vote
        cards = sorted(np.flatnonzero(obs["window_cards"]))
        assert cards == sorted([(0 - seat) % 5, (2 - seat) % 5])
    t.let_the_window_pass()
    assert not t.observation(1)["window"].any() and not t.observation(1)["window_cards"].any()


def test_each_player_votes_only_once():
    t = Table(num_players=4).edit(voted=[1, 0, 0, 0, 0, 0, 0, 0, 0, 0]).turn(0, rules.END_OF_TURN)
    assert not any(a.startswith("vote") for a in t.legal())


def test_clear_needs_all_five_cards_of_ones_own_colour():
    t = Table(num_players=4).hands({"red": 4, "green": 1}).turn(0, rules.END_OF_TURN)
    assert not any(a.startswith("clear") for a in t.legal())
    t.hands({"red": 5}).turn(0, rules.END_OF_TURN)
    assert "clear, look at +2" in t.legal()


def test_clear_looking_at_the_impostor_wins_for_the_crew():
    t = Table(num_players=4, impostor=3).hands({"red": 5}).turn(0, rules.END_OF_TURN)
    _, terminated, _ = t.act("clear, look at +3")
    assert not terminated  # hand and card are up; the window comes before the look
    assert t.let_the_window_pass() == [1, 2, 3]  # then the look ends the game
    assert bool(t.vec.terminated[0]) and int(t.vec.winner[0]) == rules.CREW
    assert t.vec.rewards[0].tolist()[:4] == [1.0, 1.0, 1.0, -1.0]


def test_clear_opens_a_sabotage_window_before_the_look():
    t = Table(num_players=4, impostor=3).hands({"red": 5}).turn(0, rules.END_OF_TURN)
    t.act("clear, look at +3")
    assert int(t.s["window"]) == rules.AFTER_CLEAR and t.s["revealed"][:4].tolist() == [1, 0, 0, 0]
    assert not t.s["looked"][0].any() and not t.s["not_impostor"].any()
    for seat in range(4):
        obs = t.observation(seat)
        assert obs["window"].tolist() == [0, 1]  # after a clear
        assert np.flatnonzero(obs["window_cards"]).tolist() == [(0 - seat) % 4]
    t.act("no sabotage")
    t.act("no sabotage")
    assert int(t.s["current_seat"]) == 3 and t.legal() == ["sabotage", "no sabotage"]
    t.act("sabotage")  # about to be looked at, the impostor guesses first
    assert int(t.s["phase"]) == rules.SABOTAGE_GUESS and not t.s["looked"][0].any()
    t.act("guess red")
    t.act("guess blue")
    rewards, terminated, _ = t.act("guess green")
    assert terminated and rewards.tolist()[:4] == [-1.0, -1.0, -1.0, 1.0]


def test_the_look_a_clear_will_make_is_seen_by_no_one_during_the_window():
    a = Table(num_players=4, impostor=3).hands({"red": 5}).turn(0, rules.END_OF_TURN)
    b = Table(num_players=4, impostor=3).hands({"red": 5}).turn(0, rules.END_OF_TURN)
    a.act("clear, look at +3")
    b.act("clear, look at +2")
    for seat in range(4):
        assert np.array_equal(a.vec.observe(seat), b.vec.observe(seat))
    assert np.array_equal(a.vec.action_mask, b.vec.action_mask)


def test_clear_looking_at_a_crewmate_clears_them_publicly_and_tells_only_the_clearer():
    t = Table(num_players=4, impostor=3).hands({"red": 5}).turn(0, rules.END_OF_TURN)
    _, terminated, _ = t.act("clear, look at +2")
    assert not terminated
    t.let_the_window_pass()
    assert not t.vec.terminated[0]
    assert t.s["cleared"][0] and t.s["revealed"][0] and t.s["not_impostor"][2]
    assert t.observation(0)["known_colour"][2, 2] == 1
    for seat in (1, 3):
        assert t.observation(seat)["known_colour"][(2 - seat) % 4].sum() == 0
        assert t.observation(seat)["not_impostor"][(2 - seat) % 4] == 1


def test_cleared_player_may_vote_on_a_later_turn_but_not_clear_again():
    t = Table(num_players=4).hands({"red": 5}).edit(cleared=[1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    t.turn(0, rules.END_OF_TURN)
    legal = t.legal()
    assert "vote +1" in legal and not any(a.startswith("clear") for a in legal)


def test_cleared_player_who_has_voted_has_no_turn_left():
    t = Table(num_players=4).edit(cleared=[0, 1, 0, 0, 0, 0, 0, 0, 0, 0])
    t.edit(voted=[0, 1, 0, 0, 0, 0, 0, 0, 0, 0], impostor=2, impostor_colour=2)
    t.turn(0, rules.END_OF_TURN)
    t.act("end turn")
    assert int(t.s["current_seat"]) == 2


def test_impostor_cannot_vote_or_clear():
    t = Table(num_players=4, impostor=1).hands({}, {"blue": 5}).turn(1, rules.END_OF_TURN)
    assert t.legal() == ["kill", "end turn", "sabotage"]


def test_kill_needs_all_five_impostor_cards_and_wins():
    t = Table(num_players=4, impostor=1).hands({}, {"blue": 4, "red": 1}).turn(1, rules.END_OF_TURN)
    assert "kill" not in t.legal()
    t.hands({}, {"blue": 5}).turn(1, rules.END_OF_TURN)
    rewards, terminated, _ = t.act("kill")
    assert terminated and int(t.vec.winner[0]) == rules.IMPOSTOR
    assert rewards.tolist()[:4] == [-1.0, 1.0, -1.0, -1.0]


@pytest.mark.parametrize(
    "phase",
    [rules.INVESTIGATION, rules.TRADE, rules.REPLY, rules.END_OF_TURN, rules.SABOTAGE_WINDOW],
)
def test_sabotage_is_open_at_every_impostor_decision(phase):
    own_turn = (rules.INVESTIGATION, rules.TRADE, rules.END_OF_TURN)
    t = Table(num_players=4, impostor=1).hands({"red": 5}, {"blue": 5}, {"green": 5}, {"pink": 5})
    t.edit(phase=phase, current_seat=1, turn_owner=1 if phase in own_turn else 0, partner=1)
    if phase == rules.SABOTAGE_WINDOW:
        t.edit(window=rules.AFTER_VOTE, vote_target=2, revealed=[1, 0, 1] + [0] * 7)
    assert "sabotage" in t.legal()
    t.edit(current_seat=2, turn_owner=2)
    assert "sabotage" not in t.legal()


def test_sabotage_guessing_every_colour_right_wins_for_the_impostor():
    t = Table(num_players=4, impostor=1).turn(1, rules.END_OF_TURN)
    t.act("sabotage")
    assert t.s["revealed"][1] and int(t.s["phase"]) == rules.SABOTAGE_GUESS
    assert "guess blue" not in t.legal()
    t.act("guess green")  # seat 2
    assert t.s["revealed"][2]
    t.act("guess pink")  # seat 3
    rewards, terminated, _ = t.act("guess red")  # seat 0
    assert terminated and rewards.tolist()[:4] == [-1.0, 1.0, -1.0, -1.0]


def test_sabotage_with_one_wrong_guess_loses():
    t = Table(num_players=4, impostor=1).turn(1, rules.END_OF_TURN)
    t.act("sabotage")
    t.act("guess green")
    rewards, terminated, _ = t.act("guess red")  # seat 3 is pink
    assert terminated and int(t.vec.winner[0]) == rules.CREW
    assert rewards.tolist()[:4] == [1.0, -1.0, 1.0, 1.0]


def test_player_who_went_second_goes_first_next_round():
    t = Table(num_players=4).edit(first_player=1).turn(0, rules.END_OF_TURN)  # the last turn
    round_before = int(t.s["round"])
    t.act("end turn")
    assert int(t.s["round"]) == round_before + 1 and int(t.s["first_player"]) == 2
    assert int(t.s["phase"]) == rules.INVESTIGATION and int(t.s["current_seat"]) == 2
    assert (t.s["shown_now"][:4] == -1).all()


def test_game_longer_than_max_rounds_is_a_draw():
    t = Table(num_players=4, max_rounds=3).edit(round=3, first_player=1).turn(0, rules.END_OF_TURN)
    rewards, terminated, truncated = t.act("end turn")
    assert truncated and not terminated and (rewards == 0).all()
    assert int(t.vec.winner[0]) == -1


def test_impostor_colour_is_public_and_the_impostor_seat_secret():
    t = Table(num_players=5, impostor=3)
    for seat in range(5):
        obs = t.observation(seat)
        assert obs["impostor_colour"].argmax() == 3
        assert obs["is_impostor"][0] == (seat == 3)
