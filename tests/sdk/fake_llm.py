"""A local OpenAI-compatible endpoint for the tests: `POST /<mode>/v1/chat/completions`.

Modes: `good` (a legal JSON action when the prompt lists `LEGAL_ACTIONS_JSON`, else a short persona line as
`{"text": …}`), `garbage` (prose, broken JSON, an action no game has), `slow` (answers well after `slow` seconds),
`error` (500), `leaky` (as `good`, but every line it writes carries one of `bait`, the secrets the test gave it).
Every request is kept in `requests` (mode, messages)."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

LINES = ["说真的我还在观察", "这一轮我先不表态", "大家的说法都挺有意思", "我再想想再说", "先听听别人的看法吧",
         "我觉得还有疑点没解开", "这事没那么简单", "我保持中立", "我的判断还没变", "再给我一点时间",
         "我同意刚才那个思路", "感觉有人在带节奏", "我先记下来", "这个说法我半信半疑", "我们别急着下结论",
         "线头还很多呢", "我站在大家这边", "先把事情理清楚", "细节还要再看看", "今天就说这么多"]
GARBAGE = ["I think I will vote for the quiet one, honestly.", '{"type": "fly_away", "target_seat": 99',
           '{"type": "teleport"}', "```json\nnot json at all\n```"]


class FakeLLM:
    def __init__(self, slow: float = 1.0, seed: int = 0) -> None:
        self.slow = slow
        self.bait: list[str] = []
        self.bait_by_seat: dict[int, list[str]] = {}  # when set: the asking seat's own secrets ("你是N号")
        self.requests: list[tuple[str, list[dict[str, str]]]] = []
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                mode = self.path.strip("/").split("/")[0]
                status, answer = fake.answer(mode, body.get("messages") or [])
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, mode: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/{mode}/v1"

    def __enter__(self) -> FakeLLM:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def answer(self, mode: str, messages: list[dict[str, str]]) -> tuple[int, dict[str, Any]]:
        with self.lock:
            self.requests.append((mode, messages))
            rng = random.Random(self.rng.random())
        if mode == "error":
            return 500, {"error": {"message": "the model is down", "type": "server_error"}}
        if mode == "slow":
            time.sleep(self.slow)
        prompt = "\n".join(str(m.get("content")) for m in messages)
        if mode == "garbage":
            content = rng.choice(GARBAGE)
        elif "LEGAL_ACTIONS_JSON:" in prompt:
            content = json.dumps(pick(prompt, rng), ensure_ascii=False)
        else:
            line = rng.choice(LINES)
            seat = re.search(r"你是(\d+)号", prompt)
            bait = self.bait_by_seat.get(int(seat.group(1)), []) if seat and self.bait_by_seat else self.bait
            if mode == "leaky" and bait and rng.random() < 0.5:
                line += "，其实" + rng.choice(bait)
            content = json.dumps({"text": line}, ensure_ascii=False)
        usage = {"prompt_tokens": len(prompt) // 3, "completion_tokens": len(content) // 3}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        return 200, {"id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()),
                     "model": "fake", "usage": usage,
                     "choices": [{"index": 0, "finish_reason": "stop",
                                  "message": {"role": "assistant", "content": content}}]}


def pick(prompt: str, rng: random.Random) -> dict[str, Any]:
    """A well-behaved model: one of the legal actions the prompt lists (the last listing: a retry's), filled in."""
    found = re.findall(r"LEGAL_ACTIONS_JSON: (\[.*\])", prompt)
    legal = [a for a in json.loads(found[-1]) if a["type"] != "concede"]
    plain = [a for a in legal if not a["free"]]
    action = rng.choice(legal if rng.random() < 0.6 or not plain else plain)
    body: dict[str, Any] = {"type": action["type"], **action["fixed"]}
    sizes = action.get("sizes") or {}
    for name, values in action["options"].items():
        if values and name not in action["optional"]:
            body[name] = rng.sample(values, sizes[name]) if name in sizes else rng.choice(values)
    optional = [name for name in action["optional"] if action["options"][name]]
    if optional:
        name = rng.choice(optional)
        body[name] = rng.choice(action["options"][name])
    for name in action["free"]:
        body[name] = rng.choice(LINES)
    return body
