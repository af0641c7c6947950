"""A fuzz of every file reader a user can point a command at: damaged or hostile replays,
results databases and cross-play matrices give a ``ValueError`` naming the file (one line at
the command line), never another exception; a decompression bomb is refused before it is
read whole."""

import gzip
import json
import random
import shutil
import sqlite3

import numpy as np
import pytest

from evaluation.crossplay import cross_play
from evaluation.metagame import load as load_matrix
from evaluation.replay import load, play_record
from evaluation.tournament import open_table, run_tournament, summary_rows

CASES = 150


@pytest.fixture(scope="module")
def originals(tmp_path_factory):
    where = tmp_path_factory.mktemp("originals")
    result = cross_play("amongus", {"crew": ["heuristic"], "impostor": ["heuristic", "random"]},
                        8, seed=1, workers=1)
    result.write(where / "eval")
    run_tournament("amongus", ["random", "heuristic"], 8, db=where / "r.sqlite", batch_games=8,
                   slots=8, workers=1)
    return where


def replay_all(path):
    for k in range(3):
        play_record(load(path, k))


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    data = bytearray(data)
    kind = rng.randrange(3)
    if kind == 0 and data:  # cut short
        return bytes(data[: rng.randrange(len(data))])
    for _ in range(rng.randint(1, 8)):  # flipped bytes
        if data:
            data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


HOSTILE = [None, -1, 2**70, 1.5, "x", [], {}, [[1]], True, [10**9], ["a"], [-5], {"a": [1]}]


def mutate_json(lines: list[str], rng: random.Random) -> list[str]:
    """One field of the header or of a game line replaced by a hostile value."""
    lines = list(lines)
    i = rng.randrange(min(len(lines), 4))
    obj = json.loads(lines[i])
    key = rng.choice(sorted(obj))
    obj[key] = rng.choice(HOSTILE)
    lines[i] = json.dumps(obj)
    return lines


def expect_value_error_or_success(action):
    try:
        action()
    except ValueError as e:
        assert str(e).strip() and "\n" not in str(e).strip(), repr(e)


def test_damaged_games_files_are_refused_by_name(originals, tmp_path):
    source = (originals / "eval" / "games.jsonl.gz").read_bytes()
    lines = gzip.decompress(source).decode().splitlines()
    rng = random.Random(0)
    for case in range(CASES):
        path = tmp_path / f"g{case}.jsonl.gz"
        if case % 2:
            path.write_bytes(mutate_bytes(source, rng))
        else:
            path.write_bytes(gzip.compress("\n".join(mutate_json(lines, rng)).encode()))
        expect_value_error_or_success(lambda: replay_all(path))


def test_a_decompression_bomb_is_refused_without_reading_it_whole(tmp_path):
    path = tmp_path / "bomb.jsonl.gz"
    with gzip.open(path, "wb") as f:
        f.write(b"{" + b" " * (64 << 20))  # 64 MB of one line, a few kB on disk
    with pytest.raises(ValueError, match="longer than"):
        load(path, 0)


def test_damaged_databases_are_refused_by_name(originals, tmp_path):
    source = (originals / "r.sqlite").read_bytes()
    rng = random.Random(1)
    for case in range(CASES // 3):
        path = tmp_path / f"r{case}.sqlite"
        path.write_bytes(mutate_bytes(source, rng))
        expect_value_error_or_success(lambda: replay_all(path))
        expect_value_error_or_success(lambda: open_table(path))
        expect_value_error_or_success(lambda: summary_rows(path))


@pytest.mark.parametrize("column,value", [
    ("actions", None), ("actions", b"\xff"), ("params", "[1, 2]"), ("params", "{}x"),
    ("rewards", "null"), ("deal", "3"),
])
def test_hostile_rows_in_a_database_are_refused_by_name(originals, tmp_path, column, value):
    path = tmp_path / "r.sqlite"
    shutil.copy(originals / "r.sqlite", path)
    con = sqlite3.connect(path)
    table = "contexts" if column == "params" else "games"
    with con:
        con.execute(f"UPDATE {table} SET {column} = ?", (value,))
    con.close()
    with pytest.raises(ValueError, match="r.sqlite"):
        replay_all(path)


def test_damaged_matrices_are_refused_by_name(originals, tmp_path):
    source = (originals / "eval" / "matrix.json").read_text()
    rng = random.Random(2)
    for case in range(CASES):
        path = tmp_path / f"m{case}.json"
        if case % 2:
            path.write_bytes(mutate_bytes(source.encode(), rng))
        else:
            data = json.loads(source)
            target = rng.choice([data, *data["cells"][:2]])
            target[rng.choice(sorted(target))] = rng.choice(HOSTILE)
            path.write_text(json.dumps(data))
        expect_value_error_or_success(lambda: load_matrix(path))
    assert np.isfinite(load_matrix(originals / "eval").value)


@pytest.mark.parametrize("command", ["replay", "report"])
def test_the_commands_say_one_line_about_a_damaged_file(originals, tmp_path, command):
    import subprocess
    import sys

    damaged = tmp_path / "eval"
    shutil.copytree(originals / "eval", damaged)
    data = json.loads((damaged / "matrix.json").read_text())
    del data["cells"][0]["wins"]
    (damaged / "matrix.json").write_text(json.dumps(data))
    (damaged / "games.jsonl.gz").write_bytes(gzip.compress(b'{"format": "hiddendeck-games/1"}\n'
                                                           b'{"actions": [1e99]}\n'))
    target = damaged / "games.jsonl.gz" if command == "replay" else damaged
    done = subprocess.run([sys.executable, "-m", "evaluation.cli", command, str(target)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("hiddendeck: ") and done.stderr.count("\n") == 1, done.stderr
