"""MANIACAL over thousands of random games: masks are exactly the legal actions as the rules
state them, cards and henchmen are conserved, no observation or mask shows what its seat cannot
know, and golden playthroughs catch leaks and rule changes."""

import os
from pathlib import Path

import numpy as np
import pytest

import envs
from agents.maniacal_heuristic import ManiacalHeuristic
from agents.policy import RandomPolicy
from envs.maniacal import cards as c
from envs.maniacal import rules
from envs.maniacal.actions import ACTION_NAMES, HENCHMAN
from envs.maniacal.render import render
from envs.maniacal.tables import (
    CONTRACT_DIFFICULTY, CONTRACT_TEAM, CONTRACT_TRAIT, FIRST_MERCENARY, HENCHMAN_TRAITS,
    HENCHMAN_TYPE, LACKEY, MERCENARY, N_HENCHMEN, N_MERCENARIES, N_POWERS, N_SCHEME_CARDS,
    VILLAIN_WEEKS,
)
from evaluation.playthrough import playthrough

from .scenario import kept_to_hide_cards

GOLDEN = Path(__file__).resolve().parents[1] / "playthroughs"
WEEKS = (8, 9, 10)


def owned(s, seat):
    return [h for h in range(N_HENCHMEN) if s["owner"][h] == seat and s["where"][h] == rules.OWNED]


def legal_by_the_rules(s) -> set[str] | None:
    """The legal decisions of the main decision kinds, written from the spec independently of
    the engine (None for the kinds checked only through the rule tests)."""
    seat, d = int(s["current_seat"]), int(s["decision"])
    mine = owned(s, seat)
    injured = [h for h in mine if s["injuries"][h] > 0]
    money = int(s["money"][seat])
    out = set()
    if d == rules.DRAFT:
        for k, room in enumerate(c.ROOMS):
            if s["hand"][seat, k]:
                out.add(f"sell {room.name}")
                if money >= room.cost:
                    out.add(f"build {room.name}")
    elif d == rules.TURN:
        out.add("pass")
        left = WEEKS[int(s["round"]) - 1] - int(s["spent"][seat])
        fit = [h for h in mine if not s["exhausted"][h] and not s["injuries"][h]]
        for k, name in enumerate(c.CONTINENT_NAMES):
            card = int(s["map"][k])
            if card >= 0 and left >= VILLAIN_WEEKS[s["villain"][seat], k]:
                if len(fit) >= CONTRACT_TEAM[card]:
                    out.add(f"contract {name}")
        if left >= 2:
            if s["scheme_deck_n"] or s["scheme_discard_n"]:
                out.add("visit The Underground")
            if money >= 2 and injured:
                out.add("visit Hoodlum Hospital")
            if s["mercenary_deck_n"]:
                out.add("visit Lucifer's Lounge")
        for k, x in enumerate(c.SCHEMES):
            if s["schemes"][seat, k] and x.pos_window == c.ANY_ACTIVE:
                if x.pos_effect == c.P_GAIN_MONEY or (x.pos_effect == c.P_HEAL and injured):
                    out.add(f"scheme {x.name}")
        fresh = [h for h in mine if not s["exhausted"][h]]
        for k, room in enumerate(c.ROOMS):
            if room.category != c.ACTION or s["base"][seat, k] <= s["used"][seat, k]:
                continue
            if left < room.weeks:
                continue
            by_trait = room.effect in (c.MONEY_PER_WORKER_TRAIT, c.ADD_WORKER_DICE)
            if not fresh and (by_trait or s["villain_exhausted"][seat]):
                continue
            if room.effect == c.DRAW_SCHEME and not (s["scheme_deck_n"] or s["scheme_discard_n"]):
                continue
            if room.effect == c.GRANT_POWER and not (
                mine and (s["power_deck_n"] or s["power_discard_n"])
            ):
                continue
            if room.effect == c.HEAL and not injured:
                continue
            if room.effect == c.BUY_INFAMY and money < c.BUY_INFAMY_PRICE:
                continue
            if room.effect == c.GAIN_ATTRACTION and s["round"] == 3:
                continue  # no Henchmen Phase follows: Attraction would do nothing (P-33)
            out.add(f"room {room.name}")
    elif d == rules.TEAM:
        need = CONTRACT_TEAM[s["contract"]] - int(s["team_n"])
        last = int(s["team"][s["team_n"] - 1]) if s["team_n"] else -1
        fit = [h for h in mine if not s["exhausted"][h] and not s["injuries"][h] and h > last]
        for i, h in enumerate(fit):
            if len(fit) - i >= need:
                out.add(ACTION_NAMES[HENCHMAN + h])
    elif d == rules.NEGATIVE_SCHEME:
        out.add("pass")
        out |= {f"scheme {x.name}" for k, x in enumerate(c.SCHEMES) if s["schemes"][seat, k]}
    elif d == rules.HEAL:
        out.add("pass")
        out |= {ACTION_NAMES[HENCHMAN + h] for h in injured}
    elif d == rules.UNPAID:
        out |= {ACTION_NAMES[HENCHMAN + h] for h in mine if HENCHMAN_TYPE[h] != MERCENARY}
    elif d == rules.FIRE:
        out |= {"pass"} | {ACTION_NAMES[HENCHMAN + h] for h in mine}
    elif d == rules.REROLL_COUNT:
        out |= {f"count {k}" for k in range(int(s["faces"][1]) + 1)}
    elif d == rules.CHOOSE_TRAIT:
        lackey = next(int(h) for h in s["team"][: s["team_n"]] if HENCHMAN_TYPE[h] == LACKEY)
        for t, name in enumerate(c.TRAITS):
            if HENCHMAN_TRAITS[lackey, t] + s["bonus"][lackey, t] > 0:
                out.add(f"trait {name}")
    else:
        return None
    return out


def check_conservation(s):
    n = int(s["num_players"])
    assert (s["money"][:n] >= 0).all() and (s["infamy"][:n] >= 0).all()
    for h in range(N_HENCHMEN):
        assert (s["owner"][h] >= 0) == (s["where"][h] == rules.OWNED)
        assert s["injuries"][h] >= 0
    held = int(s["schemes"].sum())
    assert held + s["scheme_deck_n"] + s["scheme_discard_n"] == N_SCHEME_CARDS
    assert (s["schemes"].sum(axis=1) == s["scheme_count"]).all()
    assert s["scheme_discarded"].sum() == s["scheme_discard_n"]
    attached = int((s["power_holder"] >= 0).sum())
    assert attached + s["power_deck_n"] + s["power_discard_n"] == N_POWERS
    assert attached == s["powers"].sum()
    mercs = range(FIRST_MERCENARY, FIRST_MERCENARY + N_MERCENARIES)
    in_deck = sum(s["where"][h] == rules.IN_MERCENARY_DECK for h in mercs)
    assert in_deck == s["mercenary_deck_n"]
    if s["phase"] == rules.CONTRACT_PHASE:
        weeks = WEEKS[int(s["round"]) - 1]
        assert (s["spent"][:n] <= weeks).all()


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_masks_are_the_legal_actions_and_cards_are_conserved(num_players):
    vec = envs.make_vec("maniacal", 64, seed=num_players, num_players=num_players)
    names = np.array(vec.spec.action_names)
    policy = RandomPolicy(1)
    finished, checked = 0, 0
    while finished < 300:
        for b in range(vec.num_envs):
            s = vec.records[b]
            # one legal action is applied at once (P-44), unless that would show hidden cards
            assert vec.action_mask[b].sum() >= 2 or kept_to_hide_cards(vec.records[b : b + 1])[0]
            expected = legal_by_the_rules(s)
            if expected is not None:
                assert set(names[vec.action_mask[b]]) == expected, rules_context(s)
                checked += 1
            check_conservation(s)
        _, terminated, _ = vec.step(policy.act(vec.observation, vec.action_mask))
        finished += int(terminated.sum())
    assert checked > 5000


def rules_context(s) -> str:
    return f"round {s['round']} decision {s['decision']} seat {s['current_seat']}"


def hidden_from(s, seat: int, rng: np.random.Generator):
    """A copy of record ``s`` changed only in what ``seat`` cannot know: other seats' draft
    hands and pending picks (beyond what ``seat`` passed them), other seats' Schemes, the
    contract fronts on the map, every deck's order and the random stream."""
    t = s.copy()
    n = int(s["num_players"])
    changed = False
    others = [j for j in range(n) if j != seat]
    # draft hands: a card of another seat swapped with one of the Room deck
    if s["phase"] == rules.BASE_BUILDING:
        d = -1 if s["round"] == 2 else 1
        p = int(s["pick"])
        knows = {(seat + (p - k) * d) % n for k in range(min(p, 2))}
        j = int(rng.choice(others))
        if j not in knows and s["room_deck_n"] > 0:
            kinds = np.flatnonzero(t["hand"][j])
            i = int(rng.integers(s["room_deck_n"]))
            new = int(t["room_deck"][i])
            if len(kinds):
                old = int(rng.choice(kinds))
                t["hand"][j, old] -= 1
                t["hand"][j, new] += 1
                t["room_deck"][i] = old
                changed |= old != new
            if t["pick_kind"][j] >= 0 and len(np.flatnonzero(t["hand"][j])):
                k = int(rng.choice(np.flatnonzero(t["hand"][j])))
                t["hand"][j, k] -= 1
                t["hand"][j, t["pick_kind"][j]] += 1
                t["pick_kind"][j] = k
                t["pick_build"][j] = rng.integers(2)
                changed = True
    # Schemes: one of another seat's swapped with the deck's
    j = int(rng.choice(others))
    kinds = np.flatnonzero(t["schemes"][j])
    if len(kinds) and t["scheme_deck_n"] > 0:
        old = int(rng.choice(kinds))
        i = int(rng.integers(t["scheme_deck_n"]))
        new = int(t["scheme_deck"][i])
        t["schemes"][j, old] -= 1
        t["schemes"][j, new] += 1
        t["scheme_deck"][i] = old
        changed |= old != new
    # contract fronts: an unflipped one swapped with a deck card of the same back
    for k in range(6):
        card = int(t["map"][k])
        if card < 0 or (t["flipped"] and k == t["continent"]):
            continue
        dif = CONTRACT_DIFFICULTY[card]
        deck = t["contract_deck"][dif]
        for i in range(int(t["contract_deck_n"][dif])):
            other = int(deck[i])
            same_back = CONTRACT_TRAIT[other] == CONTRACT_TRAIT[card]
            if CONTRACT_TEAM[other] == CONTRACT_TEAM[card] and same_back:
                deck[i], t["map"][k] = card, other
                changed = True
                break
        if t["attempt_seat"] >= 0 and k == t["continent"]:
            t["contract"] = t["map"][k]
    # deck orders
    for kind in range(4):
        top = int(t["henchman_top"][kind])
        if top + 2 < 10:
            a, b = rng.choice(np.arange(top + 1, 10), 2, replace=False)
            row = t["henchman_deck"][kind]
            row[a], row[b] = row[b], row[a]
    if t["power_deck_n"] >= 2:
        rng.shuffle(t["power_deck"][: t["power_deck_n"]])
    unknown = int(t["mercenary_deck_n"] - t["mercenary_known"])
    if unknown >= 2:
        rng.shuffle(t["mercenary_deck"][:unknown])
    rng.shuffle(t["scheme_deck"][: t["scheme_deck_n"]])
    rng.shuffle(t["room_deck"][: t["room_deck_n"]])
    t["rng_counter"] += 12345
    return t, changed


def _view(vec, seat: int) -> str:
    """What ``seat`` sees of the table, without the line naming who decides."""
    return render(vec.records[0], seat).split("\n", 1)[1]


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_who_decides_next_does_not_change_with_what_a_seat_cannot_know(num_players):
    """The sequence of deciding seats (the AEC ``agent_selection``) is public. Re-deal what
    one seat cannot know (``hidden_from``: another seat's Schemes, draft hands, contract fronts,
    deck orders, the random stream), play both tables on with the same actions, and while the
    seat's view stays the same the same seats decide. Version 1 opened a Scheme window only
    for a seat holding a playable Scheme and applied a one-action turn or roll window at once,
    so who was asked next told the table what a seat held (an outside audit: 40 of 40 re-deals)."""
    from tests.tools import same_deciders

    vec = envs.make_vec("maniacal", 24, seed=num_players + 40, num_players=num_players)
    players = [ManiacalHeuristic(vec.spec, vec.params), RandomPolicy(5)]
    compared = same_deciders(vec, players, hidden_from, _view, np.random.default_rng(num_players),
                             150)
    assert compared > 2000, compared


@pytest.mark.parametrize("num_players", [2, 4, 5])
def test_no_observation_or_mask_changes_with_what_its_seat_cannot_know(num_players):
    vec = envs.make_vec("maniacal", 32, seed=9, num_players=num_players)
    probe = envs.make_vec("maniacal", 1, num_players=num_players)
    policy = RandomPolicy(2)
    rng = np.random.default_rng(0)
    checked = 0
    for step in range(400):
        if step % 4 == 0:
            for b in range(0, vec.num_envs, 2):
                s = vec.records[b]
                for seat in range(num_players):
                    t, changed = hidden_from(s, seat, rng)
                    probe.set_records(vec.records[b : b + 1])
                    before = probe.observe(seat).copy()
                    mask_before = probe.action_mask.copy()
                    probe.set_records(np.array([t], dtype=vec.records.dtype))
                    assert np.array_equal(probe.observe(seat), before), (step, b, seat)
                    if int(s["current_seat"]) == seat:
                        assert np.array_equal(probe.action_mask, mask_before), (step, b, seat)
                    checked += changed
        vec.step(policy.act(vec.observation, vec.action_mask))
    assert checked > 1000


@pytest.mark.parametrize("num_players,seed", [(2, 1), (5, 1)])
def test_golden_playthrough(num_players, seed):
    """A seeded game between random players, every seat's view at every decision.
    Set UPDATE_GOLDEN=1 to rewrite the files after a deliberate change (and bump the version)."""
    params = envs.registry["maniacal"].resolve(num_players=num_players)
    text = playthrough("maniacal", seed=seed, policy=RandomPolicy(seed), **params)
    path = GOLDEN / f"maniacal_{num_players}p_seed{seed}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.read_text() == text
