"""hiddendeck report: one page from eval results, a results database and training logs."""

from torch.utils.tensorboard import SummaryWriter

import envs

from evaluation.beliefs import benchmark, write
from evaluation.cli import main
from evaluation.crossplay import cross_play
from evaluation.tournament import run_tournament


def test_one_page_holds_the_matrix_the_leaderboard_and_the_learning_curves(tmp_path, capsys):
    run = tmp_path / "run"
    writer = SummaryWriter(str(run / "tb"))
    for step in range(5):
        writer.add_scalar("charts/win_rate/crew", 0.1 * step, step * 100)
        writer.add_scalar("charts/game_length", 50 + step, step * 100)
    writer.close()
    cross_play("amongus", {"crew": ["random"], "impostor": ["heuristic", "random"]}, 20,
               workers=1, num_players=4).write(run / "eval")
    run_tournament("amongus", ["random", "heuristic"], 16, db=run / "results.sqlite", workers=1,
                   batch_games=8, num_players=4)
    write(benchmark("amongus", "heuristic", 20, probe_steps=50, num_players=4), run / "beliefs")
    assert main(["report", str(run)]) == 0
    page = run / "report.md"
    assert capsys.readouterr().out.strip() == str(page)
    text = page.read_text()
    for heading in ("## Self-play curves", "## Cross-play: amongus", "## Tournament: amongus",
                    "## Beliefs: amongus"):
        assert heading in text
    for image in ("learning_curves.png", "eval/matrix.png", f"ratings_results_amongus_v{envs.registry['amongus'].version}_4p.png",
                  "beliefs/calibration.png"):
        assert f"]({image})" in text
        assert (run / image).read_bytes()[:4] == b"\x89PNG"


def test_nothing_to_report_is_one_clear_error(tmp_path, capsys):
    assert main(["report", str(tmp_path)]) == 2
    assert "no eval results" in capsys.readouterr().err
    assert not (tmp_path / "report.md").exists()


def test_a_report_never_writes_to_the_database_it_reads(tmp_path):
    db = tmp_path / "r.sqlite"
    run_tournament("amongus", ["random", "heuristic"], 8, db=db, workers=1, batch_games=8,
                   num_players=4)
    db.chmod(0o444)
    before = db.read_bytes()
    assert main(["report", str(db), "--out", str(tmp_path / "page.md")]) == 0
    assert db.read_bytes() == before


def test_two_databases_in_one_folder_get_their_own_figures(tmp_path):
    for name in ("a", "b"):
        run_tournament("amongus", ["random", "heuristic"], 8, db=tmp_path / f"{name}.sqlite",
                       workers=1, batch_games=8, num_players=4)
    assert main(["report", str(tmp_path)]) == 0
    text = (tmp_path / "report.md").read_text()
    assert "ratings_a_amongus" in text and "ratings_b_amongus" in text


def test_a_training_run_shows_its_held_out_curves(tmp_path):
    (tmp_path / "curves.png").write_bytes(b"\x89PNG\r\n")
    assert main(["report", str(tmp_path)]) == 0
    text = (tmp_path / "report.md").read_text()
    assert "## Held-out learning curves" in text and "](curves.png)" in text
