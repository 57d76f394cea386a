import type { ExampleRequest } from "../openapi/documented-route.js";

/** Requests against the demo ledger (`npm run demo`) and their exact answers; `test/gateway/openapi.test.ts` sends each. */
export const CREATE_SUBDOMAIN_EXAMPLES: Readonly<Record<string, ExampleRequest>> = {
  "new-subdomain": {
    summary: "team.plain by the parent's owner: the subdomain and its reverse account",
    query: {
      owner: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS",
      subdomain: "team.plain",
    },
    status: 200,
    body: {
      s: "ok",
      result: [
        {
          programId: "namesLPneVptA9Z5rqUDD9tMTWEJwofgaYwp8cawRkX",
          keys: [
            { isSigner: false, isWritable: false, pubkey: "11111111111111111111111111111111" },
            { isSigner: true, isWritable: true, pubkey: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS" },
            { isSigner: false, isWritable: true, pubkey: "BERq1jgRw4vFEZjcQRBpMLS7waf6ctsoq3Wuv3o4NRrZ" },
            { isSigner: false, isWritable: false, pubkey: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS" },
            { isSigner: false, isWritable: false, pubkey: "11111111111111111111111111111111" },
            { isSigner: false, isWritable: false, pubkey: "6hKQjPcoGMGdThQSBbNV3FmfnpeH4RvCGS1Ab2uTpfJP" },
            { isSigner: true, isWritable: false, pubkey: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS" },
          ],
          data: "ACAAAACfECt9JWq2e7TTRg6kS9bxo4VqmXxmkfy+Dz7TWScJ+QBdEQAAAAAAAAAAAA==",
        },
        {
          programId: "jCebN34bUfdeUYJT13J1yG16XWQpt5PDx6Mse9GUqhR",
          keys: [
            { isSigner: false, isWritable: false, pubkey: "namesLPneVptA9Z5rqUDD9tMTWEJwofgaYwp8cawRkX" },
            { isSigner: false, isWritable: false, pubkey: "58PwtjSDuFHuUkYjH9BYnnQKHfwo9reZhC2zMJv9JPkx" },
            { isSigner: false, isWritable: true, pubkey: "3kM5T3KTUoXvtovfLcMLMNnWbyAKWPLrPuEuMGmiuRir" },
            { isSigner: false, isWritable: false, pubkey: "11111111111111111111111111111111" },
            { isSigner: false, isWritable: false, pubkey: "33m47vH6Eav6jr5Ry86XjhRft2jRBLDnDgPSHoquXi2Z" },
            { isSigner: true, isWritable: true, pubkey: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS" },
            { isSigner: false, isWritable: false, pubkey: "SysvarRent111111111111111111111111111111111" },
            { isSigner: false, isWritable: true, pubkey: "6hKQjPcoGMGdThQSBbNV3FmfnpeH4RvCGS1Ab2uTpfJP" },
            { isSigner: true, isWritable: true, pubkey: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS" },
          ],
          data: "DAUAAAAAdGVhbQ==",
        },
      ],
    },
  },
  "reverse-exists-serialized": {
    summary: "dex.bonfida, whose reverse account exists, as an unsigned transaction",
    query: {
      owner: "6S1UMycw7pTkqgujrvXZD9rCfje2uSmWgYoRfEREYWxE",
      subdomain: "dex.bonfida",
      serialize: "true",
    },
    status: 200,
    body: {
      s: "ok",
      result:
        "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABAAMFULJ8/1aj2iEtVDl0CjODvEgHICPDD29S1jft3yh7bX/5lEiYrfR6PEVCBNell6kj7/M7DlV6TaZ3hGx4UXxxFgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAsCkiACVJ1w7BDbeEGKFJSZ13UQ1cykEt/ivyFoy0AHgLrVH0E8HzqZRg2QDYvy7Wkn7KNNe3hCv4EKlzCC0e3KwNMRHxpcl2v1HR38q1vFCSArHgepFNNq8pKL1CfRVXAQQHAgABAAIDADEAIAAAADBKx/Ch5HxhegICd2gSMtrlHd0oWoBTv7u7mw/BtZTMAF0RAAAAAAAAAAAA",
    },
  },
  "domain-not-found": {
    summary: "A parent that is not registered",
    query: {
      owner: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS",
      subdomain: "team.nobody",
    },
    status: 404,
    body: {
      s: "error",
      result: "Domain not found",
    },
  },
  "one-label": {
    summary: "The subdomain must be two labels",
    query: {
      owner: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS",
      subdomain: "plain",
    },
    status: 400,
    body: {
      s: "error",
      result: "Invalid input",
    },
  },
};
