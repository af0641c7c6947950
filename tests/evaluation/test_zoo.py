"""The zoo: shipped policies by ``zoo:NAME``, fixed by their SHA-256, at their table size."""

import json
import re
import shutil

import numpy as np
import pytest
import torch

import envs
from agents import make_policy, zoo
from agents.checkpoint import CheckpointError
from agents.populations import population
from evaluation.entrants import resolve, roles


def test_every_zoo_policy_matches_its_index_and_plays_its_team():
    assert zoo.names(), "the zoo ships policies"
    spec = envs.registry["menace"]
    for name in zoo.names():
        entry = zoo.entry(name)
        assert entry["sha256"] == zoo.digest(zoo.path(f"zoo:{name}"))
        assert {"recipe", "seed", "steps", "trained_against", "score"} <= set(entry)
        spec = envs.registry[entry["game"]]
        entrant = resolve(f"zoo:{name}", spec, {"num_players": entry["players"]})
        assert entrant.identity == entry["sha256"]
        assert entrant.roles == ((entry["team"],) if entry["team"] != "shared" else roles(spec))
        policy = make_policy(f"zoo:{name}", spec, {"num_players": entry["players"]})
        vec = envs.make_vec(entry["game"], 4, seed=1, num_players=entry["players"])
        chosen = policy.act(vec.observe(vec.current_seat), vec.action_mask)
        assert vec.action_mask[range(4), chosen].all()


def test_a_policy_of_an_earlier_observation_reads_its_pieces_of_todays():
    """Menace version 5 only added pieces: the zoo's version-4 policies read the version-4
    pieces of a version-5 observation, found by name, and act on them exactly as before."""
    from agents.neural import load_policy
    from envs.menace.spec import observation_layout_v4
    from training.run_checkpoint import check_compatible

    name = zoo.names("menace", "crew")[0]
    assert zoo.entry(name)["version"] == 4 and envs.registry["menace"].version == 5
    vec = envs.make_vec("menace", 64, seed=2, num_players=5)
    policy = load_policy(zoo.path(f"zoo:{name}"), game="menace", greedy=True, num_players=5)
    earlier, today = observation_layout_v4(vec.params), vec.spec.observation_layout(vec.params)
    seen = today.split(vec.observation)
    v4 = np.concatenate([seen[p.name].reshape(64, -1) for p in earlier.pieces], 1)
    with torch.inference_mode():
        logits, _ = policy.model.actor_step(torch.from_numpy(v4))
    mask = torch.from_numpy(vec.action_mask)
    expected = logits.masked_fill(~mask, -torch.inf).argmax(1).numpy()
    assert (policy.act(vec.observation, vec.action_mask) == expected).all()
    # without the whole game's counts (a parameter version 4 never had) it reads the same
    window = envs.make_vec("menace", 64, seed=2, num_players=5, game_counts=0)
    same = load_policy(zoo.path(f"zoo:{name}"), game="menace", greedy=True, num_players=5,
                       game_counts=0)
    assert (same.act(window.observation, window.action_mask) == expected).all()
    metadata = {**zoo.entry(name), "params": vec.params,
                "observation_fingerprint": earlier.fingerprint()}
    with pytest.raises(CheckpointError, match="version 4"):  # a training run does not resume
        check_compatible(metadata, "menace", vec.params, "run", earlier=False)


def test_a_zoo_policy_is_refused_at_another_table_size_and_left_out_of_its_population():
    name = zoo.names("menace", "crew")[0]
    with pytest.raises(CheckpointError, match="num_players"):
        resolve(f"zoo:{name}", envs.registry["menace"], {"num_players": 7})
    assert f"zoo:{name}" in population("menace", "crew", "v2", players=5)
    assert f"zoo:{name}" not in population("menace", "crew", "v2", players=7)


def test_an_unknown_zoo_name_lists_the_zoo():
    with pytest.raises(ValueError, match="no zoo policy 'nothing'; the zoo has"):
        make_policy("zoo:nothing", envs.registry["menace"], {"num_players": 5})


def _zoo_copy(tmp_path, monkeypatch):
    for file in zoo.HERE.iterdir():
        if file.suffix in (".pt", ".json"):
            shutil.copy(file, tmp_path / file.name)
    monkeypatch.setattr(zoo, "HERE", tmp_path)
    monkeypatch.setattr(zoo, "INDEX", tmp_path / "index.json")


def test_a_changed_zoo_file_is_refused(tmp_path, monkeypatch):
    _zoo_copy(tmp_path, monkeypatch)
    name = zoo.names()[0]
    file = tmp_path / zoo.entry(name)["file"]
    data = bytearray(file.read_bytes())
    data[-100] ^= 1
    file.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="does not match the zoo's index"):
        zoo.path(f"zoo:{name}")


def test_add_keeps_the_weights_and_metadata_without_the_optimiser(tmp_path, monkeypatch):
    _zoo_copy(tmp_path, monkeypatch)
    source = zoo.path(f"zoo:{zoo.names()[0]}")
    checkpoint = torch.load(source, weights_only=True)
    checkpoint["optimizer"] = {"state": {0: torch.zeros(1000)}}
    full = tmp_path / "run" / "crew.pt"
    full.parent.mkdir()
    torch.save(checkpoint, full)
    record = zoo.add(full, "copy", trained_against="a test")
    stored = torch.load(tmp_path / "copy.pt", weights_only=True)
    assert "optimizer" not in stored and stored["metadata"]["team"] == record["team"]
    assert json.loads((tmp_path / "index.json").read_text())["copy"]["sha256"] == \
        zoo.digest(tmp_path / "copy.pt")
    with pytest.raises(ValueError, match="letters, digits"):
        zoo.add(full, "../escape")


def test_an_index_entry_naming_a_file_outside_the_zoo_is_refused(tmp_path, monkeypatch):
    """Even with that file's own digest (audit L6): the index names files of the zoo only."""
    zoo_dir = tmp_path / "zoo"
    zoo_dir.mkdir()
    _zoo_copy(zoo_dir, monkeypatch)
    name = zoo.names()[0]
    outside = tmp_path / "outside.pt"
    shutil.copy(zoo_dir / zoo.entry(name)["file"], outside)
    index = json.loads((zoo_dir / "index.json").read_text())
    index[name]["file"] = "../outside.pt"
    (zoo_dir / "index.json").write_text(json.dumps(index))
    with pytest.raises(ValueError, match=r"its file '\.\./outside\.pt' lies outside"):
        zoo.path(f"zoo:{name}")


@pytest.mark.parametrize("damage,message", [
    (lambda text: text[: len(text) // 2], "index.json: unreadable zoo index"),
    (lambda text: "[]", "index.json: not a zoo index"),
    (lambda text: json.dumps({name: {k: v for k, v in e.items() if k != "sha256"}
                              for name, e in json.loads(text).items()}),
     "index.json: zoo policy '.*' has no sha256"),
])
def test_a_damaged_index_is_refused_on_one_line_naming_it(tmp_path, monkeypatch, damage,
                                                          message):
    _zoo_copy(tmp_path, monkeypatch)
    index = tmp_path / "index.json"
    index.write_text(damage(index.read_text()))
    with pytest.raises(ValueError, match=message):
        zoo.names()


def test_show_prints_every_zoo_policys_model_card(capsys):
    """Each card says what the index and checkpoint know and then its written part, whose
    held-out figures are quoted from the results page it names."""
    for name in zoo.names():
        zoo.main(["show", f"zoo:{name}"])
        shown = capsys.readouterr().out
        record = zoo.entry(name)
        assert shown.startswith(f"zoo:{name}: {record['game']}")
        assert f"plays: {record['players']} players only" in shown
        assert f"met in training (left out of its held-out scores): {', '.join(zoo.met(name))}" \
            in shown
        assert f"# Model card: zoo:{name}" in shown and "docs/results/" in shown
        assert f"{record['score']['mean']:.3f}" in shown.split("# Model card")[1]


def test_the_listing_says_maniacal_places_worse_than_the_heuristic(capsys):
    """MANIACAL scores a mean place (lower is better): its policy's positive difference from
    the heuristic is a worse place, said as such, with its interval; never a bare gain."""
    zoo.main([])
    listed = capsys.readouterr().out
    assert ("held-out mean place 2.186 against the heuristic's 2.157 (lower is better): "
            "0.030 places worse than the heuristic [0.022, 0.037], paired 95%") in listed
    assert ("held-out win rate 0.640 against the heuristic's 0.452: 0.188 better than the "
            "heuristic [0.177, 0.200], paired 95%") in listed
    assert not re.search(r"\bgain\b", listed)


def test_show_refuses_an_unknown_name_on_one_line_listing_the_zoo():
    with pytest.raises(SystemExit) as refused:
        zoo.main(["show", "nothing"])
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith("python -m agents.zoo: no zoo policy 'nothing'; the zoo has")
    assert all(name in message for name in zoo.names())


def test_a_difference_whose_interval_spans_zero_is_no_clear_difference():
    score = {"lower_is_better": True, "mean": 1.544, "reference_mean": 1.542, "gain": 0.002,
             "gain_interval": [-0.002, 0.007]}
    assert zoo.against_heuristic(score) == (
        "held-out mean place 1.544 against the heuristic's 1.542 (lower is better): no clear "
        "difference from the heuristic (-0.002 places better [-0.007, +0.002]), paired 95%")
