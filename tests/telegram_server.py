"""A small stand-in for the Telegram Bot API on 127.0.0.1, so the real OpenClaw's Telegram channel receives a group
chat message from a stranger exactly as it would from Telegram (`channels.telegram.apiRoot` points here).

`say_in_group` queues an update that the next `getUpdates` long poll returns; every other Bot API method succeeds
with a plausible result, and every call is recorded.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

BOT_TOKEN = "123456789:TEST-token-for-a-local-bot-api"
BOT = {
    "id": 123456789,
    "is_bot": True,
    "first_name": "Claw",
    "username": "claw_test_bot",
    "can_join_groups": True,
    "can_read_all_group_messages": True,
    "supports_inline_queries": False,
}


class TelegramServer:
    def __init__(self, port: int = 0):
        self.calls: list[tuple[str, dict]] = []
        self._updates: list[dict] = []
        self._next_update = 1
        self._next_message = 1000
        self._cond = threading.Condition()
        self._stopping = False
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _params(self) -> dict:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                kind = self.headers.get("Content-Type", "")
                if "json" in kind and raw:
                    try:
                        return json.loads(raw)
                    except ValueError:
                        return {}
                if raw and "form-urlencoded" in kind:
                    return {k: v[0] for k, v in parse_qs(raw.decode()).items()}
                query = self.path.partition("?")[2]
                return {k: v[0] for k, v in parse_qs(query).items()}

            def _answer(self, status: int, data: dict) -> None:
                raw = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def do_GET(self):
                self._handle()

            def do_POST(self):
                self._handle()

            def _handle(self):
                parts = self.path.partition("?")[0].strip("/").split("/")
                if len(parts) != 2 or parts[0] != f"bot{BOT_TOKEN}":
                    self._answer(404, {"ok": False, "error_code": 404, "description": "Not Found"})
                    return
                method, params = parts[1], self._params()
                server._record(method, params)
                self._answer(200, {"ok": True, "result": server._result(method, params)})

        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._server.daemon_threads = True
        self._server.handle_error = lambda request, address: None  # a client that hung up mid-answer is no error
        self.port = self._server.server_address[1]
        self.api_root = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, name="telegram-server", daemon=True)

    def _record(self, method: str, params: dict) -> None:
        with self._cond:
            self.calls.append((method, params))

    def _result(self, method: str, params: dict):
        if method == "getMe":
            return BOT
        if method == "getUpdates":
            return self._poll(params)
        if method in ("sendMessage", "editMessageText", "sendPhoto", "sendDocument"):
            with self._cond:
                self._next_message += 1
                number = self._next_message
            chat_id = params.get("chat_id")
            return {
                "message_id": number,
                "date": int(time.time()),
                "from": BOT,
                "chat": {"id": int(chat_id) if str(chat_id).lstrip("-").isdigit() else 0, "type": "group"},
                "text": params.get("text", ""),
            }
        if method == "getChat":
            return {"id": int(params.get("chat_id", 0)), "type": "group", "title": "Test group"}
        if method in ("getMyCommands", "getChatAdministrators"):
            return []
        if method == "getChatMember":
            return {"status": "member", "user": BOT}
        if method == "getWebhookInfo":
            return {"url": "", "has_custom_certificate": False, "pending_update_count": 0}
        return True

    def _poll(self, params: dict) -> list[dict]:
        offset = int(params.get("offset") or 0)
        wait = min(float(params.get("timeout") or 0), 2.0)
        deadline = time.monotonic() + wait
        with self._cond:
            while True:
                ready = [u for u in self._updates if u["update_id"] >= offset]
                left = deadline - time.monotonic()
                if ready or left <= 0 or self._stopping:
                    return ready
                self._cond.wait(left)

    def say_in_group(self, chat_id: int, title: str, sender_id: int, sender_name: str, text: str) -> None:
        """A group member (not the bot's owner) writes `text` in the group."""
        with self._cond:
            self._next_message += 1
            self._updates.append(
                {
                    "update_id": self._next_update,
                    "message": {
                        "message_id": self._next_message,
                        "date": int(time.time()),
                        "text": text,
                        "chat": {"id": chat_id, "type": "supergroup", "title": title},
                        "from": {"id": sender_id, "is_bot": False, "first_name": sender_name},
                    },
                }
            )
            self._next_update += 1
            self._cond.notify_all()

    def methods(self) -> list[str]:
        with self._cond:
            return [method for method, _ in self.calls]

    def start(self) -> "TelegramServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)
