"""The batch loops of one game, executed once per game by ``engine.Kernels``.

This file is not imported as a module. ``Kernels`` runs its source in a fresh namespace whose
globals ``reset_one``, ``step_one``, ``mask_one``, ``observe_one``, ``god_one`` and ``team_one``
are that game's scalar functions, and whose ``observe_row`` runs the game's observe compiled for
the batch's layout where the game has such copies (``engine._observe_row_source``).
Module-level functions (unlike closures, whose captured functions numba pickles into a key that
differs in every process) can be cached on disk, and each game's loops are told apart in the
cache by their record type, so every function here takes the records.
"""

# ruff: noqa: F821  (the game's functions are bound by engine.Kernels)

from envs.core.jit import borrowed, inline, njit, parallel_kernel, prange


@inline
def emit(s, obs_row, mask_row, offsets, layout):
    """The deciding seat's mask and view. A record whose rules handed the decision to no seat
    (one ``set_records`` took, whose fields contradict each other in a way its checks missed)
    shows nothing: its view's seat-relative writes would land outside their pieces, and its
    empty mask makes the next ``step`` refuse the game by name."""
    mask_row[:] = False
    obs_row[:] = 0.0
    seat = s["current_seat"]
    if 0 <= seat < s["num_players"]:
        mask_one(s, mask_row)
        observe_row(s, seat, obs_row, offsets, layout)

@inline
def new_game(s):
    """The common fields start afresh here, so a game's reset deals only its own."""
    s["terminated"] = False
    s["truncated"] = False
    s["winner"] = -1
    s["decisions"] = 0
    s["rewards"][:] = 0.0
    reset_one(s)

@inline
def reset_body(states, b, obs, mask, seats, offsets, layout):
    s = states[b]
    new_game(s)
    seats[b] = s["current_seat"]
    emit(s, obs[b], mask[b], offsets, layout)

@inline
def step_body(
    states, b, actions, obs, mask, seats, rewards, term, trunc, win, offsets, layout, auto
):
    s = states[b]
    s["rewards"][:] = 0.0
    step_one(s, actions[b])
    s["decisions"] += 1
    n = rewards.shape[1]
    for p in range(n):
        rewards[b, p] = s["rewards"][p]
    term[b] = s["terminated"]
    trunc[b] = s["truncated"]
    win[b] = s["winner"]
    if auto and (s["terminated"] or s["truncated"]):
        s["episode"] += 1
        new_game(s)
    seats[b] = s["current_seat"]
    emit(s, obs[b], mask[b], offsets, layout)

@njit
def reset_serial(states, obs, mask, seats, offsets, layout):
    states, obs, mask, seats, offsets = borrowed((states, obs, mask, seats, offsets))
    for b in range(states.shape[0]):
        reset_body(states, b, obs, mask, seats, offsets, layout)

@parallel_kernel
def reset_parallel(states, obs, mask, seats, offsets, layout):
    states, obs, mask, seats, offsets = borrowed((states, obs, mask, seats, offsets))
    for b in prange(states.shape[0]):
        reset_body(states, b, obs, mask, seats, offsets, layout)

@njit
def step_serial(
    states, actions, obs, mask, seats, rewards, term, trunc, win, offsets, layout, auto
):
    states, actions, obs, mask, seats, rewards, term, trunc, win, offsets = borrowed(
        (states, actions, obs, mask, seats, rewards, term, trunc, win, offsets)
    )
    for b in range(states.shape[0]):
        step_body(
            states, b, actions, obs, mask, seats, rewards, term, trunc, win, offsets, layout, auto
        )

@parallel_kernel
def step_parallel(
    states, actions, obs, mask, seats, rewards, term, trunc, win, offsets, layout, auto
):
    states, actions, obs, mask, seats, rewards, term, trunc, win, offsets = borrowed(
        (states, actions, obs, mask, seats, rewards, term, trunc, win, offsets)
    )
    for b in prange(states.shape[0]):
        step_body(
            states, b, actions, obs, mask, seats, rewards, term, trunc, win, offsets, layout, auto
        )

@njit
def emit_all(states, obs, mask, seats, offsets, layout):
    for b in range(states.shape[0]):
        seats[b] = states[b]["current_seat"]
        emit(states[b], obs[b], mask[b], offsets, layout)

@njit
def observe_seats(states, seats, out, offsets):
    for b in range(states.shape[0]):
        out[b, :] = 0.0
        observe_one(states[b], seats[b], out[b], offsets, states[b]["num_players"])

@njit
def god_views(states, out, offsets):
    for b in range(states.shape[0]):
        out[b, :] = 0.0
        seat = states[b]["current_seat"]
        if 0 <= seat < states[b]["num_players"]:  # as in emit: no deciding seat, nothing shown
            god_one(states[b], out[b], offsets)

@njit
def teams(states, out):
    for b in range(states.shape[0]):
        for p in range(out.shape[1]):
            out[b, p] = team_one(states[b], p)

