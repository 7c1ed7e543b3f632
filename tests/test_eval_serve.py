"""``PolicyServer``: any policy behind a real OpenAI-compatible HTTP endpoint on loopback."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import pytest

from spade_train.policies.base import GenerationRequest, SamplingParams
from spade_train.policies.factory import create_policy
from spade_train.policies.scripted import ScriptedPolicy
from spade_train.policies.serve import PolicyServer, RequestError, parse_chat_request
from tests.served_model import served_tiny_model, tiny_model_dir  # noqa: F401 - session fixtures


def post(url: str, body: object) -> tuple[int, dict]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def get(url: str) -> dict:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(url, timeout=30) as response:
        return json.loads(response.read())


def test_tiny_model_answers_through_the_openai_client(served_tiny_model):  # noqa: F811
    assert served_tiny_model.url.startswith("http://127.0.0.1:")
    assert get(served_tiny_model.url + "/models")["data"][0]["id"] == "tiny-qwen2"
    client = create_policy(served_tiny_model.spec)
    request = GenerationRequest(
        messages=[{"role": "user", "content": "hello"}],
        sampling=SamplingParams(temperature=0.0, max_tokens=6),
    )
    first, second = asyncio.run(client.generate(request)), asyncio.run(client.generate(request))
    assert first.ok and first.text == second.text  # greedy: the same answer twice
    status, body = post(
        served_tiny_model.url + "/chat/completions",
        {
            "model": "tiny-qwen2",
            "messages": [{"role": "user", "content": "hi"}],
            "max_tokens": 4,
            "temperature": 0,
            "return_token_ids": True,
            "logprobs": True,
        },
    )
    assert status == 200 and 1 <= body["usage"]["completion_tokens"] <= 4
    choice = body["choices"][0]
    assert (
        len(choice["token_ids"]) == len(choice["logprobs"]["content"]) == body["usage"]["completion_tokens"]
    )


def test_errors_are_openai_style_json():
    policy = ScriptedPolicy(["ok"], fail_every=2, failure_message="backend exploded")
    with PolicyServer(policy, model_name="m") as server:
        url = server.url + "/chat/completions"
        message = [{"role": "user", "content": "x"}]
        assert post(url, {"model": "m", "messages": message})[1]["choices"][0]["message"]["content"] == "ok"
        status, body = post(url, {"model": "m", "messages": message})
        assert status == 500 and "backend exploded" in body["error"]["message"]
        status, body = post(url, {"model": "other", "messages": message})
        assert status == 404 and "serves 'm'" in body["error"]["message"]
        assert post(url, {"model": "m", "messages": []})[0] == 400
        assert post(url, ["not", "an", "object"])[0] == 400
        assert post(server.url + "/nope", {})[0] == 404
        assert get(server.url.replace("/v1", "/health")) == {"status": "ok"}


def test_request_parsing_follows_the_openai_fields():
    parsed = parse_chat_request(
        {
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}
            ],
            "temperature": 0.2,
            "top_p": 0.9,
            "top_k": -1,
            "max_completion_tokens": 7,
            "stop": "END",
            "seed": 3,
        },
        "m",
    )
    sampling = parsed.generation.sampling
    assert parsed.generation.messages == [{"role": "user", "content": "ab"}]
    assert (
        sampling.temperature,
        sampling.top_p,
        sampling.top_k,
        sampling.max_tokens,
        sampling.stop,
        sampling.seed,
    ) == (0.2, 0.9, None, 7, ("END",), 3)
    with pytest.raises(RequestError, match="only n=1"):
        parse_chat_request({"messages": [{"role": "user", "content": "a"}], "n": 2}, "m")
