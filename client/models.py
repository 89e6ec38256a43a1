"""The API's answers and bodies as TypedDicts, written from openapi/openapi.json by
datamodel-code-generator (`scripts/generate-clients`; do not edit: a test fails when this
file is not what the document makes). A view is a union told apart by `game`, then by
`phase`, after which `you["legal"]` has the phase's own type."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict


class AccountChange(TypedDict):
    open_to_matches: bool


class ActionStat(TypedDict):
    action: int | str
    mean_chips: NotRequired[float]
    mean_score: NotRequired[float]
    share: float
    visits: int


HandItem: TypeAlias = str


class AnalysisRequest(TypedDict):
    level: NotRequired[str]
    record: dict[str, Any]
    seed: NotRequired[int]


class Bet(TypedDict):
    bet: Literal['pass', 'hold'] | int


class Bid(TypedDict):
    bid: int


class Block(TypedDict):
    id: str
    name: str
    since: float


class BlockList(TypedDict):
    blocks: list[Block]
    most: int


class BotGameFinished(TypedDict):
    game: Literal['pocha', 'poch']
    game_id: str
    seat: int
    type: Literal['game_finished']
    version: int


class BotGameStarted(TypedDict):
    game: Literal['pocha', 'poch']
    game_id: str
    rated: bool
    seat: int
    type: Literal['game_started']


BotLevel: TypeAlias = Literal[
    'random', 'heuristic', 'easy', 'medium', 'hard', 'expert', 'master', 'ismcts-expert'
]


class BotStreamClosed(TypedDict):
    reason: Literal['key_replaced', 'account_disabled']
    type: Literal['closed']


class BotStreamReplaced(TypedDict):
    type: Literal['replaced']


class BotWebhook(TypedDict):
    decisions: int
    failures: int
    failures_in_a_row: int
    last_failure: str | None
    mean_decision_ms: float | None
    paused: bool


class BotYourTurn(TypedDict):
    game: Literal['pocha', 'poch']
    game_id: str
    seat: int
    type: Literal['your_turn']
    version: int


class Budget(TypedDict):
    iterations: int | None
    milliseconds: float | None


class ChallengeSeat(TypedDict):
    account: str | None
    bot: str | None


class Collected(TypedDict):
    cards: list[str]
    chips: int
    plate: Literal['ace', 'king', 'queen', 'jack', 'ten', 'marriage', 'sequence', 'pocher']
    seat: int


class CreatedSeat(TypedDict):
    account: NotRequired[str]
    bot: NotRequired[str]
    name: str
    open: NotRequired[bool]
    seat: int
    token: NotRequired[str]


class DealResult(TypedDict):
    deal: int
    paid: dict[str, int]
    winner: int


class Error(TypedDict):
    code: int
    error: str
    errors: NotRequired[dict[str, Any]]
    message: str
    rule: NotRequired[str]
    status: str
    version: NotRequired[int]


class GameInPlay(TypedDict):
    created: float
    game: Literal['pocha', 'poch']
    game_id: str
    last_seen: float
    left: bool
    page: str
    players: list[str | None]
    seat: int
    view: str
    waiting: bool
    your_turn: bool


class GamesInPlay(TypedDict):
    games: list[GameInPlay]


class HandResult(TypedDict):
    bids: list[int]
    cards: int
    points: list[int]
    tricks: list[int]


class Health(TypedDict):
    status: str


class HintRequest(TypedDict):
    iterations: NotRequired[int]
    level: NotRequired[
        Literal[
            'random', 'heuristic', 'easy', 'medium', 'hard', 'expert', 'master', 'ismcts-expert'
        ]
    ]
    milliseconds: NotRequired[int]


class JobTimings(TypedDict):
    ended_at: str | None
    enqueued_at: str | None
    queued_ms: float | None
    run_ms: float | None
    started_at: str | None


class Join(TypedDict):
    name: str


class LadderEntry(TypedDict):
    disabled: bool
    games: int
    id: str
    last_seen: float | None
    mu: float
    name: str
    provisional: bool
    rank: int
    rating: float
    sigma: float


class Level(TypedDict):
    description: str
    name: str


class MatchLead(TypedDict):
    bot: str
    ci95: float | None
    deals: int
    other: str
    per_hand: float
    significant: bool


Seat: TypeAlias = str


class NewAccount(TypedDict):
    kind: Literal['person', 'bot']
    name: str


class NewAccountAnswer(TypedDict):
    created: float
    id: str
    key: str
    kind: Literal['person', 'bot']
    name: str


class NewBlock(TypedDict):
    account: str


class NewBlockAnswer(TypedDict):
    declined: list[str]
    id: str
    name: str
    since: float


class NewKeyAnswer(TypedDict):
    id: str
    key: str
    webhook_removed: bool


class Opponent(TypedDict):
    account: NotRequired[str]
    bot: NotRequired[str]


class Option(TypedDict):
    allowed: str
    choices: NotRequired[list[str]]
    default: Any
    doc: str
    kind: Literal['bool', 'int', 'schedule']
    maximum: NotRequired[int]
    minimum: NotRequired[int]
    name: str


class Play(TypedDict):
    card: str


class PlayIn(TypedDict):
    card: str
    seat: int


class PlayedCard(TypedDict):
    card: str
    seat: int


class Player1(TypedDict):
    bot: NotRequired[BotLevel]
    name: str
    open: NotRequired[Literal[False]]


class Player2(TypedDict):
    bot: NotRequired[BotLevel]
    name: NotRequired[str]
    open: Literal[True]


Player: TypeAlias = Player1 | Player2


class PlayerInfo(TypedDict):
    account: NotRequired[str]
    away: bool
    bot: str | None
    left: bool
    name: str
    open: bool
    present: bool
    seat: int
    stand_in: str | None


PlayedItem: TypeAlias = list[Any]


ShowdownItem: TypeAlias = str


SuitsDoneItem: TypeAlias = str


class PochBet(TypedDict):
    amount: int
    call: Literal['pass', 'hold', 'bet', 'raise']
    seat: int


class PochBettingYou(TypedDict):
    hand: list[str]
    legal: list[Literal['pass', 'hold'] | int]
    seat: int


class PochBotStats(TypedDict):
    bot: str
    chips_per_deal: float
    ci95: float | None
    deals: int
    lead: NotRequired[MatchLead | None]
    ms_per_decision: float
    out_first: float
    seats_played: int


class PochChoosingYou(TypedDict):
    hand: list[str]
    legal: list[Literal['C', 'S', 'H', 'D']]
    seat: int


class PochEvent(TypedDict):
    amount: NotRequired[int]
    by: NotRequired[Literal['stand_in']]
    card: NotRequired[str]
    cards: NotRequired[list[str]]
    chips: NotRequired[int | list[int]]
    counts: NotRequired[dict[str, int]]
    deal: NotRequired[int]
    dealer: NotRequired[int]
    direction: NotRequired[Literal['up', 'down']]
    each: NotRequired[int]
    paid: NotRequired[int | dict[str, int]]
    plate: NotRequired[
        Literal['ace', 'king', 'queen', 'jack', 'ten', 'marriage', 'sequence', 'pocher']
    ]
    pocher: NotRequired[int]
    pot: NotRequired[int]
    seat: NotRequired[int]
    seq: int
    sets: NotRequired[dict[str, list[str]]]
    suit: NotRequired[Literal['C', 'S', 'H', 'D']]
    trump: NotRequired[Literal['C', 'S', 'H', 'D']]
    type: Literal[
        'ante',
        'deal',
        'collect',
        'bet',
        'hold',
        'raise',
        'pass',
        'no_bet',
        'showdown',
        'no_set',
        'bluff',
        'take_pot',
        'start',
        'choose',
        'play',
        'deal_won',
        'leave',
        'game_over',
    ]
    version: int
    winner: NotRequired[int]
    winners: NotRequired[list[int]]


class PochResult(TypedDict):
    chips: list[int]
    winners: list[int]


class PochRules(TypedDict):
    ante: NotRequired[int]
    chips: NotRequired[int]
    deals: NotRequired[int]
    players: NotRequired[int]
    turn_seconds: NotRequired[int]


class PochRulesInForce(TypedDict):
    ante: int
    chips: int
    deals: int
    players: int
    turn_seconds: int


class PochStartingYou(TypedDict):
    hand: list[str]
    legal: list[str]
    seat: int


class PochYou(TypedDict):
    hand: list[str]
    legal: list[int | str]
    seat: int


class PochYouIn(TypedDict):
    hand: list[HandItem]
    legal: NotRequired[list[Any]]
    seat: int


class Rating(TypedDict):
    bids: int
    exact_bids: int
    game: str
    games: int
    mu: float
    provisional: bool
    rating: float
    sigma: float


class RatingHistoryEntry(TypedDict):
    counted: bool
    game_id: str
    given_up: NotRequired[bool]
    match_game: NotRequired[int]
    match_id: NotRequired[str]
    mu: float
    not_counted_against: NotRequired[list[str]]
    rank: int
    rating: float
    reason: NotRequired[str]
    sigma: float
    when: float


class Ready(TypedDict):
    queues: dict[str, int]
    redis: str
    status: str
    workers: int


class Refusal(TypedDict):
    bid: NotRequired[int]
    card: NotRequired[str]
    message: str
    rule: str


class Rules(TypedDict):
    dealer_restriction: NotRequired[bool]
    exact_bonus: NotRequired[int]
    fallar: NotRequired[bool]
    montar: NotRequired[bool]
    penalty: NotRequired[int]
    per_trick: NotRequired[int]
    pisar: NotRequired[bool]
    players: NotRequired[int]
    schedule: NotRequired[Literal['classic', 'pyramid'] | list[int]]
    tiebreak: NotRequired[bool]
    turn_seconds: NotRequired[int]


class RulesInForce(TypedDict):
    dealer_restriction: bool
    exact_bonus: int
    fallar: bool
    montar: bool
    penalty: int
    per_trick: int
    pisar: bool
    players: int
    schedule: Literal['classic', 'pyramid'] | list[int]
    tiebreak: bool
    turn_seconds: int


class SeatBot(TypedDict):
    level: BotLevel


class SeatTaken(TypedDict):
    game_id: str
    host_token: NotRequired[str]
    seat: int
    seeded: NotRequired[bool]
    table_code: str
    token: str
    warning: NotRequired[str]


class SeatWeighed(TypedDict):
    agreed: int
    decisions: int
    score_given_up: float
    scored: int
    seat: int


class Start(TypedDict):
    bots: NotRequired[BotLevel]


class Suit(TypedDict):
    suit: str


class Table(TypedDict):
    code: str | None
    link: NotRequired[str]
    listed: bool
    open_seats: int
    rated: NotRequired[bool]
    rematch: str | None
    stand_in_level: str
    waiting: bool


class TimedTurns(TypedDict):
    clocks_ran_out: int
    decisions: int
    mean_decision_ms: float | None


class Trump(TypedDict):
    card: str
    holder: int | None


class TrumpIn(TypedDict):
    card: str
    holder: NotRequired[int | None]


class WebhookAnswer(TypedDict):
    action: int | str


class WebhookBody(TypedDict):
    url: str


class WebhookMatch(TypedDict):
    game: int
    id: str


class WebhookRegistered(TypedDict):
    decisions: int
    failures: int
    failures_in_a_row: int
    last_failure: str | None
    mean_decision_ms: float | None
    paused: bool
    secret: str
    url: str


class WebhookSeat(TypedDict):
    hand: list[str]
    legal: list[int | str]
    seat: int


class WebhookStatus(TypedDict):
    decisions: int
    failures: int
    failures_in_a_row: int
    last_failure: str | None
    mean_decision_ms: float | None
    paused: bool
    url: str


class Weighed(TypedDict):
    advised: int | str
    advised_score: float | None
    agrees: bool
    number: int
    played: int | str
    played_score: float | None
    seat: int


class You(TypedDict):
    hand: list[str]
    legal: list[int | str]
    refused: list[Refusal]
    seat: int


class Account(TypedDict):
    created: float
    disabled: bool
    id: str
    kind: Literal['person', 'bot']
    last_seen: float
    level: str | None
    name: str
    open_to_matches: bool
    ratings: list[Rating]
    turns: NotRequired[TimedTurns]
    webhook: NotRequired[BotWebhook]


class Advice(TypedDict):
    action: int | str
    analysis: list[ActionStat]
    budget: Budget
    elapsed_ms: float
    game: NotRequired[str]
    iterations: int
    level: str
    seat: int
    version: NotRequired[int]


class AiMoveRequest(TypedDict):
    bids: list[int | None]
    cards_per_player: NotRequired[int]
    dealer: int
    game: NotRequired[Literal['pocha']]
    hand: list[HandItem]
    iterations: NotRequired[int]
    level: NotRequired[
        Literal[
            'random', 'heuristic', 'easy', 'medium', 'hard', 'expert', 'master', 'ismcts-expert'
        ]
    ]
    milliseconds: NotRequired[int]
    plays: NotRequired[list[PlayIn]]
    rules: NotRequired[Rules]
    scores: NotRequired[list[int | None]]
    seat: int
    trick: NotRequired[list[PlayIn]]
    tricks_won: NotRequired[list[int | None]]
    trump: TrumpIn
    turn: NotRequired[int]


class AnalysisResult(TypedDict):
    decisions: list[Weighed]
    level: str
    seats: list[SeatWeighed]
    seed: int


class BiddingYou(TypedDict):
    hand: list[str]
    legal: list[int]
    refused: list[Refusal]
    seat: int


class BotStats(TypedDict):
    bot: str
    ci95: float | None
    decisions: int
    exact_rate: float
    games: float
    hands: int
    lead: NotRequired[MatchLead | None]
    mean_bid: float
    mean_score: float
    mean_tricks: float
    ms_per_decision: float
    win_rate: float


class Challenge(TypedDict):
    accepted: list[str]
    challenger: str
    created: float
    expires: float
    game: Literal['pocha', 'poch']
    game_id: str | None
    id: str
    rated: bool
    rules: dict[str, Any]
    seats: list[ChallengeSeat]
    status: Literal['open', 'starting', 'accepted', 'declined', 'cancelled', 'expired']


class ChallengeList(TypedDict):
    challenges: list[Challenge]


class CreateGame(TypedDict):
    game: NotRequired[Literal['pocha', 'poch']]
    listed: NotRequired[bool]
    players: list[Player]
    rated: NotRequired[bool]
    rules: NotRequired[Rules | PochRules]
    seed: NotRequired[int]
    stand_in_level: NotRequired[BotLevel]


class CreatedGame(TypedDict):
    host_token: str
    id: str
    seats: list[CreatedSeat]
    table_code: str | None
    table_link: str | None
    version: int


class Event(TypedDict):
    bid: NotRequired[int]
    bids: NotRequired[list[int]]
    bot: NotRequired[str]
    by: NotRequired[Literal['stand_in']]
    card: NotRequired[str]
    cards_per_player: NotRequired[int]
    dealer: NotRequired[int]
    game_id: NotRequired[str]
    hand_number: NotRequired[int]
    hands_total: NotRequired[int]
    mano: NotRequired[int]
    name: NotRequired[str]
    points: NotRequired[list[int]]
    removed: NotRequired[bool]
    scores: NotRequired[list[int]]
    seat: NotRequired[int]
    seq: int
    tiebreak: NotRequired[bool]
    trick: NotRequired[list[PlayedCard]]
    trick_number: NotRequired[int]
    tricks: NotRequired[list[int]]
    tricks_won: NotRequired[list[int]]
    trump: NotRequired[Trump]
    type: Literal[
        'hand_dealt',
        'bid',
        'card_played',
        'trick_won',
        'hand_scored',
        'game_over',
        'seat_taken',
        'seat_bot',
        'seat_opened',
        'game_started',
        'seat_away',
        'seat_back',
        'seat_left',
        'rematch',
    ]
    version: int
    winners: NotRequired[list[int]]


class FinishedGameView(TypedDict):
    bids: list[int | None]
    cards_per_player: int
    deadline: float | None
    dealer: int
    game: Literal['pocha']
    hand_number: int
    hand_sizes: list[int]
    hands_total: int
    id: str
    last_event: int
    last_trick: list[PlayedCard]
    mano: int
    phase: Literal['finished']
    players: list[PlayerInfo]
    plays: list[PlayedCard]
    rules: RulesInForce
    scores: list[int]
    seat: int | None
    seconds_left: float | None
    seeded: bool
    table: Table | None
    tiebreak_hand: int | None
    trick: list[PlayedCard]
    tricks_won: list[int]
    trump: Trump
    turn: int | None
    version: int
    winners: list[int]
    winning: int | None
    you: NotRequired[You]


class GameRecord(TypedDict):
    deal: int
    decisions: list[int]
    game: int
    hands: list[HandResult]
    rules: RulesInForce
    scores: list[int]
    seats: list[str]
    seed: int
    stand_in_decisions: NotRequired[dict[str, int]]
    stand_in_decisions_by_seat: NotRequired[list[int]]
    table: NotRequired[str]
    think_ms: list[float]
    winners: list[int]


class GameRuleBook(TypedDict):
    bot_levels: list[Level]
    game: str
    max_players: int
    min_players: int
    options: list[Option]
    title: str


class HandRecord(TypedDict):
    bids: list[int]
    cards: int
    dealer: int
    hand_number: int
    hands: list[list[str]]
    points: list[int]
    tiebreak: bool
    totals: list[int]
    tricks: list[int]
    trump: Trump


class History(TypedDict):
    finished: bool
    game: Literal['pocha']
    hands: list[HandRecord]
    id: str
    players: list[PlayerInfo]
    scores: list[int]
    version: int
    winners: list[int]


class Job(TypedDict):
    error: str | None
    id: str
    kind: Literal['hint', 'ai_move']
    result: Advice | None
    status: Literal['queued', 'started', 'finished', 'failed']
    timings: JobTimings
    url: str


class Ladder(TypedDict):
    entries: list[LadderEntry]
    game: str
    kind: str
    offset: int
    total: int


class LobbyTable(TypedDict):
    code: str
    created: float
    game: Literal['pocha', 'poch']
    game_id: str
    open_seats: int
    players: list[PlayerInfo]
    rules: RulesInForce | PochRulesInForce
    seeded: bool
    waiting: bool


class Match(TypedDict):
    at_tables: bool
    bots: list[BotStats | PochBotStats]
    created_at: str
    difference: NotRequired[MatchLead | None]
    done: int
    duplicate: bool
    failed: int
    finished_at: str | None
    game: Literal['pocha', 'poch']
    games: int
    id: str
    paused: list[str]
    rated: bool
    records_url: str
    rules: RulesInForce | PochRulesInForce
    seats: list[str]
    seed: NotRequired[int]
    stand_in_decisions: dict[str, int]
    status: Literal['running', 'finished']
    url: str


class MatchRequest(TypedDict):
    duplicate: NotRequired[bool]
    game: NotRequired[Literal['pocha', 'poch']]
    games: int
    rated: NotRequired[bool]
    rules: NotRequired[Rules | PochRules]
    seats: list[Seat]
    seed: NotRequired[int]


class NewChallenge(TypedDict):
    game: NotRequired[Literal['pocha', 'poch']]
    opponents: list[Opponent]
    rated: NotRequired[bool]
    rules: NotRequired[Rules | PochRules]


class PlayingYou(TypedDict):
    hand: list[str]
    legal: list[str]
    refused: list[Refusal]
    seat: int


class PochAiMoveRequest(TypedDict):
    active: list[bool]
    bets: list[dict[str, Any]]
    chips: list[int]
    collected: list[dict[str, Any]]
    deal: int
    deal_results: NotRequired[list[dict[str, Any]]]
    dealer: int
    direction: str | None
    game: Literal['poch']
    hand_sizes: list[int]
    iterations: NotRequired[int]
    level: NotRequired[Literal['random', 'heuristic', 'easy', 'medium', 'hard']]
    milliseconds: NotRequired[int]
    phase: str
    plates: dict[str, int]
    played: list[PlayedItem]
    pot: int
    result: NotRequired[dict[str, Any] | None]
    rules: PochRules
    showdown: dict[str, list[ShowdownItem]]
    starter: int | None
    suit: str | None
    suits_done: list[SuitsDoneItem]
    trump: str | None
    turn: int | None
    you: PochYouIn


class PochBettingGameView(TypedDict):
    active: list[bool]
    bets: list[PochBet]
    chips: list[int]
    collected: list[Collected]
    deadline: float | None
    deal: int
    deal_results: list[DealResult]
    dealer: int
    direction: Literal['up', 'down'] | None
    game: Literal['poch']
    hand_sizes: list[int]
    id: str
    last_event: int
    phase: Literal['betting']
    plates: dict[str, int]
    played: list[list[int | str]]
    players: list[PlayerInfo]
    pot: int
    result: PochResult | None
    rules: PochRulesInForce
    seconds_left: float | None
    seeded: bool
    showdown: dict[str, list[str]]
    starter: int | None
    suit: Literal['C', 'S', 'H', 'D'] | None
    suits_done: list[Literal['C', 'S', 'H', 'D']]
    table: Table | None
    trump: Literal['C', 'S', 'H', 'D'] | None
    turn: int
    version: int
    you: NotRequired[PochBettingYou]


class PochChoosingGameView(TypedDict):
    active: list[bool]
    bets: list[PochBet]
    chips: list[int]
    collected: list[Collected]
    deadline: float | None
    deal: int
    deal_results: list[DealResult]
    dealer: int
    direction: Literal['up', 'down'] | None
    game: Literal['poch']
    hand_sizes: list[int]
    id: str
    last_event: int
    phase: Literal['choosing']
    plates: dict[str, int]
    played: list[list[int | str]]
    players: list[PlayerInfo]
    pot: int
    result: PochResult | None
    rules: PochRulesInForce
    seconds_left: float | None
    seeded: bool
    showdown: dict[str, list[str]]
    starter: int | None
    suit: Literal['C', 'S', 'H', 'D'] | None
    suits_done: list[Literal['C', 'S', 'H', 'D']]
    table: Table | None
    trump: Literal['C', 'S', 'H', 'D'] | None
    turn: int
    version: int
    you: NotRequired[PochChoosingYou]


class PochGameRecord(TypedDict):
    chips: list[int]
    deal: int
    decisions: list[int]
    game: int
    rules: PochRulesInForce
    seats: list[str]
    seed: int
    stand_in_decisions: NotRequired[dict[str, int]]
    stand_in_decisions_by_seat: NotRequired[list[int]]
    table: NotRequired[str]
    think_ms: list[float]
    winner: int | None


class PochHistory(TypedDict):
    chips: list[int]
    deals: list[DealResult]
    finished: bool
    game: Literal['poch']
    id: str
    players: list[PlayerInfo]
    result: PochResult | None
    version: int


class PochOverGameView(TypedDict):
    active: list[bool]
    bets: list[PochBet]
    chips: list[int]
    collected: list[Collected]
    deadline: float | None
    deal: int
    deal_results: list[DealResult]
    dealer: int
    direction: Literal['up', 'down'] | None
    game: Literal['poch']
    hand_sizes: list[int]
    id: str
    last_event: int
    phase: Literal['over']
    plates: dict[str, int]
    played: list[list[int | str]]
    players: list[PlayerInfo]
    pot: int
    result: PochResult | None
    rules: PochRulesInForce
    seconds_left: float | None
    seeded: bool
    showdown: dict[str, list[str]]
    starter: int | None
    suit: Literal['C', 'S', 'H', 'D'] | None
    suits_done: list[Literal['C', 'S', 'H', 'D']]
    table: Table | None
    trump: Literal['C', 'S', 'H', 'D'] | None
    turn: int | None
    version: int
    you: NotRequired[PochYou]


class PochStartingGameView(TypedDict):
    active: list[bool]
    bets: list[PochBet]
    chips: list[int]
    collected: list[Collected]
    deadline: float | None
    deal: int
    deal_results: list[DealResult]
    dealer: int
    direction: Literal['up', 'down'] | None
    game: Literal['poch']
    hand_sizes: list[int]
    id: str
    last_event: int
    phase: Literal['starting']
    plates: dict[str, int]
    played: list[list[int | str]]
    players: list[PlayerInfo]
    pot: int
    result: PochResult | None
    rules: PochRulesInForce
    seconds_left: float | None
    seeded: bool
    showdown: dict[str, list[str]]
    starter: int | None
    suit: Literal['C', 'S', 'H', 'D'] | None
    suits_done: list[Literal['C', 'S', 'H', 'D']]
    table: Table | None
    trump: Literal['C', 'S', 'H', 'D'] | None
    turn: int
    version: int
    you: NotRequired[PochStartingYou]


class PochWaitingGameView(TypedDict):
    active: list[bool]
    bets: list[PochBet]
    chips: list[int]
    collected: list[Collected]
    deadline: float | None
    deal: int
    deal_results: list[DealResult]
    dealer: int
    direction: Literal['up', 'down'] | None
    game: Literal['poch']
    hand_sizes: list[int]
    id: str
    last_event: int
    phase: Literal['waiting']
    plates: dict[str, int]
    played: list[list[int | str]]
    players: list[PlayerInfo]
    pot: int
    result: PochResult | None
    rules: PochRulesInForce
    seconds_left: float | None
    seeded: bool
    showdown: dict[str, list[str]]
    starter: int | None
    suit: Literal['C', 'S', 'H', 'D'] | None
    suits_done: list[Literal['C', 'S', 'H', 'D']]
    table: Table | None
    trump: Literal['C', 'S', 'H', 'D'] | None
    turn: int | None
    version: int
    you: NotRequired[PochYou]


class RatingHistory(TypedDict):
    entries: list[RatingHistoryEntry]
    game: str


class RuleBook(TypedDict):
    bot_levels: list[Level]
    games: list[GameRuleBook]
    options: list[Option]


class WaitingGameView(TypedDict):
    bids: list[int | None]
    cards_per_player: int
    deadline: float | None
    dealer: int
    game: Literal['pocha']
    hand_number: int
    hand_sizes: list[int]
    hands_total: int
    id: str
    last_event: int
    last_trick: list[PlayedCard]
    mano: int
    phase: Literal['waiting']
    players: list[PlayerInfo]
    plays: list[PlayedCard]
    rules: RulesInForce
    scores: list[int]
    seat: int | None
    seconds_left: float | None
    seeded: bool
    table: Table | None
    tiebreak_hand: int | None
    trick: list[PlayedCard]
    tricks_won: list[int]
    trump: Trump
    turn: int | None
    version: int
    winners: list[int]
    winning: int | None
    you: NotRequired[You]


class WebhookCall(TypedDict):
    game: Literal['pocha', 'poch']
    id: NotRequired[str]
    match: NotRequired[WebhookMatch]
    phase: str
    turn: int
    version: NotRequired[int]
    you: WebhookSeat


class Analysis(TypedDict):
    error: str | None
    id: str
    kind: Literal['analysis']
    result: AnalysisResult | None
    status: Literal['queued', 'started', 'finished', 'failed']
    timings: JobTimings
    url: str


class BiddingGameView(TypedDict):
    bids: list[int | None]
    cards_per_player: int
    deadline: float | None
    dealer: int
    game: Literal['pocha']
    hand_number: int
    hand_sizes: list[int]
    hands_total: int
    id: str
    last_event: int
    last_trick: list[PlayedCard]
    mano: int
    phase: Literal['bidding']
    players: list[PlayerInfo]
    plays: list[PlayedCard]
    rules: RulesInForce
    scores: list[int]
    seat: int | None
    seconds_left: float | None
    seeded: bool
    table: Table | None
    tiebreak_hand: int | None
    trick: list[PlayedCard]
    tricks_won: list[int]
    trump: Trump
    turn: int
    version: int
    winners: list[int]
    winning: int | None
    you: NotRequired[BiddingYou]


class BotChallengeEvent(TypedDict):
    challenge: Challenge
    type: Literal['challenge']


BotEvent: TypeAlias = (
    BotGameStarted
    | BotYourTurn
    | BotGameFinished
    | BotChallengeEvent
    | BotStreamReplaced
    | BotStreamClosed
)


class PlayingGameView(TypedDict):
    bids: list[int | None]
    cards_per_player: int
    deadline: float | None
    dealer: int
    game: Literal['pocha']
    hand_number: int
    hand_sizes: list[int]
    hands_total: int
    id: str
    last_event: int
    last_trick: list[PlayedCard]
    mano: int
    phase: Literal['playing']
    players: list[PlayerInfo]
    plays: list[PlayedCard]
    rules: RulesInForce
    scores: list[int]
    seat: int | None
    seconds_left: float | None
    seeded: bool
    table: Table | None
    tiebreak_hand: int | None
    trick: list[PlayedCard]
    tricks_won: list[int]
    trump: Trump
    turn: int
    version: int
    winners: list[int]
    winning: int | None
    you: NotRequired[PlayingYou]


PochGameView: TypeAlias = (
    PochWaitingGameView
    | PochBettingGameView
    | PochStartingGameView
    | PochChoosingGameView
    | PochOverGameView
)


GameView: TypeAlias = WaitingGameView | BiddingGameView | PlayingGameView | FinishedGameView
