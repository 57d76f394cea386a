/**
 * Bytes of RPC answers held in memory at once. A budget may have a parent
 * (endpoint → pool → whole process): taking succeeds only if every level
 * has room, so one endpoint can exhaust its own share and its pool's, never
 * another pool's.
 */
export class ByteBudget {
  private used = 0;

  constructor(
    readonly limit: number,
    private readonly parent?: ByteBudget,
  ) {}

  get inUse(): number {
    return this.used;
  }

  /** Takes `bytes` if every level has room; otherwise takes nothing and answers false. */
  tryTake(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    if (this.parent && !this.parent.tryTake(bytes)) return false;
    this.used += bytes;
    return true;
  }

  release(bytes: number): void {
    this.used -= bytes;
    this.parent?.release(bytes);
  }
}
