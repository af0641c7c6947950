"""A seat-token encoder: one network for every table size of a game (issue 41).

A game's observation is a flat vector of named pieces (``envs/<game>/spec.py``) whose sizes
change with the number of players ``n`` while their names stay the same; seats are relative
(row 0 the observer, then clockwise). This module turns that vector, at any supported ``n``,
into tokens whose sizes do not depend on ``n``:

- one **seat token** per seat, holding that seat's rows of every seat-indexed piece, plus a few
  features of its place at the table (``POSITION``): itself, next clockwise, previous, its
  fraction of the way round;
- one **global token**, holding the pieces without a seat axis and the table size ``n / max``.

Which axes are seat axes is found from the layouts themselves, by comparing a piece's shape at
every supported size (``SeatPlan``): an axis whose length is the same at every ``n`` is a
feature axis; one whose length is ``n + c`` (``c >= 0`` the same at every ``n``: a ballot's
"abstained", a henchman's "nobody") is a seat axis with ``c`` extra entries; anything else (an
axis of ``2n`` or ``n - 1``, a piece that exists at one size only) is refused by name. A piece's
first seat axis gives the tokens: seat ``j``'s token gets the piece's slice ``j`` along it, and
the ``c`` extra slices go to the global token. A second seat axis (an ``n x n`` piece such as
Among Us's ``voted_for[i, j]``) stays inside each token as features, padded to the game's
largest table: its entries ``0 .. n-1`` sit at ``0 .. n-1``, its ``c`` extras at ``max ..
max+c-1``, zeros between, so every feature means the same thing at every size. Three seat axes
in one piece are refused (no game has one).

Sizes cannot tell a seat axis from another axis as long as the table: Among Us deals one colour
per player, so its colour axes (``own_colour``, ``hand``, the columns of ``known_colour``) are
``n`` long and are classified as seat axes. Token ``j`` then carries colour ``j``'s entries of
the one-axis colour pieces; in ``seat x colour`` pieces the seat axis comes first and gives the
tokens, the colours being padded features. The encoder is still a function of the whole
observation and its weights still do not depend on ``n``; the permutation property of
``SeatEncoder`` holds for the tokens, not for a game's colours.

The network (``SeatEncoder``): a shared ``Linear`` per token kind (all seat tokens one, the
global token another), ``layers`` pre-norm ``TransformerEncoderLayer`` blocks of attention across
the tokens, padded to at most the largest table with a key padding mask over the seats absent
at this ``n``, then the pooled row ``[global token, the observer's token, mean of the present
seat tokens]``. No weight depends on ``n``: a network built for a game plays all of its table
sizes, and its output for a table of ``n`` is the same whether the tokens are padded to ``n``
seats or to the largest table (tests/training/test_seat_encoder.py). A batch holds one table
size, so ``forward`` pads nothing: ``1 + n`` tokens.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
import torch
from torch import nn

from envs.core.spec import Layout

# Features of a seat token's place at the table, appended to its rows: the observer, the next
# seat clockwise, the previous one, and the fraction of the way round (j / n, and as an angle).
POSITION = ("self", "next", "previous", "fraction", "sin", "cos")


class SeatLayoutError(ValueError):
    """A piece whose axes are not the same length at every table size, nor ``n + c`` long."""


@dataclass(frozen=True)
class PieceAxes:
    """How one piece's axes behave with the table size: ``extra[k]`` is ``None`` for an axis of
    the same length at every size, else the ``c`` of a seat axis ``n + c`` long."""

    name: str
    extra: tuple[int | None, ...]

    @property
    def seat_axes(self) -> tuple[int, ...]:
        return tuple(k for k, c in enumerate(self.extra) if c is not None)


def classify(layouts: dict[int, Layout], what: str = "observation") -> list[PieceAxes]:
    """Each piece's axes, from its shapes at every table size in ``layouts`` (at least two).

    Raises ``SeatLayoutError`` naming the piece for one whose names or rank differ between
    sizes, an axis that is neither fixed nor ``n + c`` (``c >= 0``), or a piece with more than
    two seat axes."""
    sizes = sorted(layouts)
    if len(sizes) < 2:
        raise SeatLayoutError(f"{what}: seat axes are found by comparing sizes; got {sizes}")
    names = [p.name for p in layouts[sizes[0]].pieces]
    for n in sizes[1:]:
        other = [p.name for p in layouts[n].pieces]
        if other != names:
            raise SeatLayoutError(f"{what}: the pieces at {n} players are not those at "
                                  f"{sizes[0]} (differ: {sorted(set(other) ^ set(names))})")
    result = []
    for i, name in enumerate(names):
        shapes = {n: layouts[n].pieces[i].shape for n in sizes}
        ranks = {len(s) for s in shapes.values()}
        if len(ranks) != 1:
            raise SeatLayoutError(f"{what}: piece {name!r} changes rank with the table: {shapes}")
        extra = []
        for k in range(ranks.pop()):
            lengths = [shapes[n][k] for n in sizes]
            offsets = {length - n for length, n in zip(lengths, sizes)}
            if len(set(lengths)) == 1:
                extra.append(None)
            elif len(offsets) == 1 and min(offsets) >= 0:
                extra.append(offsets.pop())
            else:
                raise SeatLayoutError(
                    f"{what}: piece {name!r} axis {k} is {dict(zip(sizes, lengths))} long at "
                    f"these table sizes: neither fixed nor n + c, so it cannot be split into "
                    f"seat tokens")
        axes = PieceAxes(name, tuple(extra))
        if len(axes.seat_axes) > 2:
            raise SeatLayoutError(f"{what}: piece {name!r} has {len(axes.seat_axes)} seat axes "
                                  f"{shapes}; the encoder splits one and pads one")
        result.append(axes)
    return result


class SeatPlan:
    """Where each float of the flat vector goes among the tokens, at every table size.

    ``seat_index[n] [max, F]`` and ``global_index[n] [G]`` hold, per token feature, the column
    of the flat vector it reads, or ``size(n)`` for a padding zero (a column appended to the
    vector). ``F`` and ``G`` are the same at every size. Every column lands in exactly one
    place (``tests/training/test_seat_encoder.py``).
    """

    def __init__(self, layout_of: Callable[[int], Layout], sizes: range | list[int],
                 what: str = "observation"):
        sizes = sorted(sizes)
        layouts = {n: layout_of(n) for n in sizes}
        self.what = what
        self.sizes = tuple(sizes)
        self.max_seats = sizes[-1]
        self.axes = classify(layouts, what)
        self.size_of = {n: layouts[n].size for n in sizes}
        self.players_of: dict[int, int] = {}
        for n, size in self.size_of.items():
            if size in self.players_of:
                raise SeatLayoutError(f"{what}: {self.players_of[size]} and {n} players give "
                                      f"the same size {size}; a vector's size must tell its table")
            self.players_of[size] = n
        self.seat_index: dict[int, np.ndarray] = {}
        self.global_index: dict[int, np.ndarray] = {}
        for n in sizes:
            self.seat_index[n], self.global_index[n] = self._index(layouts[n], n)
        widths = {(self.seat_index[n].shape[1], self.global_index[n].shape[0]) for n in sizes}
        if len(widths) != 1:  # cannot happen for a classified layout: a bug here, said so
            raise AssertionError(f"{what}: token widths differ between sizes: {widths}")
        self.seat_width, self.global_width = widths.pop()

    def _index(self, layout: Layout, n: int) -> tuple[np.ndarray, np.ndarray]:
        pad = layout.size
        seat_parts, global_parts = [], []
        for piece, axes, start in zip(layout.pieces, self.axes, layout.offsets):
            columns = np.arange(start, start + piece.size).reshape(piece.shape)
            if not axes.seat_axes:
                global_parts.append(columns.reshape(-1))
                continue
            token_axis, *inner = axes.seat_axes
            for k in inner:  # pad to the largest table: seats at 0 .. n-1, extras after max
                c = axes.extra[k]
                shape = list(columns.shape)
                shape[k] = self.max_seats + c
                padded = np.full(shape, pad, np.int64)
                to, of = [slice(None)] * columns.ndim, [slice(None)] * columns.ndim
                to[k], of[k] = slice(0, n), slice(0, n)
                padded[tuple(to)] = columns[tuple(of)]
                to[k], of[k] = slice(self.max_seats, self.max_seats + c), slice(n, n + c)
                padded[tuple(to)] = columns[tuple(of)]
                columns = padded
            columns = np.moveaxis(columns, token_axis, 0)
            seat_parts.append(columns[:n].reshape(n, -1))
            global_parts.append(columns[n:].reshape(-1))  # the c extras
        seats = np.concatenate(seat_parts, 1) if seat_parts else np.zeros((n, 0), np.int64)
        absent = np.full((self.max_seats - n, seats.shape[1]), pad, np.int64)
        glob = np.concatenate(global_parts) if global_parts else np.zeros(0, np.int64)
        return np.concatenate([seats, absent]), glob

    def table_of(self, size: int) -> int:
        """The table size whose vectors are ``size`` floats long."""
        if size not in self.players_of:
            raise ValueError(
                f"a {self.what} of {size} floats is none of this game's table sizes "
                f"({', '.join(f'{n} players: {s}' for n, s in self.size_of.items())})")
        return self.players_of[size]


def position_features(n: int, max_seats: int) -> np.ndarray:
    """``[max, len(POSITION)]``: each relative seat's place at a table of ``n`` (zero rows for
    the seats absent at ``n``)."""
    out = np.zeros((max_seats, len(POSITION)), np.float32)
    j = np.arange(n)
    out[:n, 0] = j == 0
    out[:n, 1] = j == 1 % n
    out[:n, 2] = j == (n - 1)
    out[:n, 3] = j / n
    out[:n, 4] = np.sin(2 * math.pi * j / n)
    out[:n, 5] = np.cos(2 * math.pi * j / n)
    return out


class SeatEncoder(nn.Module):
    """Flat vector at any supported table size -> ``[B, 3 * width]`` pooled features (and the
    seat tokens' outputs): see the module's docstring. ``width`` must divide by ``heads``."""

    def __init__(self, plan: SeatPlan, width: int, heads: int = 4, layers: int = 1):
        super().__init__()
        if width % heads:
            raise ValueError(f"seat encoder width {width} must divide by its {heads} heads")
        self.plan = plan
        self.width = width
        self.seat_embed = nn.Linear(plan.seat_width + len(POSITION), width)
        self.global_embed = nn.Linear(plan.global_width + 1, width)
        self.blocks = nn.ModuleList(
            nn.TransformerEncoderLayer(width, heads, 2 * width, dropout=0.0, batch_first=True,
                                       norm_first=True)
            for _ in range(layers))
        self.norm = nn.LayerNorm(width)
        for n in plan.sizes:  # per size: not saved (rebuilt from the layouts), moved by .to()
            self.register_buffer(f"seat_index_{n}", torch.from_numpy(plan.seat_index[n]),
                                 persistent=False)
            self.register_buffer(f"global_index_{n}", torch.from_numpy(plan.global_index[n]),
                                 persistent=False)
            self.register_buffer(f"position_{n}",
                                 torch.from_numpy(position_features(n, plan.max_seats)),
                                 persistent=False)

    @property
    def pooled_width(self) -> int:
        return 3 * self.width

    def tokens(self, x: torch.Tensor, pad_to: int | None = None):
        """``x [B, D]`` at one table size -> ``(n, seat [B, S, F + len(POSITION)],
        global [B, G + 1], absent [B, S] bool)``, ``S = pad_to`` (``n`` to the largest
        table; default the largest)."""
        if x.dim() != 2:
            raise ValueError(f"the seat encoder reads [B, D] rows, got {tuple(x.shape)}")
        n = self.plan.table_of(x.shape[1])
        S = self.plan.max_seats if pad_to is None else pad_to
        if not n <= S <= self.plan.max_seats:
            raise ValueError(f"pad_to must be in [{n}, {self.plan.max_seats}], got {pad_to}")
        padded = torch.nn.functional.pad(x, (0, 1))  # the zero column padding reads
        seat = padded[:, getattr(self, f"seat_index_{n}")[:S]]  # [B, S, F]
        position = getattr(self, f"position_{n}")[:S].expand(x.shape[0], -1, -1)
        seat = torch.cat([seat, position], -1)
        glob = padded[:, getattr(self, f"global_index_{n}")]  # [B, G]
        glob = torch.cat([glob, glob.new_full((x.shape[0], 1), n / self.plan.max_seats)], -1)
        absent = (torch.arange(S, device=x.device) >= n).expand(x.shape[0], -1)
        return n, seat, glob, absent

    def attend(self, seat: torch.Tensor, glob: torch.Tensor, absent: torch.Tensor):
        """Tokens -> ``(pooled [B, 3 * width], seat outputs [B, S, width])``: embedding,
        attention across the global and seat tokens (absent seats masked as keys and left out
        of the mean), pooling."""
        tokens = torch.cat([self.global_embed(glob).unsqueeze(1), self.seat_embed(seat)], 1)
        mask = torch.cat([absent.new_zeros((absent.shape[0], 1)), absent], 1)
        if not bool(absent.any()):  # every seat present: the same sums without the mask
            mask = None
        for block in self.blocks:
            tokens = block(tokens, src_key_padding_mask=mask)
        tokens = self.norm(tokens)
        seats = tokens[:, 1:]
        present = (~absent).unsqueeze(-1).to(seats.dtype)
        mean = (seats * present).sum(1) / present.sum(1)
        return torch.cat([tokens[:, 0], seats[:, 0], mean], -1), seats

    def forward(self, x: torch.Tensor, pad_to: int | None = None):
        """``x [B, D]`` -> ``(pooled [B, 3 * width], seat outputs [B, n, width])``: the seat
        outputs of the ``n`` seats present, in relative seating. A batch holds one table size,
        so its tokens are not padded unless ``pad_to`` says so: the answer is the same
        (``tests/training/test_seat_encoder.py``), and attention over ``1 + n`` tokens costs
        less than over ``1 + max``."""
        n, seat, glob, absent = self.tokens(x, pad_to or self.plan.table_of(x.shape[1]))
        pooled, seats = self.attend(seat, glob, absent)
        return pooled, seats[:, :n]


_PLANS: dict[tuple, tuple[SeatPlan, SeatPlan]] = {}


def seat_plans(game: str, params: dict) -> tuple[SeatPlan, SeatPlan]:
    """The observation's and the god-view's plans for ``game`` with ``params`` (every parameter
    but ``num_players``), over all of its table sizes; built once per process."""
    import envs

    if game not in envs.registry:
        raise ValueError(f"model config 'seat_game' must name a game ({sorted(envs.registry)}), "
                         f"got {game!r}")
    if not isinstance(params, dict) or "num_players" in params:
        raise ValueError(f"model config 'seat_params' must be the game's parameters without "
                         f"num_players (the network plays every table size), got {params!r}")
    spec = envs.registry[game]
    key = (game, tuple(sorted(spec.resolve(**params).items())))
    if key not in _PLANS:
        sizes = range(spec.min_players, spec.max_players + 1)

        def at(layout_of):
            return lambda n: layout_of(spec.resolve(**params, num_players=n))

        _PLANS[key] = (SeatPlan(at(spec.observation_layout), sizes, f"{game} observation"),
                       SeatPlan(at(spec.state_layout), sizes, f"{game} state"))
    return _PLANS[key]
