"""The one masked distribution: illegal actions never drawn, entropy over legal actions only."""

import math

import numpy as np
import pytest
import torch

from agents.neural import MaskedCategorical


def random_mask(rows: int, actions: int, seed: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    mask = torch.rand((rows, actions), generator=g) < 0.2
    mask[torch.arange(rows), torch.randint(actions, (rows,), generator=g)] = True
    return mask


def test_illegal_actions_never_sampled_even_when_their_logits_dominate():
    mask = random_mask(2000, 50, seed=0)
    logits = torch.where(mask, torch.zeros(()), torch.full((), 1e6))  # illegal logits huge
    dist = MaskedCategorical(logits, mask)
    g = torch.Generator().manual_seed(1)
    for _ in range(20):
        actions = dist.sample(g)
        assert mask.gather(1, actions[:, None]).all()


def test_single_legal_action_is_always_chosen_and_has_zero_entropy():
    mask = torch.zeros((3, 7), dtype=torch.bool)
    mask[0, 0] = mask[1, 6] = mask[2, 3] = True
    dist = MaskedCategorical(torch.randn(3, 7), mask)
    assert dist.sample().tolist() == [0, 6, 3]
    assert dist.mode().tolist() == [0, 6, 3]
    assert torch.allclose(dist.entropy(), torch.zeros(3), atol=1e-6)
    assert torch.allclose(dist.log_prob(torch.tensor([0, 6, 3])), torch.zeros(3), atol=1e-6)


def test_entropy_counts_legal_actions_only():
    mask = torch.zeros((4, 10), dtype=torch.bool)
    for row, k in enumerate((1, 2, 5, 10)):
        mask[row, :k] = True
    dist = MaskedCategorical(torch.zeros(4, 10), mask)
    expected = torch.tensor([math.log(k) for k in (1, 2, 5, 10)])
    assert torch.allclose(dist.entropy(), expected, atol=1e-5)


def test_probabilities_are_softmax_over_legal_and_zero_elsewhere():
    mask = random_mask(64, 12, seed=2)
    logits = torch.randn(64, 12)
    dist = MaskedCategorical(logits, mask)
    legal_logits = logits.masked_fill(~mask, float("-inf"))
    assert torch.allclose(dist.probs, torch.softmax(legal_logits, -1), atol=1e-6)
    assert (dist.probs[~mask] == 0).all()
    illegal = (~mask).float().argmax(1)
    has_illegal = (~mask).any(1)
    assert torch.isneginf(dist.log_prob(illegal)[has_illegal]).all()


def test_sampling_frequencies_match_probabilities():
    mask = torch.tensor([[True, False, True, True, False]]).repeat(40_000, 1)
    logits = torch.tensor([[1.0, 5.0, 0.0, -1.0, 3.0]]).repeat(40_000, 1)
    dist = MaskedCategorical(logits, mask)
    counts = np.bincount(dist.sample(torch.Generator().manual_seed(3)).numpy(), minlength=5)
    expected = dist.probs[0].numpy() * 40_000
    assert counts[1] == counts[4] == 0
    assert np.all(np.abs(counts - expected) < 5 * np.sqrt(expected + 1))


def test_gradients_flow_only_through_legal_logits():
    mask = random_mask(32, 9, seed=4)
    logits = torch.randn(32, 9, requires_grad=True)
    dist = MaskedCategorical(logits, mask)
    (dist.log_prob(dist.sample()).sum() + dist.entropy().sum()).backward()
    assert torch.isfinite(logits.grad).all()
    assert (logits.grad[~mask] == 0).all()


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="row 1 of the action mask has no legal action"):
        MaskedCategorical(torch.zeros(2, 3), torch.tensor([[True, False, False], [False] * 3]))
    with pytest.raises(ValueError, match="differ"):
        MaskedCategorical(torch.zeros(2, 3), torch.ones(2, 4, dtype=torch.bool))
    with pytest.raises(ValueError, match="bool"):
        MaskedCategorical(torch.zeros(2, 3), torch.ones(2, 3))
