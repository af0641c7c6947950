"""The MANIACAL heuristic: legal in whole games, and sensible on boards set up by hand.

The boards are observations written piece by piece (the bot reads nothing else), with the
legal actions set as the rules would offer them.
"""

import numpy as np
import pytest

import envs
from agents import make_policy
from agents.policy import Policy, RandomPolicy
from agents.maniacal_heuristic import P_REROLL, P_SUCCESS, ManiacalHeuristic, choose
from envs.maniacal import actions as A
from envs.maniacal import cards as c
from envs.maniacal import rules as R
from envs.maniacal.spec import SPEC, observation_layout
from envs.maniacal.tables import FIRST_LACKEY, FIRST_MERCENARY, LACKEY, MERCENARY

N = 4
PARAMS = SPEC.resolve(num_players=N)
LAYOUT = observation_layout(PARAMS)
BOT = ManiacalHeuristic(SPEC, PARAMS)
LACKEY_ID = FIRST_LACKEY  # Igor
MERC_ID = FIRST_MERCENARY  # Ex-Commando, Brawn 3 Stealth 2


def henchman_id(name):
    return next(i for i, h in enumerate(c.HENCHMEN) if h.name == name)


class Board:
    """One seat's observation and mask, written by piece name."""

    def __init__(self, decision, round_=1, subject=R.NO_SUBJECT):
        self.obs = np.zeros(LAYOUT.size, np.float32)
        self.p = LAYOUT.split(self.obs)
        self.mask = np.zeros(SPEC.num_actions, np.bool_)
        self.p["decision"][decision] = 1
        self.p["subject"][subject] = 1
        self.p["round"][round_ - 1] = 1
        self.p["deciding_seat"][0] = 1
        for h in range(len(c.HENCHMEN) + len(c.MERCENARIES) + len(c.LACKEYS)):
            self.p["henchman_owner"][h, N] = 1  # nobody
        self.money(10)

    def money(self, dollars, seat=0):
        self.p["money"][seat] = dollars / 30

    def infamy(self, points, seat):
        self.p["infamy"][seat] = points / 50

    def give(self, h, seat=0, injured=False, exhausted=False, on_team=False):
        """Henchman h joins `seat` with its printed traits."""
        if h < FIRST_MERCENARY:
            kind, traits = c.HENCHMEN[h].kind, c.HENCHMEN[h].traits
        elif h < FIRST_LACKEY:
            kind, traits = MERCENARY, c.MERCENARIES[h - FIRST_MERCENARY].traits
        else:
            kind, traits = LACKEY, c.LACKEYS[h - FIRST_LACKEY].traits
        self.p["henchman_owner"][h] = 0
        self.p["henchman_owner"][h, seat] = 1
        self.p["henchman_where"][h, R.OWNED] = 1
        self.p["henchman_type"][h, kind] = 1
        self.p["henchman_traits"][h] = np.array(traits) / 7
        self.p["henchman_injuries"][h] = 1 / 3 if injured else 0
        self.p["henchman_exhausted"][h] = exhausted
        self.p["henchman_on_team"][h] = on_team
        self.p["henchmen"][seat] += 0.1

    def contract(self, continent, difficulty, team, trait, weeks=3):
        self.p["map_present"][continent] = 1
        self.p["map_difficulty"][continent, difficulty] = 1
        self.p["map_team"][continent, team - 1] = 1
        self.p["map_trait"][continent, trait] = 1
        self.p["time_cost"][:, continent] = weeks / 5

    def legal(self, *actions):
        for a in actions:
            self.mask[a] = True

    def act(self):
        return int(BOT.act(self.obs[None], self.mask[None])[0])


# ---- whole games -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_heuristic_plays_whole_games_legally(players):
    """Its own choice is legal at every decision (it never falls back on "any legal action"),
    and the engine, which raises on an illegal action, plays every game to the end."""
    spec = envs.registry["maniacal"]
    params = spec.resolve(num_players=players)
    vec = envs.make_vec("maniacal", 8, seed=players, **params)
    policy = make_policy("heuristic", spec, params)
    off = vec.observation_layout.offsets
    finished = 0
    for _ in range(400 * players):
        for b in range(vec.num_envs):
            own = choose(vec.observation[b], vec.action_mask[b], off, players)
            assert own >= 0 and vec.action_mask[b, own], vec.legal_action_names(b)
        _, terminated, truncated = vec.step(policy.act(vec.observation, vec.action_mask))
        assert not truncated.any()
        finished += int(terminated.sum())
        if finished >= 8:
            break
    assert finished >= 8


# ---- the draft -------------------------------------------------------------------------------


def kind(name):
    return c.ROOM_NAMES.index(name)


def test_draft_sells_what_it_cannot_afford():
    board = Board(R.DRAFT)
    board.money(1)
    board.p["hand"][kind("Mutation Chamber")] = 1 / 3
    board.p["hand"][kind("Vault")] = 1 / 3
    board.legal(A.SELL + kind("Mutation Chamber"), A.SELL + kind("Vault"))
    assert board.act() == A.SELL + kind("Mutation Chamber")  # the $6 sale


def test_draft_builds_the_room_that_wins_a_track():
    board = Board(R.DRAFT)
    board.money(10)
    beasts = [h for h, card in enumerate(c.HENCHMEN) if card.kind == c.BEAST]
    board.p["henchman_where"][beasts[0], R.FACE_UP] = 1
    board.p["henchman_type"][beasts[0], c.BEAST] = 1
    board.p["henchman_cost"][beasts[0]] = 5 / 7
    for seat in range(1, N):
        board.p["attraction"][seat, c.BEAST] = 4 / 10
    for name in ("Beast Pens", "Briefing Room", "Escape Tunnel"):
        board.p["hand"][kind(name)] = 1 / 3
        board.legal(A.BUILD + kind(name), A.SELL + kind(name))
    assert board.act() == A.BUILD + kind("Beast Pens")


# ---- the Contract Phase ----------------------------------------------------------------------


def test_turn_attempts_a_contract_its_team_can_make():
    board = Board(R.TURN)
    board.p["time_left"][0] = 0.8
    board.give(henchman_id("Mutant Rex"))  # Brawn 5
    board.give(LACKEY_ID)
    board.contract(2, c.EASY, 1, c.BRAWN)
    board.legal(A.CONTRACT + 2, A.VISIT + A.UNDERGROUND, A.PASS)
    assert board.act() == A.CONTRACT + 2


def test_contract_odds_count_the_lackeys_reroll_of_the_blanks():
    """With its Lackey on the team the heuristic re-rolls every blank when short (P-17), so one
    die fails only on two blanks (1/4) and rolls two successes on a two or a blank then a two
    (1/6 + 1/12); the odds it values a contract by never fall below a single roll's."""
    assert P_REROLL[1, 1] == pytest.approx(0.75)
    assert P_REROLL[1, 2] == pytest.approx(0.25)
    assert (P_REROLL >= P_SUCCESS - 1e-12).all()


def test_turn_attempts_a_hard_contract_that_the_lackeys_reroll_makes_likely():
    """Audit turn 4, MA-1: Gorilla Bruiser (Brawn 2) and the Lackey roll 3 dice at a Hard
    contract, 13% on one roll (version 2 hired a Mercenary first) and 31% with the re-roll."""
    board = Board(R.TURN)
    board.p["time_left"][0] = 0.8
    board.give(henchman_id("Gorilla Bruiser"))
    board.give(LACKEY_ID)
    board.contract(2, c.HARD, 2, c.BRAWN)
    board.legal(A.CONTRACT + 2, A.VISIT + A.LOUNGE, A.VISIT + A.UNDERGROUND, A.PASS)
    assert board.act() == A.CONTRACT + 2


def test_team_takes_the_lackey_where_its_reroll_pays():
    """A Hard contract for two with Rhino Brute (Brawn 3) on the team: the Lackey (one die and
    the re-roll) comes before Weasel-Man (one die), which the dice alone would tie."""
    board = Board(R.TEAM)
    strong, weak = henchman_id("Rhino Brute"), henchman_id("Weasel-Man")
    board.give(strong, on_team=True)
    board.give(weak)
    board.give(LACKEY_ID)
    board.contract(1, c.HARD, 2, c.BRAWN)
    board.p["attempt_seat"][0] = 1
    board.p["attempt_continent"][1] = 1
    board.legal(A.HENCHMAN + weak, A.HENCHMAN + LACKEY_ID)
    assert board.act() == A.HENCHMAN + LACKEY_ID


def test_turn_hires_a_mercenary_when_its_team_is_short():
    board = Board(R.TURN)
    board.p["time_left"][0] = 0.8
    board.p["supervillain_exhausted"][0] = 1
    board.give(LACKEY_ID)
    board.contract(2, c.HARD, 2, c.BRAWN)
    board.legal(A.VISIT + A.LOUNGE, A.VISIT + A.UNDERGROUND, A.PASS)
    assert board.act() == A.VISIT + A.LOUNGE


def test_team_takes_the_strongest_henchmen_lowest_id_first():
    board = Board(R.TEAM)
    weak, strong, middle = henchman_id("Weasel-Man"), henchman_id("Master Thief"), henchman_id(
        "Necromancer")
    for h in (weak, strong, middle):
        board.give(h)
    board.contract(1, c.HARD, 2, c.STEALTH)
    board.p["attempt_seat"][0] = 1
    board.p["attempt_continent"][1] = 1
    board.legal(A.HENCHMAN + weak, A.HENCHMAN + strong)  # the last one cannot come first
    assert board.act() == A.HENCHMAN + strong  # Master Thief (id 14) before Necromancer (32)


def test_negative_scheme_only_against_the_leader():
    board = Board(R.NEGATIVE_SCHEME)
    board.give(henchman_id("Rat Scout"), seat=2, on_team=True)
    board.contract(0, c.HARD, 1, c.STEALTH)
    board.p["attempt_seat"][2] = 1
    board.p["attempt_continent"][0] = 1
    framed, audit = c.SCHEME_NAMES.index("Framed!"), c.SCHEME_NAMES.index("Tax Audit")
    board.legal(A.SCHEME + framed, A.SCHEME + audit, A.PASS)
    board.infamy(12, seat=2)
    board.infamy(10, seat=0)
    assert board.act() == A.SCHEME + framed  # the most harmful
    board.infamy(15, seat=1)
    assert board.act() == A.PASS  # seat 2 no longer leads


def test_after_the_roll_a_success_spends_nothing():
    board = Board(R.AFTER)
    board.p["flipped"][0] = 1
    board.p["target"][0] = 3 / 15
    board.p["faces"][:] = np.array([2, 1, 1]) / 16  # 3 successes
    audit = c.SCHEME_NAMES.index("Double Cross")  # +1 success after the roll
    board.legal(A.SCHEME + audit, A.REROLL, A.PASS)
    assert board.act() == A.PASS


def test_after_the_roll_a_shortfall_rerolls_with_the_lackey():
    board = Board(R.AFTER)
    board.p["flipped"][0] = 1
    board.p["target"][0] = 6 / 15
    board.p["faces"][:] = np.array([4, 1, 1]) / 16  # 3 successes, 4 blanks
    board.legal(A.REROLL, A.PASS)
    assert board.act() == A.REROLL


def test_reroll_count_maximises_the_chance_of_success():
    board = Board(R.REROLL_COUNT, subject=R.LACKEY_REROLL)
    board.p["flipped"][0] = 1
    board.p["target"][0] = 9 / 15
    board.p["faces"][:] = np.array([1, 3, 1]) / 16  # 5 successes; needs 4 more from 1 blank
    board.legal(*(A.COUNT + k for k in range(4)))
    choice = board.act() - A.COUNT
    chances = [P_SUCCESS[1 + k, 9 - 2 - (3 - k)] for k in range(4)]
    assert choice == int(np.argmax(chances)) and choice > 0
    board.p["target"][0] = 5 / 15  # already made: re-roll no one
    assert board.act() == A.COUNT + 0


def test_captured_loses_the_weakest_and_power_goes_to_the_strongest_recruit():
    rex, scout = henchman_id("Mutant Rex"), henchman_id("Rat Scout")
    board = Board(R.CHOOSE_HENCHMAN, subject=R.CAPTURED_ONE)
    for h in (rex, scout, MERC_ID):
        board.give(h, on_team=True)
    board.legal(A.HENCHMAN + rex, A.HENCHMAN + scout)
    assert board.act() == A.HENCHMAN + scout
    board.mask[A.HENCHMAN + scout] = False
    board.legal(A.HENCHMAN + MERC_ID)
    assert board.act() == A.HENCHMAN + MERC_ID  # it leaves at Clean-up anyway
    board.legal(A.HENCHMAN + scout)
    board.p["subject"][:] = 0
    board.p["subject"][R.POWER_ONE] = 1
    assert board.act() == A.HENCHMAN + rex


def test_worker_the_supervillain_for_a_vault_the_best_trait_for_a_counting_house():
    board = Board(R.WORKER, subject=R.ACTION_ROOM_WORKER)
    rex, scout = henchman_id("Mutant Rex"), henchman_id("Rat Scout")
    board.give(rex)
    board.give(scout)
    board.p["pending_room"][kind("Vault")] = 1
    board.legal(A.SUPERVILLAIN, A.HENCHMAN + rex, A.HENCHMAN + scout)
    assert board.act() == A.SUPERVILLAIN
    board.p["pending_room"][:] = 0
    board.p["pending_room"][kind("Counting House")] = 1
    board.mask[A.SUPERVILLAIN] = False  # it has no traits to pay by
    assert board.act() == A.HENCHMAN + rex


def test_lackey_rolls_its_best_trait():
    board = Board(R.CHOOSE_TRAIT, subject=R.LACKEY_TRAIT)
    board.give(LACKEY_ID, on_team=True)
    board.p["henchman_traits"][LACKEY_ID] = np.array([1, 3, 1, 1]) / 7  # Phase Shift
    board.legal(*(A.TRAIT + t for t in range(4)))
    assert board.act() == A.TRAIT + c.STEALTH


# ---- the obvious exploits ----------------------------------------------------------------------


class Hoarder(Policy):
    """Sells every room, never attempts anything: banks the money bonus."""

    def act(self, observation, action_mask):
        out = np.empty(len(action_mask), np.int64)
        for i, mask in enumerate(action_mask):
            sells = np.flatnonzero(mask[A.SELL : A.SELL + A.R])
            out[i] = A.SELL + sells[-1] if sells.size else (
                A.PASS if mask[A.PASS] else np.flatnonzero(mask)[0])
        return out


class Greedy(Policy):
    """Attempts any legal contract at once, otherwise plays as the heuristic."""

    def act(self, observation, action_mask):
        out = BOT.act(observation, action_mask)
        for i, mask in enumerate(action_mask):
            contracts = np.flatnonzero(mask[A.CONTRACT : A.CONTRACT + 6])
            if contracts.size:
                out[i] = A.CONTRACT + contracts[0]
        return out


def mean_rewards(opponent, games=256, seed=7):
    """Heuristic in seats 0 and 2, `opponent` in 1 and 3: mean reward by seat."""
    vec = envs.make_vec("maniacal", 128, seed=seed, **PARAMS)
    policies = [BOT, opponent, BOT, opponent]
    total, finished = np.zeros(N), 0
    while finished < games:
        actions = np.empty(vec.num_envs, np.int64)
        for seat, policy in enumerate(policies):
            rows = np.flatnonzero(vec.current_seat == seat)
            if rows.size:
                actions[rows] = policy.act(vec.observation[rows], vec.action_mask[rows])
        rewards, terminated, _ = vec.step(actions)
        for b in np.flatnonzero(terminated):
            total += rewards[b]
            finished += 1
    return total / finished


@pytest.mark.parametrize("opponent", [RandomPolicy(3), Hoarder(), Greedy()],
                         ids=["random", "hoarder", "greedy"])
def test_the_obvious_exploits_do_not_beat_it(opponent):
    mean = mean_rewards(opponent)
    heuristic, other = (mean[0] + mean[2]) / 2, (mean[1] + mean[3]) / 2
    print(f"heuristic {heuristic:.3f}, {type(opponent).__name__} {other:.3f}")
    assert heuristic > other + 0.1


# ---- the balance table -----------------------------------------------------------------------


def test_balance_table_shares_every_win_among_starting_positions():
    from evaluation.balance import format_balance, run_balance

    result = run_balance("maniacal", games=24, players=[3])
    assert [r["pairing"] for r in result["rows"]] == ["random", "heuristic"]
    for row in result["rows"]:
        assert row["games"] == 24
        assert sum(p["win_rate"] for p in row["positions"]) == pytest.approx(1.0)
        assert all(0 <= u["win_rate"] <= 1 for u in row["rooms"] + row["schemes"])
    table = format_balance(result)
    assert "| 3 | heuristic | 24 | 1 |" in table
