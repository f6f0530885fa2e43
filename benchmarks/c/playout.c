/* A plain C loop of the batch simulator's random playout: the 2022 edition, 4 players, a
 * single game, default options (max_total 98, four_ono99_discard, play2_deflects_play2, no
 * negative totals, no ONO 99 on tens), uniformly random legal actions, a new game wherever
 * one ends.
 *
 * It is the yardstick for ono99.fast (benchmarks/bench_c.py compiles it with gcc -O2 and runs
 * it beside FastBatch.random_playout). It does what ono99/fast/kernels.py does, random draw for
 * random draw: the same per-game splitmix64 generator seeded as FastBatch._seed seeds it, the
 * same shuffles, deals, choices and eliminations, games stepped one after the other. So for the
 * same seed, batch size and steps it must count exactly the actions, games and game actions
 * that FastBatch.random_playout counts, which the benchmark checks before it times anything.
 * The rule set is compiled in, as a hand-written loop for one game would have it.
 *
 *   playout BATCH STEPS SEED [REPEATS]
 *
 * plays STEPS actions in each of BATCH games, REPEATS times in a row (each repetition carries
 * on from the last state, as repeated random_playout calls do), and prints one line per
 * repetition: actions games game_actions wall_seconds cpu_seconds, both around the loop only
 * (CLOCK_MONOTONIC, and CLOCK_PROCESS_CPUTIME_ID, which time spent waiting for a busy core does
 * not inflate).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { SEATS = 6, HAND = 4, PILE = 112, KINDS = 16, EMPTY = -1 };
enum { MINUS_TEN = 11, REVERSE = 12, PLAY2 = 13, HOLD = 14, ONO99 = 15, DISCARD_ACTION = 16 };
enum { IN = 0, OUT = 1 };
enum { PLAYERS = 4, DECK_SIZE = 112, MAX_TOTAL = 98 };

static const int DECK_COUNTS[KINDS] = {8, 6, 6, 6, 6, 6, 6, 6, 6, 6, 10, 10, 10, 10, 0, 10};

#define GOLDEN 0x9E3779B97F4A7C15ULL

typedef struct {
    uint64_t rng;
    int32_t total, moves;
    int32_t legal;
    int16_t pile_pos, pile_len, discard_size;
    int8_t hands[SEATS][HAND];
    int8_t pile[PILE];
    int8_t discard[KINDS];
    int8_t status[SEATS];
    int8_t direction, to_play, owed, over, dealer;
} Game;

static inline uint64_t next_random(Game *r) {
    uint64_t z = (r->rng += GOLDEN);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline int below(Game *r, int k) {
    return (int)(((next_random(r) >> 32) * (uint64_t)k) >> 32);
}

static void shuffle_pile(Game *r, int length) {
    for (int i = length - 1; i > 0; i--) {
        int j = below(r, i + 1);
        int8_t c = r->pile[i];
        r->pile[i] = r->pile[j];
        r->pile[j] = c;
    }
}

static inline int playable(const Game *r, int c) {
    int t = r->total;
    if (c <= 10) return t + c <= MAX_TOTAL;
    if (c == MINUS_TEN) {
        int after = t - 10;
        if (after < 0) after = 0;
        return after <= MAX_TOTAL;
    }
    if (c == ONO99) return 0; /* only with ono99_on_tens */
    return t <= MAX_TOTAL;    /* Play 2 (it deflects a Play 2), Reverse, Hold */
}

static inline int legal_bits(const Game *r) {
    if (r->over) return 0;
    const int8_t *h = r->hands[r->to_play];
    if (h[0] == ONO99 && h[1] == ONO99 && h[2] == ONO99 && h[3] == ONO99)
        return 1 << DISCARD_ACTION;
    int bits = 0;
    for (int i = 0; i < HAND; i++)
        if (h[i] != EMPTY && playable(r, h[i])) bits |= 1 << h[i];
    return bits;
}

static inline int random_action(Game *r) {
    int bits = r->legal;
    if (bits == 0) return -1;
    int skip = below(r, __builtin_popcount((unsigned)bits));
    for (int k = 0; k < skip; k++) bits &= bits - 1;
    return __builtin_ctz((unsigned)bits);
}

static void reshuffle(Game *r) {
    int i = 0;
    for (int c = 0; c < KINDS; c++)
        for (int k = 0; k < r->discard[c]; k++) r->pile[i++] = (int8_t)c;
    shuffle_pile(r, r->discard_size);
    r->pile_len = r->discard_size;
    r->pile_pos = 0;
    memset(r->discard, 0, sizeof r->discard);
    r->discard_size = 0;
}

static inline void draw(Game *r, int seat, int k) {
    int8_t *h = r->hands[seat];
    int slot = 0;
    for (int n = 0; n < k; n++) {
        if (r->pile_pos >= r->pile_len) {
            if (r->discard_size == 0) return;
            reshuffle(r);
        }
        while (slot < HAND && h[slot] != EMPTY) slot++;
        if (slot == HAND) return;
        h[slot] = r->pile[r->pile_pos++];
    }
}

static inline int next_seat(const Game *r, int s) {
    for (;;) {
        s += r->direction;
        if (s < 0) s += PLAYERS;
        else if (s >= PLAYERS) s -= PLAYERS;
        if (r->status[s] == IN) return s;
    }
}

static inline void pass_turn(Game *r, int seat, int owed) {
    r->to_play = (int8_t)next_seat(r, seat);
    r->owed = (int8_t)owed;
}

static void play(Game *r, int seat, int c) {
    int8_t *h = r->hands[seat];
    for (int i = 0; i < HAND; i++)
        if (h[i] == c) {
            h[i] = EMPTY;
            break;
        }
    r->discard[c]++;
    r->discard_size++;
    int first_of_two = r->owed == 2;
    int deflect = first_of_two && (c == REVERSE || c == HOLD || c == PLAY2);
    if (c <= 10) r->total += c;
    else if (c == MINUS_TEN) r->total = r->total < 10 ? 0 : r->total - 10;
    else if (c == REVERSE) r->direction = (int8_t)-r->direction;
    draw(r, seat, 1);
    if (first_of_two && !deflect) r->owed = 1;
    else pass_turn(r, seat, (c == PLAY2 || deflect) ? 2 : 1);
}

static void discard_four(Game *r, int seat) {
    memset(r->hands[seat], EMPTY, HAND);
    r->discard[ONO99] += 4;
    r->discard_size += 4;
    draw(r, seat, 4);
    if (r->owed == 2) r->owed = 1;
    else pass_turn(r, seat, 1);
}

static void eliminate(Game *r, int seat) {
    r->status[seat] = OUT;
    int in = 0;
    for (int s = 0; s < PLAYERS; s++) in += r->status[s] == IN;
    if (in == 1) {
        r->over = 1;
        r->to_play = -1;
        r->owed = 0;
    } else {
        pass_turn(r, seat, 1);
    }
}

static void settle(Game *r) {
    while (!r->over) {
        int bits = legal_bits(r);
        if (bits) {
            r->legal = bits;
            return;
        }
        eliminate(r, r->to_play);
    }
    r->legal = 0;
}

static void deal(Game *r) {
    int i = 0;
    for (int c = 0; c < KINDS; c++)
        for (int k = 0; k < DECK_COUNTS[c]; k++) r->pile[i++] = (int8_t)c;
    shuffle_pile(r, DECK_SIZE);
    memset(r->hands, EMPTY, sizeof r->hands);
    int pos = 0, first = -1;
    for (int k = 0; k < HAND; k++) {
        int s = r->dealer;
        for (int n = 0; n < PLAYERS; n++) {
            if (++s == PLAYERS) s = 0;
            if (first < 0) first = s;
            r->hands[s][k] = r->pile[pos++];
        }
    }
    r->pile_pos = (int16_t)pos;
    r->pile_len = DECK_SIZE;
    memset(r->discard, 0, sizeof r->discard);
    r->discard_size = 0;
    r->total = 0;
    r->direction = 1;
    r->to_play = (int8_t)first;
    r->owed = 1;
}

static void new_game(Game *r) {
    do {
        r->dealer = (int8_t)below(r, PLAYERS);
        r->over = 0;
        r->moves = 0;
        memset(r->status, OUT, sizeof r->status);
        memset(r->status, IN, PLAYERS);
        deal(r);
        settle(r);
    } while (r->over); /* a game decided at its deal is dealt again */
}

static inline void apply(Game *r, int action) {
    int seat = r->to_play;
    r->moves++;
    if (action == DISCARD_ACTION) discard_four(r, seat);
    else play(r, seat, action);
    settle(r);
}

static double seconds(struct timespec a, struct timespec b) {
    return (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
}

static uint64_t seeded(uint64_t seed, uint64_t i) { /* FastBatch._seed for game i */
    uint64_t z = seed + (i + 1) * GOLDEN;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s BATCH STEPS SEED [REPEATS]\n", argv[0]);
        return 2;
    }
    long batch = atol(argv[1]), steps = atol(argv[2]);
    uint64_t seed = strtoull(argv[3], NULL, 10);
    long repeats = argc > 4 ? atol(argv[4]) : 1;
    if (batch < 1 || steps < 0 || repeats < 1) {
        fprintf(stderr, "BATCH and REPEATS must be at least 1, STEPS at least 0\n");
        return 2;
    }
    Game *games = calloc((size_t)batch, sizeof(Game));
    if (!games) return 1;
    for (long g = 0; g < batch; g++) {
        games[g].rng = seeded(seed, (uint64_t)g);
        new_game(&games[g]);
    }
    for (long rep = 0; rep < repeats; rep++) {
        long long actions = 0, matches = 0, match_actions = 0;
        struct timespec t0, t1, c0, c1;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (long g = 0; g < batch; g++) {
            Game *r = &games[g];
            for (long k = 0; k < steps; k++) {
                apply(r, random_action(r));
                actions++;
                if (r->over) {
                    matches++;
                    match_actions += r->moves;
                    new_game(r);
                }
            }
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
        printf("%lld %lld %lld %.9f %.9f\n", actions, matches, match_actions, seconds(t0, t1),
               seconds(c0, c1));
        fflush(stdout);
    }
    free(games);
    return 0;
}
