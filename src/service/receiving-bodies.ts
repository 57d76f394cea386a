/**
 * The requests of a route receiving their body, at most `capacity` at once.
 * One more arriving when all are taken takes the place of the one that has
 * been receiving longest, which is refused with `refusal()`: a client that
 * opens connections and never sends their bodies holds at most `capacity`
 * places, each only until a newer request needs it, while a client whose
 * body follows its headers (within milliseconds) is through before anyone
 * takes its place. So the line is bounded (each member holds its socket,
 * request and at most the route's body limit) and a crowd of silent
 * connections cannot keep a request that sends its body out of it.
 *
 * A member the runtime cancels without running its `finally` (Workers) is
 * never left holding a place for good: the next arrival that needs it takes it.
 */
export class ReceivingBodies {
  /** Members in arrival order: the first is the one receiving longest. */
  private readonly members = new Set<Member>();

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
   * Takes a place, from the member receiving longest when none is free.
   * `refused` rejects when a later arrival takes this place; `leave` gives
   * it back (once the body is read, or its reading failed).
   */
  enter(): ReceivingPlace {
    if (this.members.size >= this.capacity) {
      const oldest = this.members.values().next().value!;
      this.members.delete(oldest);
      oldest.refuse(this.refusal());
    }
    let refuse!: (error: Error) => void;
    const refused = new Promise<never>((_, reject) => (refuse = reject));
    // Nobody may be listening once the member has left or when its read already failed.
    refused.catch(() => undefined);
    const member: Member = { refuse };
    this.members.add(member);
    return { refused, leave: () => void this.members.delete(member) };
  }
}

interface Member {
  refuse(error: Error): void;
}

/** A place among the requests receiving their body. */
export interface ReceivingPlace {
  /** Rejects with the refusal once a later arrival takes the place. */
  readonly refused: Promise<never>;
  leave(): void;
}
