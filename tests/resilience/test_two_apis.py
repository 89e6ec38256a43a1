"""Two API processes (two gunicorn instances on their own ports) on one Redis serve the
same games, as they would behind a load balancer: every answer of one is byte for byte the
answer of the other, moves sent alternately to each play games to the end (bots on a
worker in between), and a race for one turn across both processes is won exactly once."""

from __future__ import annotations

import threading

from tests.resilience.conftest import (
    Processes,
    Reply,
    call,
    check_finished,
    create,
    play_turns,
    post_move,
    timeless,
)
from tests.waiting import LONG, scaled


def _everything(port: int, game_id: str, tokens: list[str | None]) -> list[tuple[int, bytes]]:
    """Every view (spectator's and each seat's), the events and the score sheet."""
    replies = [call(port, "GET", f"/api/v1/games/{game_id}", token=t) for t in tokens]
    replies += [
        call(port, "GET", f"/api/v1/games/{game_id}/events"),
        call(port, "GET", f"/api/v1/games/{game_id}/history"),
    ]
    assert all(r.status == 200 for r in replies), [(r.status, r.body) for r in replies]
    # A view's ETag: its version, then a digest that covers who is present, which each
    # process works out at its own moment (as `present`, which `timeless` leaves out).
    return [(r.status, timeless(r.body)) for r in replies] + [
        (0, r.headers["ETag"].split("-")[0].encode()) for r in replies[: len(tokens)]
    ]


def test_two_api_processes_answer_alike(redis_url: str, processes: Processes) -> None:
    first = processes.api(redis_url, name="api-a")
    second = processes.api(redis_url, name="api-b")
    processes.worker(redis_url)
    ports = (first, second)

    # Four people: after every move both processes give the same bytes for everything.
    people = create(first, [None] * 4, [2, 3], seed=11)
    tokens: list[str | None] = [None, *people.tokens.values()]
    moves = 0
    while True:
        seen = _everything(first, people.id, tokens)
        assert _everything(second, people.id, tokens) == seen
        view = call(first, "GET", f"/api/v1/games/{people.id}").json
        if view["phase"] == "finished":
            break
        seat = view["turn"]
        mine = call(second, "GET", f"/api/v1/games/{people.id}", token=people.tokens[seat]).json
        port, other = ports[moves % 2], ports[(moves + 1) % 2]
        answer = post_move(port, people.id, people.tokens[seat], mine, mine["you"]["legal"][-1])
        assert answer.status == 200, answer.body
        # The move's answer from one process is the view the other one gives now.
        now = call(other, "GET", f"/api/v1/games/{people.id}", token=people.tokens[seat])
        assert answer.body == now.body
        moves += 1
    assert moves == (4 + 4 * 2) + (4 + 4 * 3)
    check_finished(first, people)

    # A person against bots, the person's moves alternating between the processes and the
    # bots' turns handed to the worker by whichever process took the move before them.
    versus = create(second, [None, "easy", "heuristic", "easy"], [3, 3], seed=12)
    play_turns([first, second], versus)
    log = check_finished(second, versus)
    events = [call(p, "GET", f"/api/v1/games/{versus.id}/events").json for p in ports]
    assert events[0] == events[1] == log.events

    # Eight requests race for one bid, four through each process: exactly one is applied.
    race = create(first, [None] * 4, [3], seed=13)
    view = call(first, "GET", f"/api/v1/games/{race.id}").json
    token = race.tokens[view["turn"]]
    barrier = threading.Barrier(8)
    replies: list[Reply] = []

    def bid(i: int) -> None:
        barrier.wait()
        replies.append(
            call(ports[i % 2], "POST", f"/api/v1/games/{race.id}/bids", {"bid": i % 4}, token)
        )

    threads = [threading.Thread(target=bid, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=scaled(LONG))
    assert sorted(r.status for r in replies) == [200] + [409] * 7, [r.body for r in replies]
    assert {r.json["error"] for r in replies if r.status == 409} <= {"conflict", "not_your_turn"}
    after = [call(p, "GET", f"/api/v1/games/{race.id}") for p in ports]
    assert after[0].body == after[1].body and after[0].json["version"] == 2
