"""Model clients: the OpenAI-compatible client against a loopback fake server, the transformers
policy on a tiny model built offline, the scripted policy, the factory, and vLLM without vLLM."""

from __future__ import annotations

import asyncio
import json
import math
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace
from typing import Any

import pytest

from spade_train.policies.base import Generation, GenerationRequest, Policy, SamplingParams
from spade_train.policies.factory import create_policy
from spade_train.policies.openai_compat import OpenAICompatiblePolicy
from spade_train.policies.scripted import ScriptedPolicy
from spade_train.policies.vllm_offline import (
    INSTALL_HINT,
    VLLMPolicy,
    generation_from_output,
    to_vllm_sampling_kwargs,
)
from tests.tiny_model import tiny_model_dir  # noqa: F401 - a session fixture used below

USER = [{"role": "user", "content": "Say hi."}]


def request(**sampling: Any) -> GenerationRequest:
    return GenerationRequest(messages=USER, sampling=SamplingParams(**sampling))


# ====================================================================== fake OpenAI-compatible server
@dataclass
class Reply:
    status: int = 200
    body: bytes | dict[str, Any] = field(default_factory=lambda: completion("hello"))
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


def completion(text: str | None, **choice: Any) -> dict[str, Any]:
    return {"id": "x", "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                         "finish_reason": "stop", **choice}]}


class FakeServer:
    """Answers POSTs from a script of replies (the last one repeats) and records what it received."""

    def __init__(self) -> None:
        self.replies: list[Reply] = [Reply()]
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.in_flight = 0
        self.most_in_flight = 0
        """The most requests the server was answering at once (how concurrent the client was)."""
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with server._lock:
                    server.received.append((self.path, dict(self.headers), body))
                    reply = server.replies.pop(0) if len(server.replies) > 1 else server.replies[0]
                    server.in_flight += 1
                    server.most_in_flight = max(server.most_in_flight, server.in_flight)
                time.sleep(reply.delay_s)
                with server._lock:
                    server.in_flight -= 1
                payload = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
                try:
                    self.send_response(reply.status)
                    for name, value in {"Content-Type": "application/json", **reply.headers}.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:
                    pass  # the client gave up (timeout test)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.block_on_close = False
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)
        self._thread.start()

    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(body) for _, _, body in self.received]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[FakeServer]:
    fake = FakeServer()
    yield fake
    fake.close()


def client(server: FakeServer, **options: Any) -> OpenAICompatiblePolicy:
    return OpenAICompatiblePolicy(server.url, "tiny", **{"backoff_s": 0.01, "timeout_s": 5.0, **options})


def test_openai_success_sends_every_field(server: FakeServer) -> None:
    server.replies = [Reply(body={
        **completion("hi there", token_ids=[7, 8], logprobs={"content": [
            {"token": "hi", "logprob": -0.5, "top_logprobs": []},
            {"token": " there", "logprob": -1.25, "top_logprobs": []}]}),
        "prompt_token_ids": [1, 2, 3]})]
    tools = [{"type": "function", "function": {"name": "look", "parameters": {"type": "object"}}}]
    policy = client(server, api_key="secret-key", logprobs=True, return_token_ids=True,
                    extra_body={"chat_template_kwargs": {"enable_thinking": False}})
    result = asyncio.run(policy.generate(GenerationRequest(
        messages=USER, tools=tools,
        sampling=SamplingParams(temperature=0.3, top_p=0.9, top_k=20, max_tokens=64, stop=("\n\n",), seed=11))))
    assert isinstance(policy, Policy)
    assert result.ok and result.text == "hi there" and result.finish_reason == "stop"
    assert result.prompt_token_ids == [1, 2, 3] and result.completion_token_ids == [7, 8]
    assert result.completion_logprobs == [-0.5, -1.25] and result.latency_s > 0
    path, headers, _ = server.received[0]
    assert path == "/v1/chat/completions" and headers["Authorization"] == "Bearer secret-key"
    assert server.bodies()[0] == {
        "model": "tiny", "messages": USER, "temperature": 0.3, "top_p": 0.9, "max_tokens": 64,
        "stop": ["\n\n"], "seed": 11, "top_k": 20, "tools": tools, "logprobs": True,
        "return_token_ids": True, "chat_template_kwargs": {"enable_thinking": False}}
    assert "secret-key" not in repr(policy)


def test_openai_minimal_body_and_tool_calls(server: FakeServer) -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "look", "arguments": '{"at": "door"}'}}
    body = completion(None)
    body["choices"][0]["message"]["tool_calls"] = [call]
    server.replies = [Reply(body=body)]
    result = asyncio.run(client(server).generate(request()))
    assert result.text == '<tool_call>\n{"name": "look", "arguments": {"at": "door"}}\n</tool_call>'
    assert set(server.bodies()[0]) == {"model", "messages", "temperature", "top_p", "max_tokens"}
    assert "Authorization" not in server.received[0][1]
    assert result.completion_logprobs is None and result.completion_token_ids is None


def test_openai_retries_server_errors_then_succeeds(server: FakeServer) -> None:
    server.replies = [Reply(500, b"boom"), Reply(503, b"busy"), Reply()]
    result = asyncio.run(client(server, max_retries=3).generate(request()))
    assert result.ok and result.text == "hello" and len(server.received) == 3


def test_openai_rate_limit_is_retried_then_reported(server: FakeServer) -> None:
    server.replies = [Reply(429, b"slow down", headers={"Retry-After": "0"}), Reply()]
    assert asyncio.run(client(server).generate(request())).text == "hello"
    server.received.clear()
    server.replies = [Reply(429, b'{"error": "rate limited"}')]
    result = asyncio.run(client(server, max_retries=2).generate(request()))
    assert not result.ok and result.text == "" and "HTTP 429" in result.error and "3 attempts" in result.error
    assert len(server.received) == 3


def test_openai_client_errors_are_not_retried(server: FakeServer) -> None:
    server.replies = [Reply(400, b'{"error": "max_tokens too large"}')]
    result = asyncio.run(client(server).generate(request()))
    assert "HTTP 400" in result.error and "max_tokens too large" in result.error and len(server.received) == 1


def test_openai_timeout_becomes_an_error(server: FakeServer) -> None:
    server.replies = [Reply(delay_s=5.0)]
    start = time.monotonic()
    result = asyncio.run(client(server, timeout_s=0.2, max_retries=2).generate(request()))
    # Well before the reply would have come: the client gave up at its timeout instead of waiting.
    assert not result.ok and "timed out" in result.error and time.monotonic() - start < 4.0
    assert len(server.received) == 1  # a read timeout is not retried


@pytest.mark.parametrize("body", [b"{not json", b"[1, 2]", json.dumps({"choices": []}).encode(),
                                  json.dumps(completion("x", token_ids=["a"])).encode()])
def test_openai_malformed_response_becomes_an_error(server: FakeServer, body: bytes) -> None:
    server.replies = [Reply(body=body)]
    result = asyncio.run(client(server).generate(request()))
    assert not result.ok and result.text == "" and "malformed" in result.error


def test_openai_unreachable_server_is_retried_then_reported() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    policy = OpenAICompatiblePolicy(f"http://127.0.0.1:{port}/v1", "m", max_retries=2, backoff_s=0.01, timeout_s=2)
    result = asyncio.run(policy.generate(request()))
    assert not result.ok and "cannot reach" in result.error and "3 attempts" in result.error


def test_openai_requests_run_concurrently(server: FakeServer) -> None:
    server.replies = [Reply(delay_s=2.0)]  # long enough for a busy machine to send all eight first
    policy = client(server, max_concurrency=8)

    async def main() -> list[Generation]:
        return await asyncio.gather(*(policy.generate(request()) for _ in range(8)))

    results = asyncio.run(main())
    assert all(r.ok for r in results) and server.most_in_flight == 8  # all eight answered at once
    policy.close()


def test_openai_constructor_rejects_bad_urls() -> None:
    with pytest.raises(ValueError, match="http"):
        OpenAICompatiblePolicy("127.0.0.1:8000", "m")


# ====================================================================== transformers on a tiny model
@pytest.fixture(scope="session")
def tiny_policy(tiny_model_dir):  # noqa: F811 - the fixture imported above
    from spade_train.policies.transformers_local import TransformersPolicy

    return TransformersPolicy(tiny_model_dir)


def test_transformers_generates_ids_and_logprobs(tiny_policy) -> None:
    result = asyncio.run(tiny_policy.generate(request(temperature=1.0, max_tokens=12, seed=3)))
    assert result.ok and isinstance(result.text, str)
    assert result.prompt_token_ids == tiny_policy.render_prompt(request())
    ids, logprobs = result.completion_token_ids, result.completion_logprobs
    assert 0 < len(ids) == len(logprobs) <= 12
    assert all(math.isfinite(lp) and lp <= 0 for lp in logprobs)
    assert result.finish_reason == ("length" if len(ids) == 12 else "stop")
    assert result.text == tiny_policy.tokenizer.decode(ids, skip_special_tokens=True)


def test_transformers_seed_makes_sampling_reproducible(tiny_policy) -> None:
    async def main() -> list[Generation]:  # concurrent calls also exercise the lock
        seeds = (5, 5, 6)
        return await asyncio.gather(*(tiny_policy.generate(request(temperature=1.0, max_tokens=10, seed=s))
                                      for s in seeds))

    first, again, other = asyncio.run(main())
    assert first.completion_token_ids == again.completion_token_ids
    assert first.completion_logprobs == again.completion_logprobs and first.text == again.text
    assert first.completion_token_ids != other.completion_token_ids


def test_transformers_greedy_top_k_and_top_p(tiny_policy) -> None:
    greedy = tiny_policy.generate_blocking(request(temperature=0.0, max_tokens=6))
    assert greedy.completion_token_ids == tiny_policy.generate_blocking(
        request(temperature=0.0, max_tokens=6)).completion_token_ids
    top1 = tiny_policy.generate_blocking(request(temperature=1.0, top_k=1, max_tokens=6))
    nucleus = tiny_policy.generate_blocking(request(temperature=1.0, top_p=1e-6, max_tokens=6))
    assert top1.completion_token_ids == nucleus.completion_token_ids == greedy.completion_token_ids
    assert top1.completion_logprobs == [0.0] * 6  # the one token left has probability 1


def test_transformers_respects_max_tokens_and_stop(tiny_policy) -> None:
    short = tiny_policy.generate_blocking(request(temperature=1.0, max_tokens=4, seed=1))
    assert len(short.completion_token_ids) <= 4
    full = tiny_policy.generate_blocking(request(temperature=1.0, max_tokens=24, seed=2))
    ids = full.completion_token_ids
    pieces = [tiny_policy.tokenizer.decode([t]).strip() for t in ids]
    stop = next(p for p in pieces[len(ids) // 3:] if p.isascii() and p.isalnum())
    stopped = tiny_policy.generate_blocking(request(temperature=1.0, max_tokens=24, seed=2, stop=(stop,)))
    assert stopped.finish_reason == "stop" and stop not in stopped.text
    assert full.text.startswith(stopped.text) and len(stopped.completion_token_ids) < len(ids)
    assert stopped.completion_token_ids == ids[: len(stopped.completion_token_ids)]
    assert len(stopped.completion_logprobs) == len(stopped.completion_token_ids)


def test_transformers_failures_are_returned_not_raised(tiny_policy) -> None:
    too_long = GenerationRequest(messages=[{"role": "user", "content": "word " * 2000}])
    result = asyncio.run(tiny_policy.generate(too_long))
    assert not result.ok and "context" in result.error and result.text == ""


def test_transformers_batch_gives_each_request_its_own_reply(tiny_policy) -> None:
    """A batch (prompts of different lengths padded on the left, rows ending at different tokens, a stop
    string, a greedy row, a prompt too long) gives every request the tokens it gets alone, log-probabilities
    equal to float precision, and the same batch twice gives the same generations exactly."""
    requests = [
        GenerationRequest(messages=[{"role": "user", "content": "word " * length}],
                          sampling=SamplingParams(temperature=temperature, max_tokens=tokens, seed=seed, stop=stop))
        for length, temperature, tokens, seed, stop in (
            (1, 1.0, 12, 1, ()), (9, 1.0, 3, 2, ()), (4, 0.0, 8, None, ()), (2, 1.0, 24, 4, ("a",)),
            (2000, 1.0, 4, 5, ()), (6, 0.7, 0, 6, ()))]
    alone = [tiny_policy.generate_blocking(r) for r in requests]
    together = asyncio.run(tiny_policy.generate_batch(requests))
    assert len(together) == len(requests)
    assert not together[4].ok and "context" in together[4].error
    assert together[5].completion_token_ids == [] and together[5].finish_reason == "length"
    for single, batched in zip(alone, together):
        assert (single.text, single.finish_reason, single.completion_token_ids, single.prompt_token_ids) == \
               (batched.text, batched.finish_reason, batched.completion_token_ids, batched.prompt_token_ids)
        assert single.completion_logprobs == pytest.approx(batched.completion_logprobs, abs=1e-5)
    again = tiny_policy.generate_batch_blocking(requests)
    assert [g.completion_logprobs for g in again] == [g.completion_logprobs for g in together]


def test_transformers_without_torch_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from spade_train.policies.transformers_local import TransformersPolicy

    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(ImportError, match=r"spade-toolkit\[train\]"):
        TransformersPolicy("/nowhere")


def test_policy_modules_import_without_torch_or_vllm() -> None:
    code = ("import sys\nfor name in ('torch', 'transformers', 'vllm'): sys.modules[name] = None\n"
            "import spade_train.policies, spade_train.policies.factory, spade_train.policies.openai_compat\n"
            "import spade_train.policies.transformers_local, spade_train.policies.vllm_offline\n"
            "import spade_train.policies.scripted\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


# ====================================================================== scripted
def test_scripted_cycles_records_and_cuts_at_stop() -> None:
    policy = ScriptedPolicy(["a", "b. rest"])

    async def main() -> list[str]:
        texts = [(await policy.generate(request())).text for _ in range(3)]
        texts.append((await policy.generate(request(stop=(".",)))).text)
        return texts

    assert asyncio.run(main()) == ["a", "b. rest", "a", "b"]
    assert policy.calls == 4 and policy.requests[-1].sampling.stop == (".",)


def test_scripted_callables_latency_and_ready_generations() -> None:
    async def answer(req: GenerationRequest) -> Generation:
        return Generation(text=req.role, completion_token_ids=[1])

    assert asyncio.run(ScriptedPolicy(lambda req: req.messages[-1]["content"]).generate(request())).text == "Say hi."
    result = asyncio.run(ScriptedPolicy(answer, latency_s=0.05).generate(request()))
    assert result.text == "agent" and result.completion_token_ids == [1] and result.latency_s >= 0.05


def test_scripted_injected_failures() -> None:
    def explode(req: GenerationRequest) -> str:
        raise RuntimeError("kaboom")

    async def run(policy: ScriptedPolicy, n: int) -> list[Generation]:
        return [await policy.generate(request()) for _ in range(n)]

    failing = asyncio.run(run(ScriptedPolicy(["x", "y"], fail_every=2, failure_message="HTTP 503"), 4))
    assert [g.error for g in failing] == [None, "HTTP 503", None, "HTTP 503"]
    assert [g.text for g in failing] == ["x", "", "y", ""]
    hanging = asyncio.run(run(ScriptedPolicy(["x"], hang_every=3, timeout_s=0.02), 3))
    assert hanging[0].ok and hanging[1].ok and "timed out" in hanging[2].error
    raised = asyncio.run(ScriptedPolicy(explode).generate(request()))
    assert "kaboom" in raised.error and raised.text == ""
    with pytest.raises(ValueError):
        ScriptedPolicy([])


# ====================================================================== factory
def test_factory_parses_specs() -> None:
    policy = create_policy("openai:http://127.0.0.1:8000/v1#Qwen/Qwen3-4B", api_key="k", max_retries=1)
    assert isinstance(policy, OpenAICompatiblePolicy)
    assert policy.url == "http://127.0.0.1:8000/v1/chat/completions" and policy.model == "Qwen/Qwen3-4B"
    assert policy.max_retries == 1
    scripted = create_policy("scripted", responses=["ok"])
    assert isinstance(scripted, ScriptedPolicy) and asyncio.run(scripted.generate(request())).text == "ok"
    for bad in ("openai:http://127.0.0.1:8000/v1", "gpt4", "hf:", "http://127.0.0.1:8000/v1"):
        with pytest.raises(ValueError, match="expected one of|needs a URL and a model"):
            create_policy(bad)
    with pytest.raises(ValueError, match="openai:URL#model"):
        create_policy("http://127.0.0.1:8000/v1#m")


def test_factory_builds_local_backends(tiny_model_dir, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    from spade_train.policies.transformers_local import TransformersPolicy

    assert isinstance(create_policy(f"hf:{tiny_model_dir}"), TransformersPolicy)
    monkeypatch.setitem(sys.modules, "vllm", None)
    with pytest.raises(ImportError, match="vllm"):
        create_policy("vllm:/models/x")


# ====================================================================== vLLM without vLLM
def test_vllm_construction_without_vllm_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "vllm", None)
    with pytest.raises(ImportError) as raised:
        VLLMPolicy("/models/x", tensor_parallel_size=2)
    assert str(raised.value) == INSTALL_HINT and "\n" not in INSTALL_HINT
    assert 'pip install "spade-toolkit[vllm]"' in INSTALL_HINT


def test_vllm_sampling_params_mapping() -> None:
    assert to_vllm_sampling_kwargs(SamplingParams()) == {
        "temperature": 0.6, "top_p": 1.0, "max_tokens": 1024, "logprobs": 0}
    full = SamplingParams(temperature=0.0, top_p=0.5, top_k=40, max_tokens=7, stop=("</s>", "\n"), seed=9)
    assert to_vllm_sampling_kwargs(full, logprobs=False) == {
        "temperature": 0.0, "top_p": 0.5, "top_k": 40, "max_tokens": 7, "stop": ["</s>", "\n"], "seed": 9}


class FakeLLM:
    """Stands in for ``vllm.LLM.chat``: answers with the last message, fails on "bad" prompts."""

    def __init__(self) -> None:
        self.calls: list[int] = []
        self.gate = threading.Event()

    def chat(self, conversations, sampling_params, tools=None, use_tqdm=True):
        self.gate.wait(5)
        self.calls.append(len(conversations))
        if any(c[-1]["content"] == "bad" for c in conversations):
            raise ValueError("prompt too long")
        return [SimpleNamespace(prompt_token_ids=[1, 2], outputs=[SimpleNamespace(
            text=c[-1]["content"] + (f"+{len(tools)}tools" if tools else ""), token_ids=[5, 6],
            finish_reason="length", logprobs=[{5: SimpleNamespace(logprob=-0.1)}, {6: SimpleNamespace(logprob=-2.0)}],
        )]) for c in conversations]


def test_vllm_batches_queued_requests_and_isolates_failures() -> None:
    llm = FakeLLM()
    policy = VLLMPolicy.from_llm(llm, lambda **kwargs: kwargs, name="fake")
    tools = [{"type": "function", "function": {"name": "t"}}]

    def req(content: str, **extra: Any) -> GenerationRequest:
        return GenerationRequest(messages=[{"role": "user", "content": content}], **extra)

    async def main() -> list[Generation]:
        first = asyncio.ensure_future(policy.generate(req("first")))
        await asyncio.sleep(0.05)  # the worker now waits inside chat(); the rest queue up
        rest = [asyncio.ensure_future(policy.generate(r)) for r in
                (req("a"), req("bad"), req("b"), req("c", tools=tools))]
        await asyncio.sleep(0.05)
        llm.gate.set()
        return await asyncio.gather(first, *rest)

    first, a, bad, b, c = asyncio.run(main())
    assert first.text == "first" and a.text == "a" and b.text == "b" and c.text == "c+1tools"
    assert a.completion_token_ids == [5, 6] and a.completion_logprobs == [-0.1, -2.0]
    assert a.prompt_token_ids == [1, 2] and a.finish_reason == "length"
    assert not bad.ok and "prompt too long" in bad.error
    # first alone; then [a, bad, b] fails as a batch and is rerun one by one; c has its own tools.
    assert llm.calls == [1, 3, 1, 1, 1, 1]
    policy.close()
    assert "closed" in asyncio.run(policy.generate(req("late"))).error


def test_vllm_output_conversion_without_logprobs() -> None:
    output = SimpleNamespace(prompt_token_ids=None, outputs=[SimpleNamespace(
        text="t", token_ids=(3,), finish_reason=None, logprobs=None)])
    assert generation_from_output(output) == Generation(text="t", completion_token_ids=[3])
