/**
 * At most `limit` holders at once; the others wait in arrival order. A
 * waiter holds nothing but its place (its request body is not read yet, so
 * the socket's flow control keeps the bytes at the client).
 */
export class Admission {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** Resolves once admitted, with the function that gives the place back (call it once). */
  enter(): Promise<() => void> {
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve(this.leave);
    }
    return new Promise((admitted) => this.waiting.push(() => admitted(this.leave)));
  }

  private readonly leave = (): void => {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  };
}
