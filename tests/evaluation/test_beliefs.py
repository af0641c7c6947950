"""The belief benchmark: scores against known values, and a scripted policy with beliefs."""

import itertools
import math

import numpy as np
import pytest

import envs
import evaluation.entrants
from agents.policy import RandomPolicy
from envs.menace import cards as c
from envs.menace.observe import observe as menace_observe
from envs.menace.rules.fates import exile, kill
from envs.menace.spec import SPEC
from evaluation.beliefs import allowed_mass, benchmark, collect, public_facts, scores
from evaluation.cli import main
from tests.amongus.board import Table
from tests.menace.scenario import table


def test_scores_of_known_predictions():
    y = np.array([[1, 0, 0], [0, 1, 1]], bool)
    half = scores(np.full(y.shape, 0.5), y)
    assert half["log_loss"] == pytest.approx(math.log(2))
    assert half["brier"] == pytest.approx(0.25)
    assert half["ece"] == pytest.approx(0.0)  # 0.5 predicted, 3 of 6 true
    assert half["ruled_out"] is None  # no public facts given
    perfect = scores(y.astype(float), y)
    assert perfect["brier"] == pytest.approx(0, abs=1e-9) and perfect["top1"] == 1.0
    assert perfect["log_loss"] == pytest.approx(-math.log(1 - 1e-6))
    wrong = scores(1.0 - y, y)
    assert wrong["top1"] == 0.0 and wrong["ece"] == pytest.approx(1 - 1e-6)


class Unsure(RandomPolicy):
    """Random play, and the belief that every other seat is on the other side with 1/2."""

    name = "unsure"

    def __init__(self, seats, seed=0, shape=None):
        super().__init__(seed)
        self.seats = seats
        self.shape = shape

    def beliefs(self, observation, who):
        return np.full(self.shape or (observation.shape[0], self.seats), 0.5)


@pytest.fixture
def unsure(monkeypatch):
    real = evaluation.entrants.make_policy

    def make(name, spec, params, seed=0):
        if name == "unsure":
            return Unsure(spec.resolve(**params)["num_players"], seed)
        if name == "misshapen":
            return Unsure(spec.resolve(**params)["num_players"], seed, shape=(1, 2))
        return real(name, spec, params, seed)

    monkeypatch.setattr(evaluation.entrants, "make_policy", make)


def test_a_policy_with_beliefs_is_scored_beside_the_base_rate_and_the_probe(unsure):
    r = benchmark("amongus", "unsure", 80, num_players=4, probe_steps=400)
    assert r["has_beliefs"]
    o = r["overall"]
    assert o["unsure"]["log_loss"] == pytest.approx(math.log(2))
    assert o["unsure"]["brier"] == pytest.approx(0.25)
    # the probe reads at least the observer's own side from the observation
    assert o["probe"]["log_loss"] < o["base rate"]["log_loss"] < o["unsure"]["log_loss"]
    assert r["share_of_probe"] < 0
    assert r["by_round"] and all(set(v) == {"base rate", "probe", "unsure"}
                                 for v in r["by_round"].values())


def test_beliefs_command_writes_its_files_and_refuses_bad_beliefs(unsure, tmp_path, capsys):
    out = tmp_path / "b"
    assert main(["beliefs", "amongus", "--players", "4", "--policy", "random", "--games", "40",
                 "--out", str(out)]) == 0
    assert "has no beliefs()" in capsys.readouterr().out
    assert (out / "calibration.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(ValueError, match=r"beliefs must be \[N, 4\], got \(1, 2\)"):
        benchmark("amongus", "misshapen", 10, num_players=4, probe_steps=10)


def test_the_scored_team_must_be_one_the_policy_plays(unsure):
    with pytest.raises(ValueError, match=r"plays \['crew', 'impostor'\], not 'menace'"):
        benchmark("amongus", "unsure", 10, team="menace", num_players=4)


# --- mass on assignments the public facts rule out -----------------------------------------


def ruled_out(p, settled, count):
    return 1.0 - allowed_mass(np.array([p]), np.array([settled], np.int8), np.array([count]))[0]


def test_ruled_out_mass_of_hand_built_beliefs():
    # one menace among two unsettled seats, the third seat a revealed crew member
    assert ruled_out([0.5, 0.5, 0.0], [-1, -1, 0], 1) == pytest.approx(0.0)  # unsure, consistent
    assert ruled_out([0.9, 0.9, 0.0], [-1, -1, 0], 1) == pytest.approx(0.8)  # both cannot be
    assert ruled_out([0.1, 0.1, 0.0], [-1, -1, 0], 1) == pytest.approx(0.8)  # one must be
    assert ruled_out([0.5, 0.5, 0.3], [-1, -1, 0], 1) == pytest.approx(0.3)  # the revealed seat
    assert ruled_out([0.5, 0.5, 0.2], [-1, -1, 1], 2) == pytest.approx(0.8)  # a revealed menace
    assert ruled_out([1.0, 0.0, 1.0], [-1, -1, 1], 2) == pytest.approx(0.0)  # certain and right
    with pytest.raises(ValueError, match="public facts contradict each other"):
        ruled_out([0.5, 0.5, 0.5], [1, 1, -1], 1)


def test_beliefs_that_some_joint_over_allowed_assignments_has_are_never_charged():
    """Marginals of any distribution over the allowed sets cost 0; moving a share eps of it
    onto an assignment of the wrong size costs at most eps."""
    rng = np.random.default_rng(0)
    for _ in range(300):
        seats = int(rng.integers(2, 8))
        k = int(rng.integers(0, seats + 1))
        sets = list(itertools.combinations(range(seats), k))
        b = np.zeros(seats)
        for chosen, w in zip(sets, rng.dirichlet(np.full(len(sets), 0.3))):
            b[list(chosen)] += w
        free = [-1] * seats
        assert ruled_out(b, free, k) == pytest.approx(0.0, abs=1e-9)
        eps = rng.uniform(0, 0.5)
        wrong = rng.choice(seats, (k + 1) % (seats + 1), replace=False)
        moved = (1 - eps) * b
        moved[wrong] += eps
        assert ruled_out(moved, free, k) <= eps + 1e-9


def menace_view(s, seat):
    layout = envs.registry["menace"].observation_layout(
        {p.name: int(s[p.name]) for p in envs.registry["menace"].params})
    out = np.zeros(layout.size, np.float32)
    menace_observe(s, seat, out, layout.offsets, int(s["num_players"]))
    return out[None]


def test_menace_public_facts_on_a_hand_built_board():
    """Seven seats: the two Menaces (0, 1), the Coward (2), crew (3-6). The Coward joins the
    Menace once one has fallen while one lives, and the count of Menace-side seats follows."""
    s = table(agendas=(c.THE_CONTAGION, c.THE_BUTCHER, c.THE_COWARD, c.THE_SAINT,
                       c.THE_VENGEANT, c.THE_RESOLUTE, c.THE_WITNESS),
              characters=(4, 5, 6, 7, 8, 9, 10))[0]
    params = {"num_players": 7}

    def facts(seat):
        settled, count = public_facts("menace", menace_view(s, seat), SPEC.resolve(**params))
        return settled[0].tolist(), int(count[0])

    assert facts(3) == ([-1] * 6, 2)  # nothing revealed: two Menaces, the Coward with the crew
    exile(s, 1)  # the Butcher is exiled (and alive): the Coward turns
    assert facts(3) == ([-1, -1, -1, -1, 1, -1], 3)  # seat 1 is 5 places clockwise of 3
    assert facts(2) == ([-1, -1, -1, -1, -1, 0], 4)  # the Coward now counts the crew
    assert facts(0) == ([0, -1, -1, -1, -1, -1], 4)
    kill(s, 0)
    kill(s, 1)  # no Menace lives: the Coward is crew again
    assert facts(3) == ([-1, -1, -1, 1, 1, -1], 2)  # seats 0 and 1: 4 and 5 places on
    assert facts(2) == ([-1, -1, -1, -1, 1, 1], 2)
    # seat 3 sure of the dead Contagion, only half sure of the dead Butcher
    settled, count = public_facts("menace", menace_view(s, 3), SPEC.resolve(**params))
    mass = 1.0 - allowed_mass(np.array([[0.0, 0.0, 0.0, 1.0, 0.5, 0.0]]), settled, count)
    assert mass == pytest.approx([0.5])


def seats(*up):
    row = np.zeros(envs.registry["amongus"].max_players, np.uint8)
    row[list(up)] = 1
    return row


def test_amongus_public_facts_on_a_hand_built_board():
    """Five seats, seat i holding colour i, the impostor's colour 3 (seat 3)."""
    t = Table(num_players=5, impostor=3)

    def facts(seat):
        settled, count = public_facts("amongus", t.vec.observe(seat), t.vec.params)
        return settled[0].tolist(), int(count[0])

    assert facts(0) == ([-1] * 4, 1)
    t.edit(revealed=seats(1), not_impostor=seats(2))
    assert facts(0) == ([0, 0, -1, -1], 1)  # 1 face up (not the impostor's colour), 2 looked at
    t.edit(revealed=seats(1, 3))
    assert facts(0) == ([0, 0, 1, -1], 1)  # the impostor's card face up
    assert facts(3) == ([-1, -1, 1, 1], 4)  # the impostor: the count settles every seat


@pytest.mark.parametrize("game,players", [("menace", 5), ("menace", 7), ("amongus", 6)])
def test_public_facts_hold_in_random_games(game, players):
    """Every fact read from every decision's observation agrees with the true teams."""
    spec = envs.registry[game]
    params = spec.resolve(num_players=players)
    policies = {t: RandomPolicy(k) for k, t in enumerate(spec.teams)}
    data = collect(game, policies, set(spec.teams), 150, seed=3, **params)
    settled, count = public_facts(game, data.observation, params)
    y = data.other_side
    assert (settled >= 0).any()  # some games revealed someone
    assert ((settled < 0) | (settled == y)).all()
    assert (count == y.sum(1)).all()
    assert allowed_mass(y.astype(float), settled, count) == pytest.approx(1.0)


def test_log_loss_differences_are_paired_over_games():
    from evaluation.beliefs import log_loss_differences

    y = np.array([[1, 0], [0, 1], [1, 0], [0, 1]], bool)
    sure = np.where(y, 0.9, 0.1)
    unsure = np.full(y.shape, 0.5)
    d = log_loss_differences({"base rate": unsure, "probe": sure}, y, np.array([0, 0, 1, 1]))
    gap = float(np.log(0.5) - np.log(0.9))  # the probe's log-loss minus the base rate's
    assert d["probe - base rate"]["mean"] == pytest.approx(gap)
    assert d["probe - base rate"]["interval"] == pytest.approx([gap, gap])  # same every game
