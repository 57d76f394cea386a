import type { ExampleRequest } from "../openapi/documented-route.js";

/** Requests against the demo ledger (`npm run demo`) and their exact answers; `test/gateway/openapi.test.ts` sends each. */
export const REGISTER_EXAMPLES: Readonly<Record<string, ExampleRequest>> = {
  usdc: {
    summary: "Instructions registering example.sns, paid in USDC",
    query: {
      buyer: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS",
      domain: "example",
      space: "1000",
    },
    status: 200,
    body: {
      s: "ok",
      result: [
        {
          programId: "jCebN34bUfdeUYJT13J1yG16XWQpt5PDx6Mse9GUqhR",
          keys: [
            { isSigner: false, isWritable: false, pubkey: "namesLPneVptA9Z5rqUDD9tMTWEJwofgaYwp8cawRkX" },
            { isSigner: false, isWritable: false, pubkey: "58PwtjSDuFHuUkYjH9BYnnQKHfwo9reZhC2zMJv9JPkx" },
            { isSigner: false, isWritable: true, pubkey: "3hAeKRCU9LMrnHZBzJ8YzbHSjJXEV73oaW8s81MWpY95" },
            { isSigner: false, isWritable: true, pubkey: "7MpAkusYvZ24k6enyFUjYj7nPAmtZRPj5YTY5UvB14w9" },
            { isSigner: false, isWritable: false, pubkey: "11111111111111111111111111111111" },
            { isSigner: false, isWritable: false, pubkey: "33m47vH6Eav6jr5Ry86XjhRft2jRBLDnDgPSHoquXi2Z" },
            { isSigner: true, isWritable: true, pubkey: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS" },
            { isSigner: false, isWritable: false, pubkey: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS" },
            { isSigner: true, isWritable: true, pubkey: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS" },
            { isSigner: false, isWritable: true, pubkey: "8TSVD793BGSahiT3P5R7G1Dq6oMdcTckC1TGSsyxppeT" },
            { isSigner: false, isWritable: false, pubkey: "6HAuqASbHEh4w4REJEUUUCginTLfj1kwCh215ZLtMkrT" },
            { isSigner: false, isWritable: true, pubkey: "ArcUsvW3PNMmfTK9u7nntjwpbg8dkvAMxGzoYD2LENjX" },
            { isSigner: false, isWritable: false, pubkey: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA" },
            { isSigner: false, isWritable: false, pubkey: "SysvarRent111111111111111111111111111111111" },
            { isSigner: false, isWritable: false, pubkey: "56K3aq1AL6rLUCx9uuqZqEWEMtjfWHg19vp67Meko4he" },
          ],
          data: "FAcAAABleGFtcGxl6AMAAAA=",
        },
      ],
    },
  },
  "referrer-serialized": {
    summary: "With a known referrer, paid in SOL, as an unsigned transaction",
    query: {
      buyer: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS",
      domain: "example",
      space: "1000",
      referrer: "HemvJzwxvVpWBjPETpaseAH395WAxb2G73MeUfjVkK1u",
      mint: "So11111111111111111111111111111111111111112",
      serialize: "true",
    },
    status: 200,
    body: {
      s: "ok",
      result:
        "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABAAwSpWwrnixrcGBXAYceXPlvwmcVq28iyCJP6UjcxqX0+4EhfzEaqe12gVo7oAk+3ZXLoy141Fh7VQeHzaTnS78UxCgBgpKZk0o6f5yoUMt343ykn5FHBnYb92XoLtUG/x9YXnsSLoiy7JmsC4i0amQ7WQYfprctUxbLfgJEe0+qgjDGCtBOc9SjD5aDEjdknFqmm8dw5G0DX1mRyNQV4LCg8M/PmDVX2wJ3KIwoyzjLhFjUq6vov5ZTdPGAhqWeD70zAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAebFjksbVKKFvPFD7mp4g1bvqG4lnz2KsWavQO9itJjjzLDgXFSFvFlvJ5ys6PfyIZFY5xXK5EW5fxOQEi55ChPVPCSzg2DtOBOiPfst/YIKtYIct5KaONLqqyUug4JZVbsRWwDdII6qyfKmvtWLaGyH3c9S5trfFYcCJDMhaezYyXJY9OJInxuz0QKRSODYMLWhOZ2v8QhASOe9jb6fhZ92hFX+3i9o2pkVEtHozUqYsNqMw1PVQx9vvhmx0P6XQKz5CIbJRophgwKfaFZMVlNxFVFwk9S5tHEUq/ZS+5UAutUfQTwfOplGDZANi/LtaSfso017eEK/gQqXMILR7cBpuIV/6rgYT7aH9jRhjANdrEOdwa6ztVmKDwAAAAAAEGp9UXGSxcUSGMyUw9SvF/WNruCJuh/UTj29mKAAAAAAbd9uHXZaGT2cvhRs7reawctIXtX1s3kTqM9YV+/wCprA0xEfGlyXa/UdHfyrW8UJICseB6kU02rykovUJ9FVcCCwYABQwPBhEBAQ0QDgkCAwYHAAAAAQoEERAIBRMUBwAAAGV4YW1wbGXoAwAAAQYA",
    },
  },
  "unsupported-mint": {
    summary: "A mint without a Pyth price feed",
    query: {
      buyer: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS",
      domain: "example",
      space: "1000",
      mint: "6S1UMycw7pTkqgujrvXZD9rCfje2uSmWgYoRfEREYWxE",
    },
    status: 400,
    body: {
      s: "error",
      result: "Invalid input",
    },
  },
  "two-labels": {
    summary: "The domain must be one label",
    query: {
      buyer: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS",
      domain: "team.example",
      space: "1000",
    },
    status: 400,
    body: {
      s: "error",
      result: "Invalid input",
    },
  },
  "space-too-large": {
    summary: "Space is at most 10,000 bytes",
    query: {
      buyer: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS",
      domain: "example",
      space: "10001",
    },
    status: 400,
    body: {
      s: "error",
      result: "Invalid input",
    },
  },
};
