"""``hiddendeck serve``: each seat's page and websocket show that seat's view and nothing else,
every message from a browser is checked, finished games are stored with who sat where; and
in a real headless Chromium, whole games of every title are played by clicking, with the
page unchanged when the cards its seat cannot see are re-dealt.

The browser tests need Debian's ``chromium`` (``.ci/run`` installs it) and Playwright's Python
client (the ``web-tests`` extra, which ``make test`` installs); they are skipped, saying which is
missing, without them. With ``HIDDENDECK_SCREENS=DIR`` they save a screenshot of each game
there (docs/screens/)."""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import json
import sqlite3
import os
import shutil
import socket
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("starlette",
                    reason="the web extra is not installed (pip install -e .[web-tests])")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from envs.menace.render import card_text  # noqa: E402
from evaluation.replay import records  # noqa: E402
from evaluation.serve.app import make_app  # noqa: E402
from evaluation.serve.table import Table  # noqa: E402
from tests.test_conformance import REDEALS  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def views_until_my_move(ws) -> dict:
    """The seat's views as they come, until one offers it actions (or the game ends)."""
    while True:
        message = ws.receive_json()
        assert message["type"] == "view", message
        if message["actions"] or message["end"]:
            return message


def settled(table: Table) -> None:
    """Wait until the game waits for a person, so the table stands still."""
    deadline = time.time() + 30
    while table._move is None or table._move.done():
        assert time.time() < deadline, "the game never waited for a person"
        time.sleep(0.01)


def two_people(db=None) -> Table:
    return Table("amongus", ["human", "human", "random", "random"],
                 {0: "alice", 1: "bob"}, seed=5, pace=0, db=db, num_players=4)


def test_two_seats_each_read_only_their_own_view():
    """Alice (seat 0) and Bob (seat 1) hold their own tokens: each websocket sends only its
    seat's view, and neither token opens the other's page, websocket or view."""
    table = two_people()
    t0, t1 = table.seats[0].token, table.seats[1].token
    with TestClient(make_app(table)) as client:
        settled(table)
        for seat, token, other in ((0, t0, t1), (1, t1, t0)):
            assert client.get(f"/seat/{seat}?token={token}").status_code == 200
            assert client.get(f"/seat/{seat}?token={other}").status_code == 403
            with pytest.raises(WebSocketDisconnect) as refused:
                with client.websocket_connect(f"/ws/{seat}?token={other}") as ws:
                    ws.receive_json()
            assert refused.value.code == 4403
            with client.websocket_connect(f"/ws/{seat}?token={token}") as ws:
                # a page may not ask for another seat: the message is refused as a move
                view = ws.receive_json()
                assert view["seat"] == seat and view["table"] == table.vec.render(0, seat)
                assert view["table"] != table.vec.render(0, 1 - seat)
                # a page cannot ask for another seat: the field is not part of a move
                ws.send_json({"type": "view", "seat": 1 - seat})
                assert ws.receive_json()["type"] == "error"


def test_a_link_without_its_seat_s_token_is_refused():
    table = two_people()
    token = table.seats[0].token
    with TestClient(make_app(table)) as client:
        for path in ("/ws/0", "/ws/0?token=", f"/ws/0?token={token}x", f"/ws/2?token={token}",
                     f"/ws/9?token={token}", f"/ws/-1?token={token}"):
            with pytest.raises(WebSocketDisconnect):
                with client.websocket_connect(path) as ws:
                    ws.receive_json()
        assert client.get("/seat/0").status_code == 403
        assert client.get("/replay?token=nope").status_code == 403
        assert client.get("/api/games").status_code == 403
        assert client.get(f"/api/games?token={token}").json() == []


def test_a_bad_message_gets_one_error_and_the_game_goes_on():
    table = Table("amongus", ["human", "random", "random", "random"], seed=5, pace=0,
                  num_players=4)
    with TestClient(make_app(table)) as client:
        with client.websocket_connect(f"/ws/0?token={table.seats[0].token}") as ws:
            view = views_until_my_move(ws)
            legal = {a["action"] for a in view["actions"]}
            illegal = next(a for a in range(table.spec.num_actions) if a not in legal)
            bad = ["not json", json.dumps([1]), json.dumps({"action": 1}),
                   json.dumps({"type": "fold"}), json.dumps({"type": "act"}),
                   json.dumps({"type": "act", "action": "1"}),
                   json.dumps({"type": "act", "action": True}),
                   json.dumps({"type": "act", "action": illegal}),
                   json.dumps({"type": "act", "action": 10**12}),
                   json.dumps({"type": "again"})]
            for text in bad:
                ws.send_text(text)
                reply = ws.receive_json()
                assert reply["type"] == "error" and reply["message"], text
            with client.websocket_connect(f"/ws/1?token={table.seats[1].token}") as watcher:
                watcher.receive_json()  # a policy's seat: its page may watch, never move
                watcher.send_json({"type": "act", "action": min(legal)})
                assert "only watches" in watcher.receive_json()["message"]
            ws.send_json({"type": "act", "action": min(legal)})
            after = ws.receive_json()
            assert after["type"] == "view"
            assert after["log"][-1] == f"you: {table.spec.action_names[min(legal)]}"


def test_a_page_reads_any_cards_text_and_the_rules_without_moving():
    """Printed card text is public: a page asks for a card by name and gets its text (or one
    error naming the cards), its own page alone, and the game does not move."""
    table = Table("menace", ["human"] + ["heuristic"] * 4, seed=5, pace=0, num_players=5)
    with TestClient(make_app(table)) as client:
        settled(table)
        moves = len(table.actions)
        with client.websocket_connect(f"/ws/0?token={table.seats[0].token}") as ws:
            view = ws.receive_json()
            assert view["rules"].startswith("The Menace Among Us")
            ws.send_json({"type": "card", "name": "raise morale"})
            assert ws.receive_json() == {"type": "card", "text": card_text("Raise Morale")}
            for name, why in (("no such card", "no card named"), (5, '"name" must be'),
                              ("x" * 101, '"name" must be')):
                ws.send_json({"type": "card", "name": name})
                reply = ws.receive_json()
                assert reply["type"] == "error" and why in reply["message"], name
            assert len(table.actions) == moves


def test_a_finished_game_is_stored_with_who_sat_where_and_replays(tmp_path):
    db = tmp_path / "people.sqlite"
    table = Table("amongus", ["human", "random", "heuristic", "random"], {0: "alice"}, seed=9,
                  pace=0, db=str(db), num_players=4)
    token = table.seats[0].token
    with TestClient(make_app(table)) as client:
        with client.websocket_connect(f"/ws/0?token={token}") as ws:
            view = views_until_my_move(ws)
            while not view["end"]:
                ws.send_json({"type": "act", "action": view["actions"][0]["action"]})
                view = views_until_my_move(ws)
        stored = list(records(db))
        assert len(stored) == 1 and stored[0].actions == table.finished[0].actions
        sides = stored[0].policies["sides"]
        assert any("alice" in side.split("+") for side in sides)
        seats = json.loads(sqlite3.connect(db).execute("SELECT seats FROM seatings").fetchone()[0])
        assert seats == ["alice", "random", "heuristic", "random"]
        listed = client.get(f"/api/games?token={token}").json()
        assert [g["source"] for g in listed] == ["table", "db"]
        frames = client.get(f"/api/replay?token={token}&source=db&game=0&seat=0").json()["frames"]
        assert frames[-1]["table"] == view["table"]
        assert [line for f in frames[1:] for line in f["lines"]] == view["log"]


def test_a_database_that_cannot_take_the_games_is_refused_before_play(tmp_path):
    (tmp_path / "notes.sqlite").write_text("not a database")
    with pytest.raises(ValueError, match="notes.sqlite"):
        Table("amongus", ["human", "random", "random", "random"], db=str(tmp_path / "notes.sqlite"),
              num_players=4)


# -- in a real browser ---------------------------------------------------------------------
def _browser_missing() -> str | None:
    if not shutil.which("chromium") and not Path(CHROMIUM).exists():
        return "Debian's chromium is not installed (apt-get install chromium)"
    if importlib.util.find_spec("playwright") is None:
        return "Playwright's Python client is not installed (pip install -e .[web-tests])"
    if importlib.util.find_spec("uvicorn") is None:
        return "uvicorn is not installed (pip install .[web])"
    return None


browser_test = pytest.mark.skipif(_browser_missing() is not None,
                                  reason=_browser_missing() or "")


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


class Server:
    """uvicorn serving one table on a free port of 127.0.0.1, in a thread of this process (so
    a test can re-deal the table the page is showing)."""

    def __init__(self, table: Table):
        import uvicorn

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.table = table
        config = uvicorn.Config(make_app(table), host="127.0.0.1", port=self.port,
                                log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            assert time.time() < deadline, "the server did not start"
            time.sleep(0.02)

    def url(self, seat: int) -> str:
        return f"http://127.0.0.1:{self.port}/seat/{seat}?token={self.table.seats[seat].token}"

    def on_loop(self, fn):
        """Run ``fn()`` (a coroutine function) on the server's event loop and return its value."""
        return asyncio.run_coroutine_threadsafe(fn(), self.table.loop).result(300)

    def stop(self):
        self.server.should_exit = True
        self.thread.join(10)


GAMES = [("amongus", 4, "heuristic"), ("menace", 5, "heuristic"), ("maniacal", 4, "heuristic")]


@browser_test
@pytest.mark.parametrize("game,players,policy", GAMES, ids=[g for g, _, _ in GAMES])
def test_a_whole_game_is_played_by_clicking_and_the_page_hides_what_its_seat_cannot_see(
        browser, game, players, policy, tmp_path):
    """Seat 0 is a person clicking the first action offered, the rest are policies. At the
    person's first turns the cards seat 0 cannot see are re-dealt on the server and the page is
    sent again: its text and DOM do not change (then the deal is put back, so the stored game
    replays). The replay viewer's last step shows the page's last table."""
    hidden_from = importlib.import_module(REDEALS[game]).hidden_from
    table = Table(game, ["human"] + [policy] * (players - 1), seed=3, pace=0,
                  db=str(tmp_path / "games.sqlite"), num_players=players)
    server = Server(table)
    rng = np.random.default_rng(0)
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    try:
        page.goto(server.url(0))
        clicks = probes = changed = 0
        while True:
            page.wait_for_function("document.querySelector('#actions button') || "
                                   "!document.getElementById('end').hidden", timeout=120000)
            if page.is_visible("#end"):
                break
            if probes < 8:
                before = (page.inner_text("body"), page.inner_html("body"))
                seen = page.evaluate("window.hdUpdates")

                dealt = table.vec.records.copy()

                async def redeal():
                    t, touched = hidden_from(dealt[0], 0, rng)
                    table.vec.set_records(np.array([t], dtype=dealt.dtype))
                    await table.broadcast()
                    return touched

                async def restore():  # the game goes on as dealt, so its replay matches
                    table.vec.set_records(dealt)

                changed += server.on_loop(redeal)
                page.wait_for_function(f"window.hdUpdates > {seen}", timeout=120000)
                assert (page.inner_text("body"), page.inner_html("body")) == before
                server.on_loop(restore)
                probes += 1
            if clicks == 2 and os.environ.get("HIDDENDECK_SCREENS"):
                page.screenshot(path=str(Path(os.environ["HIDDENDECK_SCREENS"]) / f"{game}.png"),
                                full_page=True)
            seen = page.evaluate("window.hdUpdates")
            page.click("#actions button >> nth=0")
            page.wait_for_function(f"window.hdUpdates > {seen}", timeout=120000)
            clicks += 1
        assert clicks > 0 and probes > 0 and changed > 0
        assert "wins" in page.inner_text("#outcome") or "draw" in page.inner_text("#outcome")
        assert len(list(records(tmp_path / "games.sqlite"))) == 1
        replay = browser.new_page()
        replay.goto(f"http://127.0.0.1:{server.port}" + page.get_attribute("#replay", "href"))
        replay.wait_for_function("document.getElementById('step').textContent !== ''")
        replay.click("#last")
        assert replay.inner_text("#table") == page.inner_text("#table")
        replay.close()
    finally:
        page.close()
        server.stop()


def test_without_the_web_extra_serve_says_what_to_install(monkeypatch):
    from evaluation.serve.app import require_web

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # an import of it now fails
    with pytest.raises(SystemExit, match=r"needs the web extra \(uvicorn is missing\)"):
        require_web()
