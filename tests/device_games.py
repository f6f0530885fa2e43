"""Offline games on one device, played as the page plays them (session/device.py): random rule
sets of both editions, one to three people on the device making random legal moves, bots in
the other seats. Run by device_games.mjs in Pyodide (it calls ``main``) or under CPython; the
result is one JSON line per game: the record the page offers for download and the N4 summary
of the game's end as the device saw it."""

import json
import random
import sys

from ono99.engine.summary import summarize
from ono99.session.device import Device
from ono99.session.setup import rule_options

BOTS = ("random", "greedy", "heuristic")


def rules_of(rng):
    spec = rule_options()
    edition = rng.choice(sorted(spec["editions"]))
    rules = {"edition": edition}
    for option in spec["options"]:
        name = option["name"]
        if rng.random() < 0.5:
            continue  # the edition's own value
        if option["type"] == "bool":
            rules[name] = rng.random() < 0.5
        elif option["type"] == "choice":
            rules[name] = rng.choice(option["choices"])
        elif name == "max_total":
            rules[name] = rng.randint(30, 150)
        elif name == "tokens":
            rules[name] = rng.randint(1, 3)
        elif name == "target":
            rules[name] = rng.randint(20, 120)
    return rules


def play(rng, index):
    players = rng.randint(2, 6)
    people = rng.randint(1, min(3, players))
    seats = [{"kind": "human"}] * people + [
        {"kind": "bot", "bot": rng.choice(BOTS)} for _ in range(players - people)
    ]
    rng.shuffle(seats)
    names = [f"P{i}" for i in range(people)]
    request = {
        "table": {"rules": rules_of(rng), "seats": seats, "turn_seconds": 0},
        "people": names,
        "bot_delay": 0,
    }
    now = 0.0
    device = Device.create(json.dumps(request), now)
    mine = [p["seat"] for p in device.people()]
    device.hello(mine[0], now)
    out = device.handle(json.dumps({"type": "start"}), now)
    assert json.loads(out[0])["type"] != "error", out
    for step in range(20000):
        now += 0.01
        device.wake(now)
        table = device.table
        if table.phase == "over":
            break
        seat = None if table.state is None else table.state.to_play
        if seat in mine:
            screen = device.hello(seat, now)  # the device passed to that person
            view = json.loads(screen[2])["view"]
            action = rng.choice(view["legal"])
            answer = device.handle(
                json.dumps({"type": "act", "action": action, "moves": table.state.moves}), now
            )
            assert all(json.loads(m)["type"] != "error" for m in answer), answer
            if step % 97 == 0:  # a reload now and then: the kept game goes on where it was
                device = Device.restore(device.kept_json(), now)
    else:
        raise AssertionError(f"game {index} did not end")
    return {
        "rules": request["table"]["rules"],
        "players": players,
        "people": people,
        "record": device.record_json(),
        "summary": summarize(device.table.state),
    }


def main(count, seed):
    rng = random.Random(seed)
    return "".join(json.dumps(play(rng, i)) + "\n" for i in range(count))


if __name__ == "__main__":
    sys.stdout.write(main(int(sys.argv[1]), int(sys.argv[2])))
