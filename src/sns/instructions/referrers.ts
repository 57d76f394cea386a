import type { Address } from "@solana/kit";

/**
 * The registrar's referrers; a registration names one by its index here.
 * Any other key is not a referrer (ignored, as the official SDK does).
 */
export const REFERRERS: readonly Address[] = [
  "3ogYncmMM5CmytsGCqKHydmXmKUZ6sGWvizkzqwT7zb1",
  "DM1jJCkZZEwY5tmWbgvKRxsDFzXCdbfrYCCH1CtwguEs",
  "ADCp4QXFajHrhy4f43pD6GJFtQLkdBY2mjS9DfCk7tNW",
  "2XTgjw8yi1E3Etgj4CUyRD7Zk49gynH2U9gA5N2MY4NP",
  "5PwNeqQPiygQks9R17jUAodZQNuhvCqqkrxSaeNE8qTR",
  "8kJqxAbqbPLGLMgB6FhLcnw2SiUEavx2aEGM3WQGhtJF",
  "HemvJzwxvVpWBjPETpaseAH395WAxb2G73MeUfjVkK1u",
  "7hMiiUtkH4StMPJxyAtvzXTUjecTniQ8czkCPusf5eSW",
  "DGpjHo4yYA3NgHvhHTp3XfBFrESsx1DnhfTr8D881ZBM",
  "7vWSqSw1eCXZXXUubuHWssXELNQ8MLaDgAs2ErEfCKxn",
  "5F6gcdzpw7wUjNEugdsD4aLJdEQ4Wt8d6E85vaQXZQSJ",
  "XEy9o73JBN2pEuN7aspe8mVLaWbL4ozjJs1tNRxx8bL",
  "D5cLoAGjNTHKU1UGv2bYwbnyRoGTMe3sbpLtJW3fRq91",
  "FePcCmrr7vgjeFXcXtJHqShSXydaTrga2wfHRt9RrYvP",
  "5D2zKog251d6KPCyFyLMt3KroWwXXPWSgTPyhV22K2gR",
  "452cMqDHe5cf1Z96HxUNaQjiLckhMiZdZ5abe7oQ2iRB",
  "8hmebGRQpZG8RpR3SFTfnuY2K4QgNxyAtqdhR9UuFksB",
  "7siDgAEyXRCEhNjZcQ8VLVbMxXQaQY4hNcRbGbKj2i7u",
] as Address[];

/** Index of `key` among the referrers, or undefined. */
export function referrerIndex(key: Address | undefined): number | undefined {
  if (key === undefined) return undefined;
  const index = REFERRERS.indexOf(key);
  return index === -1 ? undefined : index;
}
