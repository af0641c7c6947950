"""A training run's checkpoints: every team's policy plus the trainer's own state.

``checkpoints/step_N/{team}.pt`` (``agents.checkpoint`` files a ``Policy`` loads from) and
``trainer.pt`` (counters and the league, a mixed-size run's at every size, for ``--resume``),
in a directory that appears all at once: assembled under a temporary name, fsynced and
renamed, so ``step_N/`` is complete or absent.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import asdict
from pathlib import Path

import torch

from agents.checkpoint import (
    CheckpointError, atomic_save, check_compatible, fresh_directory, game_metadata,
    load_checkpoint, save_policy,
)

TRAINER_FORMAT = "hiddendeck-trainer/2"


def checkpoint_metadata(env, args, group: str, model, steps: int, group_steps: int) -> dict:
    meta = game_metadata(args.game, {"num_players": args.num_players, **args.params})
    meta.update(
        team=group,
        teams=list(env.spec.teams),
        steps=steps,
        team_steps=group_steps,
        table_sizes=list(args.sizes),  # the sizes it met in training
        seed=args.seed,
        model=model.config,
        state_fingerprint=env.state_layout.fingerprint() if args.centralised_critic else None,
        args={k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(args).items()},
    )
    return meta


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def save_run_checkpoint(out: Path, run, args) -> Path:
    """Every group's policy file and the trainer's state, as one directory (``training.ppo.Run``)."""
    counters = run.counters
    final = out / "checkpoints" / f"step_{counters['global_step']:012d}"
    tmp = final.with_name(f".{final.name}.tmp")
    stale = final.with_name(f".{final.name}.stale")
    if stale.exists():  # from a save a crash interrupted while it replaced the same step
        shutil.rmtree(stale)
    fresh_directory(tmp)  # a killed save may have left partial files there
    for g in range(len(run.groups)):
        meta = checkpoint_metadata(run.env, args, run.groups[g], run.models[g],
                                   counters["global_step"], counters["group_steps"][g])
        save_policy(tmp / f"{run.groups[g]}.pt", meta, run.models[g].state_dict(),
                    optimizer=run.optimizers[g].state_dict())
    trainer = {"format": TRAINER_FORMAT, "counters": counters, "pool": run.pool.state_dict()}
    if len(run.tables) > 1:  # a mixed-size run: every other size's league too
        trainer["table_sizes"] = list(args.sizes)
        trainer["pools"] = {t.env.num_players: t.pool.state_dict() for t in run.tables[1:]}
    atomic_save(trainer, tmp / "trainer.pt")
    if final.exists():  # the same step saved twice (resume with no progress): replace it
        final.rename(stale)
        tmp.rename(final)
        shutil.rmtree(stale)
    else:
        tmp.rename(final)
    _fsync_dir(final.parent)
    return final


def latest_checkpoint(path: Path) -> Path:
    """``path`` itself if it is a checkpoint directory, else the newest ``checkpoints/step_*``."""
    if (path / "trainer.pt").is_file():
        return path
    steps = sorted((path / "checkpoints").glob("step_*"))
    if not steps:
        raise CheckpointError(f"{path}: neither a checkpoint directory nor a run with checkpoints")
    return steps[-1]


def load_run_checkpoint(path: Path, run, args) -> tuple[dict, dict]:
    """Restore weights, optimisers and league into ``run`` (``training.ppo.Run``);
    refuse a checkpoint from another game or setup. Returns the counters, and the options the
    resumed run recorded (what it imitated and trained against stays part of this run's record).

    The optimiser's saved state includes its learning rate; this run's ``learning_rate`` is
    applied over it (``--resume --lr X`` means X from here on)."""
    path = latest_checkpoint(path)
    params = {"num_players": args.num_players, **args.params}
    env, models, optimizers = run.env, run.models, run.optimizers
    for g in range(len(run.groups)):
        file = path / f"{run.groups[g]}.pt"
        ckpt = load_checkpoint(file)
        meta = ckpt["metadata"]
        check_compatible(meta, args.game, params, file, earlier=False)
        if meta["model"] != models[g].config:
            raise CheckpointError(
                f"{file}: model {meta['model']} differs from this run's {models[g].config} "
                f"(hidden sizes, centralised critic or belief head changed: a run from before "
                f"the belief head resumes with --belief-coef 0)"
            )
        if args.centralised_critic and meta["state_fingerprint"] != env.state_layout.fingerprint():
            raise CheckpointError(f"{file}: the god-view state layout changed; retrain the critic")
        models[g].load_state_dict(ckpt["model"])
        if "optimizer" in ckpt:
            optimizers[g].load_state_dict(ckpt["optimizer"])
            for param_group in optimizers[g].param_groups:
                param_group["lr"] = args.learning_rate
                param_group["initial_lr"] = args.learning_rate
    try:
        trainer = torch.load(path / "trainer.pt", map_location="cpu", weights_only=True)
    except Exception as e:
        raise CheckpointError(f"{path / 'trainer.pt'}: unreadable trainer state: {e}") from e
    if not isinstance(trainer, dict) or trainer.get("format") != TRAINER_FORMAT:
        raise CheckpointError(f"{path / 'trainer.pt'}: not a {TRAINER_FORMAT} file "
                              f"(written by another version of the trainer?)")
    if trainer.get("exploiter_start"):  # league exploiters were removed from the trainer
        raise CheckpointError(f"{path / 'trainer.pt'}: trained with league exploiters "
                              f"{sorted(trainer['exploiter_start'])}, which this trainer no "
                              f"longer has; its team policies still load and play")
    trained_at = trainer.get("table_sizes", [meta["params"]["num_players"]])
    if list(trained_at) != list(args.sizes):
        raise CheckpointError(f"{path}: trained at table sizes {list(trained_at)}, not "
                              f"{list(args.sizes)}; a resume continues the sizes it was "
                              f"trained at")
    run.pool.load_state_dict(trainer["pool"])
    for table in run.tables[1:]:
        table.pool.load_state_dict(trainer["pools"][table.env.num_players])
    return trainer["counters"], meta.get("args") or {}


def seen_in_training(args: dict) -> set[str]:
    """Every scripted player the run imitated, trained against (league, fixed teams) or used
    as a teacher, before a ``--resume`` too: a row against one of them is not a held-out
    result. ``args``: a checkpoint's record of its run's options. Each is named as a
    population names its members (``_label``), so that ``benchmark(exclude=...)`` finds it."""
    seen = set(args.get("scripted_opponents") or ()) | set(args.get("seen_before") or ())
    seen |= set(args.get("fixed_teams", {}).values())
    if args.get("imitate"):
        seen |= {args["imitate"], *(args.get("imitate_also") or ())}
    return {_label(str(s)) for s in seen}


def _label(text: str) -> str:
    """How a population names an opponent: ``LABEL@SOURCE`` by its label (``saboteur`` for
    ``saboteur@py:agents.menace_drain:MenaceSaboteur``), a checkpoint by its file name, any
    other source as written (a member is also matched by its source)."""
    label, sep, _ = text.partition("@")
    if sep and label:
        return label
    return Path(text).name if text.endswith(".pt") else text
