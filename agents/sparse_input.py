"""A network's first layer reading only the nonzero entries of its input, for training.

The Menace's observation at 5 players is 1,283 floats of which about 45 are not zero (3.5%),
nearly all of them ones: the first layer's product ``x @ W.T`` is the crew network's largest
cost, forward and in the weights' gradient, and almost all of it multiplies zeros. Read as
sparse rows, the product is a sum of about 45 weight columns per row (``embedding_bag``), and
the gradient a sum of the output gradients of the rows holding each column's entries: the same
sums, taken in another order, so the results differ from the dense product in the last bits
(1e-5 relative here), which is why a loaded policy (``NeuralPolicy``) keeps the dense product
and answers as it always has. Measured on one thread, [4096, 1283] at 3.5% (docs/speed.md,
"The trainer"): the index 10 ms, the product 2.5 ms against 22 ms dense, its gradient about as
much again against 22 ms.
"""

from __future__ import annotations

import numba
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F


@numba.njit(cache=True, nogil=True)
def _index(x):  # pragma: no cover - compiled
    """The nonzero entries of ``x [N, D]``: by row (columns, values, each row's first entry)
    and by column (rows, values, each column's first entry)."""
    N, D = x.shape
    per_column = np.zeros(D + 1, np.int64)
    count = 0
    for i in range(N):
        for j in range(D):
            if x[i, j] != 0:
                count += 1
                per_column[j + 1] += 1
    columns = np.empty(count, np.int64)
    values = np.empty(count, np.float32)
    row_start = np.empty(N + 1, np.int64)
    k = 0
    for i in range(N):
        row_start[i] = k
        for j in range(D):
            if x[i, j] != 0:
                columns[k] = j
                values[k] = x[i, j]
                k += 1
    row_start[N] = k
    column_start = np.cumsum(per_column)
    rows = np.empty(count, np.int64)
    column_values = np.empty(count, np.float32)
    fill = column_start[:D].copy()
    for i in range(N):
        for k in range(row_start[i], row_start[i + 1]):
            j = columns[k]
            rows[fill[j]] = i
            column_values[fill[j]] = values[k]
            fill[j] += 1
    return columns, values, row_start[:N].copy(), rows, column_values, column_start[:D].copy()


class SparseRows:
    """An input ``[N, D]`` held as its nonzero entries, by row and by column; the first layer of
    an actor or critic (``InputLinear``) reads it in place of the dense tensor."""

    def __init__(self, dense: torch.Tensor):
        if dense.dim() != 2 or dense.dtype != torch.float32 or dense.device.type != "cpu":
            raise ValueError(f"sparse rows need a [N, D] float32 cpu tensor, got "
                             f"{tuple(dense.shape)} {dense.dtype} on {dense.device}")
        self.shape = dense.shape
        parts = _index(dense.detach().contiguous().numpy())
        (self.columns, self.values, self.row_start, self.rows, self.column_values,
         self.column_start) = (torch.from_numpy(p) for p in parts)


class _SparseProduct(torch.autograd.Function):
    """``x @ W.T + b`` for ``x`` as ``SparseRows``; the gradient reaches ``W`` and ``b`` (an
    observation takes none)."""

    @staticmethod
    def forward(ctx, weight, bias, x: SparseRows):
        ctx.x = x
        out = F.embedding_bag(x.columns, weight.t().contiguous(), x.row_start, mode="sum",
                              per_sample_weights=x.values)
        return out.add_(bias)

    @staticmethod
    def backward(ctx, grad):
        x = ctx.x
        grad_weight = F.embedding_bag(x.rows, grad.contiguous(), x.column_start, mode="sum",
                                      per_sample_weights=x.column_values)  # [D, H]
        return grad_weight.t().contiguous(), grad.sum(0), None


class InputLinear(nn.Linear):
    """The first layer of an actor or critic: ``nn.Linear`` (the same weights, the same
    checkpoints), which also reads ``SparseRows``."""

    def forward(self, x):
        if isinstance(x, SparseRows):
            return _SparseProduct.apply(self.weight, self.bias, x)
        return super().forward(x)
