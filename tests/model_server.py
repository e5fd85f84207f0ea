"""A small OpenAI-compatible model server on 127.0.0.1 for the end-to-end test: the real OpenClaw talks to it.

It answers `GET /v1/models`, `POST /v1/chat/completions` (plain or streamed as server-sent events) and
`POST /v1/embeddings` (a deterministic bag-of-words vector), and records every request it was sent. Every chat turn
gets the same short acknowledgement, so the agent's replies add nothing worth remembering.
Run it on its own with `python3 tests/model_server.py [PORT]` to try OpenClaw by hand.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import threading
import time
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
                text = REPLY
                created = int(time.time())
                usage = {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}
                model = body.get("model") or MODEL_ID
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
                                {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}
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
                chunks = [
                    {
                        **base,
                        "choices": [
                            {"index": 0, "delta": {"role": "assistant", "content": text}, "finish_reason": None}
                        ],
                    },
                    {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
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
