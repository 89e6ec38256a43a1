"""A Pocha webhook bot in 30 lines of standard Python: it checks each call's signature and
timestamp and answers the first legal action of the view. Register http://your-host:9000/
as the bot account's webhook first (the answer holds the secret; a service on this same
machine calls a loopback address only with POCHA_BOT_ALLOW_PRIVATE=1), then run:
POCHA_SECRET=whsec_... python examples/webhook_bot.py 9000 (docs/bots-api.md)."""

import hashlib
import hmac
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

#: How far a call's timestamp may be from this machine's clock (s): older calls are replays.
MAX_SKEW = 300


def verified(secret: str, timestamp: str, body: bytes, signature: str) -> bool:
    """Whether `signature` is the service's HMAC-SHA256 of `timestamp.body` under `secret`."""
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return hmac.compare_digest("sha256=" + mac.hexdigest(), signature)


class Bot(BaseHTTPRequestHandler):
    disable_nagle_algorithm = True  # send the answer at once, not after a delayed ACK

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        stamp = self.headers.get("X-Pocha-Timestamp", "")
        signed = self.headers.get("X-Pocha-Signature", "")
        recent = stamp.isdigit() and abs(time.time() - int(stamp)) <= MAX_SKEW
        if not recent or not verified(os.environ["POCHA_SECRET"], stamp, body, signed):
            self.send_response(401)
            self.end_headers()
            return
        view = json.loads(body)
        answer = json.dumps({"action": view["you"]["legal"][0]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)


if __name__ == "__main__":
    ThreadingHTTPServer(("", int(sys.argv[1]) if len(sys.argv) > 1 else 8000), Bot).serve_forever()
