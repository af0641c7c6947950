"""A language model as a player: ``llm:MODEL@BASE_URL``, any OpenAI-compatible chat endpoint.

Each decision is one conversation (``agents.text.player``): the prompt is POSTed to
``{BASE_URL}/chat/completions`` with the standard library's ``urllib`` (no new dependency), and
the reply read back. Settings come from the environment, so the entrant stays a short name
that workers rebuild:

- ``HIDDENDECK_LLM_API_KEY`` (else ``OPENAI_API_KEY``): sent as ``Authorization: Bearer``;
  none is sent when neither is set (a local server needs none).
- ``HIDDENDECK_LLM_TIMEOUT`` seconds per request (default 60); ``HIDDENDECK_LLM_RETRIES``
  (default 5): a timeout, a refused connection or a 5xx answer is retried after 1, 2, 4 ...
  seconds (at most 30); a 429 waits for its ``Retry-After`` when it gives one. Past the
  retries the run stops with ``LLMError``: a game is never finished by guesses for an endpoint
  that is down.
- ``HIDDENDECK_LLM_REASKS`` (default 2) and ``HIDDENDECK_LLM_FALLBACK`` (``first`` or
  ``random``, default ``first``): what happens to replies that name no legal action.
- ``HIDDENDECK_LLM_TEMPERATURE``: sent when set (else the server's default).
- ``HIDDENDECK_TRANSCRIPTS``: the directory of the JSONL transcripts, one file per game and
  process, every prompt and reply (default ``runs/transcripts``; the evaluation commands set it
  from ``--transcripts``, else beside ``--db`` or ``--out``).
"""

from __future__ import annotations

import email.utils
import json
import os
import re
import socket
import time
import urllib.error
import urllib.request

from envs.core.spec import GameSpec

from .player import TextPolicy

PREFIX = "llm:"
# the source at the end of an entrant: ``llm:MODEL@http(s)://...`` (the URL holds no '@')
SOURCE = re.compile(r"(?:^|@)(llm:[^@\s]+@https?://[^@\s]+)$")


class LLMError(RuntimeError):
    """The endpoint could not give a reply (after the retries), or answered with an error."""


def is_llm(source: str) -> bool:
    return isinstance(source, str) and source.startswith(PREFIX)


def split_entrant(text: str) -> tuple[str, str] | None:
    """``(label, source)`` of ``llm:MODEL@URL`` (labelled by itself) or ``LABEL@llm:MODEL@URL``;
    ``None`` if ``text`` names no language model."""
    found = SOURCE.search(text)
    if found is None:
        if text.startswith(PREFIX) or "@" + PREFIX in text:
            model, url = parse(text[text.find(PREFIX):])  # refuses a malformed one
            raise ValueError(f"{text!r}: the URL {url!r} may not contain '@' (the API key "
                             f"goes in HIDDENDECK_LLM_API_KEY)")
        return None
    return (text[: found.start()] or found.group(1)), found.group(1)


def parse(source: str) -> tuple[str, str]:
    """``(model, base_url)`` of ``llm:MODEL@BASE_URL``."""
    model, sep, url = source[len(PREFIX):].rpartition("@")
    if not sep or not model or not re.match(r"https?://[^@\s/]+", url):
        raise ValueError(f"{source!r}: expected llm:MODEL@BASE_URL, e.g. "
                         f"llm:qwen2.5-7b-instruct@http://127.0.0.1:8000/v1")
    return model, url.rstrip("/")


def _setting(name: str, default: str) -> str:
    return os.environ.get(name, "").strip() or default


def _number(name: str, default: str, kind=float):
    text = _setting(name, default)
    try:
        value = kind(text)
    except ValueError:
        raise ValueError(f"{name}={text!r}: expected a number") from None
    if value < 0:
        raise ValueError(f"{name}={text!r}: must not be negative")
    return value


def retry_after(value: str | None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: a number of seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class LLMPolicy(TextPolicy):
    """A model behind ``{base_url}/chat/completions`` plays through the text protocol."""

    def __init__(self, source: str, spec: GameSpec, params: dict, seed: int = 0):
        self.model, self.base_url = parse(source)
        self.name = source
        super().__init__(
            spec, params, seed,
            reasks=_number("HIDDENDECK_LLM_REASKS", "2", int),
            fallback=_setting("HIDDENDECK_LLM_FALLBACK", "first"),
            transcripts=_setting("HIDDENDECK_TRANSCRIPTS", "runs/transcripts"),
        )
        self.timeout = _number("HIDDENDECK_LLM_TIMEOUT", "60")
        self.retries = _number("HIDDENDECK_LLM_RETRIES", "5", int)
        temperature = _setting("HIDDENDECK_LLM_TEMPERATURE", "")
        self.temperature = float(temperature) if temperature else None
        self.api_key = _setting("HIDDENDECK_LLM_API_KEY", _setting("OPENAI_API_KEY", ""))

    def describe(self) -> dict:
        return {"player": "llm", "model": self.model, "base_url": self.base_url}

    def answer(self, messages: list[dict]) -> str:
        body = {"model": self.model, "messages": messages}
        if self.temperature is not None:
            body["temperature"] = self.temperature
        data = json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        url = f"{self.base_url}/chat/completions"
        for attempt in range(self.retries + 1):
            wait = min(30.0, 2.0 ** attempt)
            try:
                request = urllib.request.Request(url, data=data, headers=headers, method="POST")
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    reply = json.loads(response.read())
                return _content(reply, url)
            except urllib.error.HTTPError as e:
                if e.code == 429:
                    wait = retry_after(e.headers.get("Retry-After")) or wait
                elif e.code < 500:
                    raise LLMError(f"{url} answered {e.code}: "
                                   f"{e.read()[:300].decode(errors='replace')}") from None
                problem = f"HTTP {e.code}"
            except (urllib.error.URLError, socket.timeout, ConnectionError) as e:
                problem = f"{type(e).__name__}: {getattr(e, 'reason', e)}"
            if attempt < self.retries:
                time.sleep(wait)
        raise LLMError(f"{url}: no reply after {self.retries + 1} tries (last: {problem})")


def _content(reply: dict, url: str) -> str:
    try:
        content = reply["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise LLMError(f"{url}: not a chat-completions answer: {str(reply)[:300]}") from None
    return content if isinstance(content, str) else ""
