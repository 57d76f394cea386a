import { Connection, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCALNET_PDA_PROGRAM, type Localnet, identity, pdaAddress } from "../../src/localnet/index.js";
import { sdk } from "../../testkit/sdk.js";
import { startDemoLocalnet } from "./helpers.js";

// The official SDK (3.0.26) over web3.js, exactly as the upstream proxy builds
// its per-request Connection, resolving every branch of the demo fixture.

const { resolve } = sdk;

let localnet: Localnet;
let connection: Connection;

beforeAll(async () => {
  localnet = await startDemoLocalnet();
  connection = new Connection(localnet.url, "processed");
});
afterAll(() => localnet.close());

const wallet = (name: string) => identity(name).address;

describe("official SDK resolve() against the localnet", () => {
  it.each([
    ["bonfida", "carol", "active NFT holder"],
    ["bonfida.sol", "carol", "trailing .sol stripped"],
    ["dex.bonfida", "bob", "subdomain registry owner"],
    ["redeemed", "frank", "inactive NFT record falls through to the owner"],
    ["v2-sol", "erin", "V2 SOL record"],
    ["pay.v2-sol", "erin", "V2 SOL record of a subdomain"],
    ["stale-v2", "dave", "stale V2 falls through to a valid V1"],
    ["v1-sol", "dave", "V1 SOL record"],
    ["bad-v1-sig", "alice", "bad V1 signature falls through to the owner"],
    ["plain", "bob", "registry owner"],
  ])("%s → %s (%s)", async (name, expected) => {
    const key = await resolve(connection, name);
    expect(key.toBase58()).toBe(wallet(expected));
  });

  it.each([
    ["vault", "PdaOwnerNotAllowed"],
    ["burned-nft", "CouldNotFindNftOwner"],
    ["unminted", "CouldNotFindNftOwner"],
    ["invalid-roa", "InvalidRoA"],
    ["wrong-validation", "WrongValidation"],
    ["malformed-sol", "RecordMalformed"],
    ["missing", "DomainDoesNotExist"],
  ])("%s throws %s", async (name, type) => {
    await expect(resolve(connection, name)).rejects.toMatchObject({ type });
  });

  it("allows the PDA owner when its program is on the allow-list", async () => {
    const programIds = [new PublicKey(LOCALNET_PDA_PROGRAM)];
    const key = await resolve(connection, "vault", { allowPda: true, programIds });
    expect(key.toBase58()).toBe(pdaAddress("treasury"));
    const other = [new PublicKey(wallet("alice"))];
    await expect(resolve(connection, "vault", { allowPda: true, programIds: other })).rejects.toMatchObject({
      type: "PdaOwnerNotAllowed",
    });
    expect((await resolve(connection, "vault", { allowPda: "any" })).toBase58()).toBe(pdaAddress("treasury"));
  });

  it("issues the SDK's call sequence", async () => {
    localnet.resetStats();
    await resolve(connection, "bonfida");
    expect(localnet.stats.methods).toEqual({ getMultipleAccounts: 1, getTokenLargestAccounts: 1, getAccountInfo: 1 });
    localnet.resetStats();
    await resolve(connection, "plain");
    expect(localnet.stats.methods).toEqual({ getMultipleAccounts: 1 });
  });
});
