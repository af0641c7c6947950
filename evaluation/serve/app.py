"""The web app: one page per seat, its websocket, and the replay viewer (Starlette).

A seat's page and websocket take the seat's token (``?token=``); the websocket is refused
before it opens when the token is not that seat's, and afterwards sends only that seat's view.
Replays need the token of any seat at the table. Starlette and uvicorn are the optional ``web``
extra; ``require_web`` says so in one line when they are missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sys
from pathlib import Path

from .table import Table, replay_frames

STATIC = Path(__file__).parent / "static"


def require_web() -> None:
    """Stop with one clear line when the ``web`` extra is not installed."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
        import websockets  # noqa: F401
    except ImportError as e:
        raise SystemExit(f"hiddendeck serve needs the web extra ({e.name} is missing): "
                         f"pip install 'hiddendeck[web]'") from None


def make_app(table: Table):
    require_web()
    from starlette.applications import Starlette
    from starlette.responses import FileResponse, JSONResponse, PlainTextResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    def seat_of(text: str) -> int | None:
        return int(text) if text.isdigit() and int(text) < len(table.seats) else None

    def holds(seat: int | None, token) -> bool:
        return seat is not None and isinstance(token, str) and secrets.compare_digest(
            token.encode(), table.seats[seat].token.encode())

    def any_seat(token) -> bool:
        return any(holds(k, token) for k in range(len(table.seats)))

    def refused() -> PlainTextResponse:
        return PlainTextResponse("this link's seat token is not valid", status_code=403)

    async def home(request):
        return PlainTextResponse("hiddendeck: ask the host for your seat's link")

    async def seat_page(request):
        seat = seat_of(request.path_params["seat"])
        if not holds(seat, request.query_params.get("token")):
            return refused()
        return FileResponse(STATIC / "seat.html")

    async def static(request):
        name = request.path_params["name"]
        if name not in {"seat.js", "replay.js", "style.css"}:
            return PlainTextResponse("not found", status_code=404)
        return FileResponse(STATIC / name)

    async def replay_page(request):
        if not any_seat(request.query_params.get("token")):
            return refused()
        return FileResponse(STATIC / "replay.html")

    def stored():
        from ..replay import records

        return list(records(table.db)) if table.db and Path(table.db).is_file() else []

    async def games(request):
        """The finished games a replay may show: this server's, then the database's."""
        if not any_seat(request.query_params.get("token")):
            return refused()
        listed = [{"source": source, "game": k, "title": f"{r.game} game {r.index} "
                   f"(seed {r.seed}): {r.policies}", "players": len(r.deal)}
                  for source, records in (("table", table.finished), ("db", stored()))
                  for k, r in enumerate(records)]
        return JSONResponse(listed)

    async def replay(request):
        q = request.query_params
        if not any_seat(q.get("token")):
            return refused()
        records = {"table": table.finished, "db": None}.get(q.get("source"), ())
        if records is None:
            records = stored()
        k, seat = q.get("game", ""), q.get("seat", "")
        if not (k.isdigit() and int(k) < len(records) and seat.isdigit()):
            return JSONResponse({"error": "give source=table|db, a listed game and a seat"},
                                status_code=400)
        try:
            frames = replay_frames(records[int(k)], int(seat))
        except ValueError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        return JSONResponse({"title": f"game {records[int(k)].index}, seen from "
                             f"player_{seat}", "frames": frames})

    async def seat_socket(websocket: WebSocket):
        seat = seat_of(websocket.path_params["seat"])
        if not holds(seat, websocket.query_params.get("token")):
            await websocket.close(code=4403)  # before accepting: the handshake is refused
            return
        await websocket.accept()
        queue: asyncio.Queue = asyncio.Queue()
        table.listeners[seat].add(queue)
        queue.put_nowait(table.view(seat))

        async def send():
            while True:
                await websocket.send_json(await queue.get())

        sender = asyncio.create_task(send())
        try:
            while True:
                text = await websocket.receive_text()
                try:
                    message = json.loads(text)
                except json.JSONDecodeError:
                    error = "a message must be JSON"
                else:
                    if isinstance(message, dict) and message.get("type") == "card":
                        queue.put_nowait(table.card(message))  # to this page alone
                        continue
                    error = table.submit(seat, message)
                if error:
                    queue.put_nowait({"type": "error", "message": error})
        except WebSocketDisconnect:
            pass
        finally:
            table.listeners[seat].discard(queue)
            sender.cancel()

    def stopped(task: asyncio.Task) -> None:
        """A table that stops by an error (a policy's, the database's) says so on the host's
        terminal and on every open page."""
        if task.cancelled() or task.exception() is None:
            return
        error = task.exception()
        print(f"hiddendeck serve: the table stopped: {type(error).__name__}: {error}",
              file=sys.stderr)
        for queues in table.listeners.values():
            for q in queues:
                q.put_nowait({"type": "error", "message": "the table stopped by an error on "
                              "the server; the host's terminal says which"})

    @contextlib.asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(table.run())
        task.add_done_callback(stopped)
        table.loop = asyncio.get_running_loop()
        yield
        task.cancel()

    return Starlette(routes=[
        Route("/", home), Route("/seat/{seat}", seat_page), Route("/static/{name}", static),
        Route("/replay", replay_page), Route("/api/games", games), Route("/api/replay", replay),
        WebSocketRoute("/ws/{seat}", seat_socket),
    ], lifespan=lifespan)


def links(table: Table, base: str) -> list[str]:
    """One line per seat: its room link (people) or a watching link (a policy's seat)."""
    out = []
    for k, s in enumerate(table.seats):
        who = f"{s.person} (a person)" if s.person is not None else f"{s.text} (watch)"
        out.append(f"  player_{k} {who}: {base}/seat/{k}?token={s.token}")
    out.append(f"  replays: {base}/replay?token=TOKEN, with any seat's token (its page links "
               f"there when a game ends)")
    return out


def serve(table: Table, host: str = "127.0.0.1", port: int = 8000) -> None:
    require_web()
    import uvicorn

    app = make_app(table)
    shown = f"[{host}]" if ":" in host else host
    print(f"hiddendeck serve: {table.game}, {len(table.seats)} seats; give each person their "
          f"own link:")
    print("\n".join(links(table, f"http://{shown}:{port}")))
    uvicorn.run(app, host=host, port=port, log_level="warning")
