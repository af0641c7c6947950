"""Reward crediting: every reward reaches the decision it belongs to, across rollout boundaries
and team changes; every value a target is built on comes from a row the critic trains on."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import torch

import envs
from agents.neural import ActorCritic
from training.credit import credit_rewards, record_decisions
from training.gae import per_seat_gae
from training.instrument import Clock
from training.pool import OpponentPool
from training.rollout import Collector, Rollout


class Table:
    """One game (B = 1) of two seats, stored as the trainer stores it (P + T slots)."""

    def __init__(self, T=2, P=2):
        self.buf = Rollout(T, 1, P, 3, 2, 0, 0)
        self.last = np.full((1, P), -1)
        self.decided = np.zeros((1, P), bool)

    def start_rollout(self):
        return self.buf.carry(self.last)

    def decide(self, t, seat, group=0, learn=True):
        slot = self.buf.P + t
        self.buf.seat[slot], self.buf.group[slot], self.buf.learn[slot] = seat, group, learn
        return record_decisions(self.last, np.array([seat]), np.array([slot]),
                                self.buf.group.reshape(-1), self.buf.learn.reshape(-1),
                                self.buf.done.reshape(-1), self.buf.cut.reshape(-1),
                                self.decided)

    def pay(self, rewards, ended):
        return credit_rewards(self.last, np.array([rewards], np.float32), np.array([ended]),
                              self.buf.rewards.reshape(-1), self.buf.done.reshape(-1),
                              self.decided)


def test_a_final_reward_after_a_rollout_boundary_reaches_the_waiting_seats_decision():
    table = Table()
    table.start_rollout()
    table.decide(0, seat=0)  # row: slot 2
    table.pay([0, 0], False)
    table.decide(1, seat=1)  # row: slot 3
    table.pay([0, 0], False)
    # The rollout stops; both seats wait. Seat 0's decision is carried into slot 0, seat 1's
    # into slot 1; the previous trainer forgot them here and dropped their final rewards.
    assert table.start_rollout() == 2
    assert table.last.tolist() == [[0, 1]] and table.buf.valid[:2, 0].all()
    table.decide(0, seat=1)  # seat 1 again (slot 2), then the game ends
    assert table.pay([1.0, -1.0], True) == (2.0, 0.0, 0.0)
    assert table.buf.rewards[:, 0].tolist() == [1.0, 0.0, -1.0, 0.0]
    assert table.buf.done[:, 0].tolist() == [True, False, True, False]
    assert table.last.tolist() == [[-1, -1]]
    table.buf.values.fill_(0.5)
    adv, _, resolved = per_seat_gae(table.buf.rewards, table.buf.values.numpy(), table.buf.done,
                                    table.buf.seat, table.buf.valid, 2, 1.0, 1.0)
    assert resolved[:3, 0].all()  # both carried rows are trained now; slot 3 is unused
    np.testing.assert_allclose(adv[:3, 0], [1.0 - 0.5, 0.5 - 0.5 - 1.5, -1.0 - 0.5])


def test_a_team_change_cuts_the_chain_and_the_final_reward_goes_to_the_new_team():
    table = Table(T=3)
    table.start_rollout()
    table.decide(0, seat=0, group=0)  # the Coward, still crew
    table.pay([0, 0], False)
    table.decide(1, seat=1, group=0)
    table.pay([0, 0], False)
    assert table.decide(2, seat=0, group=1) == 1  # now menace: his crew row ends here
    assert table.buf.done[2, 0] and not table.buf.done[4, 0]
    table.pay([2.0, -1.0], True)
    assert table.buf.rewards[2:, 0].tolist() == [0.0, -1.0, 2.0]  # crew row earns nothing more


def test_the_cowards_last_row_before_a_change_of_side_bootstraps_from_his_next_decision():
    """His reward is his survival on either side: the crew row's target is the value of his
    first menace decision (another network's), with no advantage chained past it."""
    table = Table(T=3)
    table.start_rollout()
    table.decide(0, seat=0, group=0)  # the Coward, still crew (slot 2)
    table.pay([0, 0], False)
    table.decide(1, seat=1, group=0)  # (slot 3)
    table.pay([0, 0], False)
    table.decide(2, seat=0, group=1)  # now menace (slot 4)
    table.pay([1.0, -1.0], True)
    assert table.buf.cut[2, 0] and table.buf.done[2, 0] and not table.buf.cut[4, 0]
    values = np.array([[0.0], [0.0], [0.25], [0.0], [0.75]], np.float32)
    buf = table.buf
    adv, _, resolved = per_seat_gae(buf.rewards, values, buf.done, buf.seat, buf.valid, 2,
                                    0.9, 0.5, cut=buf.cut)
    assert resolved[2, 0] and resolved[4, 0]
    np.testing.assert_allclose(adv[4, 0], 1.0 - 0.75)  # his last decision: the game's end
    np.testing.assert_allclose(adv[2, 0], 0.9 * 0.75 - 0.25, rtol=1e-6)  # no chained advantage
    frozen = values.copy()
    frozen[4, 0] = np.nan  # a frozen league player's decision carries no value
    adv, _, _ = per_seat_gae(buf.rewards, frozen, buf.done, buf.seat, buf.valid, 2, 0.9, 0.5,
                             cut=buf.cut)
    np.testing.assert_allclose(adv[2, 0], -0.25)


def test_a_frozen_to_learner_change_cuts_the_chain_too():
    table = Table(T=2)
    table.start_rollout()
    table.decide(0, seat=0, group=0, learn=False)
    table.pay([0, 0], False)
    assert table.decide(1, seat=0, group=0, learn=True) == 1


def test_a_seat_that_never_decided_is_undecided_not_lost():
    table = Table()
    table.start_rollout()
    table.decide(0, seat=0)
    assert table.pay([1.0, -1.0], True) == (1.0, 0.0, 1.0)


def test_forgetting_a_waiting_seat_counts_as_lost():
    table = Table()
    table.start_rollout()
    table.decide(0, seat=0)
    table.pay([0, 0], False)
    table.last[:] = -1  # the old trainer's reset at each rollout start
    assert table.pay([1.0, 0.0], True) == (0.0, 1.0, 0.0)


def make_collector(game, players, B, T, share, seed=0):
    env = envs.make_vec(game, B, seed=seed, num_players=players)
    spec = env.spec
    torch.manual_seed(seed)
    config = {"kind": "mlp", "observation_size": env.observation_size,
              "num_actions": env.num_actions, "critic_input_size": env.observation_size,
              "hidden": [16]}
    groups = list(spec.teams)
    models = [ActorCritic(config) for _ in groups]
    pool = OpponentPool(groups, 4, np.random.default_rng(seed), {g: config for g in groups})
    for g in groups:
        pool.add(g, ActorCritic(config))
    collector = Collector(env, models, np.arange(len(groups)), False, pool, {}, share,
                          np.random.default_rng(seed), torch.Generator().manual_seed(seed), T,
                          False, Clock(), ThreadPoolExecutor(1))
    return env, collector


@pytest.mark.parametrize("game,players", [("menace", 7), ("amongus", 6)])
def test_every_reward_the_engine_pays_is_credited_to_that_seats_last_decision(game, players):
    """Short rollouts (many boundaries), frozen sides, and at 7 Menace players the Coward, who
    changes team: each final reward must land on the row of that seat's last decision in that
    game, exactly once."""
    env, collector = make_collector(game, players, B=24, T=5, share=0.4)
    paid: dict = {}  # (slot, episode, seat) -> reward, as the engine reported it
    step = env.step

    def watched_step(actions):
        episode, decided = env.records["episode"].copy(), collector.decided.copy()
        rewards, terminated, truncated = step(actions)
        for b, p in zip(*np.nonzero(rewards)):
            if decided[b, p]:
                paid[(b, episode[b], p)] = paid.get((b, episode[b], p), 0.0) + rewards[b, p]
        return rewards, terminated, truncated

    env.step = watched_step
    credited: dict = {}
    cuts = 0
    buf = collector.buf
    for _ in range(40):
        stats = collector.collect()
        cuts += stats["cut"]
        assert stats["lost"] == 0.0
        _, _, resolved = per_seat_gae(buf.rewards, np.zeros_like(buf.rewards), buf.done,
                                      buf.seat, buf.valid, players, 0.99, 0.95)
        # every resolved row is accounted once (a pending row waits for the next rollout)
        for slot, b in zip(*np.nonzero(resolved & (buf.rewards != 0))):
            key = (b, buf.episode[slot, b], buf.seat[slot, b])
            assert key not in credited, "a reward credited twice"
            assert buf.done[slot, b], "a final reward on a decision that was not the last"
            credited[key] = float(buf.rewards[slot, b])
    assert len(paid) > 100 and credited == pytest.approx(paid)
    if game == "menace":
        assert cuts > 0, "no team change seen: the Coward case went untested"


def test_every_value_a_target_uses_is_a_decision_value_of_the_same_learner():
    """No bootstrap row carries an input the critic never sees in training: each resolved
    row's successor (the value its target is built on) is a row of the same seat, game,
    network and learner flag, whose observation is that seat's own decision view."""
    env, collector = make_collector("menace", 7, B=24, T=6, share=0.4)
    layout = env.observation_layout
    deciding = slice(layout.offsets[layout.index("deciding_seat")],
                     layout.offsets[layout.index("deciding_seat") + 1])
    buf = collector.buf
    checked = 0
    for _ in range(15):
        collector.collect()
        values = buf.values.numpy()
        _, _, resolved = per_seat_gae(buf.rewards, values, buf.done, buf.seat, buf.valid,
                                      7, 0.99, 0.95)
        S, B = resolved.shape
        for b in range(B):
            for slot in np.flatnonzero(resolved[:, b] & buf.learn[:, b] & ~buf.done[:, b]):
                later = [s for s in range(slot + 1, S)
                         if buf.valid[s, b] and buf.seat[s, b] == buf.seat[slot, b]]
                nxt = later[0]
                assert buf.learn[nxt, b] and buf.group[nxt, b] == buf.group[slot, b]
                assert buf.episode[nxt, b] == buf.episode[slot, b]
                assert np.isfinite(values[nxt, b])
                view = buf.obs[nxt, b, deciding].numpy()
                assert view[0] == 1 and not view[1:].any()  # the seat's own decision view
                checked += 1
        learner_rows = buf.valid & buf.learn
        assert np.isfinite(values[learner_rows]).all()
        assert np.isnan(values[buf.valid & ~buf.learn]).all()  # frozen rows: no value at all
    assert checked > 1000
