import { describe, expect, it } from "vitest";
import { NAME_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../src/sns/constants.js";
import {
  Ledger,
  LedgerError,
  encodeMint,
  encodeTokenAccount,
  identity,
  rentExemptMinimum,
} from "../../src/localnet/index.js";

const mint = identity("mint").address;
const holder = (i: number) => identity(`holder-${i}`).address;
const tokenAccount = (i: number) => identity(`token-${i}`).address;

function withMint(): Ledger {
  const ledger = new Ledger();
  ledger.setAccount(mint, { owner: TOKEN_PROGRAM_ID, data: encodeMint({ supply: 100n, decimals: 2 }) });
  return ledger;
}

function holdTokens(ledger: Ledger, i: number, amount: bigint, owner: string = TOKEN_PROGRAM_ID): void {
  ledger.setAccount(tokenAccount(i), { owner, data: encodeTokenAccount({ mint, owner: holder(i), amount }) });
}

describe("Ledger", () => {
  it("defaults lamports to the rent-exempt minimum and copies data", () => {
    const ledger = new Ledger({ slot: 9 });
    const data = new Uint8Array(10);
    const stored = ledger.setAccount(identity("a").address, { owner: NAME_PROGRAM_ID, data });
    data[0] = 1;
    expect(stored.data[0]).toBe(0);
    expect(stored.lamports).toBe(rentExemptMinimum(10));
    // 128 bytes of overhead at today's mainnet rate, 5,080 lamports a byte (6,960 before the cluster lowered it).
    expect(rentExemptMinimum(0)).toBe(650_240);
    expect(ledger.slotAt("processed")).toBe(9);
  });

  it("takes the rent rate and the slot time as settings, defaulting to today's mainnet", () => {
    const today = new Ledger({ slot: 0 });
    expect([today.lamportsPerByte, today.slotMs]).toEqual([5_080, 250]);
    expect(today.setAccount(identity("a").address, { owner: NAME_PROGRAM_ID, data: new Uint8Array(72) }).lamports).toBe(
      200 * 5_080,
    );
    const next = new Ledger({ slot: 0, lamportsPerByte: 2_575, slotMs: 200 });
    expect(next.setAccount(identity("a").address, { owner: NAME_PROGRAM_ID, data: new Uint8Array(72) }).lamports).toBe(
      200 * 2_575,
    );
    // Block times advance at the ledger's slot time: 1,000 slots are 250 s, or 200 s.
    const secondsFor1000Slots = (ledger: Ledger) => {
      const blockTime = () =>
        ledger.transact({ feePayer: identity("a").address, programs: [NAME_PROGRAM_ID], writes: new Map() }).blockTime;
      const first = blockTime();
      ledger.slot += 999;
      return blockTime() - first;
    };
    expect(secondsFor1000Slots(today)).toBe(250);
    expect(secondsFor1000Slots(next)).toBe(200);
  });

  it("rejects addresses that are not 32-byte base58 keys", () => {
    expect(() => new Ledger().setAccount("nope", { owner: NAME_PROGRAM_ID })).toThrow(LedgerError);
    expect(() => new Ledger().setAccount(identity("a").address, { owner: "0x00" })).toThrow(LedgerError);
  });

  it("lets confirmed and processed run ahead when configured", () => {
    const ledger = new Ledger({ slot: 100 });
    ledger.lead.processed = 3;
    const slots = [ledger.slotAt("finalized"), ledger.slotAt("confirmed"), ledger.slotAt("processed")];
    expect(slots).toEqual([100, 100, 103]);
  });

  it("indexes program accounts and forgets deleted ones", () => {
    const ledger = new Ledger();
    ledger.setAccount(identity("a").address, { owner: NAME_PROGRAM_ID });
    ledger.setAccount(identity("b").address, { owner: NAME_PROGRAM_ID });
    ledger.setAccount(identity("b").address, { owner: TOKEN_PROGRAM_ID });
    expect([...ledger.programAccounts(NAME_PROGRAM_ID)].map(([a]) => a)).toEqual([identity("a").address]);
    expect(ledger.deleteAccount(identity("a").address)).toBe(true);
    expect(ledger.deleteAccount(identity("a").address)).toBe(false);
    expect([...ledger.programAccounts(NAME_PROGRAM_ID)]).toEqual([]);
    ledger.clear();
    expect(ledger.size).toBe(0);
  });
});

describe("token index", () => {
  it("sorts holders by amount and keeps the 20 largest", () => {
    const ledger = withMint();
    for (let i = 0; i < 25; i++) holdTokens(ledger, i, BigInt(i));
    const largest = ledger.tokenLargestAccounts(mint);
    expect(largest).toHaveLength(20);
    expect(largest[0]).toEqual({ address: tokenAccount(24), amount: 24n });
    expect(largest.at(-1)).toEqual({ address: tokenAccount(5), amount: 5n });
    expect(ledger.getMint(mint)).toEqual({ supply: 100n, decimals: 2 });
  });

  it("follows overwrites and deletions", () => {
    const ledger = withMint();
    holdTokens(ledger, 1, 1n);
    holdTokens(ledger, 2, 5n);
    holdTokens(ledger, 1, 9n);
    expect(ledger.tokenLargestAccounts(mint).map((b) => b.amount)).toEqual([9n, 5n]);
    ledger.deleteAccount(tokenAccount(2));
    ledger.setAccount(tokenAccount(1), { owner: NAME_PROGRAM_ID });
    expect(ledger.tokenLargestAccounts(mint)).toEqual([]);
  });

  it("accepts Token-2022 accounts with an account-type marker, ignores odd sizes", () => {
    const ledger = withMint();
    const extended = new Uint8Array(170);
    extended.set(encodeTokenAccount({ mint, owner: holder(1), amount: 3n }));
    extended[165] = 2;
    ledger.setAccount(tokenAccount(1), { owner: TOKEN_2022_PROGRAM_ID, data: extended });
    ledger.setAccount(tokenAccount(2), { owner: TOKEN_PROGRAM_ID, data: extended });
    expect(ledger.tokenLargestAccounts(mint)).toEqual([{ address: tokenAccount(1), amount: 3n }]);
  });
});
