"""`pocha bench hostile`'s floods at tables (tools.bench_griefers), at a tiny scale, on
`pocha serve` as shipped: leave spam, heavy games, a lobby flood and outside bots with
hostile webhooks each run against an unrelated person's game, and what must always hold
does: no request of anyone's is answered 5xx or left unanswered, the person's event stream
carries every event of its game in order, and the report has every figure and every
answer counted. How fast is the
bench's to say, never this test's: nothing here compares a latency with anything.
"""

from __future__ import annotations

from tests.waiting import LONG, scaled
from tools.bench_griefers import SCENARIOS, TablesSpec, run

#: Each phase a couple of seconds, a handful of hostile addresses, and a phase held on for
#: as long as a loaded machine needs to give it one sample of each latency. The person
#: moves at most 4 times a second, under the shipped limit on moves (300 a minute), however
#: quickly its bots answer.
TINY = TablesSpec(
    seconds=2.0,
    think=0.25,
    griefers=2,
    heavy_addresses=2,
    lobby_rate=10.0,
    lobby_addresses=3,
    table_addresses=2,
    table_rate=1.0,
    outside_bots=2,
    outside_games=4,
    outside_hosts=2,
    min_samples=1,
    patience=scaled(LONG),
    api_processes=1,
)


def test_floods_at_tables_answer_every_request_and_leave_the_persons_stream_whole() -> None:
    result = run(TINY, SCENARIOS)
    report = "\n".join(result.lines)
    assert result.sound, report
    assert result.stream is None, report
    assert [s.scenario for s in result.scenarios] == list(SCENARIOS), report
    for scenario in result.scenarios:
        assert scenario.report is not None, report
        assert scenario.server_errors == 0 and scenario.unanswered == 0, report
        # Both latencies were sampled in both phases, so both ratios are figures.
        for figures in (scenario.idle, scenario.flood):
            assert figures.move and figures.bot, report
        assert all(r is not None for r in scenario.ratios().values()), report
    by_name = {s.scenario: s.report for s in result.scenarios}
    leave = by_name["leave-spam"]
    assert leave is not None
    # Every griefer made its table, took a seat at the other's and started its own.
    assert leave.answers["create"] == {"201": TINY.griefers}, report
    assert leave.answers["join"] == {"201": TINY.griefers}, report
    assert leave.answers["start"] == {"200": TINY.griefers}, report
    assert sum(leave.answers["leave"].values()) and sum(leave.answers["return"].values())
    assert any(note.startswith("seat events: +") for note in leave.notes), report
    heavy = by_name["heavy-bots"]
    assert heavy is not None and any(kind.startswith("8 bots") for kind in heavy.answers)
    assert any(kind.startswith("8 people") for kind in heavy.answers), report
    lobby = by_name["lobby-flood"]
    assert lobby is not None
    assert sum(lobby.answers["lobby"].values()) and sum(lobby.answers["listed table"].values())
    outside = by_name["outside-bots"]
    assert outside is not None
    # Each bot account was made and its hostile webhook taken (loopback being allowed).
    assert outside.answers["sign up"] == {"201": TINY.outside_bots}, report
    assert outside.answers["webhook"] == {"200": TINY.outside_bots}, report
    assert any(note.startswith("webhook calls received: ") for note in outside.notes), report
    # The report says it all, scenario by scenario.
    for scenario in SCENARIOS:
        assert any(line.startswith(scenario) for line in result.lines), report
    passes = sum(1 for line in result.lines if line.strip().startswith(("PASS", "FAIL")))
    assert passes == len(SCENARIOS), report
    assert "every event of its game, in order" in report
