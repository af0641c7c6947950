"""Non-finite networks, corrupt checkpoints and interrupted saves (audit M4, L1, L3, L9)."""

import os
import zipfile

import pytest
import torch

from agents.checkpoint import (
    CheckpointError, CheckpointWriteError, atomic_save, fresh_directory, load_checkpoint,
    save_policy,
)
from agents.neural import MaskedCategorical, load_policy

from .helpers import make_checkpoint, run_python


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_masked_categorical_refuses_non_finite_logits(bad):
    logits = torch.zeros((2, 5))
    logits[1, 3] = bad
    mask = torch.tensor([[True, False, True, False, False]] * 2)
    with pytest.raises(ValueError, match="non-finite logits: the policy diverged"):
        MaskedCategorical(logits, mask)


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_load_policy_refuses_non_finite_weights(tmp_path, bad):
    path = make_checkpoint(tmp_path / "good.pt")
    ckpt = load_checkpoint(path)
    first = next(iter(ckpt["model"]))
    ckpt["model"][first].view(-1)[0] = bad
    save_policy(tmp_path / "bad.pt", ckpt["metadata"], ckpt["model"])
    with pytest.raises(CheckpointError, match=f"weights '{first}' hold NaN or infinite"):
        load_policy(tmp_path / "bad.pt", game="amongus", team="crew")


def test_load_policy_refuses_a_flipped_byte_in_tensor_data(tmp_path):
    path = make_checkpoint(tmp_path / "crew.pt")
    with zipfile.ZipFile(path) as z:
        info = next(i for i in z.infolist() if "/data/" in i.filename and i.file_size > 64)
    data = bytearray(path.read_bytes())
    h = info.header_offset  # the local header's own name and extra lengths (torch pads these)
    start = h + 30 + int.from_bytes(data[h + 26 : h + 28], "little") + int.from_bytes(
        data[h + 28 : h + 30], "little"
    )
    data[start + 16] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="fails its CRC check"):
        load_policy(path, game="amongus", team="crew")


def test_checkpoint_whose_params_are_a_string_is_a_checkpoint_error(tmp_path):
    path = make_checkpoint(tmp_path / "crew.pt")
    ckpt = load_checkpoint(path)
    ckpt["metadata"]["params"] = "num_players=6"
    save_policy(path, ckpt["metadata"], ckpt["model"])
    with pytest.raises(CheckpointError, match="'params' is 'num_players=6', not dict"):
        load_policy(path, game="amongus")


def test_a_killed_save_leaves_no_stale_files_in_the_next_checkpoint(tmp_path):
    tmp = tmp_path / ".step_000000000064.tmp"
    tmp.mkdir()
    (tmp / ".crew.pt.abc123.tmp").write_bytes(b"partial")  # what a SIGKILL left behind
    fresh_directory(tmp)
    assert list(tmp.iterdir()) == []


def test_checkpoint_files_follow_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        path = atomic_save({"x": 1}, tmp_path / "a.pt")
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o644


def test_full_disk_while_saving_is_one_clear_error_and_leaves_nothing(tmp_path):
    code = (
        "import resource, signal, sys, torch\n"
        "from agents.checkpoint import CheckpointWriteError, atomic_save\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (20000, 20000))\n"
        "try:\n"
        f"    atomic_save({{'w': torch.zeros(100000)}}, {str(tmp_path / 'big.pt')!r})\n"
        "except CheckpointWriteError as e:\n"
        "    print('refused:', e); sys.exit(0)\n"
        "sys.exit(1)\n"
    )
    result = run_python(code)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "could not write the checkpoint (disk full" in result.stdout
    assert list(tmp_path.iterdir()) == []
    assert issubclass(CheckpointWriteError, OSError)


@pytest.mark.slow  # 1,000 inputs each in CI, 10,000 with HIDDENDECK_SLOW=1
def test_checkpoint_fuzz_ends_in_results_or_clear_errors():
    from .helpers import SLOW

    n = 10_000 if SLOW else 1_000
    result = run_python(["-m", "tests.reliability.fuzz", "checkpoints", str(n), "0"], 900)
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"checkpoints: {n} inputs" in result.stdout
