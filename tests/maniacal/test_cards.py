"""The MANIACAL card tables against the printed box: counts, ranges, provenance, design rules."""

from collections import Counter

import pytest

from envs.maniacal import cards as c

ALL_CARDS = (
    c.ROOMS + c.HENCHMEN + c.MERCENARIES + c.LACKEYS + c.CONTRACTS + c.SCHEMES + c.POWERS
    + c.SUPERVILLAINS
)


def test_every_component_count_matches_the_rulebook():
    assert sum(room.copies for room in c.ROOMS) == c.COMPONENT_COUNTS["rooms"] == 75
    assert len(c.HENCHMEN) == c.COMPONENT_COUNTS["henchmen"] == 40
    assert len(c.CONTRACTS) == c.COMPONENT_COUNTS["contracts"] == 97
    assert len(c.MERCENARIES) == c.COMPONENT_COUNTS["mercenaries"] == 8
    assert len(c.POWERS) == c.COMPONENT_COUNTS["powers"] == 14
    assert sum(s.copies for s in c.SCHEMES) == c.COMPONENT_COUNTS["schemes"] == 25
    assert len(c.SUPERVILLAINS) == c.COMPONENT_COUNTS["supervillains"] == 5
    assert len(c.LACKEYS) == c.COMPONENT_COUNTS["lackeys"] == 7


@pytest.mark.parametrize("card", ALL_CARDS, ids=lambda card: card.name)
def test_every_card_has_a_provenance(card):
    assert card.provenance in c.PROVENANCES


def test_names_are_unique_within_each_card_type():
    for names in (c.ROOM_NAMES, c.HENCHMAN_NAMES, c.MERCENARY_NAMES, c.LACKEY_NAMES,
                  c.CONTRACT_NAMES, c.SCHEME_NAMES, c.POWER_NAMES, c.SUPERVILLAIN_NAMES):
        assert len(set(names)) == len(names)


# ---- Rooms ---------------------------------------------------------------------------------


@pytest.mark.parametrize("room", c.ROOMS, ids=lambda r: r.name)
def test_room_cost_and_attraction(room):
    assert room.copies >= 1
    assert 1 <= room.cost <= 6  # a sale earns the cost, so every room is worth at least $1
    assert len(room.attraction) == 4 and min(room.attraction) >= 0 and sum(room.attraction) > 0
    extra = 3 if room.category == c.PASSIVE else 2
    assert sum(room.attraction) == room.cost + extra


@pytest.mark.parametrize("room", c.ROOMS, ids=lambda r: r.name)
def test_room_effect_fits_its_category(room):
    if room.category == c.PASSIVE:
        assert (room.effect, room.weeks, room.window, room.trait) == (c.NO_EFFECT, 0, 0, -1)
    elif room.category == c.ACTION:
        assert room.effect in c.ACTION_EFFECTS
        assert room.weeks >= 1  # P-35: no free action, so the phase ends
        assert room.window == 0
    else:
        assert room.category == c.CONTRACT and room.weeks == 0
        window = c.BEFORE_ROLL if room.effect in c.BEFORE_ROLL_EFFECTS else c.AFTER_ROLL
        assert room.effect in c.BEFORE_ROLL_EFFECTS + c.AFTER_ROLL_EFFECTS
        assert room.window == window


@pytest.mark.parametrize("room", c.ROOMS, ids=lambda r: r.name)
def test_room_trait_and_amount_fit_its_effect(room):
    if room.effect in (c.GAIN_ATTRACTION, c.ADD_DICE):
        assert 0 <= room.trait <= 3
    elif room.effect in (c.MONEY_PER_WORKER_TRAIT, c.ADD_WORKER_DICE):
        assert room.trait == c.WORKER_TRAIT
    elif room.effect == c.ADD_DICE_RECOMMENDED:
        assert room.trait == c.RECOMMENDED
    else:
        assert room.trait == c.NO_TRAIT
    takes_amount = (c.GAIN_MONEY, c.DRAW_SCHEME, c.HEAL, c.GAIN_ATTRACTION, c.BUY_INFAMY,
                    c.ADD_DICE, c.ADD_DICE_RECOMMENDED, c.ADD_SUCCESSES, c.ON_SUCCESS_MONEY)
    assert (room.amount >= 1) == (room.effect in takes_amount)


def test_action_rooms_almost_always_cost_one_week():
    weeks = Counter(room.weeks for room in c.ROOMS if room.category == c.ACTION)
    assert weeks[1] >= weeks.total() - 1


def test_rulebook_rooms_keep_their_printed_attraction():
    by_name = {room.name: room for room in c.ROOMS}
    assert by_name["Intrinsic Field Chamber"].attraction == (0, 0, 5, 0)
    assert by_name["Smugglers' Menagerie"].attraction == (3, 3, 0, 0)
    robotics = by_name["Robotics Lab"]
    assert (robotics.effect, robotics.trait) == (c.GAIN_ATTRACTION, c.SCIENTIST)


def test_room_attraction_is_spread_evenly_over_the_four_tracks():
    totals = [sum(r.copies * r.attraction[t] for r in c.ROOMS) for t in range(4)]
    assert max(totals) - min(totals) <= 0.05 * max(totals)


def test_five_players_draft_exactly_the_room_deck():
    assert 5 * 5 * 3 == c.ROOM_DECK_SIZE == sum(room.copies for room in c.ROOMS)


# ---- Henchmen, Mercenaries, Lackeys, Powers --------------------------------------------------


@pytest.mark.parametrize("henchman", c.HENCHMEN, ids=lambda h: h.name)
def test_henchman_has_one_trait_from_its_type_pair(henchman):
    nonzero = [t for t, v in enumerate(henchman.traits) if v]
    assert len(nonzero) == 1  # P-12
    assert nonzero[0] in c.TYPE_TRAITS[henchman.kind]
    value = henchman.traits[nonzero[0]]
    assert c.TRAIT_RANGE[0] <= value <= c.TRAIT_RANGE[1]
    assert henchman.cost == value + 2


def test_ten_henchmen_per_recruitable_type():
    assert Counter(h.kind for h in c.HENCHMEN) == {c.BEAST: 10, c.CRIMINAL: 10,
                                                   c.SCIENTIST: 10, c.MYSTIC: 10}


@pytest.mark.parametrize("mercenary", c.MERCENARIES, ids=lambda m: m.name)
def test_mercenary_has_two_traits_totalling_four(mercenary):
    """Version 2: a little above an average recruit (version 1's 5-6 outclassed the recruits)."""
    values = [v for v in mercenary.traits if v]
    assert len(values) == 2 and all(1 <= v <= 5 for v in values)
    assert sum(values) == 4


def test_lackeys_five_standard_one_each_and_two_variants():
    standard = [lackey for lackey in c.LACKEYS if not lackey.variant]
    assert [lackey.supervillain for lackey in standard] == [0, 1, 2, 3, 4]
    assert all(lackey.traits == (1, 1, 1, 1) for lackey in standard)
    assert all(lackey.provenance == c.RULEBOOK for lackey in standard)
    variants = [lackey for lackey in c.LACKEYS if lackey.variant]
    assert len(variants) == 2 and all(v.supervillain == -1 for v in variants)


def test_powers_eight_plus_two_and_six_pairs_with_the_printed_two():
    bonuses = [p.bonus for p in c.POWERS]
    doubles = [b for b in bonuses if sorted(b) == [0, 0, 0, 2]]
    pairs = [b for b in bonuses if sorted(b) == [0, 0, 1, 1]]
    assert len(doubles) == 8 and Counter(b.index(2) for b in doubles) == {0: 2, 1: 2, 2: 2, 3: 2}
    assert len(pairs) == 6 and len(set(pairs)) == 6
    by_name = {p.name: p for p in c.POWERS}
    assert by_name["Berserker Strength"].bonus == (2, 0, 0, 0)  # the Lackey goes from 1 to 3
    assert (0, 1, 0, 1) in bonuses


# ---- Supervillains ---------------------------------------------------------------------------


@pytest.mark.parametrize("villain", c.SUPERVILLAINS, ids=lambda v: v.name)
def test_supervillain_time_costs_three_to_five_with_three_at_base(villain):
    assert len(villain.weeks_to) == len(c.CONTINENT_NAMES) == 6
    assert sorted(villain.weeks_to) == [3, 4, 4, 4, 5, 5]
    assert villain.weeks_to[villain.base] == 3
    assert c.LACKEYS[villain.lackey].supervillain == c.SUPERVILLAINS.index(villain)
    assert (villain.strength, villain.weakness) == (c.NO_ABILITY, c.NO_ABILITY)


def test_supervillain_bases_on_five_different_continents():
    assert len({v.base for v in c.SUPERVILLAINS}) == 5


# ---- Contracts -------------------------------------------------------------------------------


def test_contract_split_by_difficulty_in_card_id_order():
    difficulties = [k.difficulty for k in c.CONTRACTS]
    assert difficulties == sorted(difficulties)
    assert Counter(difficulties) == c.CONTRACT_COUNTS


def test_contract_decks_never_run_out():
    """P-36: the most one game draws of each difficulty."""
    for difficulty in (c.EASY, c.HARD, c.LEGENDARY):
        drawn = sum(deal[difficulty] for deal in c.CONTRACT_DEAL)
        assert c.CONTRACT_COUNTS[difficulty] >= drawn
    assert c.CONTRACT_DEAL[0] == (4, 2, 0) and c.CONTRACT_DEAL[1] == (2, 2, 2)


@pytest.mark.parametrize("contract", c.CONTRACTS, ids=lambda k: k.name)
def test_contract_ranges(contract):
    low, high = c.TARGET_RANGE[contract.difficulty]
    assert low <= contract.target <= high
    assert c.TEAM_RANGE[0] <= contract.team <= c.TEAM_RANGE[1]
    assert 0 <= contract.trait <= 3
    assert contract.win_infamy > 0 and contract.win_money > 0  # "Infamy and money"
    # failure gives "significantly less"
    assert 0 <= 2 * contract.fail_infamy <= contract.win_infamy
    assert 0 <= 2 * contract.fail_money <= contract.win_money
    assert 0 <= contract.win_icons < 16 and 0 <= contract.fail_icons < 16


def test_bigger_teams_have_higher_targets_and_greater_rewards():
    for difficulty in (c.EASY, c.HARD, c.LEGENDARY):
        by_team = {}
        for k in c.CONTRACTS:
            if k.difficulty == difficulty:
                by_team.setdefault(k.team, []).append(k)
        small, big = sorted(by_team)
        mean = lambda ks, f: sum(map(f, ks)) / len(ks)  # noqa: E731
        assert mean(by_team[big], lambda k: k.target) > mean(by_team[small], lambda k: k.target)
        assert mean(by_team[big], lambda k: k.win_infamy) > mean(
            by_team[small], lambda k: k.win_infamy)


def test_harder_contracts_pay_more():
    def best(d):
        return max(k.win_infamy for k in c.CONTRACTS if k.difficulty == d)

    def worst(d):
        return min(k.win_infamy for k in c.CONTRACTS if k.difficulty == d)

    assert best(c.EASY) < worst(c.HARD) and best(c.HARD) < worst(c.LEGENDARY)


def test_recommended_traits_are_spread_evenly():
    for difficulty in (c.EASY, c.HARD, c.LEGENDARY):
        counts = Counter(k.trait for k in c.CONTRACTS if k.difficulty == difficulty)
        assert set(counts) == {0, 1, 2, 3} and max(counts.values()) - min(counts.values()) <= 1


def test_the_printed_contract_is_there():
    assert "Steal a Nuclear Warhead" in c.CONTRACT_NAMES


# ---- Schemes ---------------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", c.SCHEMES, ids=lambda s: s.name)
def test_scheme_halves_are_from_the_closed_lists(scheme):
    assert c.TARGET_UP <= scheme.neg_effect <= c.ON_SUCCESS_MONEY_DOWN
    assert c.P_ADD_DICE <= scheme.pos_effect <= c.P_HEAL
    needs_amount = scheme.neg_effect in (c.TARGET_UP, c.REMOVE_DICE, c.ON_SUCCESS_MONEY_DOWN)
    assert (scheme.neg_amount >= 1) == needs_amount
    assert (scheme.pos_amount >= 1) == (scheme.pos_effect != c.P_REROLL)
    window = {c.P_ADD_DICE: c.BEFORE_ROLL, c.P_ADD_SUCCESSES: c.AFTER_ROLL,
              c.P_REROLL: c.AFTER_ROLL, c.P_GAIN_MONEY: c.ANY_ACTIVE, c.P_HEAL: c.ANY_ACTIVE}
    assert scheme.pos_window == window[scheme.pos_effect]


def test_no_designed_card_changes_time_or_reveals_hidden_information():
    """P-13, P-35 and spec §7: the closed effect lists hold no such effect, so it suffices
    that every card uses an id from them."""
    room_effects = set(c.ACTION_EFFECTS + c.BEFORE_ROLL_EFFECTS + c.AFTER_ROLL_EFFECTS)
    assert {room.effect for room in c.ROOMS} <= room_effects | {c.NO_EFFECT}


def test_the_rules_document_lists_every_card():
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "rules" / "maniacal.md").read_text()
    for names in (c.ROOM_NAMES, c.HENCHMAN_NAMES, c.MERCENARY_NAMES, c.LACKEY_NAMES,
                  c.CONTRACT_NAMES, c.SCHEME_NAMES, c.POWER_NAMES, c.SUPERVILLAIN_NAMES):
        for name in names:
            assert f"| {name} " in doc, name
    for k in c.CONTRACTS:  # the generated table's back and Target columns
        back = f"{c.DIFFICULTIES[k.difficulty]}, team {k.team}, {c.TRAITS[k.trait]}"
        assert f"| {k.name} | {back} | {k.target} | {k.win_infamy} Inf, ${k.win_money}" in doc
    for r in c.ROOMS:
        assert f"| {r.name} | ${r.cost} | {'/'.join(map(str, r.attraction))} |" in doc, r.name
