"""The hidden layers' activation: tanh, computed the cheaper way (``agents.neural.Tanh``)."""

import torch

from agents.neural import Tanh


def test_hidden_activation_is_tanh_and_its_gradient_is_tanhs():
    x = torch.linspace(-12.0, 12.0, 20001, dtype=torch.float32, requires_grad=True)
    y = Tanh()(x)
    assert (y - torch.tanh(x)).abs().max() < 1e-6
    y.sum().backward()
    assert (x.grad - (1 - torch.tanh(x.detach()) ** 2)).abs().max() < 1e-6
    assert torch.all(y.abs() <= 1.0)
