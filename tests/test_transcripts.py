"""A person's game, start to end, as a reader follows it: one seeded transcript per game.

A scripted person asks for ``help``, a card's text, an unknown card and the table, then always
takes the first move offered; heuristic bots play the other seats. The transcript is kept in
``docs/screens/GAME.txt`` (what ``hiddendeck play`` shows); set UPDATE_GOLDEN=1 to rewrite the
screens after a deliberate change to the words."""

import io
import os
import re
from contextlib import redirect_stdout
from functools import lru_cache
from pathlib import Path

import pytest

from envs.core.aec import game_hook
from evaluation.play import play

SCREENS = Path(__file__).resolve().parents[1] / "docs" / "screens"
# game: (table size, deal, a card the person asks about)
GAMES = {"menace": (5, 4, "bloodwork"), "amongus": (5, 0, "task card"),
         "maniacal": (2, 0, "vault")}


@lru_cache(maxsize=None)
def transcript(game: str) -> str:
    players, seed, card = GAMES[game]
    asked = iter(["help", f"card {card}", "card no such card", "table"])

    def person(prompt: str) -> str:
        answer = next(asked, "0")
        print(f"{prompt}{answer}")
        return answer

    out = io.StringIO()
    with redirect_stdout(out):
        play(game, seat=0, opponents="heuristic", seed=seed, read=person, num_players=players)
    return out.getvalue()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_screen_in_docs_is_the_game_as_played(game):
    path = SCREENS / f"{game}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(transcript(game))
    assert path.read_text() == transcript(game)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_menus_name_seats_as_the_table_does(game):
    """No relative offset (``+1``) in a menu: a seat is ``player_N``, as on the table."""
    menu = [line for line in transcript(game).splitlines() if re.match(r"  \[\d+\] ", line)]
    assert menu
    assert not [line for line in menu if re.search(r"\+\d", line)]
    if game != "maniacal":  # MANIACAL's actions never name a seat
        assert any(re.search(r"player_\d", line) for line in menu)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_help_and_card_answer_at_the_prompt(game):
    text = transcript(game)
    assert game_hook(game, "render", "RULES_REMINDER") in text
    card = GAMES[game][2]
    assert game_hook(game, "render", "card_text")(card) in text
    assert "no card named 'no such card'" in text


def test_menace_announces_the_vote_and_its_result():
    text = transcript("menace")
    assert re.search(r"\* the vote is counted: player_\d (for player_\d|abstains)", text)
    assert re.search(r"\* player_\d is exiled and reveals their agenda: The \w+", text)
    assert re.search(r"player_0 \(you\): vote to exile player_\d \(seen by you alone\)", text)


def test_amongus_announces_a_vote_and_what_it_turned_up():
    text = transcript("amongus")
    assert re.search(r"votes for player_\d: player_\d is \w+, player_\d is \w+", text)
    assert re.search(r"\* player_\d's character is face up: \w+", text)


def test_maniacal_names_every_opponent_action():
    text = transcript("maniacal")
    assert not re.search(r"^player_\d: acts$", text, re.M)
    assert "* the picks are revealed: player_0 " in text
    assert re.search(r"^player_1: (activates|attempts|visits|plays|passes)", text, re.M)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_legal_action_has_words_without_relative_seats(game):
    """Over a random game's decisions, not only the transcript's: each legal action's words
    name seats absolutely, and no two legal actions read the same."""
    import numpy as np

    import envs

    words = game_hook(game, "render", "action_words")
    vec = envs.make_vec(game, 1, seed=3, num_players=GAMES[game][0])
    rng = np.random.default_rng(3)
    for _ in range(300):
        record, seat = vec.records[0], int(vec.current_seat[0])
        legal = np.flatnonzero(vec.action_mask[0])
        said = [words(record, seat, int(a)) for a in legal]
        assert not [w for w in said if re.search(r"\+\d", w)]
        assert len(set(said)) == len(said), said
        vec.step(np.array([rng.choice(legal)]))
