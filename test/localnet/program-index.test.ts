import { describe, expect, it } from "vitest";
import { Ledger, type LedgerAccount, identity } from "../../src/localnet/index.js";
import { getProgramAccounts } from "../../src/localnet/methods/program-accounts.js";
import { MAX_INDEXED_BYTES } from "../../src/localnet/program-index.js";

const PROGRAMS = [identity("index-program-a").address, identity("index-program-b").address];
const ADDRESSES = Array.from({ length: 160 }, (_, i) => identity(`index-account-${i}`).address);

/** Deterministic generator (mulberry32), so a failing case reproduces from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Filter = { dataSize: number } | { memcmp: { offset: number; bytes: string; encoding: "base64" } } | string;

/** The reference: every account of the program, in insertion order, tested against each filter as Agave does. */
function walk(ledger: Ledger, program: string, filters: readonly Filter[]): string[] {
  const passes = ({ data }: LedgerAccount, filter: Filter): boolean => {
    if (typeof filter === "string") return false; // tokenAccountState: none of these programs is a token program
    if ("dataSize" in filter) return data.length === filter.dataSize;
    const bytes = Buffer.from(filter.memcmp.bytes, "base64");
    const { offset } = filter.memcmp;
    return offset + bytes.length <= data.length && bytes.every((byte, i) => data[offset + i] === byte);
  };
  return [...ledger.programAccounts(program)]
    .filter(([, account]) => filters.every((filter) => passes(account, filter)))
    .map(([address]) => address);
}

function query(ledger: Ledger, program: string, filters: readonly Filter[]): { pubkey: string; data: string }[] {
  const answer = getProgramAccounts([program, { encoding: "base64", filters }], ledger) as {
    pubkey: string;
    account: { data: [string, string] };
  }[];
  return answer.map(({ pubkey, account }) => ({ pubkey, data: account.data[0] }));
}

describe("getProgramAccounts from short-memcmp indexes", () => {
  it("answers exactly as a full walk over generated ledgers, filters and mutations", () => {
    let queries = 0;
    let nonEmpty = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const next = random(seed);
      const int = (n: number) => Math.floor(next() * n);
      // Few byte values, so memcmps of 1 to 4 bytes match often.
      const data = () => Uint8Array.from({ length: int(14) }, () => int(3));
      const ledger = new Ledger();
      const setRandom = () =>
        ledger.setAccount(ADDRESSES[int(ADDRESSES.length)]!, { owner: PROGRAMS[int(2)]!, data: data() });
      for (let i = 0; i < 120; i++) setRandom();
      const addresses = () => [...ledger.entries()].map(([address]) => address);
      // Most memcmps reuse a few (offset, length) pairs of this seed, so later queries read indexes built by
      // earlier ones (and mutations in between must reach them); the rest are anywhere, beyond the indexes kept.
      const pairs = Array.from({ length: 3 }, () => ({ offset: int(6), length: 1 + int(MAX_INDEXED_BYTES) }));
      const filter = (): Filter => {
        const kind = int(10);
        if (kind === 0) return "tokenAccountState";
        if (kind === 1) return { dataSize: int(14) };
        // Lengths past the indexed bound and of zero bytes take the walk; offsets past most accounts exclude them.
        const { offset, length } =
          kind < 7 ? pairs[int(pairs.length)]! : { offset: int(14), length: int(MAX_INDEXED_BYTES + 3) };
        const bytes = Uint8Array.from({ length }, () => int(3));
        return { memcmp: { offset, bytes: Buffer.from(bytes).toString("base64"), encoding: "base64" } };
      };
      for (let round = 0; round < 60; round++) {
        const mutation = int(4);
        const existing = addresses();
        if (mutation === 0) setRandom();
        else if (mutation === 1 && existing.length > 0) {
          // Overwrite with another owner: the account leaves one program and joins the other.
          const address = existing[int(existing.length)]!;
          const owner = PROGRAMS.find((program) => program !== ledger.getAccount(address)!.owner)!;
          ledger.setAccount(address, { owner, data: data() });
        } else if (mutation === 2 && existing.length > 0) ledger.deleteAccount(existing[int(existing.length)]!);
        // mutation 3: none, so the indexes built by the previous queries answer this round.
        for (let q = 0; q < 8; q++) {
          const program = PROGRAMS[int(2)]!;
          const filters = Array.from({ length: 1 + int(4) }, filter);
          const answer = query(ledger, program, filters);
          const expected = walk(ledger, program, filters);
          expect(
            answer.map(({ pubkey }) => pubkey),
            JSON.stringify({ seed, round, filters }),
          ).toEqual(expected);
          for (const { pubkey, data } of answer) {
            expect(data).toBe(Buffer.from(ledger.getAccount(pubkey)!.data).toString("base64"));
          }
          queries += 1;
          if (expected.length > 0) nonEmpty += 1;
        }
      }
      ledger.clear();
      expect(query(ledger, PROGRAMS[0]!, [{ memcmp: { offset: 0, bytes: "AA==", encoding: "base64" } }])).toEqual([]);
    }
    // The generated cases are not all empty answers.
    expect(nonEmpty).toBeGreaterThan(queries / 10);
  });

  it("a partitioned scan looks only at the accounts of its partition, in insertion order", () => {
    const ledger = new Ledger();
    const program = PROGRAMS[0]!;
    ADDRESSES.forEach((address, i) => ledger.setAccount(address, { owner: program, data: Uint8Array.of(7, i % 4, i) }));
    const partition = (prefix: number) => [
      { offset: 0, bytes: Uint8Array.of(7) },
      { offset: 1, bytes: Uint8Array.of(prefix) },
    ];
    const candidates = [...ledger.programCandidates(program, partition(2))].map(([address]) => address);
    expect(candidates).toEqual(ADDRESSES.filter((_, i) => i % 4 === 2));
    // A change to the program is seen by the next scan.
    ledger.setAccount(ADDRESSES[2]!, { owner: program, data: Uint8Array.of(7, 3) });
    ledger.setAccount(ADDRESSES[3]!, { owner: program, data: Uint8Array.of(7, 2) });
    const after = [...ledger.programCandidates(program, partition(2))].map(([address]) => address);
    expect(after).toEqual([...ADDRESSES.filter((_, i) => i % 4 === 2 && i !== 2), ADDRESSES[3]]);
  });
});
