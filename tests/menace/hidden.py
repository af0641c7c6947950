"""What one seat of The Menace cannot know, re-dealt: the information-invariance tests
(tests/test_conformance.py) check that its observation and its mask do not change."""

import numpy as np

from envs.menace import cards as c
from envs.menace import rules
from envs.menace.observe import INTERCEPTOR, SURVEILLANT

T = c.N_CARD_TYPES


def random_cards(rng: np.random.Generator, count: int) -> np.ndarray:
    """``count`` cards of random types, as counts by type."""
    return np.bincount(rng.integers(0, T, size=count), minlength=T).astype(np.int8)


def hidden_from(s, seat: int, rng: np.random.Generator):
    """A copy of record ``s`` changed only in what ``seat`` cannot know, and whether the change
    touched anything the game holds (decks and the random stream always change).

    Re-dealt: other seats' hands (same sizes), every deck's order, the wound and EmMA decks'
    order, the agendas of other unrevealed seats, other seats' face-down cards this round and
    in the past record, the order and owners of the cards still to be revealed, ballots of
    a vote still secret, what other seats' knowledge abilities showed them (this round and
    over the game), the cards other seats played over the game, character offers and picks
    not yet shown, and the random stream."""
    t = s.copy()
    n = int(s["num_players"])
    others = [j for j in range(n) if j != seat]
    changed = False
    for j in others:
        if s["hand_n"][j] > 0:
            t["hand"][j] = random_cards(rng, int(s["hand_n"][j]))
            changed = True
        if s["played_n"][j] > 0 and s["stage"] not in (rules.ACTION, rules.RESOLUTION):
            t["played"][j] = random_cards(rng, int(s["played_n"][j]))
            changed = True
        t["seen_hand"][j] = rng.integers(-1, 3, size=t["seen_hand"][j].shape)
        t["seen_played"][j] = rng.integers(0, 2, size=t["seen_played"][j].shape)
        t["seen_top"][j] = rng.integers(-1, T, size=t["seen_top"][j].shape)
        t["seen_emma"][j] = rng.integers(-1, T)
    for j in range(n):
        k = int(s["deck_n"][j])
        t["deck"][j, :k] = rng.permutation(s["deck"][j, :k])
    k = int(s["wound_deck_n"])
    t["wound_deck"][:k] = rng.permutation(s["wound_deck"][:k])
    if s["seen_emma"][seat] < 0:  # Calibrate shows the top: the rest stays unknown either way
        k = int(s["emma_n"])
        t["emma"][:k] = rng.permutation(s["emma"][:k])
    unknown = [j for j in others if not s["revealed"][j]]
    if len(unknown) >= 2:
        order = rng.permutation(len(unknown))
        t["agenda"][unknown] = s["agenda"][np.array(unknown)[order]]
        changed = changed or bool((t["agenda"] != s["agenda"]).any())
    # Face-down cards not yet revealed: which is which, and whose (a Veto shows the one up).
    # In the Action stage every card in the pool is face down; another seat's becomes any
    # type, and what that seat played this round follows the pool (validate.py holds the two
    # together).
    first = int(s["reveal_pos"]) + (1 if s["decision"] == rules.VETO_CHOICE else 0)
    if s["stage"] == rules.ACTION:
        first = 0
    if s["stage"] in (rules.ACTION, rules.RESOLUTION):
        for k in range(first, int(s["pool_n"])):
            if s["pool_seat"][k] >= 0 and s["pool_seat"][k] != seat:
                t["pool"][k] = rng.integers(0, T)
                changed = True
        for j in others:
            held = t["pool_seat"][: s["pool_n"]] == j
            t["played"][j] = np.bincount(t["pool"][: s["pool_n"]][held], minlength=T)
    if s["stage"] == rules.RESOLUTION and int(s["pool_n"]) - first >= 2:
        order = first + rng.permutation(int(s["pool_n"]) - first)
        t["pool"][first : s["pool_n"]] = t["pool"][order]
        t["pool_seat"][first : s["pool_n"]] = t["pool_seat"][order]
        changed = True
    if s["vote_called"] and not s["ballots_public"]:
        for j in others:
            if s["ballot"][j] != rules.DID_NOT_VOTE:
                t["ballot"][j] = rng.integers(-1, n)
                changed = True
    for row in range(s["past"].shape[0]):
        for j in others:
            at = rules.PAST_COL_CARDS + j * T
            t["past"][row, at : at + T] = rng.integers(0, 3, size=T)
    for j in others:  # which cards a seat played over the game is its own secret
        t["game_cards"][j] = rng.integers(0, 6, size=T)
    user = s["character"][seat]  # what Surveillance and Intercept showed is their user's
    if user != SURVEILLANT:
        t["game_surveilled"] = rng.integers(0, 3, size=t["game_surveilled"].shape)
    if user != INTERCEPTOR:
        t["game_intercepted"] = rng.integers(0, 3, size=t["game_intercepted"].shape)
    if s["stage"] == rules.PICKING:
        changed = redeal_picks(s, t, seat, rng) or changed
    t["rng_counter"] += np.uint64(12345)
    return t, changed


def redeal_picks(s, t, seat: int, rng: np.random.Generator) -> bool:
    """Other seats' offers, and their picks still face down, from the characters ``seat``
    neither holds in its offer nor sees picked."""
    n = int(s["num_players"])
    shown = [
        j for j in range(n)
        if (j - int(s["mission_leader"])) % n < int(s["picks_shown"]) or j == seat
    ]
    known = set(np.flatnonzero(s["offer"][seat])) | {int(s["character"][j]) for j in shown}
    pool = [ch for ch in range(c.N_CHARACTERS) if ch not in known]
    rng.shuffle(pool)
    changed = False
    for j in range(n):
        if j == seat:
            continue
        offered = int(s["offer"][j].sum())
        hidden_pick = j not in shown and s["character"][j] >= 0
        need = offered + (1 if hidden_pick else 0)
        if need == 0 or need > len(pool):
            continue
        t["offer"][j] = False
        for ch in pool[:offered]:
            t["offer"][j, ch] = True
        if hidden_pick:
            t["character"][j] = pool[offered]
        del pool[:need]
        changed = True
    return changed
