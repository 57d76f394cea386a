import { describe, expect, it } from "vitest";
import { ReceivingBodies } from "../../src/service/receiving-bodies.js";

class Refused extends Error {}

/** Whether `promise` has rejected with the refusal, once the callbacks queued so far have run. */
async function outcome(promise: Promise<never>): Promise<"refused" | "holding" | "other"> {
  let state: "refused" | "holding" | "other" = "holding";
  promise.catch((error: unknown) => (state = error instanceof Refused ? "refused" : "other"));
  await new Promise((resolve) => setTimeout(resolve, 0));
  return state;
}

describe("ReceivingBodies", () => {
  it("holds at most its capacity: one more takes the place of the one receiving longest", async () => {
    const line = new ReceivingBodies(3, () => new Refused());
    const places = [line.enter(), line.enter(), line.enter()];
    expect(line.size).toBe(3);
    const fourth = line.enter();
    expect(line.size).toBe(3);
    expect(await outcome(places[0]!.refused)).toBe("refused");
    for (const place of [places[1]!, places[2]!, fourth]) expect(await outcome(place.refused)).toBe("holding");
    // The next one takes the place of the second, not of the first again.
    line.enter();
    expect(await outcome(places[1]!.refused)).toBe("refused");
    expect(await outcome(places[2]!.refused)).toBe("holding");
  });

  it("a place given back is free for the next one, and leaving twice gives back one place", async () => {
    const line = new ReceivingBodies(2, () => new Refused());
    const first = line.enter();
    const second = line.enter();
    first.leave();
    first.leave();
    expect(line.size).toBe(1);
    line.enter();
    expect(line.size).toBe(2);
    expect(await outcome(second.refused)).toBe("holding");
  });

  it("a place taken from a member that has left already changes nothing for it", async () => {
    const line = new ReceivingBodies(1, () => new Refused());
    const first = line.enter();
    first.leave();
    const second = line.enter();
    expect(await outcome(first.refused)).toBe("holding");
    line.enter();
    expect(await outcome(second.refused)).toBe("refused");
  });

  it("takes the place of the client holding the most: a flood of silent bodies cannot push out another client's upload", async () => {
    const line = new ReceivingBodies(4, () => new Refused());
    const slowUpload = line.enter("wallet");
    const flood = [line.enter("flooder"), line.enter("flooder"), line.enter("flooder")];
    // 100 more silent requests of the flooder: each takes one of the flooder's own places.
    for (let i = 0; i < 100; i++) flood.push(line.enter("flooder"));
    expect(line.size).toBe(4);
    expect(await outcome(slowUpload.refused)).toBe("holding");
    expect(await outcome(flood[0]!.refused)).toBe("refused");
    // A third client arriving takes the flooder's place too; so does the wallet's second upload.
    const other = line.enter("other");
    const second = line.enter("wallet");
    expect(await outcome(slowUpload.refused)).toBe("holding");
    expect(await outcome(other.refused)).toBe("holding");
    expect(await outcome(second.refused)).toBe("holding");
    // Now the wallet holds the most places (two): a newcomer takes the one of them receiving longest.
    line.enter("flooder");
    expect(await outcome(slowUpload.refused)).toBe("refused");
    expect(await outcome(second.refused)).toBe("holding");
    expect(await outcome(other.refused)).toBe("holding");
  });
});
