"""The results database describes itself: team names per context, who stored each pairing
(UTC time, hiddendeck version, commit), a summary view, CSV export; an edited scripted bot is
never rated together with its old games."""

import csv
import json
import sqlite3
import subprocess
import sys

import pytest

import envs
from evaluation import entrants
from evaluation.entrants import Entrant
from evaluation.tournament import Results, export_csv, run_tournament, summary_rows

SMALL = dict(batch_games=16, slots=8, workers=1)


def test_a_tournament_records_its_teams_its_run_and_every_pairing_it_stored(tmp_path):
    db = tmp_path / "r.sqlite"
    run_tournament("amongus", ["random", "chain"], 20, db=db, seed=3, **SMALL)
    con = sqlite3.connect(db)
    assert json.loads(con.execute("SELECT teams FROM context_teams").fetchone()[0]) == [
        "crew", "impostor"]
    (started, version, commit, seed, games, entrants), = con.execute(
        "SELECT started_utc, hiddendeck_version, git_commit, seed, games, entrants FROM runs")
    assert started.endswith("+00:00") and version and seed == 3 and games == 20
    assert commit is None or len(commit.split("+")[0]) == 40
    identities = json.loads(entrants)
    assert identities["chain"].startswith("name:chain@sha256:")
    stored = con.execute("SELECT pairing, games FROM run_pairings ORDER BY pairing").fetchall()
    sides = con.execute("SELECT sides FROM pairings ORDER BY id").fetchall()
    assert [n for _, n in stored] == [20] * len(sides)  # chain plays the impostor only


def test_the_summary_view_and_its_csv_agree_with_the_games(tmp_path):
    db = tmp_path / "r.sqlite"
    run_tournament("amongus", ["random", "heuristic"], 20, db=db, **SMALL)
    run_tournament("amongus", ["random", "heuristic"], 36, db=db, **SMALL)  # a second run
    rows = summary_rows(db)
    assert len(rows) == 4 and all(r[6] == 36 for r in rows)
    assert all(r[10].count(";") == 1 for r in rows)  # both runs stored games of each pairing
    out = tmp_path / "out" / "summary.csv"
    assert export_csv(db, out) == 4
    read = list(csv.DictReader(out.open()))
    assert [int(r["games"]) for r in read] == [36] * 4
    wins = sqlite3.connect(db).execute(
        "SELECT sum(winner = 0) FROM games GROUP BY pairing ORDER BY pairing").fetchall()
    assert [int(r["first_side_wins"]) for r in read] == [w for w, in wins]


def test_an_edited_scripted_bot_is_not_rated_with_its_old_games(tmp_path):
    db = tmp_path / "r.sqlite"
    run_tournament("amongus", ["random", "heuristic"], 16, db=db, **SMALL)
    con = sqlite3.connect(db)
    with con:  # as if the heuristic's source file had been different when these were played
        con.execute("UPDATE entrants SET identity = 'name:heuristic@sha256:0000' "
                    "WHERE label = 'heuristic'")
    before = con.execute("SELECT count(*) FROM games").fetchone()
    with pytest.raises(ValueError, match="heuristic: the scripted bot's code changed"):
        run_tournament("amongus", ["random", "heuristic"], 32, db=db, **SMALL)
    assert con.execute("SELECT count(*) FROM games").fetchone() == before


def test_an_edited_llm_player_is_named_as_edited_though_its_source_holds_an_at(tmp_path):
    """``name:llm:MODEL@URL@DIGEST``: the digest follows the last '@', not the first."""
    db = tmp_path / "r.sqlite"
    run_tournament("amongus", ["random", "heuristic"], 16, db=db, **SMALL)
    source = "llm:m@http://127.0.0.1:9/v1"
    spec = envs.registry["amongus"]
    results = Results(db, spec, spec.resolve())
    results.register([Entrant("model", source, ("crew", "impostor"), f"name:{source}@sha256:0")])
    with pytest.raises(ValueError, match="model: the scripted bot's code changed"):
        results.register([Entrant("model", source, ("crew", "impostor"),
                                  f"name:{source}@sha256:1")])
    results.close()


def test_greedy_and_sampled_play_of_one_checkpoint_are_never_stored_under_one_label(
        tmp_path, checkpoint):
    spec = envs.registry["amongus"]
    sampled = entrants.resolve(f"mine@{checkpoint()}", spec, {})
    greedy = entrants.played_greedy(sampled)
    assert greedy.identity == sampled.identity + entrants.GREEDY and greedy.greedy
    assert entrants.played_greedy(greedy) == greedy
    greedy.build(spec, spec.resolve(), 0)  # the file's digest still checks out
    results = Results(tmp_path / "r.sqlite", spec, spec.resolve())
    results.register([sampled])
    with pytest.raises(ValueError, match="'mine' holds sampled games of .*greedy play is another"):
        results.register([greedy])
    results.close()


def test_a_text_players_identity_covers_its_prompt_and_parser(monkeypatch):
    """Editing the protocol changes what the player sees and says, so it changes its identity."""
    from agents.text.player import TextPolicy

    hashed = []
    monkeypatch.setattr(entrants, "file_digest", lambda path: hashed.append(path) or "sha256:x")
    entrants.code_digest(TextPolicy.__new__(TextPolicy))
    assert {p.rsplit("/", 1)[-1] for p in hashed} == {"player.py", "protocol.py"}


@pytest.mark.parametrize("content", [b"", b"not a database at all", b"SQLite format 3\x00"])
def test_results_refuses_what_is_not_a_results_database_in_one_line(tmp_path, content):
    path = tmp_path / "r.sqlite"
    path.write_bytes(content)
    done = subprocess.run([sys.executable, "-m", "evaluation.cli", "results", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stdout
    assert done.stderr.startswith("hiddendeck: ") and done.stderr.count("\n") == 1, done.stderr
    assert path.read_bytes() == content


def test_labels_read_from_a_database_are_shown_escaped(tmp_path):
    db = tmp_path / "r.sqlite"
    run_tournament("amongus", ["random", "heuristic"], 16, db=db, **SMALL)
    con = sqlite3.connect(db)
    with con:  # a hostile or damaged database: a label with a terminal escape
        for (pid, sides), in [(r,) for r in con.execute("SELECT id, sides FROM pairings")]:
            con.execute("UPDATE pairings SET sides = ? WHERE id = ?",
                        (sides.replace("random", "bad\\u001b[31m"), pid))
    done = subprocess.run([sys.executable, "-m", "evaluation.cli", "results", str(db)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "bad\\x1b[31m" in done.stdout
    from evaluation.tournament import open_table

    table, = open_table(db)
    assert "\x1b" not in table.format() + table.markdown()
    with pytest.raises(ValueError, match="printable"):
        run_tournament("amongus", ["random", "bad\x1b[31m@heuristic"], 16, db=db, **SMALL)


def test_a_second_tournament_on_a_database_in_use_is_refused_before_playing(tmp_path):
    from evaluation.tournament import writer_lock

    db = tmp_path / "r.sqlite"
    with writer_lock(db, wait=False):  # as if another tournament held it
        with pytest.raises(ValueError, match="another tournament is writing it"):
            run_tournament("amongus", ["random", "heuristic"], 16, db=db, **SMALL)
    assert not db.exists() or sqlite3.connect(db).execute(
        "SELECT count(*) FROM sqlite_master WHERE name = 'games'").fetchone() == (0,)
    table = run_tournament("amongus", ["random", "heuristic"], 16, db=db, wait=True, **SMALL)
    assert sum(p["games"] for p in table.pairings) == 4 * 16


def test_games_already_stored_by_another_writer_are_kept_not_a_traceback(tmp_path):
    """A writer that ignored the lock (an older hiddendeck) stored the same batches: they are
    the same games, and the later store leaves them as they are."""
    from evaluation.tournament import Results

    db = tmp_path / "r.sqlite"
    run_tournament("amongus", ["random", "heuristic"], 16, db=db, **SMALL)
    spec = __import__("envs").registry["amongus"]
    results = Results(db, spec, spec.resolve())
    pairing, = results.db.execute("SELECT id FROM pairings LIMIT 1").fetchone()
    results.db.execute("DELETE FROM run_pairings")
    results.db.commit()
    before = results.db.execute("SELECT count(*) FROM games").fetchone()
    rows = results.db.execute("SELECT * FROM games WHERE pairing = ?", (pairing,)).fetchall()
    with results.db:
        added = results.db.executemany("INSERT OR IGNORE INTO games VALUES "
                                       "(?, ?, ?, ?, ?, ?, ?, ?)", rows).rowcount
    assert added == 0 and results.db.execute("SELECT count(*) FROM games").fetchone() == before
    results.close()


@pytest.mark.parametrize("content,message", [
    (b"x", "not a SQLite database"),
    (b"SQLite format 3\x00" + b"\x00" * 200, "r.sqlite"),
])
def test_a_tournament_refuses_a_file_that_is_not_a_results_database_in_one_line(
        tmp_path, content, message):
    db = tmp_path / "r.sqlite"
    db.write_bytes(content)
    with pytest.raises(ValueError, match=message):
        run_tournament("amongus", ["random", "heuristic"], 16, db=db, **SMALL)
    assert db.read_bytes() == content


def test_a_bad_seed_is_refused_before_the_database_is_touched(tmp_path):
    db = tmp_path / "r.sqlite"
    with pytest.raises(ValueError, match="seed must be"):
        run_tournament("amongus", ["random", "heuristic"], 16, db=db, seed=-1, **SMALL)
    assert not db.exists()


def _foreign(path):
    """Another application's SQLite database: one table of its own."""
    con = sqlite3.connect(path)
    with con:
        con.execute("CREATE TABLE t (x)")
        con.execute("INSERT INTO t VALUES (1)")
    con.close()


def _damaged(path):
    """A results database whose contexts index is overwritten: ``integrity_check`` fails,
    though the file still opens and its tables are hiddendeck's."""
    from evaluation.tournament import SCHEMA

    con = sqlite3.connect(path)
    con.executescript(SCHEMA)
    with con:
        con.executemany("INSERT INTO contexts (game, version, params, observation_fingerprint, "
                        "batch_games, slots) VALUES (?, 1, '{}', 'f', 16, 8)",
                        [(f"game{i}",) for i in range(50)])
    page, = con.execute("SELECT rootpage FROM sqlite_master WHERE type = 'index' AND "
                        "tbl_name = 'contexts'").fetchone()
    size, = con.execute("PRAGMA page_size").fetchone()
    con.close()
    data = bytearray(path.read_bytes())
    data[(page - 1) * size + 100:(page - 1) * size + 400] = b"\x07" * 300
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("make,message", [
    (_foreign, r"not a hiddendeck results database \(it holds \['t'\]\)"),
    (_damaged, r"a damaged SQLite database \(integrity_check: On tree page"),
])
def test_a_benchmark_refuses_to_store_into_a_foreign_or_damaged_database(tmp_path, make,
                                                                          message):
    """Audit L9: ``benchmark --db`` added its table to another application's database and
    wrote into a damaged one; it opens the file as ``tournament`` does, before playing."""
    from evaluation.benchmark import benchmark

    db = tmp_path / "r.sqlite"
    make(db)
    content = db.read_bytes()
    with pytest.raises(ValueError, match=message):
        benchmark("amongus", "impostor", "random", games=8, workers=1, db=db)
    assert db.read_bytes() == content


def test_results_on_a_file_with_no_tournament_in_it_does_not_ask_for_one(tmp_path):
    """An empty or foreign file is no results database: the message used to say "run a
    tournament on it once", inviting a write into another application's file."""
    db = tmp_path / "r.sqlite"
    _foreign(db)
    with pytest.raises(ValueError, match=r"not a hiddendeck results database \(no tournament "
                                         r"tables\)"):
        summary_rows(db)
