import { RenewedMap, RenewedSet } from "../sns/renewed-map.js";

/**
 * The requests of a route receiving their body, at most `capacity` at once.
 * One more arriving when all are taken takes the place of the one that has
 * been receiving longest among those of the client holding the most places,
 * which is refused with `refusal()`: a client that opens connections and
 * never sends their bodies holds at most `capacity` places, each only until
 * a newer request needs it, and loses its own places first while it holds
 * the most, so it cannot push out another client's slow upload; a client
 * whose body follows its headers (within milliseconds) is through before
 * anyone takes its place. So the line is bounded (each member holds its socket,
 * request and at most the route's body limit) and a crowd of silent
 * connections cannot keep a request that sends its body out of it.
 *
 * A member the runtime cancels without running its `finally` (Workers) is
 * never left holding a place for good: the next arrival that needs it takes it.
 */
export class ReceivingBodies {
  /** Members in arrival order: the first is the one receiving longest. */
  private readonly members = new RenewedSet<Member>();

  constructor(
    readonly capacity: number,
    /** The error a member whose place is taken fails with (503 `Service overloaded`, the connection closed). */
    private readonly refusal: () => Error,
  ) {}

  /** Members now. */
  get size(): number {
    return this.members.size;
  }

  /**
   * Takes a place for a request of `client` (the rate limit's client key),
   * from the longest-receiving member of the client holding most when none is free.
   * `refused` rejects when a later arrival takes this place; `leave` gives
   * it back (once the body is read, or its reading failed).
   */
  enter(client = ""): ReceivingPlace {
    if (this.members.size >= this.capacity) {
      const evicted = this.oldestOfLargestClient();
      this.remove(evicted);
      evicted.refuse(this.refusal());
    }
    let refuse!: (error: Error) => void;
    const refused = new Promise<never>((_, reject) => (refuse = reject));
    // Nobody may be listening once the member has left or when its read already failed.
    refused.catch(() => undefined);
    const member: Member = { client, refuse };
    this.members.add(member);
    this.places.set(client, (this.places.get(client) ?? 0) + 1);
    return { refused, leave: () => this.remove(member) };
  }

  /** Places each client holds, for choosing whose place a newcomer takes. */
  private readonly places = new RenewedMap<string, number>();

  private remove(member: Member): void {
    if (!this.members.delete(member)) return;
    const held = this.places.get(member.client)! - 1;
    if (held === 0) this.places.delete(member.client);
    else this.places.set(member.client, held);
  }

  /** The member receiving longest of the client holding the most places (of those, the one first to arrive). */
  private oldestOfLargestClient(): Member {
    let most = 0;
    for (const held of this.places.values()) most = Math.max(most, held);
    for (const member of this.members) if (this.places.get(member.client) === most) return member;
    return this.members.values().next().value!;
  }
}

interface Member {
  readonly client: string;
  refuse(error: Error): void;
}

/** A place among the requests receiving their body. */
export interface ReceivingPlace {
  /** Rejects with the refusal once a later arrival takes the place. */
  readonly refused: Promise<never>;
  leave(): void;
}
