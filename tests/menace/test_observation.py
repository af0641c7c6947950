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
    assert sizes["claims"] == sizes["accused"] == sizes["accused_card"] == 0
    assert talk.size == layout.size + 5 * 3 + 5 * 5 + 5 * 11


def test_history_rounds_has_a_valid_range():
    with pytest.raises(ValueError, match=r"history_rounds.*\[0, 8\]"):
        envs.make_vec("menace", 1, history_rounds=9)
    small = SPEC.observation_layout(SPEC.resolve(num_players=6, history_rounds=0))
    default = SPEC.observation_layout(SPEC.resolve(num_players=6))
    # per round: the round, revealed cards, played, caller, ballots, exiled, killed, own cards,
    # abilities used, their targets, the tracks
    per_round = 1 + 11 + 6 + 6 + 6 * 7 + 6 + 6 + 11 + 6 * 2 + 6 * 6 + 2
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
