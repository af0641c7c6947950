"""What a person at the table sees of another seat's action (``render.public_action``, used by
human play) and of the table (``render(seat)``): nothing its seat may not know."""

import numpy as np

import envs
from agents.amongus_heuristic import AmongUsHeuristic
from agents.policy import RandomPolicy
from envs.amongus import rules
from envs.amongus.render import public_action

from .board import Table
from .test_properties import hidden_from

# Actions whose text names a card the action itself turns face up (so a re-deal changes it).
TURNS_UP = ("vote", "clear", "kill", "sabotage")


def test_an_offer_lies_face_down_even_for_its_partner():
    t = Table(num_players=4).hands({"red": 2, "green": 3}).turn(0)
    offer = t.vec.spec.action_names.index("offer green to +2")
    assert public_action(t.s, 0, offer, 1) == "offers a card face down to player_2"
    assert public_action(t.s, 0, offer, 2) == "offers a card face down to player_2"
    assert public_action(t.s, 0, offer, 0) == "offers green to player_2"


def test_the_card_given_in_return_is_seen_by_the_two_traders_only():
    t = Table(num_players=4).hands({"red": 2, "green": 3}, {}, {"blue": 5}).turn(0)
    t.act("offer green to +2")
    give = t.vec.spec.action_names.index("give blue")
    assert public_action(t.s, 2, give, 0) == "gives blue to player_0 for green"
    assert public_action(t.s, 2, give, 1) == "gives a card face down to player_0 in return"


def test_a_ballot_is_public_and_turns_both_cards_up():
    t = Table(num_players=4, impostor=1).turn(0, rules.END_OF_TURN)
    vote = t.vec.spec.action_names.index("vote +2")
    assert public_action(t.s, 0, vote, 3) == "votes for player_2: player_0 is red, player_2 is green"


def test_the_seat_a_clearer_will_look_at_is_seen_by_no_one_else():
    t = Table(num_players=4).hands({"red": 5}).turn(0, rules.END_OF_TURN)
    clear = t.vec.spec.action_names.index("clear, look at +3")
    assert "player_3" not in public_action(t.s, 0, clear, 1)
    assert public_action(t.s, 0, clear, 0).endswith("to look at player_3")


def test_no_action_text_changes_with_what_its_viewer_cannot_know():
    """Over random and heuristic games at 6 players: re-deal what the viewer cannot know, and
    every action's text is the same, but for the cards that action itself turns face up."""
    vec = envs.make_vec("amongus", 32, seed=3, num_players=6)
    players = [AmongUsHeuristic(vec.spec, vec.params), RandomPolicy(2)]
    which = np.arange(vec.num_envs) % 2
    rng = np.random.default_rng(0)
    names, checked = vec.spec.action_names, 0
    for _ in range(200):
        actions = np.empty(vec.num_envs, np.int64)
        for k, player in enumerate(players):
            actions[which == k] = player.act(vec.observation, vec.action_mask)[which == k]
        for b in range(vec.num_envs):
            s, action = vec.records[b], int(actions[b])
            seat = int(s["current_seat"])
            if names[action].startswith(TURNS_UP):
                continue
            for viewer in range(6):
                if viewer != seat:
                    t, _ = hidden_from(s, viewer, rng)
                    assert public_action(t, seat, action, viewer) == public_action(
                        s, seat, action, viewer
                    ), names[action]
                    checked += 1
        vec.step(actions)
    assert checked > 10000, checked
