"""docs/bots-api.md's webhook bot works when pasted: its `curl` block, run by bash against a
live service that may call loopback, signs a bot up, registers its webhook, starts
examples/webhook_bot.py with the secret and has the webhook play every turn of a game the
bot made with its key. Its signature check, pasted, accepts the documented test vector,
which is what the service's own signing gives; and the example bot, run as a process,
refuses a call whose timestamp is stale or whose signature is wrong."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from core.play.webhooks import LONGEST_CALL, signature
from tests.live import serving
from tests.redis_server import fresh_db_url
from tests.waiting import LONG, scaled, wait_until
from tools.embedded_redis import RedisServer, free_port

ROOT = Path(__file__).resolve().parents[2]
BOTS_API = ROOT / "docs" / "bots-api.md"
EXAMPLE = ROOT / "examples" / "webhook_bot.py"
#: A logical DB of the session's Redis no other test uses: the walkthrough's own service.
WEBHOOK_DB = 15


def _block(language: str, starts: str) -> str:
    pattern = rf"```{language}\n({re.escape(starts)}.*?)```"
    (block,) = re.findall(pattern, BOTS_API.read_text(), re.S)
    return block


@pytest.mark.skipif(shutil.which("curl") is None, reason="the walkthrough uses curl")
def test_the_webhook_walkthrough_plays_a_game_by_webhook(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    # Calls cut at the longest deadline a call may have, not the default 2 s: the
    # walkthrough counts every answer of the example bot in time, on a machine maybe busy.
    with serving(
        fresh_db_url(redis_server, WEBHOOK_DB),
        tmp_path,
        POCHA_BOT_ALLOW_PRIVATE="1",
        POCHA_BOT_WEBHOOK_MS=str(int(LONGEST_CALL * 1000)),
    ) as live:
        port = free_port()
        script = (
            _block("sh", "API=")
            .replace("http://localhost:8000", live.url)
            .replace("127.0.0.1:9000", f"127.0.0.1:{port}")
            .replace("webhook_bot.py 9000", f"webhook_bot.py {port}")
        )
        # Its own session, so that the example bot it starts goes with it, however it ends.
        run = subprocess.Popen(
            ["bash", "-euo", "pipefail", "-c", script], cwd=ROOT, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, start_new_session=True,
        )  # fmt: skip
        try:
            out, err = run.communicate(timeout=scaled(LONG))
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    assert run.returncode == 0, out + err
    said = re.search(r"^decisions (\d+) failures (\d+)$", out, re.M)
    assert said is not None, out + err
    # 3 bids and 6 cards, and 2 more for each tiebreak hand of a tied game.
    assert int(said.group(1)) >= 9 and said.group(2) == "0", out


def test_the_documented_signature_check_takes_the_services_signature() -> None:
    pasted: dict[str, object] = {}
    exec(_block("python", "import hashlib, hmac"), pasted)  # its own assert: the vector
    vector = re.search(
        r"the secret `(whsec_\w+)`, the timestamp `(\d+)` and the\s+body `(.+?)` the header is\s+"
        r"`(sha256=[0-9a-f]{64})`",
        BOTS_API.read_text(),
    )
    assert vector is not None
    secret, stamp, body, header = vector.groups()
    assert signature(secret, stamp, body.encode()) == header


def _post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    asked = urllib.request.Request(url, data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(asked, timeout=scaled(LONG)) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read()


def test_the_example_bot_refuses_stale_or_forged_calls(tmp_path: Path) -> None:
    secret, port = "whsec_walkthrough", free_port()
    bot = subprocess.Popen(
        [sys.executable, str(EXAMPLE), str(port)], env={**os.environ, "POCHA_SECRET": secret},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/"
    try:

        def listening() -> bool:
            try:
                urllib.request.urlopen(url, timeout=1)
            except urllib.error.HTTPError:
                return True  # it answers (501: it takes POST only)
            except OSError:
                return False
            return True

        wait_until(listening, LONG, "the example bot to listen")
        body = json.dumps({"you": {"legal": [2, 0, 1]}}, separators=(",", ":")).encode()

        def signed(stamp: str, key: str = secret) -> dict[str, str]:
            return {
                "Content-Type": "application/json",
                "X-Pocha-Timestamp": stamp,
                "X-Pocha-Signature": signature(key, stamp, body),
            }

        now = str(int(time.time()))
        assert _post(url, body, signed(now)) == (200, b'{"action": 2}')
        stale = str(int(time.time()) - 3600)
        assert _post(url, body, signed(stale))[0] == 401
        assert _post(url, body, signed(now, "whsec_another"))[0] == 401
        assert _post(url, body, {**signed(now), "X-Pocha-Timestamp": "soon"})[0] == 401
    finally:
        bot.terminate()
        bot.wait(timeout=scaled(LONG))
