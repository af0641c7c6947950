"""Among Us over thousands of random games: masks are exactly the rulebook's legal actions,
cards are conserved, and no observation or mask shows what its seat cannot know."""

import os
from pathlib import Path

import numpy as np
import pytest

import envs
from agents.amongus_chain import AmongUsChain
from agents.amongus_heuristic import AmongUsHeuristic
from agents.policy import RandomPolicy
from envs.amongus import rules
from envs.amongus.cards import COLOUR_NAMES, HAND_SIZE, TASKS_PER_COLOUR
from envs.amongus.render import render
from evaluation.playthrough import playthrough

from . import counted_by_hand

GOLDEN = Path(__file__).resolve().parents[1] / "playthroughs"


def legal_by_the_rulebook(s) -> set[str]:
    """The legal decisions, written from the rulebook and rulings independently of the engine."""
    n, seat, phase = int(s["num_players"]), int(s["current_seat"]), int(s["phase"])
    hand = s["hand"][seat]
    held = [COLOUR_NAMES[c] for c in range(n) if hand[c] > 0]
    impostor = seat == s["impostor"]
    legal = set()
    if phase == rules.INVESTIGATION:
        legal |= {f"show {c}" for c in held}
    elif phase == rules.TRADE:
        legal.add("no trade")
        legal |= {
            f"offer {c} to +{o}" for c in held for o in range(1, n) if not s["cleared"][(seat + o) % n]
        }
    elif phase == rules.REPLY:
        legal |= {f"give {c}" for c in held}
    elif phase == rules.END_OF_TURN:
        legal.add("end turn")
        if impostor and hand[s["impostor_colour"]] == HAND_SIZE:
            legal.add("kill")
        if not impostor and not s["voted"][seat]:
            legal |= {f"vote +{o}" for o in range(1, n)}
        if not impostor and not s["cleared"][seat] and hand[s["colour"][seat]] == HAND_SIZE:
            legal |= {f"clear, look at +{o}" for o in range(1, n)}
    elif phase == rules.SABOTAGE_WINDOW:
        legal.add("no sabotage")
    else:
        legal |= {f"guess {COLOUR_NAMES[c]}" for c in range(n) if c != s["impostor_colour"]}
    if impostor and phase != rules.SABOTAGE_GUESS:
        legal.add("sabotage")
    return legal


def check_cards(s):
    n = int(s["num_players"])
    hand = s["hand"][:n, :n].astype(int)
    if s["partner"] >= 0:  # a pending trade's card lies face down on the table
        hand[s["turn_owner"], s["offered_colour"]] += 1
    assert (hand >= 0).all() and (hand.sum(axis=1) == HAND_SIZE).all()
    assert (hand.sum(axis=0) == TASKS_PER_COLOUR).all()
    assert s["hand"][n:].sum() == 0 and s["hand"][:, n:].sum() == 0


@pytest.mark.parametrize("num_players", [4, 6, 10])
@pytest.mark.parametrize("policy", ["random", "heuristic", "chain"])
def test_masks_are_the_legal_actions_and_cards_are_conserved(num_players, policy):
    vec = envs.make_vec("amongus", 128, seed=num_players, num_players=num_players)
    scripted = {"heuristic": AmongUsHeuristic, "chain": AmongUsChain}
    player = RandomPolicy(1) if policy == "random" else scripted[policy](vec.spec, vec.params)
    names = np.array(vec.spec.action_names)
    longest = vec.spec.max_decisions(vec.params)
    finished = 0
    while finished < (2000 if policy == "random" else 300):
        for b in range(vec.num_envs):
            s = vec.records[b]
            assert set(names[vec.action_mask[b]]) == legal_by_the_rulebook(s)
            assert s["decisions"] < longest
            check_cards(s)
        _, terminated, truncated = vec.step(player.act(vec.observation, vec.action_mask))
        finished += int((terminated | truncated).sum())


@pytest.mark.parametrize("num_players", [4, 6, 10])
def test_derived_pieces_repeat_what_the_seat_already_sees(num_players):
    """Version 3's pieces and ``assist=1``'s counts add no information: at every decision of
    heuristic games (which sabotage), each is its definition over the other pieces of the same
    observation. The impostor's odds, and the crew's of who the impostor is, are counted again
    by listing every deal (``counted_by_hand``) in the first games of the batch, up to 6
    players. At 10 players, whose games are the longest, 100 games (the suite's time)."""
    vec = envs.make_vec("amongus", 128, seed=num_players, num_players=num_players, assist=1)
    layout = vec.spec.observation_layout(vec.params)
    player = AmongUsHeuristic(vec.spec, vec.params)
    n, guesses, finished = num_players, 0, 0
    while finished < (300 if num_players <= 6 else 100):
        for b in range(vec.num_envs):
            o = layout.split(vec.observation[b])
            known = o["known_colour"].reshape(n, n)
            claimed = known.max(axis=0) + o["impostor_colour"] > 0
            assert np.array_equal(o["unclaimed_colours"], (~claimed).astype(np.float32))
            impostor = o["is_impostor"][0] > 0
            chance = o["sabotage_chance"][0]
            assert 0 < chance <= 1 + 1e-6 if impostor else chance == 0
            by_hand = n <= 6 and b < 8 and impostor
            if by_hand:
                assert np.isclose(chance, counted_by_hand.sabotage_chance(o, n), atol=1e-5)
            crew_odds = o["impostor_odds"]
            if not impostor and o["phase"][rules.END_OF_TURN]:
                assert np.isclose(crew_odds.sum(), 1, atol=1e-5) and crew_odds[0] == 0
                if n <= 6 and b < 8:
                    assert np.allclose(crew_odds, counted_by_hand.impostor_odds(o, n), atol=1e-5)
            else:
                assert not crew_odds.any()
            if o["phase"][rules.SABOTAGE_GUESS]:
                guesses += 1
                target = int(o["sabotage_target"].argmax())
                row = o["shown_total"].reshape(n, n)[target]
                assert np.array_equal(o["sabotage_target_shown"], row)
                assert np.array_equal(o["sabotage_target_gave"],
                                      o["received_from"].reshape(n, n)[target])
                odds = o["sabotage_target_odds"]
                if not impostor:
                    assert not odds.any()
                elif known[target].any():
                    assert np.array_equal(odds, known[target])
                else:
                    assert np.isclose(odds.sum(), 1, atol=1e-5) and not odds[known.any(axis=0)].any()
                    if by_hand:
                        assert np.allclose(odds, counted_by_hand.colour_odds(o, n)[target], atol=1e-5)
            else:
                assert not o["sabotage_target_shown"].any()
                assert not o["sabotage_target_gave"].any()
                assert not o["sabotage_target_odds"].any()
        _, terminated, truncated = vec.step(player.act(vec.observation, vec.action_mask))
        finished += int((terminated | truncated).sum())
    assert guesses > 50, guesses


def test_the_default_observation_carries_no_counts():
    """Without ``assist`` the counted pieces are empty: the seat gets what it saw, nothing
    inferred under a prior about how others play."""
    spec = envs.registry["amongus"]
    for n in (4, 6, 10):
        layout = spec.observation_layout(spec.resolve(num_players=n))
        split = layout.split(np.zeros(layout.size))
        for name in ("sabotage_chance", "sabotage_target_odds", "impostor_odds"):
            assert split[name].size == 0


def hidden_from(s, seat: int, rng: np.random.Generator):
    """A copy of record ``s`` changed only in what ``seat`` cannot know (others' colours, and so
    who the impostor is unless it is ``seat``; others' hands and trades; a face-down offered
    card; the look a clear will make; the deal's order; the random stream), and whether
    anything but the deal's order and the random stream changed."""
    t = s.copy()
    n = int(s["num_players"])
    unknown = [
        j for j in range(n) if j != seat and not s["revealed"][j] and not s["looked"][seat, j]
    ]
    changed = False
    if len(unknown) >= 2:
        j, k = rng.choice(unknown, 2, replace=False)
        t["colour"][j], t["colour"][k] = s["colour"][k], s["colour"][j]
        for p in range(n):
            if t["colour"][p] == t["impostor_colour"]:
                t["impostor"] = p
        changed = True
    others = [j for j in range(n) if j != seat and not s["cleared"][j] and j != s["partner"]]
    if len(others) >= 2:
        j, k = rng.choice(others, 2, replace=False)
        held = np.flatnonzero(t["hand"][j][:n])
        if len(held) and not (s["phase"] == rules.REPLY and j == s["turn_owner"]):
            c = rng.choice(held)
            t["hand"][j, c] -= 1
            t["hand"][k, c] += 1
            t["given"][j, k, c] += 1  # a trade's contents between two other seats
            changed = True
    owner = int(s["turn_owner"])
    if s["partner"] >= 0 and seat != owner:
        held = [c for c in range(n) if t["hand"][owner, c] > 0 and c != s["offered_colour"]]
        if held:
            c = rng.choice(held)
            t["hand"][owner, c] -= 1
            t["hand"][owner, s["offered_colour"]] += 1
            t["offered_colour"] = c
            changed = True
    if s["look_target"] >= 0 and seat != owner:
        t["look_target"] = rng.choice([j for j in range(n) if j != owner])
        changed = True
    rng.shuffle(t["deck"][: n * TASKS_PER_COLOUR])
    t["rng_counter"] += 12345
    t["rng_key"] ^= np.uint64(0x9E3779B97F4A7C15)
    t["looked"][(seat + 1) % n, (seat + 2) % n] ^= 1
    return t, changed


@pytest.mark.parametrize("num_players", range(4, 11))
def test_no_observation_or_mask_changes_with_what_its_seat_cannot_know(num_players):
    """Re-deal hidden facts (see ``hidden_from``): every seat's observation, and the deciding
    seat's mask and seat, must stay the same. Games are played by heuristic, chain and random
    crews, so that clears, wrong votes and their sabotage windows are probed: a crewmate asked
    in a window must see exactly what the impostor asked there would see, but for its own
    role."""
    vec = envs.make_vec("amongus", 48, seed=9, num_players=num_players)
    probe = envs.make_vec("amongus", 1, num_players=num_players)
    players = [
        AmongUsHeuristic(vec.spec, vec.params), AmongUsChain(vec.spec, vec.params), RandomPolicy(4)
    ]
    which = np.arange(vec.num_envs) % len(players)
    rng = np.random.default_rng(num_players)
    checked = in_windows = 0
    for step in range(120):
        for b in range(0, vec.num_envs, 2):  # every policy: b % 3 cycles
            s = vec.records[b]
            if step % 4 == 0 or int(s["phase"]) == rules.SABOTAGE_WINDOW:
                for seat in range(num_players):
                    t, changed = hidden_from(s, seat, rng)
                    probe.set_records(vec.records[b : b + 1])
                    before = probe.observe(seat).copy()
                    mask_before = probe.action_mask.copy()
                    probe.set_records(np.array([t], dtype=vec.records.dtype))
                    assert np.array_equal(probe.observe(seat), before), (step, b, seat)
                    if int(s["current_seat"]) == seat:
                        assert int(probe.current_seat[0]) == seat
                        assert np.array_equal(probe.action_mask, mask_before), (step, b, seat)
                        in_windows += changed and int(s["phase"]) == rules.SABOTAGE_WINDOW
                    checked += changed
        actions = np.empty(vec.num_envs, np.int64)
        for k, player in enumerate(players):
            actions[which == k] = player.act(vec.observation, vec.action_mask)[which == k]
        vec.step(actions)
    assert checked > 1000 and in_windows > 10, (checked, in_windows)


# Actions whose outcome turns up a hidden fact (a ballot or look that finds the impostor or
# not, a guess right or wrong, a kill): after one, the two tables may rightly differ in public.
REVEALING = ("vote", "clear", "guess", "kill")


def deciders(a, b, record, other, rng, steps: int = 40):
    """Play ``record`` and ``other`` on (in the one-game batches ``a`` and ``b``) with the same
    actions, each drawn from the actions legal at both tables (one that turns up nothing where
    there is one), until an action turns up a hidden fact; return the deciding seats of each."""
    names = a.spec.action_names
    a.set_records(np.array([record], dtype=a.records.dtype))
    b.set_records(np.array([other], dtype=b.records.dtype))
    seen_a, seen_b = [], []
    for _ in range(steps):
        seen_a.append(int(a.current_seat[0]))
        seen_b.append(int(b.current_seat[0]))
        both = np.flatnonzero(a.action_mask[0] & b.action_mask[0])
        if not len(both):
            break
        quiet = [x for x in both if not names[x].startswith(REVEALING)]
        action = int(rng.choice(quiet if quiet and rng.random() < 0.9 else both))
        over = [any(flag[0] for flag in v.step(np.array([action]))[1:]) for v in (a, b)]
        # A game that ends has turned up a hidden fact (a look when a clear's window closes,
        # say): its end is public, and who decides in the next deal means nothing.
        if any(over) or names[action].startswith(REVEALING):
            break
    return seen_a, seen_b


@pytest.mark.parametrize("num_players", range(4, 11))
def test_who_decides_next_does_not_change_with_what_any_seat_cannot_know(num_players):
    """The sequence of deciding seats (the AEC ``agent_selection``) is public: re-deal what one
    seat cannot know (``hidden_from``), play both tables on with the same actions, and the same
    seats decide in the same order until an action turns up a hidden fact. Then every seat's
    view of that table (``render(seat)``) is unchanged too."""
    vec = envs.make_vec("amongus", 24, seed=num_players + 100, num_players=num_players)
    players = [AmongUsHeuristic(vec.spec, vec.params), AmongUsChain(vec.spec, vec.params),
               RandomPolicy(7)]
    which = np.arange(vec.num_envs) % len(players)
    rng = np.random.default_rng(num_players)
    tables = [envs.make_vec("amongus", 1, num_players=num_players) for _ in range(2)]
    compared = 0
    for step in range(60):
        for b in range(0, vec.num_envs, 3 if step % 5 else 1):
            s = vec.records[b]
            seat = int(rng.integers(num_players))
            t, changed = hidden_from(s, seat, rng)
            assert render(t, seat) == render(s, seat), (step, b, seat)
            if changed:
                first, second = deciders(*tables, s, t, rng)
                assert first == second, (step, b, seat)
                compared += len(first)
        actions = np.empty(vec.num_envs, np.int64)
        for k, player in enumerate(players):
            actions[which == k] = player.act(vec.observation, vec.action_mask)[which == k]
        vec.step(actions)
    assert compared > 2000, compared


def test_golden_playthrough():
    """A seeded 5-player game between heuristics, every seat's view at every decision.
    Set UPDATE_GOLDEN=1 to rewrite the file after a deliberate change (and bump the version)."""
    spec = envs.registry["amongus"]
    params = spec.resolve(num_players=5)
    text = playthrough("amongus", seed=0, policy=AmongUsHeuristic(spec, params), **params)
    path = GOLDEN / "amongus_5p_seed0.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.read_text() == text
