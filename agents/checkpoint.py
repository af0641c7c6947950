"""Policy checkpoints: weights plus the metadata that says which game they were trained for.

A checkpoint is one ``torch.save`` file holding ``{"metadata": dict, "model": state_dict, ...}``.
The metadata (game, version, parameters, observation layout fingerprint, team, steps, seed,
model config) is plain JSON-able data, so ``torch.load(weights_only=True)`` reads it without
unpickling arbitrary objects. Files are written to a temporary name and renamed into place, so a
crash mid-write leaves the old file or none, never half of one.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

import torch

FORMAT = "hiddendeck-policy/1"


class CheckpointError(ValueError):
    """A checkpoint that cannot be read, or that does not belong to the game it is loaded for."""


class CheckpointWriteError(OSError):
    """A checkpoint could not be written (a full disk, a bad path); nothing was left behind."""


def new_file_mode() -> int:
    """The mode a new file gets under this process's umask: files written through a temporary
    file (``mkstemp`` alone makes it 0600) are given it before they are renamed into place."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_save(obj, path: str | Path) -> Path:
    """``torch.save`` to a temporary file in the same directory, then rename over ``path``.

    The file gets the mode any new file would (``mkstemp`` alone makes it 0600). A failed
    write (torch reports a full disk as ``RuntimeError: [enforce fail ...] unexpected pos``)
    becomes a ``CheckpointWriteError`` naming the file."""
    path = Path(path)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        os.fchmod(fd, new_file_mode())
        with os.fdopen(fd, "wb") as f:
            torch.save(obj, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except (OSError, RuntimeError) as e:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise CheckpointWriteError(
            f"{path}: could not write the checkpoint (disk full or path not writable?): "
            f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        ) from e
    except BaseException:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise
    return path


def fresh_directory(path: str | Path) -> Path:
    """An empty directory at ``path``: what a save killed half-way left there is removed
    first, so its partial files never end up inside the next complete checkpoint."""
    path = Path(path)
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path


def save_policy(path: str | Path, metadata: dict, model_state: dict, **extra) -> Path:
    """Write one policy checkpoint; ``extra`` (e.g. the optimizer state) rides along for resume.
    Its tensors are written from the CPU, so a run trained on a GPU is read on any machine."""
    json.dumps(metadata)  # fail here, before writing, if the metadata is not plain data
    checkpoint = {"format": FORMAT, "metadata": metadata, "model": model_state, **extra}
    return atomic_save(_on_cpu(checkpoint), path)


def _on_cpu(value):
    """``value`` with every tensor in it on the CPU (a CPU tensor is returned as it is)."""
    if torch.is_tensor(value):
        return value.cpu()
    if isinstance(value, dict):
        return {k: _on_cpu(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_on_cpu(v) for v in value)
    return value


def load_checkpoint(path: str | Path) -> dict:
    """Read and sanity-check a checkpoint; any failure is a ``CheckpointError`` naming the file."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"{path}: no such checkpoint file")
    _verify_archive(path)
    try:
        checkpoint = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # torch raises several unrelated types for a damaged file
        raise CheckpointError(
            f"{path}: not a readable checkpoint (truncated or corrupt?): {type(e).__name__}: {e}"
        ) from e
    if not isinstance(checkpoint, dict) or checkpoint.get("format") != FORMAT:
        found = checkpoint.get("format") if isinstance(checkpoint, dict) else type(checkpoint)
        raise CheckpointError(f"{path}: not a {FORMAT} checkpoint (format {found!r})")
    for key in ("metadata", "model"):
        if not isinstance(checkpoint.get(key), dict):
            raise CheckpointError(f"{path}: checkpoint has no {key!r} section")
    missing = [k for k in METADATA_KEYS if k not in checkpoint["metadata"]]
    if missing:
        raise CheckpointError(f"{path}: checkpoint metadata lacks {missing}")
    for key, kind in METADATA_TYPES.items():
        value = checkpoint["metadata"][key]
        if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
            raise CheckpointError(
                f"{path}: checkpoint metadata {key!r} is {value!r}, not {kind.__name__}"
            )
    return checkpoint


def _verify_archive(path: Path) -> None:
    """``torch.save`` writes a zip archive whose members carry CRCs; ``torch.load`` does not
    check them, so a flipped byte inside the tensor data would load as a silently changed
    weight. Every member is read and checked here first."""
    try:
        with zipfile.ZipFile(path) as archive:
            bad = archive.testzip()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as e:
        raise CheckpointError(
            f"{path}: not a readable checkpoint (truncated or corrupt?): {type(e).__name__}: {e}"
        ) from e
    except Exception as e:  # zlib errors and the like from a damaged member
        raise CheckpointError(f"{path}: corrupt checkpoint archive: {type(e).__name__}: {e}") from e
    if bad is not None:
        raise CheckpointError(f"{path}: corrupt checkpoint: member {bad!r} fails its CRC check")


METADATA_KEYS = (
    "game", "version", "params", "observation_fingerprint", "team", "steps", "seed", "model",
)
METADATA_TYPES = {
    "game": str, "version": int, "params": dict, "observation_fingerprint": str, "team": str,
    "model": dict,
}


def game_metadata(game: str, params: dict) -> dict:
    """What a checkpoint must agree with to be used in ``game`` with these parameters."""
    from envs import registry

    spec = registry[game]
    resolved = spec.resolve(**params)
    return {
        "game": game,
        "version": spec.version,
        "params": resolved,
        "observation_fingerprint": spec.observation_layout(resolved).fingerprint(),
    }


def check_compatible(
    metadata: dict, game: str, params: dict, where: str | Path = "checkpoint",
    earlier: bool = True,
):
    """Raise ``CheckpointError`` naming the first field in which the checkpoint and game differ.

    Returns None, or for a policy of an earlier version the game lists as still playable
    (``GameSpec.earlier_observations``) the columns of today's observation it reads. With
    ``earlier=False`` (resuming a training run) only the current version is accepted.

    A seat-token network (model kind ``seats``) plays every table size: its checkpoint is
    checked at the table it was trained at (version, the other parameters, that table's
    observation layout), and ``num_players`` may differ, except when resuming
    (``earlier=False``), which continues the same table. Other networks read one table size
    and are refused at another, saying so."""
    if metadata["game"] != game:
        raise CheckpointError(f"{where}: trained for game {metadata['game']!r}, not {game!r}")
    expected = game_metadata(game, params)
    from envs import registry

    seats = metadata.get("model", {}).get("kind") == "seats"
    if seats and earlier and "num_players" in metadata["params"]:
        trained = metadata["params"]["num_players"]
        expected = game_metadata(game, {**params, "num_players": trained})
        earlier = False  # its encoder splits today's layouts alone

    spec = registry[game]
    if earlier and metadata["version"] in spec.earlier_observations:
        resolved = expected["params"]
        layout = spec.earlier_observations[metadata["version"]](resolved)
        # parameters added since change what today's observation holds, not the earlier pieces
        known = {k: v for k, v in resolved.items() if k in metadata["params"]}
        expected = dict(expected, version=metadata["version"], params=known,
                        observation_fingerprint=layout.fingerprint())
        columns = spec.observation_layout(resolved).columns_of(layout)
    else:
        columns = None
    if metadata["version"] != expected["version"]:
        raise CheckpointError(
            f"{where}: trained on {game} version {metadata['version']}, but the game is now "
            f"version {expected['version']} (rules or observations changed; retrain)"
        )
    if metadata["params"] != expected["params"]:
        mine, theirs = metadata["params"], expected["params"]
        shown = ", ".join(
            f"{k}: checkpoint {mine.get(k)!r} vs requested {theirs.get(k)!r}"
            for k in sorted(set(mine) | set(theirs))
            if mine.get(k) != theirs.get(k)
        )
        if {k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k)} == {"num_players"}:
            kind = metadata.get("model", {}).get("kind", "mlp")
            shown += (f"; a {kind!r} network reads one table size" if not seats else
                      "; resuming continues the table it was trained at")
        raise CheckpointError(f"{where}: game parameters differ ({shown})")
    if metadata["observation_fingerprint"] != expected["observation_fingerprint"]:
        raise CheckpointError(
            f"{where}: observation layout fingerprint {metadata['observation_fingerprint']} does "
            f"not match the game's {expected['observation_fingerprint']} (the observation changed)"
        )
    return columns
