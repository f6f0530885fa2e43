// seats.js's placement of 2–6 seats around the oval: yours at the bottom, the others clockwise
// in seat order (as around a real table, play passing to the left), spread evenly.
import { test } from "node:test";
import assert from "node:assert/strict";

import { seatPlaces } from "../../src/ono99/server/static/js/table/seats.js";

const close = (/** @type {number} */ a, /** @type {number} */ b) => Math.abs(a - b) < 1e-9;

for (let n = 2; n <= 6; n++) {
  for (const me of [null, ...Array.from({ length: n }, (_, i) => i)]) {
    test(`${n} seats, ${me === null ? "a spectator" : `seat ${me}`}: one place each, yours at the bottom`, () => {
      const places = seatPlaces(n, me);
      assert.deepEqual(places.map(({ seat }) => seat), Array.from({ length: n }, (_, i) => i));
      assert.deepEqual(places.map(({ place }) => place).sort(), Array.from({ length: n }, (_, i) => i));
      const bottom = places.find(({ place }) => place === 0);
      assert.equal(bottom?.seat, me ?? 0, "a spectator sees seat 0 at the bottom");
      assert.ok(bottom && close(bottom.cx, 0) && close(bottom.cy, 1), "at the bottom, in the middle");
      for (const { seat, place, cx, cy, east } of places) {
        assert.ok(close(cx * cx + cy * cy, 1), "on the oval");
        assert.equal(place, (seat - (me ?? 0) + n) % n, "in seat order from yours");
        assert.equal(east, cx > 0.3, "the right-hand seats put their last card on the inside");
      }
      // Clockwise on the screen (y grows downwards): each next seat a turn of 360°/n further.
      const sorted = [...places].sort((a, b) => a.place - b.place);
      for (let i = 1; i < n; i++) {
        const a = sorted[i - 1];
        const b = sorted[i];
        const turn = Math.atan2(a.cx * b.cy - a.cy * b.cx, a.cx * b.cx + a.cy * b.cy);
        // (Two seats face each other: half a turn, either way.)
        assert.ok(n === 2 ? close(Math.abs(turn), Math.PI) : close(turn, (2 * Math.PI) / n), `${n} seats: ${turn}`);
      }
    });
  }
}

test("the next seat after yours sits to your left, as play passes clockwise", () => {
  for (let n = 3; n <= 6; n++) {
    const next = seatPlaces(n, 0)[1];
    assert.ok(next.cx < 0, `${n} seats: seat 1 at x ${next.cx}`);
  }
});
