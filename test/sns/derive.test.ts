import { describe, expect, it } from "vitest";
import { toHex } from "../../src/sns/bytes.js";
import {
  deriveDomainKey,
  deriveNftRecordKey,
  deriveRecordV1Key,
  deriveRecordV2Key,
  deriveReverseKey,
  deriveTokenizedMint,
  hashName,
} from "../../src/sns/derive.js";
import { deriveResolutionKeys } from "../../src/sns/queries/resolve.js";

// Vectors computed with the official SDK 3.0.26.
describe("key derivation vectors", () => {
  const bonfida = deriveDomainKey("bonfida");
  const dex = deriveDomainKey("dex.bonfida");

  it("hashes names with the SPL Name Service prefix", () => {
    expect(toHex(hashName("bonfida"))).toBe("8ee2d25c3d2b2a83a1fc209b90377aed03dc2539e8e238355edda8d1b2edab98");
  });

  it.each([
    ["bonfida", "Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsinb"],
    ["dex.bonfida", "HoFfFXqFHAC8RP3duuQNzag1ieUwJRBv1HtRNiWFq4Qu"],
    ["solana", "9TdKztwu2cS3JConXYEwqscjuCixgQqFq1pAiPQEbkSy"],
    ["sns", "GCFmMocu3cqK5Fd5GwKqCcrmRP4nDstQBYKeQL5TwY2s"],
    ["a", "ELoM9Yo5jdNE64uV7y9oQNG5yB9Npk6S518rRWDJ5hxy"],
  ])("domain key of %s", (name, expected) => {
    expect(deriveDomainKey(name)).toBe(expected);
  });

  it("derives V1 and V2 record keys of domains and subdomains", () => {
    expect(deriveRecordV1Key(bonfida, "SOL")).toBe("5WCZ6uhXPXJ7UrzBvXBnE9biZykq1ezJ6JhYe6CHgA7d");
    expect(deriveRecordV1Key(dex, "SOL")).toBe("CjRyEYB8g7qSiqmeghp9G3n71EvoRgS8Q9c9sVnecVxt");
    expect(deriveRecordV2Key(bonfida, "SOL")).toBe("ETARvCjLwjyM6Jux1ndxuXuYEYy56Nf5uvU3abL1WyW6");
    expect(deriveRecordV2Key(dex, "SOL")).toBe("FmgzeC1ZgudCU2zYwoXmcs2Q141eqjqqD9RJnwMDkVEL");
    expect(deriveRecordV2Key(bonfida, "url")).toBe("EyXTEBK3xFkzkweB5PNR1zNjYchpyYyizunbdpcCEHVy");
    expect(deriveRecordV2Key(deriveDomainKey("wallet-guide-9"), "ETH")).toBe(
      "E4MZzSfkf59UVFYVux5WEufghvWxUktf6e5EaUuDExAc",
    );
  });

  it("derives tokenizer accounts", () => {
    expect(deriveNftRecordKey(bonfida)).toBe("ET1ZtHQxL7oii4R4aMqvd2Rqf6cxwwbJZPHJNqSFLWZn");
    expect(deriveTokenizedMint(bonfida)).toBe("4eH4KgXyMEmfJWqXukYNud3vqobGxfFAtDprWf2jLjQE");
    expect(deriveTokenizedMint(deriveDomainKey("domain1"))).toBe("3YTxXhhVue9BVjgjPwJbbJ4uGPsnwN453DDf72rYE5WN");
    expect(deriveTokenizedMint(deriveDomainKey("sub.domain2"))).toBe("66CnogoXDBqYeYRGYzQf19VyrMnB4uGxpZQDuDYfbKCX");
  });

  it("derives reverse keys, parented to the parent domain for subdomains", () => {
    expect(deriveReverseKey(bonfida)).toBe("DqgmWxe2PPrfy45Ja3UPyFGwcbRzkRuwXt3NyxjX8krg");
    expect(deriveReverseKey(dex, bonfida)).toBe("6tAdEpjsrzHuRqJW3XMXEV7DFyCWW4giW6mW4bgvhcYV");
  });

  it("bundles the accounts resolution reads, the same from its own memo as from the single derivations", () => {
    const expected = {
      domain: "Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsinb",
      nftRecord: "ET1ZtHQxL7oii4R4aMqvd2Rqf6cxwwbJZPHJNqSFLWZn",
      solV1: "5WCZ6uhXPXJ7UrzBvXBnE9biZykq1ezJ6JhYe6CHgA7d",
      solV2: "ETARvCjLwjyM6Jux1ndxuXuYEYy56Nf5uvU3abL1WyW6",
      mint: deriveTokenizedMint(bonfida),
    };
    expect(deriveResolutionKeys("bonfida")).toEqual(expected);
    expect(deriveResolutionKeys("bonfida")).toEqual(expected);
    for (const name of ["dex.bonfida", "x", "0", "a.b"]) {
      const domain = deriveDomainKey(name);
      const single = {
        domain,
        nftRecord: deriveNftRecordKey(domain),
        solV1: deriveRecordV1Key(domain, "SOL"),
        solV2: deriveRecordV2Key(domain, "SOL"),
        mint: deriveTokenizedMint(domain),
      };
      expect(deriveResolutionKeys(name)).toEqual(single);
      expect(deriveResolutionKeys(name)).toEqual(single);
    }
  });

  it("uses labels exactly as given (no lowercasing at this layer)", () => {
    expect(deriveDomainKey("Bonfida")).not.toBe(bonfida);
  });

  it("refuses three labels", () => {
    expect(() => deriveDomainKey("a.b.c")).toThrow(RangeError);
  });
});
