"""The text protocol for language models: prompts that carry the whole observation, replies read
in the forms models write, the ``llm:`` entrant against a local chat-completions stub, and the
scripted text player matching the heuristic."""

import json

import numpy as np
import pytest

import envs
from agents import make_policy
from agents.text.llm import LLMError, LLMPolicy, retry_after, split_entrant
from agents.text.protocol import Words, prompt, read_reply, sections
from agents.text.scripted import TextHeuristic
from evaluation.cli import main
from evaluation.entrants import resolve

from .stub import serving

NAMES = ["draw", "play Command", "play Basic Repair"]


@pytest.mark.parametrize("reply, number", [
    ("2", 2), ("Action: 3", 3), ("I choose 2.", 2), ('{"action": 1}', 1),
    ('```json\n{"action": "play Command"}\n```', 2), ("play Basic Repair", 3),
    ("Draw.", 1), ("Thinking about rounds 4 and 7.\nSo: 2", 2), ("action #3", 3),
])
def test_a_reply_is_read_in_the_common_forms(reply, number):
    assert read_reply(reply, NAMES) == (number, "")


@pytest.mark.parametrize("reply, why", [
    ("", "empty"), ("I am not sure.", "no action"), ("Action: 4", "not one of the legal"),
    ("Action: 0", "not one of the legal"), ('{"action": "fly"}', "not the name"),
])
def test_an_unusable_reply_says_why(reply, why):
    number, reason = read_reply(reply, NAMES)
    assert number is None and why in reason


@pytest.mark.parametrize("game", list(envs.registry))
def test_the_words_rebuild_the_observation_and_the_heuristic_plays_from_them(game):
    """What the scripted text player rests on: the view's words read back to the very same
    float32 vector, the numbered actions to the same mask, so it decides as the heuristic."""
    vec = envs.make_vec(game, 16, seed=3)
    words = Words(vec.spec, vec.params)
    heuristic = make_policy("heuristic", vec.spec, vec.params)
    text = TextHeuristic(vec.spec, vec.params)
    who = np.zeros((16, 2), np.int64)
    for _ in range(40):
        obs, mask = vec.observation, vec.action_mask
        for r in range(0, 16, 5):
            view, numbered = sections(prompt(words, obs[r], mask[r])[0])
            assert np.array_equal(words.read(view), obs[r])
            assert [vec.spec.action_names[a] for a in np.flatnonzero(mask[r])] == \
                [name for _, name in numbered]
        actions = heuristic.act(obs, mask)
        assert np.array_equal(text.act(obs, mask, who), actions)
        vec.step(actions)


def test_llm_entrants_read_with_and_without_a_label():
    url = "http://127.0.0.1:8000/v1"
    assert split_entrant(f"llm:qwen@{url}") == (f"llm:qwen@{url}", f"llm:qwen@{url}")
    assert split_entrant(f"mine@llm:qwen@{url}") == ("mine", f"llm:qwen@{url}")
    # benchmark writes an entrant back as LABEL@SOURCE, the label itself holding '@'
    assert split_entrant(f"llm:qwen@{url}@llm:qwen@{url}") == (f"llm:qwen@{url}",
                                                                f"llm:qwen@{url}")
    assert split_entrant("a@zoo:crew") is None
    spec = envs.registry["amongus"]
    entrant = resolve(f"mine@llm:org/model-7b@{url}", spec, {})
    assert (entrant.label, entrant.source, entrant.roles) == \
        ("mine", f"llm:org/model-7b@{url}", spec.teams)
    with pytest.raises(ValueError, match="llm:MODEL@BASE_URL"):
        resolve("llm:qwen@localhost:8000", spec, {})


def test_retry_after_reads_seconds_and_dates():
    assert retry_after("3") == 3.0
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0
    assert retry_after(None) is None


def test_unreadable_replies_are_reasked_then_fall_back_and_are_counted(tmp_path, monkeypatch):
    monkeypatch.setenv("HIDDENDECK_TRANSCRIPTS", str(tmp_path))
    monkeypatch.setenv("HIDDENDECK_LLM_API_KEY", "k-123")
    monkeypatch.setenv("HIDDENDECK_LLM_FALLBACK", "random")
    vec = envs.make_vec("amongus", 2, seed=0)
    with serving(stubborn=True) as stub:
        policy = LLMPolicy(f"llm:stub@{stub.url}", vec.spec, vec.params, seed=1)
        actions = policy.act(vec.observation, vec.action_mask, np.array([[0, 0], [1, 0]]))
    assert vec.action_mask[[0, 1], actions].all()
    assert policy.counts == {"decisions": 2, "reasked": 0, "fallbacks": 2}
    assert len(stub.requests) == 1 + 2 * 3  # the 429 asked again, then 3 tries each
    assert stub.requests[0]["auth"] == "Bearer k-123"
    lines = [json.loads(x) for f in tmp_path.glob("*.jsonl") for x in f.read_text().splitlines()]
    assert [x["outcome"] for x in lines] == ["fallback", "fallback"]
    assert [m["role"] for m in lines[0]["messages"]] == \
        ["system", "user", "assistant", "user", "assistant", "user", "assistant"]


def test_an_endpoint_that_refuses_stops_the_run(monkeypatch):
    monkeypatch.setenv("HIDDENDECK_LLM_RETRIES", "1")
    monkeypatch.setenv("HIDDENDECK_TRANSCRIPTS", "")
    vec = envs.make_vec("amongus", 1, seed=0)
    with serving() as stub:
        policy = LLMPolicy(f"llm:stub@{stub.url.replace('/v1', '/v2')}", vec.spec, vec.params)
        with pytest.raises(LLMError, match="404"):
            policy.act(vec.observation, vec.action_mask, np.array([[0, 0]]))


def _transcript(path):
    return [json.loads(x) for f in sorted(path.glob("*.jsonl")) for x in f.read_text().splitlines()]


def test_eval_and_benchmark_play_an_llm_through_the_stub(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("HIDDENDECK_TRANSCRIPTS", raising=False)  # restored after the test
    with serving() as stub:
        source = f"llm:stub@{stub.url}"
        assert main(["--quiet", "eval", "amongus", "--games", "2", "--workers", "1",
                     "--impostor", f"model@{source}", "--crew", "heuristic",
                     "--transcripts", str(tmp_path / "eval")]) == 0
        assert "model" in capsys.readouterr().out
        assert main(["--quiet", "benchmark", "amongus", "--team", "impostor", "--policy", source,
                     "--games", "2", "--workers", "1", "--json",
                     "--db", str(tmp_path / "results.sqlite")]) == 0
        report = json.loads(capsys.readouterr().out)
    assert report["policy"] == source
    for where in (tmp_path / "eval", tmp_path / "transcripts"):  # given, or beside --db
        lines = _transcript(where)
        assert lines and {x["model"] for x in lines} == {"stub"}
        assert all(x["messages"][1]["content"].startswith("You are a player") for x in lines)
        assert all(x["messages"][-1]["role"] == "assistant" for x in lines)
        assert {x["outcome"] for x in lines} >= {"answered"}
