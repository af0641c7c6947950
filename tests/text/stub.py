"""A stand-in chat-completions server on 127.0.0.1, speaking the OpenAI API the ``llm:``
entrant speaks: it reads the legal actions from the prompt and answers in the forms models use,
some of them unreadable, so that re-asks and fallbacks are exercised."""

from __future__ import annotations

import json
import re
import threading
import zlib
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FORMS = ("{n}", "Action: {n}", "I choose {n}.", '{{"action": {n}}}', "{name}",
         "Let me think.\nThe safest move here.\n{n}", "I am not sure what to do.")


class Stub(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, stubborn: bool = False, throttle_first: bool = True):
        super().__init__(("127.0.0.1", 0), Handler)
        self.stubborn = stubborn  # never a readable reply: every decision falls back
        self.throttle_first = throttle_first  # the first request gets 429, Retry-After: 0
        self.requests = []
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):  # quiet
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with self.server.lock:
            self.server.requests.append({"body": body, "auth": self.headers.get("Authorization")})
            first = len(self.server.requests) == 1
        if self.path != "/v1/chat/completions":
            return self._send(404, {"error": f"no {self.path}"})
        if first and self.server.throttle_first:
            return self._send(429, {"error": "slow down"}, {"Retry-After": "0"})
        self._send(200, {"choices": [{"message": {"role": "assistant",
                                                  "content": self._reply(body["messages"])}}]})

    def _reply(self, messages) -> str:
        if self.server.stubborn:
            return "I would rather not say."
        prompt = next(m["content"] for m in messages if m["role"] == "user")
        names = re.findall(r"^\d+\. (.*)$", prompt.split("\nLegal actions ", 1)[1], re.M)
        key = zlib.crc32(prompt.encode()) + len(messages)
        n = key % len(names) + 1
        return FORMS[key % len(FORMS)].format(n=n, name=names[n - 1])

    def _send(self, code: int, payload: dict, headers: dict | None = None):
        data = json.dumps(payload).encode()
        self.send_response(code)
        for k, v in {"Content-Type": "application/json", **(headers or {})}.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextmanager
def serving(**kwargs):
    server = Stub(**kwargs)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
