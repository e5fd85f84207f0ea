"""A small OpenAI-compatible model server on 127.0.0.1 for the end-to-end test: the real OpenClaw talks to it.

It answers `GET /v1/models`, `POST /v1/chat/completions` (plain or streamed as server-sent events) and
`POST /v1/embeddings` (a deterministic bag-of-words vector), and records every request it was sent. Every chat turn
gets the same short acknowledgement, so the agent's replies add nothing worth remembering, unless a test gave the
server a plan for turns that hold a given phrase (`plan`): then the model calls the planned tools one by one, the way
a real model would, and its final reply repeats every tool result word for word, the worst an agent can do to a
memory system that reads its transcripts.
Run it on its own with `python3 tests/model_server.py [PORT]` to try OpenClaw by hand.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODEL_ID = "test-model"
EMBEDDING_MODEL_ID = "test-embedding"
DIMENSIONS = 64


def _text_of(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


def last_user_text(body: dict) -> str:
    for message in reversed(body.get("messages") or []):
        if isinstance(message, dict) and message.get("role") == "user":
            return _text_of(message.get("content"))
    return ""


REPLY = "Noted."


@dataclass(frozen=True)
class Plan:
    """The tool calls a model makes in a turn whose user text holds `trigger`, in order, then a reply repeating
    their results."""

    trigger: str
    calls: tuple[tuple[str, dict], ...]


def next_step(body: dict, plans: list[Plan]) -> tuple[str, dict] | str | None:
    """The planned tool call this request should get, the final reply (a string), or None (no plan applies).

    The turn is the latest user message holding a plan's trigger, unless the model has answered it already; the
    step is read off the conversation itself: the tool results that follow that message."""
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    found = [
        (i, plan)
        for plan in plans
        for i, m in enumerate(messages)
        if m.get("role") == "user" and plan.trigger in _text_of(m.get("content"))
    ]
    if not found:
        return None
    start, plan = max(found, key=lambda pair: pair[0])
    after = messages[start + 1 :]
    if any(m.get("role") == "assistant" and not m.get("tool_calls") for m in after):
        return None
    results = [_text_of(m.get("content")) for m in after if m.get("role") == "tool"]
    if len(results) < len(plan.calls):
        return plan.calls[len(results)]
    return "Here is what I found.\n\n" + "\n\n".join(results)


def embed(text: str) -> list[float]:
    """A unit vector from the words of `text`: the same words give the same direction."""
    vector = [0.0] * DIMENSIONS
    for word in re.findall(r"\w+", text.lower()):
        slot = int.from_bytes(hashlib.sha256(word.encode()).digest()[:4], "big") % DIMENSIONS
        vector[slot] += 1.0
    norm = sum(v * v for v in vector) ** 0.5 or 1.0
    return [v / norm for v in vector]


class ModelServer:
    """The server on 127.0.0.1 (port 0 picks a free one), served from a thread; `requests` holds what came in."""

    def __init__(self, port: int = 0):
        self.requests: list[dict] = []
        self.plans: list[Plan] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _json(self, status: int, data: dict) -> None:
                raw = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def do_GET(self):
                server._record("GET", self.path, None)
                if self.path.rstrip("/").endswith("/models"):
                    self._json(
                        200,
                        {
                            "object": "list",
                            "data": [
                                {"id": MODEL_ID, "object": "model", "created": 0, "owned_by": "test"},
                                {"id": EMBEDDING_MODEL_ID, "object": "model", "created": 0, "owned_by": "test"},
                            ],
                        },
                    )
                else:
                    self._json(404, {"error": {"message": f"no such path {self.path}"}})

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    self._json(400, {"error": {"message": "body is not JSON"}})
                    return
                server._record("POST", self.path, body)
                if self.path.rstrip("/").endswith("/chat/completions"):
                    self._chat(body)
                elif self.path.rstrip("/").endswith("/embeddings"):
                    inputs = body.get("input")
                    inputs = [inputs] if isinstance(inputs, str) else list(inputs or [])
                    self._json(
                        200,
                        {
                            "object": "list",
                            "model": body.get("model", EMBEDDING_MODEL_ID),
                            "data": [
                                {"object": "embedding", "index": i, "embedding": embed(str(text))}
                                for i, text in enumerate(inputs)
                            ],
                            "usage": {"prompt_tokens": len(inputs), "total_tokens": len(inputs)},
                        },
                    )
                else:
                    self._json(404, {"error": {"message": f"no such path {self.path}"}})

            def _chat(self, body: dict) -> None:
                with server._lock:
                    step = next_step(body, list(server.plans))
                text, call = (step, None) if isinstance(step, str) else (REPLY, step)
                created = int(time.time())
                usage = {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}
                model = body.get("model") or MODEL_ID
                tool_calls = []
                if call is not None:
                    number = sum(
                        1 for m in body.get("messages") or [] if isinstance(m, dict) and m.get("role") == "tool"
                    )
                    arguments = json.dumps(call[1])
                    tool_calls = [
                        {
                            "id": f"call_{number + 1}",
                            "type": "function",
                            "function": {"name": call[0], "arguments": arguments},
                        }
                    ]
                finish = "tool_calls" if tool_calls else "stop"
                if not body.get("stream"):
                    self._json(
                        200,
                        {
                            "id": "chatcmpl-test",
                            "object": "chat.completion",
                            "created": created,
                            "model": model,
                            "usage": usage,
                            "choices": [
                                {
                                    "index": 0,
                                    "finish_reason": finish,
                                    "message": {"role": "assistant", "content": None, "tool_calls": tool_calls}
                                    if tool_calls
                                    else {"role": "assistant", "content": text},
                                }
                            ],
                        },
                    )
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                base = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": created, "model": model}
                delta = (
                    {"role": "assistant", "tool_calls": [{"index": 0, **c} for c in tool_calls]}
                    if tool_calls
                    else {"role": "assistant", "content": text}
                )
                chunks = [
                    {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
                    {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
                    {**base, "choices": [], "usage": usage},
                ]
                for chunk in chunks:
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._server.daemon_threads = True
        self._server.handle_error = lambda request, address: None  # a client that hung up mid-answer is no error
        self.port = self._server.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, name="model-server", daemon=True)

    def _record(self, method: str, path: str, body) -> None:
        with self._lock:
            self.requests.append({"method": method, "path": path, "body": body})

    def chat_requests(self) -> list[dict]:
        with self._lock:
            return [r["body"] for r in self.requests if r["path"].rstrip("/").endswith("/chat/completions")]

    def plan(self, trigger: str, *calls: tuple[str, dict]) -> None:
        """In turns whose user text holds `trigger`, call these tools in order, then repeat their results."""
        with self._lock:
            self.plans.append(Plan(trigger, tuple(calls)))

    def start(self) -> "ModelServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)


if __name__ == "__main__":
    running = ModelServer(int(sys.argv[1]) if len(sys.argv) > 1 else 0).start()
    print(running.base_url, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        running.stop()
