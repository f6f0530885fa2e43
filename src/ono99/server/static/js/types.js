// The messages of docs/protocol.md as types, for the type checker only (jsconfig.json): this
// module holds JSDoc typedefs and nothing that runs. A module names the ones it uses:
//   /** @typedef {import("./types.js").TableMessage} TableMessage */
// docs/protocol.md is the home of every fact here; the server builds these messages in
// src/ono99/session/wire.py and encode.py.

// ------------------------------------------------------------------ words

/** @typedef {"2022" | "1980"} Edition */
/** @typedef {"in" | "out" | "out_of_round"} Status  a seat's status (RULES.md), per seat */
/** @typedef {"cw" | "ccw"} Direction */
/** @typedef {"lobby" | "playing" | "over"} Phase */
/** @typedef {"human" | "bot"} SeatKind */
/**
 * @typedef {"seat" | "bot" | "timer" | "away"} By  who chose an action: its player, its bot, the
 * stand-in after the turn timer ran out, the stand-in after the grace period
 */

/**
 * @typedef {object} Rules  the table's rules, every option resolved (RULES.md §8)
 * @property {Edition} edition
 * @property {number} players
 * @property {number} max_total
 * @property {boolean} negative_totals
 * @property {boolean} four_ono99_discard
 * @property {boolean} play2_deflects_play2
 * @property {boolean} ono99_on_tens
 * @property {boolean} draw_penalty
 * @property {"single" | "tokens" | "points"} match
 * @property {number} tokens
 * @property {number} target
 * @property {"last_standing" | "lowest_score"} variant
 * @property {"unchanged" | "keep" | "reset"} bust_total
 */

// ------------------------------------------------------------------ the game

/**
 * @typedef {object} View  `view(state, seat)` (RULES.md V1): the seat's own hand, public facts
 * @property {number | null} seat  null for a spectator
 * @property {number} round
 * @property {number} dealer
 * @property {number} total
 * @property {Direction} direction
 * @property {number | null} to_play
 * @property {number} owed  the cards `to_play` must still play this turn (2 after a Play 2)
 * @property {boolean} second_card  the first of two owed cards is down (P1)
 * @property {boolean} ono99_played
 * @property {string[] | null} hand  N1 card names; null for a spectator
 * @property {number[]} hand_sizes
 * @property {Status[]} status
 * @property {string[][]} laid_down  the hands laid face up by eliminated seats (E1)
 * @property {number[] | null} tokens  tokens matches only
 * @property {number[] | null} scores  points matches only
 * @property {number[]} out
 * @property {number[]} out_of_round
 * @property {number[]} owes_draw
 * @property {number} draw_pile  its size
 * @property {string | null} discard_top
 * @property {number} discard_size
 * @property {boolean} over
 * @property {number[]} winners
 * @property {string[]} legal  N2 actions ("play 7", "draw"); empty unless the seat may act now
 */

/**
 * @typedef {object} EventFacts  what any event may carry, where it applies
 * @property {number} [seat]
 * @property {string} [card]
 * @property {number} [total]
 */
/** @typedef {EventFacts & {kind: "deal", seat: number, round: number, total: number}} DealEvent  `seat`: the dealer */
/**
 * @typedef {EventFacts & {kind: "play", seat: number, card: string, total: number, how?: "deflect" | "bust"}} PlayEvent
 * `how`: a Play 2 passed on (P2), or a bust (M3)
 */
/** @typedef {EventFacts & {kind: "discard", seat: number, card: string, total: number}} DiscardEvent  four ONO 99s (K7) */
/** @typedef {EventFacts & {kind: "draw", seat: number}} DrawEvent  under the draw penalty (X2) */
/** @typedef {EventFacts & {kind: "lost_draw", seat: number}} LostDrawEvent  a draw not taken in time (X2) */
/** @typedef {EventFacts & {kind: "reshuffle", cards: number}} ReshuffleEvent  the discards become the draw pile (T3) */
/** @typedef {EventFacts & {kind: "eliminated", seat: number, total: number, hand: string[]}} EliminatedEvent  E1 */
/** @typedef {EventFacts & {kind: "out_of_round", seat: number, total: number}} OutOfRoundEvent  M3 */
/**
 * @typedef {EventFacts & {kind: "round_end", round: number, total: number, points: number[] | null}} RoundEndEvent
 * `seat` (tokens): who lost; `points` (points): per seat, else null
 */
/** @typedef {EventFacts & {kind: "lost_token", seat: number, tokens_left: number}} LostTokenEvent  M2 */
/** @typedef {EventFacts & {kind: "left", seat: number}} LeftEvent  out of the game (tokens or points) */
/** @typedef {EventFacts & {kind: "over", winners: number[]}} OverEvent */
/**
 * @typedef {DealEvent | PlayEvent | DiscardEvent | DrawEvent | LostDrawEvent | ReshuffleEvent
 *   | EliminatedEvent | OutOfRoundEvent | RoundEndEvent | LostTokenEvent | LeftEvent | OverEvent} GameEvent
 * one public event, as the server sends it
 */

// ------------------------------------------------------------------ the websocket, server → client

/**
 * @typedef {object} WelcomeMessage  who you are at this table
 * @property {"welcome"} type
 * @property {number} protocol
 * @property {string} code
 * @property {number | null} seat  null for a spectator
 * @property {boolean} host
 */

/**
 * @typedef {object} SeatInfo  one seat of the `table` message
 * @property {number} seat
 * @property {SeatKind} kind
 * @property {string | null} bot
 * @property {string | null} name  a person's or bot's name; null for a seat nobody has taken
 * @property {boolean} open  open for a person to join
 * @property {boolean} connected
 * @property {boolean} away  the stand-in plays for its person, gone past the grace period
 * @property {boolean} [left]  its person left (`open` then, and `name` still holds their name)
 */

/**
 * @typedef {object} Turn  the turn being played
 * @property {number | null} seat
 * @property {number | null} seconds  the turn timer; null without one
 * @property {number | null} ms_left  left on the timer when sent (count from arrival); null without one
 * @property {boolean} auto  a bot will move for that seat
 */

/**
 * @typedef {object} NextGame  between games: who is ready for the next one
 * @property {number[]} ready
 * @property {number[]} waiting  the people connected it still waits for
 * @property {number | null} ms_left  the host's countdown to it; null when none runs
 */

/**
 * @typedef {object} Pause  after a round of a tokens or points match, while its summary is read
 * @property {number} round
 * @property {number} ms_left
 * @property {number[]} continued
 * @property {number[]} waiting
 */

/**
 * @typedef {object} TableFacts  the table's public facts (`GET /api/tables/{code}` too)
 * @property {string} code
 * @property {Phase} phase
 * @property {number} game
 * @property {number | null} host_seat
 * @property {Rules} rules  those of the games to come
 * @property {number} turn_seconds  0: no timer
 * @property {boolean} hints
 * @property {number[]} tally  games won at this table, per seat
 * @property {Pause | null} pause
 * @property {SeatInfo[]} seats
 * @property {Turn | null} turn  null unless a game is being played
 * @property {NextGame | null} next  null unless a game is over
 * @property {boolean} [public]  listed in the lobby while it waits for players
 * @property {boolean} [rated]  its games count toward the players' ratings (a public table's always do)
 * @property {{bot: string, ms_left: number} | null} [quick]  Play now's table, in its lobby:
 *   the bots that take its open seats, and when (count from arrival)
 */
/** @typedef {TableFacts & {type: "table"}} TableMessage */

/**
 * @typedef {object} StateMessage  everything this connection may know of the current game
 * @property {"state"} type
 * @property {number} game  0 before the first game (then `view` is null)
 * @property {number} moves
 * @property {View | null} view
 * @property {GameEvent[]} log  every public event of the game so far
 * @property {By[]} by  who chose each action so far
 * @property {Turn | null} [turn]
 */

/**
 * @typedef {object} UpdateMessage  one accepted action, with this connection's view after it
 * @property {"update"} type
 * @property {number} game
 * @property {number} moves  the actions of the game so far
 * @property {number} seat
 * @property {string} action  N2
 * @property {By} by
 * @property {GameEvent[]} events  oldest first
 * @property {View} view
 * @property {Turn | null} turn
 */

/**
 * @typedef {object} ErrorPayload  a refusal: `code` for the client to word, `message` English for logs
 * @property {string} code
 * @property {string} [message]
 * @property {Record<string, any>} [params]  e.g. a rule's refusal: action, reason, rule and its params
 */
/** @typedef {ErrorPayload & {type: "error", id?: string | number}} ErrorMessage  to the sender only */

/**
 * @typedef {object} Chance
 * @property {string} action  N2
 * @property {number} chance  of winning, 0 to 1
 */

/**
 * @typedef {object} HintMessage  the expert's suggestion, to the asker alone
 * @property {"hint"} type
 * @property {string | number} [id]
 * @property {number} game
 * @property {number} moves
 * @property {number} seat
 * @property {string | null} choice
 * @property {Chance[]} actions  in the order of the view's `legal`
 */

/** @typedef {{type: "link", id?: string | number, seat: number, token: string}} LinkMessage  a new personal link, to the host */
/** @typedef {{type: "reaction", seat: number, reaction: string}} ReactionMessage */
/** @typedef {{type: "pong", id?: string | number}} PongMessage */
/** @typedef {{type: "notice", code: "bus_down" | "bus_up" | "closed", message: string}} NoticeMessage */

/**
 * @typedef {WelcomeMessage | TableMessage | StateMessage | UpdateMessage | ErrorMessage | HintMessage
 *   | LinkMessage | ReactionMessage | PongMessage | NoticeMessage} ServerMessage
 */

// ------------------------------------------------------------------ the websocket, client → server

/**
 * @typedef {object} TableConfig  the rule fields of a table (create, `configure`)
 * @property {Partial<Rules>} rules  the edition and the options that differ from its defaults
 * @property {number} turn_seconds
 * @property {boolean} hints
 */

/**
 * @typedef {{type: "hello", token?: string}
 *   | {type: "act", action: string, moves?: number}
 *   | {type: "start" | "again" | "ready" | "continue" | "leave" | "hint" | "ping"}
 *   | {type: "configure", config: TableConfig}
 *   | {type: "seat", seat: number, kind: "open" | "human" | "bot", bot?: string}
 *   | {type: "relink", seat: number}
 *   | {type: "react", reaction: string}} ClientCommand
 */
/** @typedef {ClientCommand & {id?: string | number}} ClientMessage */

// ------------------------------------------------------------------ HTTP

/**
 * @typedef {{name: string, type: "bool"}
 *   | {name: string, type: "int", low: number, high: number}
 *   | {name: string, type: "choice", choices: string[]}} OptionSpec  a rule option of the form
 */

/**
 * @typedef {object} Options  `GET /api/options`: what a table can be
 * @property {Record<Edition, Rules>} editions  every option's default, per edition
 * @property {OptionSpec[]} options  every option but `players`
 * @property {{low: number, high: number, default: number}} players
 * @property {string[]} bots
 * @property {string} stand_in
 * @property {{choices: number[], default: number, low: number, high: number}} turn
 * @property {{name: number, message_bytes: number}} limits
 * @property {{wait: number}} [quick]  Play now: seconds a new table waits before its bots come
 */

/**
 * @typedef {object} QuickRequest  `POST /api/quick`: Play now
 * @property {string} name
 * @property {Edition} [edition]
 * @property {number} [players]
 * @property {string} [bot]  the bots for the seats nobody takes
 * @property {string} [lang]
 */

/**
 * @typedef {object} Listed  a public table waiting for players (`/ws/lobby`, `GET /api/lobby`)
 * @property {string} code
 * @property {Edition} edition
 * @property {number} players
 * @property {string} match
 * @property {number} free  seats open
 * @property {string[]} names  the people seated
 * @property {number} bots  the seats bots hold
 * @property {string | null} lang  the host's language
 * @property {number} spectators  watching it, on every server process
 * @property {boolean} quick  opened by Play now
 * @property {string | null} bot  Play now's bots
 * @property {number | null} fill_at  when they come (the server's wall clock, seconds)
 * @property {number} opened
 */

/** @typedef {{kind: "human"} | {kind: "bot", bot: string}} SeatSetup  a seat of a new table */

/**
 * @typedef {object} CreateRequest  `POST /api/tables`
 * @property {Partial<Rules>} rules  the edition and any options
 * @property {SeatSetup[]} seats  one per player
 * @property {string} [name]  the creator's, when a seat is for a person
 * @property {number} [turn_seconds]
 * @property {boolean} [hints]
 * @property {boolean} [public]  listed in the lobby while it waits for players
 * @property {boolean} [rated]  a private table's games count toward ratings (a public one's always do)
 * @property {string} [lang]  the host's language, for the lobby
 */

/**
 * @typedef {object} Seated  the answer to creating a table or joining one
 * @property {string} code
 * @property {number | null} seat
 * @property {boolean} host
 * @property {string} token
 */

/**
 * @typedef {object} Me  a profile as its holder sees it (`GET /api/me`)
 * @property {string} name
 * @property {number} since  seconds since 1970
 * @property {string} profile  its page's path
 */

/**
 * @typedef {object} Rating
 * @property {number} rating  the ordinal, mu - 3 sigma: what leaderboards sort by
 * @property {number} mu
 * @property {number} sigma
 * @property {number} games  rated games
 */

/**
 * @typedef {object} PlayedGame  one of a profile's recent finished games
 * @property {string} code
 * @property {number} game
 * @property {number} seat
 * @property {Edition} edition
 * @property {number} players
 * @property {number} place  1: among the winners
 * @property {boolean} won
 * @property {boolean} rated
 * @property {number | null} rating  the rating after it, when rated
 * @property {number} finished  seconds since 1970
 */

/**
 * @typedef {object} Profile  `GET /api/players/{name}`
 * @property {string} name
 * @property {number} since
 * @property {{edition: Edition, players: number, games: number, wins: number}[]} tally
 * @property {(Rating & {edition: Edition})[]} ratings
 * @property {PlayedGame[]} recent
 */

/**
 * @typedef {object} Leaderboard  `GET /api/leaderboard?edition=`
 * @property {Edition} edition
 * @property {(Rating & {name: string | null, bot: string | null})[]} leaders  a person (name) or a bot
 */

/** @typedef {TableFacts & {games: {game: number, finished: boolean}[]}} TableInfo  `GET /api/tables/{code}` */

/**
 * @typedef {object} ReplayState  a finished game's state, every hand face up
 * @property {number} round
 * @property {number} dealer
 * @property {number} total
 * @property {Direction} direction
 * @property {number | null} to_play
 * @property {number} owed
 * @property {boolean} second_card
 * @property {string[][]} hands
 * @property {Status[]} status
 * @property {number[] | null} tokens
 * @property {number[] | null} scores
 * @property {number[]} owes_draw
 * @property {number} draw_pile
 * @property {string | null} discard_top
 * @property {number} discard_size
 * @property {boolean} over
 * @property {number[]} winners
 */

/**
 * @typedef {object} ReplayStep  step 0 is the deal, step i the state after action i
 * @property {number} moves
 * @property {number} [seat]
 * @property {string} [action]
 * @property {GameEvent[]} events
 * @property {ReplayState} state
 */

/**
 * @typedef {object} Replay  `GET /api/tables/{code}/games/{n}/replay`
 * @property {string} code
 * @property {number} game
 * @property {Rules} rules
 * @property {(string | null)[] | null} names
 * @property {string[] | null} players  "human" or a bot's name, per seat
 * @property {By[] | null} by
 * @property {ReplayStep[]} steps
 */

/**
 * @typedef {object} Decision  one decision of a review (docs/review.md)
 * @property {number} move  the action's index in the record
 * @property {number} round
 * @property {number} total
 * @property {string} played
 * @property {boolean} forced
 * @property {Chance[]} chances
 * @property {string} best
 * @property {number | null} played_chance  null when forced
 * @property {number | null} best_chance
 * @property {number} cost
 * @property {"blunder" | "mistake" | "inaccuracy" | null} judgement
 */

/**
 * @typedef {object} Review  `GET /api/tables/{code}/games/{n}/review?seat=S&lens=fair|known`
 * @property {string} code
 * @property {number} game
 * @property {number} seat
 * @property {"fair" | "known"} lens
 * @property {number} seed
 * @property {{blunder: number, mistake: number, inaccuracy: number}} thresholds
 * @property {Decision[]} decisions
 * @property {{move: number, chance: number}[]} line
 * @property {number[]} mistakes  the costliest named ones' moves, costliest first
 */

/**
 * @typedef {object} Languages  `GET /i18n/languages`
 * @property {string} default  negotiated from Accept-Language
 * @property {{code: string, name: string}[]} languages
 */

export {};
