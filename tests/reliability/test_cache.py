"""A corrupt numba cache entry is discarded and compiled again, with one warning (audit L10)."""

from .helpers import run_python

SCRIPT = (
    "import warnings; warnings.simplefilter('always')\n"
    "import sys; sys.path.insert(0, {dir!r})\n"
    "import tiny; print(tiny.twice(21))\n"
)
MODULE = "from envs.core.jit import njit\n\n@njit\ndef twice(x):\n    return 2 * x\n"


def test_corrupt_numba_cache_entry_is_discarded_and_recompiled(tmp_path):
    (tmp_path / "tiny.py").write_text(MODULE)
    cache = tmp_path / "cache"
    env = {"NUMBA_CACHE_DIR": str(cache)}
    code = SCRIPT.format(dir=str(tmp_path))
    first = run_python(code, env=env)
    assert first.returncode == 0 and first.stdout.strip() == "42", first.stderr
    entries = sorted(cache.rglob("*.nbc")) + sorted(cache.rglob("*.nbi"))
    assert entries
    for kind, damage in (("nbc", b""), ("nbi", b"garbage")):
        for path in cache.rglob(f"*.{kind}"):
            path.write_bytes(damage)
        healed = run_python(code, env=env)
        assert healed.returncode == 0 and healed.stdout.strip() == "42", healed.stderr
        warnings = [ln for ln in healed.stderr.splitlines() if "corrupt numba cache" in ln]
        assert len(warnings) == 1, healed.stderr
        again = run_python(code, env=env)
        assert again.returncode == 0 and "corrupt" not in again.stderr
