"""The card tables against the printed box: deck sizes, copy budgets, provenance."""

from collections import Counter

import pytest

from envs.menace import cards


def test_below_deck_card_types_match_the_printed_contents():
    assert cards.N_CARD_TYPES == 11
    assert sum(card.copies for card in cards.BELOW_DECK_CARDS) == 268


@pytest.mark.parametrize("agenda", cards.AGENDAS, ids=lambda a: a.name)
def test_every_agenda_lists_13_cards(agenda):
    assert sum(agenda.cards.values()) == cards.AGENDA_CARDS == 13


@pytest.mark.parametrize("character", cards.CHARACTERS, ids=lambda c: c.name)
def test_every_character_lists_7_cards_and_two_abilities(character):
    assert sum(character.cards.values()) == cards.CHARACTER_CARDS == 7
    assert len(character.abilities) == 2
    assert character.abilities[0] != character.abilities[1]


def test_personal_deck_holds_20():
    assert cards.PERSONAL_DECK_SIZE == cards.AGENDA_CARDS + cards.CHARACTER_CARDS == 20


def test_wound_deck_holds_15_with_one_flesh_wound():
    assert len(cards.WOUNDS) == cards.WOUND_DECK_SIZE == 15
    assert cards.WOUNDS[cards.FLESH_WOUND].name == "Flesh Wound"
    assert sum(wound.provenance == cards.RULEBOOK for wound in cards.WOUNDS) == 1


def test_emma_deck_holds_the_printed_20():
    assert sum(cards.EMMA_DECK.values()) == cards.EMMA_DECK_SIZE == 20
    assert cards.EMMA_DECK_PROVENANCE == cards.RULEBOOK


def test_no_card_type_is_used_beyond_its_printed_copies():
    used = Counter()
    for agenda in cards.AGENDAS:
        used.update(agenda.cards)
    for character in cards.CHARACTERS:
        used.update(character.cards)
    used.update(cards.EMMA_DECK)
    for card_type, copies in used.items():
        assert copies <= cards.PRINTED_COPIES[card_type], cards.CARD_NAMES[card_type]


def test_every_ability_is_on_exactly_one_character():
    used = Counter(a for character in cards.CHARACTERS for a in character.abilities)
    assert sorted(used) == list(range(cards.N_ABILITIES))
    assert set(used.values()) == {1}


def test_agendas_sides_and_dealing_table():
    sides = Counter(agenda.side for agenda in cards.AGENDAS)
    assert sides == {cards.MENACE: 2, cards.NEUTRAL_SIDE: 1, cards.CREW: 7}
    for players, deal in cards.AGENDA_DEALS.items():
        assert deal.menaces + deal.saint + deal.coward + deal.random_crew == players
    assert cards.SINGLE_MENACE == cards.THE_CONTAGION


def test_the_coward_uses_the_ruled_card_list():
    coward = cards.AGENDAS[cards.THE_COWARD]
    assert dict(coward.cards) == {
        cards.BASIC_REPAIR: 6,
        cards.BACKSTAB: 3,
        cards.AIRLOCK_BREACH: 2,
        cards.EXPLOSION: 2,
    }


def test_exile_and_kill_oxygen_follow_the_rulings():
    for agenda in cards.AGENDAS:
        if agenda.side == cards.MENACE:
            assert (agenda.exiled_oxygen, agenda.killed_oxygen) == (+2, 0)
        elif agenda.side == cards.NEUTRAL_SIDE:
            assert (agenda.exiled_oxygen, agenda.killed_oxygen) == (-2, -1)
        elif agenda.name == "The Idealist":  # its ability softens its exile
            assert (agenda.exiled_oxygen, agenda.killed_oxygen) == (-1, -2)
        else:
            assert (agenda.exiled_oxygen, agenda.killed_oxygen) == (-3, -2)


def test_every_card_has_a_provenance():
    tables = (
        cards.BELOW_DECK_CARDS,
        cards.AGENDAS,
        cards.CHARACTERS,
        cards.ABOVE_DECK_ACTIONS,
        cards.WOUNDS,
    )
    for table in tables:
        for entry in table:
            assert entry.provenance in cards.PROVENANCES, entry.name
    for agenda in cards.AGENDAS:
        assert agenda.detail_provenance in cards.PROVENANCES
    for action in cards.ABOVE_DECK_ACTIONS:
        assert action.amounts_provenance in cards.PROVENANCES, action.name
    printed = {"Rotti Vestine", "Andrew Nance", "Martella Isodorus", "Malumil Einum"}
    for character in cards.CHARACTERS:
        assert (character.provenance == cards.RULEBOOK) == (character.name in printed)


def test_names_are_unique():
    for names in (
        cards.CARD_NAMES,
        cards.AGENDA_NAMES,
        cards.CHARACTER_NAMES,
        cards.ABILITY_NAMES,
        cards.WOUND_NAMES,
    ):
        assert len(set(names)) == len(names)


def test_characters_that_gain_oxygen_carry_no_bad_card():
    """Moxie (printed), Vigil and Photosynthesis give the Crew Oxygen; a Bad card on the same
    character would make it the Menace's pick as well (balance notes in docs/rules/menace.md)."""
    gains = {cards.MOXIE, cards.VIGIL, cards.PHOTOSYNTHESIS}
    holders = [ch for ch in cards.CHARACTERS if gains & set(ch.abilities)]
    assert [ch.name for ch in holders] == ["Martella Isodorus", "Osric Vale", "Juno Saar"]
    for character in holders:
        bad = [k for k in character.cards if cards.BELOW_DECK_CARDS[k].category == cards.BAD]
        assert bad == [], character.name


def test_oxygen_abilities_cost_no_energy():
    """Energy is the Crew's goal: an Oxygen ability paid in Energy only undoes a Repair."""
    for ability in (cards.VIGIL, cards.PHOTOSYNTHESIS):
        action = cards.ABOVE_DECK_ACTIONS[ability]
        assert action.energy_cost == 0 and action.oxygen_cost == 0, action.name
    assert cards.ABOVE_DECK_ACTIONS[cards.PHOTOSYNTHESIS].discard_cost == 1


def test_amounts_the_printed_cards_leave_out_are_tagged_designed():
    """Printed: Bloodwork "(Cost: Oxygen, Wound)", Crunch and Moxie "(Cost: Oxygen)", Moxie
    "gain Oxygen"; First Aid's 2 Oxygen is in the rulebook's example. v2 tagged all of them
    `rulebook` and dropped Bloodwork's Wound (audit F7)."""
    actions = cards.ABOVE_DECK_ACTIONS
    for ability in (cards.BLOODWORK, cards.CRUNCH, cards.MOXIE):
        assert actions[ability].provenance == cards.RULEBOOK
        assert actions[ability].amounts_provenance == cards.DESIGNED, actions[ability].name
    for ability in (cards.FIRST_AID, cards.DELEGATE, cards.COMMANDEER, cards.VETO,
                    cards.LASER_PISTOL):
        assert actions[ability].amounts_provenance == cards.RULEBOOK
    bloodwork = actions[cards.BLOODWORK]
    assert (bloodwork.oxygen_cost, bloodwork.wound_cost) == (1, 1)
    assert bloodwork.target == cards.TARGET_ANY  # "Choose a crewmember", as First Aid and Crunch


def test_designed_oxygen_abilities_are_not_cheaper_than_the_printed_moxie():
    """Vigil was free: +1 Oxygen a round for nothing, strictly stronger than Moxie (audit F5)."""
    vigil = cards.ABOVE_DECK_ACTIONS[cards.VIGIL]
    assert vigil.discard_cost == 1 and vigil.provenance == cards.DESIGNED


def test_rules_document_prices_every_above_deck_action_as_the_data_does():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs/rules/menace.md").read_text()
    rows = {}
    for line in text.split("### Above Deck Actions")[1].split("\n### ")[0].splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 4 and cells[0] in cards.ABILITY_NAMES:
            rows[cells[0]] = cells
    assert sorted(rows) == sorted(cards.ABILITY_NAMES)
    for action in cards.ABOVE_DECK_ACTIONS:
        amounts = (
            (action.oxygen_cost, "Oxygen"),
            (action.energy_cost, "Energy"),
            (action.discard_cost, "Discard"),
            (action.wound_cost, "Wound"),
        )
        cost = ", ".join(f"{k} {what}" for k, what in amounts if k) or "none"
        _, doc_cost, _, provenance = rows[action.name]
        assert doc_cost == cost, action.name
        assert provenance.startswith(action.provenance), action.name
        designed_amounts = action.amounts_provenance != action.provenance
        assert ("amount" in provenance and "designed" in provenance) == designed_amounts
