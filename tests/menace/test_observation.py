"""What a seat observes of past rounds and of this round's vote, board before and after, from a
scenario built by `scenario.table`. Seats in a view are relative to the observer."""

import numpy as np
import pytest

import envs
from envs.menace.observe import observe
from envs.menace.spec import SPEC
from tests.menace.scenario import act, card, table

BR, RM = card("Basic Repair"), card("Raise Morale")


def view(s, seat):
    """The named pieces of `seat`'s observation of record `s`."""
    layout = SPEC.observation_layout({p.name: int(s[p.name]) for p in SPEC.params})
    out = np.zeros(layout.size, np.float32)
    observe(s, seat, out, layout.offsets, int(s["num_players"]))
    return layout.split(out)


def one_hot(n, i):
    row = np.zeros(n, np.float32)
    row[i] = 1.0
    return row


def first_round(**params):
    """Seats 0, 2, 3 play Basic Repair, Raise Morale, Basic Repair; seat 1 draws. Seat 0 calls
    a vote: seat 0 and seat 3 vote for seat 1, seat 1 for seat 3, seat 2 abstains, so seat 1 is
    exiled. Seat 3 is left with no card in hand or deck."""
    st = table(hands={0: [BR], 2: [RM], 3: [BR]}, decks={3: []}, oxygen=10,
               emma=[RM, RM, RM, RM], **params)
    s = st[0]
    act(s, "play Basic Repair", "draw", "play Raise Morale", "play Basic Repair")
    act(s, "yes", "seat +1", "seat +2", "pass", "seat +2")
    return s


def test_last_round_shows_its_cards_who_played_the_vote_and_the_exile():
    s = first_round()
    assert s["round"] == 2 and s["exiled"][1]
    v = view(s, 0)
    assert list(v["past_round"]) == [1, 0, 0]
    expected = np.zeros(11, np.float32)
    expected[BR], expected[RM] = 2 / 8, 1 / 8
    assert np.array_equal(v["past_revealed"][0], expected)
    assert np.allclose(v["past_played"][0], np.array([1, 0, 1, 1]) / 3)
    assert np.array_equal(v["past_vote_caller"][0], one_hot(4, 0))
    # rows are voters, columns whom they voted for (relative), the last column abstained
    assert np.array_equal(v["past_ballots"][0], np.stack(
        [one_hot(5, 1), one_hot(5, 3), one_hot(5, 4), one_hot(5, 1)]
    ))
    assert list(v["past_exiled"][0]) == [0, 1, 0, 0]
    assert not v["past_killed"].any()
    assert not v["past_revealed"][1:].any() and not v["past_ballots"][1:].any()


def test_past_rounds_are_seat_relative():
    v = view(first_round(), 2)  # seats 2, 3, 0, 1 are +0 .. +3
    assert np.allclose(v["past_played"][0], np.array([1, 1, 1, 0]) / 3)
    assert np.array_equal(v["past_vote_caller"][0], one_hot(4, 2))
    assert np.array_equal(v["past_ballots"][0], np.stack(
        [one_hot(5, 4), one_hot(5, 3), one_hot(5, 3), one_hot(5, 1)]
    ))
    assert list(v["past_exiled"][0]) == [0, 0, 0, 1]


def test_rounds_shift_down_the_window_and_a_death_shows_in_its_round():
    s = first_round()
    before = view(s, 0)
    # Round 2 from seat 1: seat 3, with neither hand nor deck, dies on its turn (The Witness
    # may then reveal an agenda; it passes). No one plays, so EmMA adds two Raise Morale.
    act(s, "draw", "draw", "pass", "draw")
    act(s, "pass", "pass")  # seats 2 and 0 do not call a vote; seat 1 is exiled
    assert s["round"] == 3 and not s["alive"][3]
    after = view(s, 0)
    assert list(after["past_round"]) == [1, 1, 0]
    for piece in ("past_revealed", "past_played", "past_vote_caller", "past_ballots",
                  "past_exiled", "past_killed"):
        assert np.array_equal(after[piece][1], before[piece][0]), piece
    expected = np.zeros(11, np.float32)
    expected[RM] = 2 / 8
    assert np.array_equal(after["past_revealed"][0], expected)
    assert not after["past_played"][0].any()
    assert not after["past_vote_caller"][0].any() and not after["past_ballots"][0].any()
    assert not after["past_exiled"][0].any()
    assert list(after["past_killed"][0]) == [0, 0, 0, 1]


def test_the_window_keeps_only_the_last_history_rounds():
    s = first_round(history_rounds=1)
    act(s, "draw", "draw", "pass", "draw", "pass", "pass")
    v = view(s, 0)
    assert v["past_round"].shape == (1,) and list(v["past_round"]) == [1]
    assert list(v["past_killed"][0]) == [0, 0, 0, 1]  # round 2, not round 1
    assert not v["past_exiled"].any()


def lockdown_round():
    """Seat 0 plays Basic Repair; seat 1 (Sela Okonkwo) locks down seat 3 (1 Oxygen); seats 2
    and 3 play Raise Morale and Basic Repair. Nobody calls a vote."""
    st = table(hands={0: [BR], 2: [RM], 3: [BR]}, oxygen=10)
    s = st[0]
    act(s, "play Basic Repair", "use ability 2", "seat +2", "play Raise Morale")
    return s


def test_oxygen_spent_sums_what_each_seats_used_abilities_cost_this_round_and_before():
    st = table(hands={0: [BR], 2: [RM], 3: [BR]}, oxygen=10)
    s = st[0]
    act(s, "play Basic Repair")
    assert not view(s, 0)["oxygen_spent"].any()
    act(s, "use ability 2", "seat +2")  # seat 1 (Sela Okonkwo) locks down seat 3: 1 Oxygen
    assert np.allclose(view(s, 0)["oxygen_spent"], [0, 1 / 4, 0, 0])
    assert np.allclose(view(s, 2)["oxygen_spent"], [0, 0, 0, 1 / 4])  # seat 1 is +3 from 2
    act(s, "play Raise Morale", "play Basic Repair", "pass", "pass", "pass")
    assert s["round"] == 2 and not view(s, 0)["abilities_used"].any()
    assert np.allclose(view(s, 0)["oxygen_spent"], [0, 1 / 4, 0, 0])  # from the past window


def test_a_seat_sees_its_own_face_down_cards_and_no_one_elses():
    s = lockdown_round()
    assert s["stage"] == 1 and s["current_seat"] == 3  # still the Action Phase
    before = view(s, 3)
    assert not before["own_played"].any()
    act(s, "play Basic Repair")
    after = view(s, 3)
    assert np.array_equal(after["own_played"], one_hot(11, BR) / 3)
    assert np.array_equal(view(s, 2)["own_played"], one_hot(11, RM) / 3)
    assert not view(s, 1)["own_played"].any()


def test_this_rounds_ability_targets_are_public_and_seat_relative():
    s = lockdown_round()
    expected = np.zeros((4, 4), np.float32)
    expected[1, 3] = 1.0  # seat +1 (Sela: Lockdown, `abilities_used` slot 2) chose seat +3
    assert np.array_equal(view(s, 0)["ability_targets"], expected)
    from_seat_2 = np.zeros((4, 4), np.float32)
    from_seat_2[3, 1] = 1.0  # seat 1 is +3 from seat 2; seat 3 is +1
    assert np.array_equal(view(s, 2)["ability_targets"], from_seat_2)


def test_past_rounds_keep_own_cards_ability_use_and_the_tracks():
    s = lockdown_round()
    act(s, "play Basic Repair", "pass", "pass", "pass")  # seat 3 is locked down: no call
    assert s["round"] == 2
    v0, v2 = view(s, 0), view(s, 2)
    assert np.array_equal(v0["past_own_played"][0], one_hot(11, BR) / 3)
    assert np.array_equal(v2["past_own_played"][0], one_hot(11, RM) / 3)
    assert not v0["past_own_played"][1:].any()
    used = np.zeros((4, 2), np.float32)
    used[1, 1] = 1.0
    assert np.array_equal(v0["past_abilities_used"][0], used)
    assert v0["past_ability_targets"][0, 1, 3] == 1.0 and v0["past_ability_targets"].sum() == 1
    assert v2["past_ability_targets"][0, 3, 1] == 1.0 and v2["past_ability_targets"].sum() == 1
    # 10 Oxygen, -1 Lockdown, -2 for two Basic Repairs, +1 Raise Morale; +2 Energy
    assert np.allclose(v0["past_tracks"][0], [8 / 20, 2 / 20])
    assert np.array_equal(v0["past_tracks"], v2["past_tracks"])
    assert not view(s, 0)["ability_targets"].any()  # a new round


def test_this_rounds_vote_shows_its_caller():
    st = table(hands={0: [BR], 2: [RM], 3: [BR]}, oxygen=10)
    s = st[0]
    act(s, "play Basic Repair", "draw", "play Raise Morale", "play Basic Repair")
    act(s, "pass", "yes")  # seat 0 declines, seat 1 calls
    assert np.array_equal(view(s, 0)["vote_caller"], one_hot(4, 1))
    assert np.array_equal(view(s, 3)["vote_caller"], one_hot(4, 2))


def test_table_talk_pieces_have_rows_only_with_table_talk():
    layout = SPEC.observation_layout(SPEC.resolve(num_players=5))
    talk = SPEC.observation_layout(SPEC.resolve(num_players=5, table_talk=1))
    sizes = {p.name: p.size for p in layout.pieces}
    talk_pieces = ("claims", "accused", "accused_card", "past_claims", "past_accused",
                   "past_accused_card", "game_claims", "game_accused")
    assert all(sizes[name] == 0 for name in talk_pieces)
    # this round, the 3 past rounds shown, the whole game's counts
    one_round = 5 * 3 + 5 * 5 + 5 * 11
    assert talk.size == layout.size + 4 * one_round + 5 * 3 + 5 * 5


def test_history_rounds_has_a_valid_range():
    with pytest.raises(ValueError, match=r"history_rounds.*\[0, 8\]"):
        envs.make_vec("menace", 1, history_rounds=9)
    small = SPEC.observation_layout(SPEC.resolve(num_players=6, history_rounds=0))
    default = SPEC.observation_layout(SPEC.resolve(num_players=6))
    # per round: the round, revealed cards, played, caller, ballots, exiled, killed, own cards,
    # abilities used, their targets, the tracks, the Brawl (who chose, whom)
    per_round = 1 + 11 + 6 + 6 + 6 * 7 + 6 + 6 + 11 + 6 * 2 + 6 * 6 + 2 + 2 * 6
    assert default.size - small.size == 3 * per_round


def test_rules_document_names_every_piece():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs/rules/menace.md").read_text()
    layout = SPEC.observation_layout(SPEC.resolve(table_talk=1))
    missing = [p.name for p in layout.pieces if f"`{p.name}`" not in text]
    assert not missing, f"docs/rules/menace.md does not describe {missing}"


def test_render_hides_a_pick_until_its_group_has_chosen():
    """render(seat) once showed other seats' characters before their group had finished
    choosing (audit L2); it now follows the observation (``picks_shown``)."""
    import envs
    from envs.core.seats import relative
    from envs.menace.cards import CHARACTER_NAMES

    vec = envs.make_vec("menace", 1, seed=3, num_players=6)
    checked = 0
    for _ in range(12):
        s = vec.records[0]
        n, leader = int(s["num_players"]), int(s["mission_leader"])
        for j in range(n):
            ch = int(s["character"][j])
            hidden = ch >= 0 and relative(j, leader, n) >= s["picks_shown"]
            for viewer in range(n):
                if viewer != j and hidden:
                    assert CHARACTER_NAMES[ch] not in vec.render(0, viewer)
                    checked += 1
            if ch >= 0:
                assert CHARACTER_NAMES[ch] in vec.render(0, j)  # the picker sees its own
        vec.step(vec.action_mask.argmax(1))
    assert checked > 0


# --- version 5: what a seat remembers for the whole game ----------------------------------------
AB, BRAWL = card("Airlock Breach"), card("Brawl")


def end_the_round(s):
    """The seats still to act draw, nobody calls a vote: the round ends, the next begins."""
    from tests.menace.scenario import legal

    start = int(s["round"])
    while s["round"] == start and not s["terminated"]:
        act(s, "pass" if "pass" in legal(s) else "draw")


def test_surveillance_is_remembered_after_the_round_by_its_user_alone():
    decks = {2: [RM], 3: [RM]}
    s = table(characters=(5, 4, 6, 7), hands={1: [AB]}, decks=decks, mission_leader=1)[0]
    act(s, "play Airlock Breach", "draw", "draw", "use ability 1", "seat +1")
    assert view(s, 0)["surveilled_cards"][AB] == 1 / 2 and not view(s, 0)["game_surveilled"].any()
    end_the_round(s)
    after = view(s, 0)
    assert s["round"] == 2 and not after["surveilled_seat"].any()  # this round's: gone
    expected = np.zeros((4, 11), np.float32)
    expected[1, AB] = 1 / 20
    assert np.array_equal(after["game_surveilled"], expected)  # the whole game's: kept
    assert not any(view(s, seat)["game_surveilled"].any() for seat in (1, 2, 3))


def test_intercept_is_remembered_after_the_round_by_its_user_alone():
    s = table(characters=(6, 4, 5, 7), decks={0: [RM], 2: [RM, AB]}, energy=1)[0]
    act(s, "use ability 2", "seat +2")
    end_the_round(s)
    assert s["round"] == 2 and not view(s, 0)["intercepted_seat"].any()
    assert view(s, 0)["game_intercepted"][2, AB] == 1 / 20
    assert view(s, 0)["game_intercepted"].sum() == np.float32(1 / 20)
    assert not any(view(s, seat)["game_intercepted"].any() for seat in (1, 2, 3))


def test_a_bloodwork_reveal_stays_public_for_the_whole_game():
    s = table(characters=(0, 5, 6, 7), hands={2: [AB, RM]}, decks={0: [RM]}, oxygen=5)[0]
    act(s, "use ability 1", "seat +2", "card Airlock Breach")
    end_the_round(s)
    assert s["round"] == 2 and not view(s, 3)["bloodwork_seat"].any()
    for seat in range(4):  # seat 2 is +2 from seat 0, +3 from seat 3
        counts = view(s, seat)["game_bloodwork"]
        assert counts[(2 - seat) % 4, AB] == 1 / 20 and counts.sum() == np.float32(1 / 20)


def test_a_brawl_choice_is_public_this_round_in_past_rounds_and_over_the_game():
    st = table(hands={0: [BRAWL], 1: [BRAWL], 2: [RM], 3: [RM]}, decks={0: [RM], 1: [RM]})
    s = st[0]
    act(s, "play Brawl", "play Brawl", "play Raise Morale", "play Raise Morale", "seat +2")
    v = view(s, 1)  # the Mission Leader, seat 0, is +3 from seat 1; seat 2, whom it chose, +1
    assert np.array_equal(v["brawl"], np.stack([one_hot(4, 3), one_hot(4, 1)]))
    assert not v["game_brawls"].any()
    end_the_round(s)
    v = view(s, 1)
    assert not v["brawl"].any()
    assert np.array_equal(v["past_brawl"][0], np.stack([one_hot(4, 3), one_hot(4, 1)]))
    expected = np.zeros((4, 4), np.float32)
    expected[3, 1] = 1 / 20
    assert np.array_equal(v["game_brawls"], expected)


def test_past_table_talk_is_kept_in_the_window_and_counted_over_the_game():
    s = table(emma=[RM] * 20, oxygen=6, table_talk=1)[0]
    act(s, "draw", "draw", "draw", "draw", "yes")
    act(s, "claim Bad", "seat +2", "card Airlock Breach", "pass", "pass")
    act(s, "claim Good", "pass", "claim Neutral", "pass")
    while s["round"] == 1:
        act(s, "pass")  # everyone abstains
    v = view(s, 1)  # seat 0, who claimed Bad and accused seat 2, is +3 from seat 1
    assert not v["claims"].any()
    assert v["past_claims"][0, 3, 2] == 1 and v["past_claims"][0, 1, 0] == 1
    assert v["past_claims"][0].sum() == 3  # seat 1 said nothing
    assert v["past_accused"][0, 3, 1] == 1 and v["past_accused"][0].sum() == 1
    assert v["past_accused_card"][0, 3, AB] == 1 and v["past_accused_card"][0].sum() == 1
    assert np.array_equal(v["game_claims"], v["past_claims"][0] / 20)
    assert np.array_equal(v["game_accused"], v["past_accused"][0] / 20)


def test_the_whole_game_keeps_votes_and_cards_the_window_has_let_go():
    s = first_round(history_rounds=1)
    one_round = view(s, 0)
    act(s, "draw", "draw", "pass", "draw", "pass", "pass")  # round 2: no vote
    v = view(s, 0)
    assert not v["past_ballots"].any()  # round 1 has left the one-round window
    assert np.array_equal(v["game_ballots"], one_round["past_ballots"][0] / 20)
    assert np.array_equal(v["game_vote_calls"], one_hot(4, 0) / 20)
    assert np.allclose(v["game_played"], np.array([1, 0, 1, 1]) / 20)
    assert np.allclose(v["game_own_played"], one_hot(11, BR) / 20)
    revealed = np.zeros(11, np.float32)
    revealed[BR], revealed[RM] = 2 / 20, 3 / 20  # round 1's three cards, round 2's two EmMA
    assert np.allclose(v["game_revealed"], revealed)


def test_an_agenda_ability_choice_is_counted_when_made():
    s = first_round()
    act(s, "draw", "draw")
    assert s["decision"] == 13 and s["current_seat"] == 3  # The Witness died on its turn
    act(s, "seat +1")  # and reveals seat 0's agenda
    assert s["revealed"][0]
    expected = np.zeros((4, 4), np.float32)
    expected[3, 0] = 1 / 20  # seat 3, +3 from seat 0, chose seat 0
    assert np.array_equal(view(s, 0)["game_agenda_targets"], expected)


def test_oxygen_spent_stays_within_its_bound_and_the_whole_game_keeps_the_rest():
    """Version 4's `oxygen_spent` could pass 2 (audit O2): a seat spending 1 Oxygen a round for
    nine rounds, history 8, showed 2.25. It now stops at 2; `game_oxygen_spent` has all nine."""
    from envs.menace.rules import PAST_COL_HELD, PAST_COL_USED

    s = lockdown_round()  # seat 1 (Sela) used Lockdown (slot 2, 1 Oxygen) this round
    s["history_rounds"] = 8
    for k in range(8):  # and in each of eight past rounds
        s["past"][k, PAST_COL_HELD] = 1
        s["past"][k, PAST_COL_USED + 2 * 1 + 1] = 1
    s["game_used"][1, 1] = 8
    v = view(s, 0)
    assert v["oxygen_spent"][1] == 2.0
    assert v["game_oxygen_spent"][1] == np.float32(9 / 20)
    assert v["game_abilities_used"][1, 1] == np.float32(8 / 20)  # the rounds ended


def test_game_counts_zero_keeps_the_window_alone_and_plays_the_same_game():
    """`game_counts=0` drops the whole game's pieces (a policy with its own memory needs only
    the window); every other piece, and the game itself, are the same."""
    with_counts = envs.make_vec("menace", 8, seed=5, num_players=6)
    without = envs.make_vec("menace", 8, seed=5, num_players=6, game_counts=0)
    full = with_counts.spec.observation_layout(with_counts.params)
    window = without.spec.observation_layout(without.params)
    dropped = {p.name for p in full.pieces if p.name.startswith("game_")}
    assert len(dropped) == 15 and all(
        p.size == 0 for p in window.pieces if p.name in dropped
    )
    for _ in range(200):
        a, b = full.split(with_counts.observation), window.split(without.observation)
        for name, value in b.items():
            if name not in dropped:
                assert np.array_equal(a[name], value), name
        actions = with_counts.action_mask.argmax(1)
        with_counts.step(actions)
        without.step(actions)
