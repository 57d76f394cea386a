import * as untypedSdk from "@bonfida/spl-name-service";
import { Connection, PublicKey, SolanaJSONRPCError } from "@solana/web3.js";
import punycode from "punycode/punycode.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ledger, buildDomainAccounts } from "../../src/localnet/index.js";
import { addressToBytes, bytesToAddress, utf8 } from "../../src/sns/bytes.js";
import { GUARDIAN_KEY, NAME_PROGRAM_ID } from "../../src/sns/constants.js";
import { deriveDomainKey, deriveRecordV2Key } from "../../src/sns/derive.js";
import { encodeRecordV2Account } from "../../src/sns/record-account.js";
import { RECORD_TYPES, type RecordType } from "../../src/sns/record-types.js";
import { type Answer, type Stack, startStack } from "../support/stack.js";
import { expectedRecordText, isIpv6TieCase } from "./records-ipv6.js";

/*
 * The gateway's `/record-v2` and `/records-v2` against the official SDK
 * 3.0.26 (`getRecordV2`, `getMultipleRecordsV2`, as the upstream proxy calls
 * them), both reading the same random chain state from the localnet over
 * JSON-RPC. SDK outcomes go through the upstream proxy's error mapping
 * (PROTOCOL §7.5) and must match the gateway's status, message and body,
 * except for these documented improvements:
 *
 *  1. Records the SDK fails on with a generic exception (undecodable
 *     content, V2 header shorter than 104 bytes, validation value > 3):
 *     upstream 500, gateway 422 `Record is malformed`.
 *  2. `background`: upstream 422, gateway 200 with `deserialized` omitted.
 *  3. Batches with an undecodable record: upstream fails the whole batch,
 *     the gateway returns that item without `deserialized`.
 *  4. IPv6 text in the RFC 5952 tie case (records-ipv6.ts).
 *  5. Validation ids running past the end of the account: the SDK reads
 *     them short and carries on, the gateway answers 422.
 */

// The SDK's declarations use extensionless re-exports NodeNext cannot follow.
interface SdkRecordResult {
  readonly retrievedRecord: {
    readonly header: { stalenessValidation: number; rightOfAssociationValidation: number; contentLength: number };
    readonly data: Buffer;
    getContent(): Buffer;
  };
  readonly verified: { readonly staleness: boolean; readonly roa?: boolean };
  readonly deserializedContent?: string;
}
interface SdkOracle {
  getRecordV2(
    connection: Connection,
    domain: string,
    record: string,
    options?: { deserialize?: boolean },
  ): Promise<SdkRecordResult>;
  getMultipleRecordsV2(
    connection: Connection,
    domain: string,
    records: string[],
    options?: { deserialize?: boolean },
  ): Promise<(SdkRecordResult | undefined)[]>;
  deserializeRecordV2Content(content: Buffer, record: string): string;
}
const sdk = untypedSdk as unknown as SdkOracle;

/**
 * The SDK re-derives the domain key for every record it reads, and PDA
 * derivation (a curve check per bump) dominates its CPU time. Derivation is
 * a pure function of its inputs, so caching it changes no answer the SDK
 * gives; it only keeps this test inside its time budget.
 */
function memoizeProgramAddresses(): () => void {
  const original = PublicKey.findProgramAddressSync;
  const memo = new Map<string, [PublicKey, number]>();
  PublicKey.findProgramAddressSync = (seeds, programId) => {
    const key = `${seeds.map((seed) => Buffer.from(seed).toString("hex")).join(",")}/${programId.toBase58()}`;
    let found = memo.get(key);
    if (!found) memo.set(key, (found = original.call(PublicKey, seeds, programId)));
    return found;
  };
  return () => {
    PublicKey.findProgramAddressSync = original;
  };
}

// ---------------------------------------------------------------------------
// Seeded randomness

function sfc32(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 16; i++) next();
  return next;
}

class Random {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = sfc32(seed);
  }
  int(max: number): number {
    return Math.floor(this.next() * max);
  }
  range(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  bytes(length: number): Uint8Array {
    return Uint8Array.from({ length }, () => this.int(256));
  }
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}

const CHARS = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._:/@ ", ..."éöüßñ日本語한\u{1F680}\ufeff\u0000"];

function randomText(random: Random, maxLength = 24): string {
  let out = "";
  for (let i = random.int(maxLength + 1); i > 0; i--) out += random.pick(CHARS);
  return out;
}

function messyUtf8(random: Random): Uint8Array {
  const bytes = [...utf8.encode(randomText(random))];
  for (let i = random.range(1, 3); i > 0; i--) bytes.splice(random.int(bytes.length + 1), 0, random.pick([0x80, 0xc3, 0xed, 0xff]));
  return Uint8Array.from(bytes);
}

const TEXT_TYPES: ReadonlySet<RecordType> = new Set<RecordType>([
  "IPFS", "ARWV", "BTC", "LTC", "DOGE", "email", "url", "discord", "github", "reddit",
  "twitter", "telegram", "pic", "SHDW", "POINT", "backpack", "IPNS", "bio",
]);
const ETH_STYLE: ReadonlySet<RecordType> = new Set<RecordType>(["ETH", "BSC", "BASE", "INJ"]);

function ipv6Content(random: Random): Uint8Array {
  const groups = random.chance(0.25)
    ? // A leading zero run as long as a later interior one: the RFC 5952 tie.
      random.pick([
        [0, 0, 1, 0, 0, 1, 1, 1],
        [0, 0, 0xabc, 0, 0, 7, 0, 0],
        [0, 0, 0, 0x2001, 0, 0, 0, 9],
      ])
    : Array.from({ length: 8 }, () => (random.chance(0.55) ? 0 : random.chance(0.5) ? random.range(1, 15) : random.int(0x10000)));
  return Uint8Array.from(groups.flatMap((g) => [g >> 8, g & 0xff]));
}

function randomContent(random: Random, type: RecordType): Uint8Array {
  if (random.chance(0.06)) return random.bytes(random.int(48));
  if (TEXT_TYPES.has(type)) return random.chance(0.8) ? utf8.encode(randomText(random, 40)) : messyUtf8(random);
  switch (type) {
    case "CNAME":
    case "TXT":
      // Plain text is often not valid Punycode: undecodable content.
      return random.chance(0.6) ? utf8.encode(punycode.encode(randomText(random))) : utf8.encode(randomText(random));
    case "SOL":
      return random.chance(0.75) ? random.bytes(32) : random.bytes(random.pick([0, 5, 31, 33, 40]));
    case "ETH":
    case "BSC":
    case "BASE":
    case "INJ":
      return random.chance(0.7) ? random.bytes(20) : random.bytes(random.int(61));
    case "A":
    case "AAAA": {
      const roll = random.next();
      if (roll < 0.3) return random.bytes(4);
      if (roll < 0.85) return ipv6Content(random);
      return random.bytes(random.pick([0, 3, 5, 15, 17, 32]));
    }
    default:
      return random.bytes(random.chance(0.7) ? 32 : random.int(48));
  }
}

// ---------------------------------------------------------------------------
// A random chain state

const ID_LENGTH: readonly number[] = [0, 32, 20, 32];
const GUARDIAN = addressToBytes(GUARDIAN_KEY);

type Tokenized = { holder: string | null; state?: "inactive"; mint?: false };

interface WorldDomain {
  readonly name: string;
  /** False for names that were never registered (their records may still exist). */
  readonly exists: boolean;
  readonly tokenized: Tokenized | undefined;
  readonly records: Map<RecordType, Uint8Array>;
}

function randomValidation(random: Random): number {
  if (random.chance(0.03)) return random.pick([4, 255, 65535]);
  return random.int(4);
}

function randomId(random: Random, length: number, candidates: readonly Uint8Array[]): Uint8Array {
  const fitting = candidates.filter((c) => c.length === length);
  if (fitting.length > 0 && random.chance(0.7)) return random.pick(fitting);
  return random.bytes(length);
}

function randomRecordAccount(
  random: Random,
  type: RecordType,
  domainKey: Uint8Array,
  registryOwner: Uint8Array,
  owners: readonly Uint8Array[],
): Uint8Array {
  const content = randomContent(random, type);
  const stalenessValidation = random.chance(0.6) ? 1 : randomValidation(random);
  const rightOfAssociationValidation = random.chance(0.4) ? (ETH_STYLE.has(type) ? 2 : 1) : randomValidation(random);
  const stalenessId = randomId(random, ID_LENGTH[stalenessValidation] ?? random.int(40), owners);
  const roaId = randomId(random, ID_LENGTH[rightOfAssociationValidation] ?? random.int(40), [content, GUARDIAN, ...owners]);
  const trailing = random.chance(0.1) ? random.bytes(random.range(1, 6)) : new Uint8Array(0);
  const account = encodeRecordV2Account({
    parent: domainKey,
    owner: registryOwner,
    stalenessValidation,
    rightOfAssociationValidation,
    stalenessId,
    roaId,
    content: Uint8Array.from([...content, ...trailing]),
    contentLength: random.chance(0.85) ? content.length : random.int(2 ** 32),
  });
  return random.chance(0.03) ? account.subarray(0, random.int(account.length)) : account;
}

function randomTokenized(random: Random, holder: Uint8Array): Tokenized {
  const roll = random.next();
  if (roll < 0.6) return { holder: bytesToAddress(holder) };
  if (roll < 0.75) return { holder: bytesToAddress(holder), state: "inactive" };
  if (roll < 0.9) return { holder: null };
  // An NFT record whose mint account is gone.
  return { holder: bytesToAddress(holder), mint: false };
}

function buildWorld(random: Random, count: number): { ledger: Ledger; domains: WorldDomain[] } {
  const ledger = new Ledger();
  const domains: WorldDomain[] = [];
  const topLevel: string[] = [];
  for (let i = 0; i < count; i++) {
    const parent = topLevel.length > 0 && random.chance(0.2) ? random.pick(topLevel) : undefined;
    const label = `${random.pick(["w", "site", "x-y", "9"])}${i}`;
    const name = parent === undefined ? label : `${label}.${parent}`;
    const exists = !random.chance(0.07);
    const registryOwner = random.chance(0.04) ? new Uint8Array(32) : random.bytes(32);
    const holder = random.bytes(32);
    const tokenized = exists && random.chance(0.35) ? randomTokenized(random, holder) : undefined;
    if (exists) {
      const spec = {
        name,
        owner: bytesToAddress(registryOwner),
        space: random.int(64),
        reverse: false,
        ...(tokenized && { tokenized }),
      };
      for (const { address, account } of buildDomainAccounts(spec)) ledger.setAccount(address, account);
      if (parent === undefined) topLevel.push(name);
    }
    const domainKey = addressToBytes(deriveDomainKey(name));
    const owners = tokenized ? [registryOwner, holder] : [registryOwner];
    const records = new Map<RecordType, Uint8Array>();
    // The first record rotates through the enum, so every type exists on about a dozen domains.
    const types = random.shuffle([...RECORD_TYPES]).slice(0, exists ? random.range(2, 7) : random.int(2));
    if (exists) types[0] = RECORD_TYPES[i % RECORD_TYPES.length]!;
    for (const type of new Set(types)) {
      let account = randomRecordAccount(random, type, domainKey, registryOwner, owners);
      // Upstream reads an orphan record concurrently with its missing domain,
      // so an unreadable one would race "not found" against a decode error.
      while (!exists && headerProblem(account)) account = randomRecordAccount(random, type, domainKey, registryOwner, owners);
      records.set(type, account);
      ledger.setAccount(deriveRecordV2Key(deriveDomainKey(name), type), { owner: NAME_PROGRAM_ID, data: account });
    }
    domains.push({ name, exists, tokenized, records });
  }
  return { ledger, domains };
}

// ---------------------------------------------------------------------------
// Upstream's answer for an SDK outcome

interface HttpAnswer {
  readonly status: number;
  readonly body: string;
}

const errorBody = (message: string): string => JSON.stringify({ s: "error", result: message });
const okBody = (result: unknown): string => JSON.stringify({ s: "ok", result });

/** PROTOCOL §7.5, rows that record reads can reach. */
function proxyError(error: unknown, route: "record" | "records"): HttpAnswer {
  const { message, type } = error as { message?: string; type?: string };
  const answer = (status: number, text: string): HttpAnswer => ({ status, body: errorBody(text) });
  if (message === "Record header account not found") return answer(404, "Record not found");
  if (["InvalidDomain", "InvalidSubdomain", "InvalidParent", "InvalidInput", "PythFeedNotFound"].includes(type ?? "")) {
    return answer(400, "Invalid input");
  }
  if (type === "DomainDoesNotExist") return answer(404, "Domain not found");
  if (["AccountDoesNotExist", "NoAccountData", "NftRecordNotFound"].includes(type ?? "")) {
    return answer(404, route === "record" ? "Record not found" : "Domain not found");
  }
  if (["InvalidRecordData", "RecordMalformed", "WrongValidation", "InvalidRoA"].includes(type ?? "")) {
    return answer(422, "Record is malformed");
  }
  if (error instanceof SolanaJSONRPCError) return answer(502, "RPC unavailable");
  return answer(500, "Internal error");
}

/** Records compared where difference 4 applied, so a skewed generator cannot skip it unnoticed. */
let ipv6TieCases = 0;

/** The record object upstream serializes (§7.4), with the gateway's IPv6 text (difference 4). */
function recordObject(result: SdkRecordResult, type: RecordType, withType: boolean): unknown {
  const content = result.retrievedRecord.getContent();
  const text = result.deserializedContent;
  if (text !== undefined && isIpv6TieCase(type, content)) ipv6TieCases++;
  return JSON.parse(
    JSON.stringify({
      ...(withType && { type }),
      deserialized: text === undefined ? undefined : expectedRecordText(type, content, text),
      stale: !result.verified.staleness,
      roa: result.verified.roa,
      record: { header: result.retrievedRecord.header, data: result.retrievedRecord.data.toString("base64") },
    }),
  );
}

/** The SDK's text for content, or undefined where its decoder throws. */
function tryDecode(type: RecordType, content: Buffer): string | undefined {
  if (type === "background") return undefined;
  try {
    return sdk.deserializeRecordV2Content(content, type);
  } catch {
    return undefined;
  }
}

/** Content of a readable V2 record: everything after the two ids. */
function contentOf(account: Uint8Array): Buffer {
  const view = new DataView(account.buffer, account.byteOffset, account.byteLength);
  const ids = ID_LENGTH[view.getUint16(96, true)]! + ID_LENGTH[view.getUint16(98, true)]!;
  return Buffer.from(account.subarray(104 + ids));
}

/** Whether the gateway can read the V2 header, or why not. */
function headerProblem(account: Uint8Array): "short" | "validation" | "overrun" | null {
  if (account.length < 104) return "short";
  const view = new DataView(account.buffer, account.byteOffset, account.byteLength);
  const staleness = ID_LENGTH[view.getUint16(96, true)];
  const roa = ID_LENGTH[view.getUint16(98, true)];
  if (staleness === undefined || roa === undefined) return "validation";
  return 104 + staleness + roa > account.length ? "overrun" : null;
}

type Settled<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

async function settle<T>(run: () => Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error };
  }
}

const MALFORMED: HttpAnswer = { status: 422, body: errorBody("Record is malformed") };

// ---------------------------------------------------------------------------
// The comparisons

type Tally = Map<string, number>;
const count = (tally: Tally, key: string): void => void tally.set(key, (tally.get(key) ?? 0) + 1);

const seen = (answer: Answer): HttpAnswer => ({ status: answer.status, body: answer.text });

/** How the gateway is asked for `name`: sometimes padded and upper-cased, which it must normalize. */
function spelled(random: Random, name: string): string {
  return random.chance(0.15) ? encodeURIComponent(` ${name.toUpperCase()} `) : name;
}

async function compareSingle(
  stack: Stack,
  connection: Connection,
  random: Random,
  domain: WorldDomain,
  type: RecordType,
  tally: Tally,
): Promise<void> {
  const ours = seen(await stack.get(`/record-v2/${spelled(random, domain.name)}/${type}`));
  const theirs = await settle(() => sdk.getRecordV2(connection, domain.name, type, { deserialize: true }));
  const account = domain.exists ? domain.records.get(type) : undefined;
  const problem = account ? headerProblem(account) : null;

  if (problem) {
    // Differences 1 and 5.
    count(tally, `single ${problem}`);
    expect(ours).toEqual(MALFORMED);
    if (problem !== "overrun") expect(theirs.ok || proxyError(theirs.error, "record").status).toBe(500);
    return;
  }
  if (theirs.ok) {
    const result = recordObject(theirs.value, type, false) as { stale: boolean; roa?: boolean };
    count(tally, result.stale ? "stale" : "fresh");
    if (domain.tokenized) count(tally, `tokenized ${result.stale ? "stale" : "fresh"}`);
    count(tally, `roa ${result.roa}`);
    expect(ours).toEqual({ status: 200, body: okBody(result) });
    return;
  }
  const upstream = proxyError(theirs.error, "record");
  count(tally, `single upstream ${upstream.status}`);
  if (upstream.status === 500) {
    // Difference 1: only undecodable content of an existing record gets here.
    expect(account).toBeDefined();
    expect(tryDecode(type, contentOf(account!))).toBeUndefined();
    expect(ours).toEqual(MALFORMED);
    return;
  }
  if (type === "background" && upstream.status === 422) {
    // Difference 2.
    const bare = await sdk.getRecordV2(connection, domain.name, type, { deserialize: false });
    expect(ours).toEqual({ status: 200, body: okBody(recordObject(bare, type, false)) });
    return;
  }
  expect(ours).toEqual(upstream);
}

/** Every record of the domain, shuffled, with a few absent types and duplicates mixed in. */
function batchRequest(random: Random, domain: WorldDomain): RecordType[] {
  const present = [...domain.records.keys()];
  const extras = Array.from({ length: random.int(4) }, () =>
    present.length > 0 && random.chance(0.4) ? random.pick(present) : random.pick(RECORD_TYPES),
  );
  const requested = random.shuffle([...present, ...extras]);
  return requested.length > 0 ? requested : [random.pick(RECORD_TYPES)];
}

async function compareBatch(
  stack: Stack,
  connection: Connection,
  random: Random,
  domain: WorldDomain,
  requested: RecordType[],
  tally: Tally,
): Promise<void> {
  const list = requested.map((type) => (random.chance(0.1) ? `%20${type}%20` : type)).join(",");
  const ours = seen(await stack.get(`/records-v2/${spelled(random, domain.name)}?records=${list}`));
  const theirs = await settle(() => sdk.getMultipleRecordsV2(connection, domain.name, requested, { deserialize: true }));
  const accounts = domain.exists ? requested.flatMap((type) => domain.records.get(type) ?? []) : [];
  const problems = accounts.map(headerProblem).filter((problem) => problem !== null);

  if (problems.length > 0) {
    // Differences 1 and 5: an unreadable header fails the batch.
    count(tally, "batch unreadable");
    expect(ours).toEqual(MALFORMED);
    // Upstream fails too, with whichever item it trips on first (500, or 422 for a `background`).
    if (problems.some((problem) => problem !== "overrun")) expect(theirs.ok).toBe(false);
    return;
  }
  if (theirs.ok) {
    count(tally, `batch of ${theirs.value.filter(Boolean).length === requested.length ? "all" : "some"}`);
    const expected = theirs.value.flatMap((result, k) => (result ? [recordObject(result, requested[k]!, true)] : []));
    expect(ours).toEqual({ status: 200, body: okBody(expected) });
    return;
  }
  const upstream = proxyError(theirs.error, "records");
  if (upstream.status === 404) {
    count(tally, "batch 404");
    expect(ours).toEqual(upstream);
    return;
  }
  // Differences 2 and 3: upstream fails the whole batch on one undecodable item.
  count(tally, "batch partial");
  expect([422, 500]).toContain(upstream.status);
  const bare = await sdk.getMultipleRecordsV2(connection, domain.name, requested, { deserialize: false });
  const expected = bare.flatMap((result, k) => {
    if (!result) return [];
    const type = requested[k]!;
    const deserializedContent = tryDecode(type, result.retrievedRecord.getContent());
    return [recordObject({ ...result, ...(deserializedContent !== undefined && { deserializedContent }) }, type, true)];
  });
  expect(expected.some((item) => (item as { deserialized?: string }).deserialized === undefined)).toBe(true);
  expect(ours).toEqual({ status: 200, body: okBody(expected) });
}

// ---------------------------------------------------------------------------

const DOMAINS = 320;
const WORKERS = 12;
const envSeed = Number.parseInt(process.env.RECORDS_HTTP_DIFF_SEED ?? "", 10);
const SEED = Number.isFinite(envSeed) ? envSeed : Math.floor(Math.random() * 2 ** 32);

describe(`records over HTTP vs SDK 3.0.26 (seed ${SEED}, RECORDS_HTTP_DIFF_SEED to replay)`, () => {
  let stack: Stack;
  let connection: Connection;
  let domains: WorldDomain[];
  let restoreDerivation: (() => void) | undefined;

  beforeAll(async () => {
    restoreDerivation = memoizeProgramAddresses();
    const world = buildWorld(new Random(SEED), DOMAINS);
    domains = world.domains;
    stack = await startStack(world.ledger);
    connection = new Connection(stack.localnet.url, "processed");
  });
  afterAll(async () => {
    restoreDerivation?.();
    await stack?.close();
  });

  it(`${DOMAINS} random domains: /records-v2 with every record, /record-v2 on a sample`, async () => {
    const tally: Tally = new Map();
    const typesRead = new Set<RecordType>();
    let next = 0;
    const worker = async () => {
      while (next < domains.length) {
        const index = next++;
        const domain = domains[index]!;
        // Per-domain streams: how the workers interleave cannot change what is asked.
        const random = new Random((SEED ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
        try {
          const requested = batchRequest(random, domain);
          await compareBatch(stack, connection, random, domain, requested, tally);
          // An unreadable record fails its batch: ask again without it, so the rest is compared too.
          const unreadable = (type: RecordType): boolean => {
            const account = domain.exists ? domain.records.get(type) : undefined;
            return account !== undefined && headerProblem(account) !== null;
          };
          const readable = requested.filter((type) => !unreadable(type));
          if (readable.length > 0 && readable.length < requested.length) {
            await compareBatch(stack, connection, random, domain, readable, tally);
          }
          // Singles cost four RPC round trips upstream, so one record per domain
          // (320 domains still read each type about a dozen times) and sometimes an absent one.
          const present = [...domain.records.keys()];
          const absentTypes = RECORD_TYPES.filter((type) => !domain.records.has(type));
          const absent = random.chance(0.2) && absentTypes.length > 0 ? random.pick(absentTypes) : undefined;
          const singles = [...(present.length > 0 ? [random.pick(present)] : []), ...(absent ? [absent] : [])];
          for (const type of singles) {
            if (domain.exists && domain.records.has(type)) typesRead.add(type);
            await compareSingle(stack, connection, random, domain, type, tally);
          }
        } catch (error) {
          const accounts = Object.fromEntries([...domain.records].map(([type, data]) => [type, Buffer.from(data).toString("hex")]));
          const detail = `seed=${SEED} domain#${index} ${domain.name} exists=${domain.exists} records=${JSON.stringify(accounts)}`;
          throw new Error(`${detail}\n${error instanceof Error ? error.message : String(error)}`, { cause: error });
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));

    expect([...typesRead].sort()).toEqual([...RECORD_TYPES].sort());
    expect(ipv6TieCases, `seed=${SEED}: no IPv6 tie case compared`).toBeGreaterThan(0);
    const reached = Object.fromEntries(tally);
    for (const outcome of [
      "fresh",
      "stale",
      "tokenized fresh",
      "tokenized stale",
      "roa true",
      "roa false",
      "roa undefined",
      "single upstream 404",
      "single upstream 422",
      "single upstream 500",
      "batch of all",
      "batch of some",
      "batch partial",
      "batch 404",
      "batch unreadable",
    ]) {
      expect(reached, `seed=${SEED}: no case reached "${outcome}"`).toHaveProperty([outcome]);
    }
  });
});
