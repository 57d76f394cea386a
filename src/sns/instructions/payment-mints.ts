import type { Address } from "@solana/kit";

/** A token the registrar accepts as payment, priced by a Pyth pull feed. */
export interface PaymentMint {
  readonly symbol: string;
  readonly mint: Address;
  /** Pyth price feed id (hex): seed of the feed account, with shard 0. */
  readonly feedId: string;
  /** PDA([u16 LE 0, feed id bytes], Pyth push oracle). */
  readonly feedAccount: Address;
  /** The registrar's vault: associated token account of (mint, vault owner). */
  readonly vault: Address;
}

/** USDC: the payment mint when a registration names none. */
export const USDC_MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address;

/**
 * Every mint with a Pyth pull feed, as the official SDK lists them; any other
 * mint is refused. Accounts are stored derived (no curve work per request);
 * `test/sns/write-instructions.test.ts` derives each again.
 */
export const PAYMENT_MINTS: readonly PaymentMint[] = [
  [
    "USDC",
    USDC_MINT,
    "eaa020c61cc479712813461ce153894a96a6c00b21ed0cfc2798d1f9a9e9c94a",
    "6HAuqASbHEh4w4REJEUUUCginTLfj1kwCh215ZLtMkrT",
    "ArcUsvW3PNMmfTK9u7nntjwpbg8dkvAMxGzoYD2LENjX",
  ],
  [
    "USDT",
    "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
    "2b89b9dc8fdf9f34709a5b106b472f0f39bb6ca9ce04b0fd7f2e971688e2e53b",
    "3XBYLaF9wisQLaCxTgchH6xeNJGchwDauGpot1GcRMZV",
    "BrC91BwE24hnmvDPTLyB6fSczXFctGo3LRySKfcMnJhM",
  ],
  [
    "SOL",
    "So11111111111111111111111111111111111111112",
    "ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d",
    "7AviUf9nL62mcxNbQGKm4nKDQnPjswo6c5MX4D57HmyE",
    "EL5HhK4eEennQdbW1WPrdFemJdrGPGfYmSRxKuCzN44X",
  ],
  [
    "FIDA",
    "EchesyfXePKdLtoiZSL8pBe8Myagyy8ZRqsACNCFGnvp",
    "c80657b7f6f3eac27218d09d5a4e54e47b25768d9f5e10ac15fe2cf900881400",
    "CNoEPodYZb7XrQs8RvBYH76pkfT1KBAWTfDxnfvWwTVw",
    "FZD7b5uD5ETcbL1qVceRCLRUKMTxdpAkdQD36bRh328T",
  ],
  [
    "MSOL",
    "mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So",
    "c2289a6a43d2ce91c6f55caec370f4acc38a2ed477f58813334c6d03749ff2a4",
    "Gtjm5bpCMxyNhjWe8GNDRq5KoBqhLJw63dWdcdpoq7nc",
    "8MTARhMada1xdwJkXqhWuURxa3LL1cWCz4hSDZZKMphH",
  ],
  [
    "BONK",
    "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263",
    "72b021217ca3fe68922a19aaf990109cb9d84e9ad004b4d2025ad6f529314419",
    "3nMpgBXnjBSDYupQQEVR7DZM65zkJCdKy1Up7nkqp99w",
    "AAEFNhnDtBm2JM9T4Y6cKdjTBwcZ2q1pcgquDwoqbm18",
  ],
  [
    "BAT",
    "EPeUFDgHRxs9xxEPVaL6kfGQvCon7jmAWKVUHuux1Tpz",
    "8e860fb74e60e5736b455d82f60b3728049c348e94961add5f961b02fdee2535",
    "h4sLcfmyrgPwAsmi2vGvKm3r22T4YRrAUKKRDQy7e44",
    "3wUsuT7J2mX6i4rQsiVLckXHcmXnL8aeoy5AFSin3qPL",
  ],
  [
    "PYTH",
    "HZ1JovNiVvGrGNiiYvEozEVgZ58xaU3RKwX8eACQBCt3",
    "0bbf28e9a841a1cc788f6a361b17ca072d0ea3098a1e5df1c3922d06719579ff",
    "BTeWTCeCVxRXsHA6biwGvw6ynAovr3i7UDLsP9SzZTrA",
    "CB3ARcnNtVCbLZCnMX3A4PCRj1ywpjWGktXw72om977A",
  ],
  [
    "BSOL",
    "bSo13r4TkiE4KumL71LsHTPpL2euBYLFx6h9HP3piy1",
    "89875379e70f8fbadc17aef315adf3a8d5d160b811435537e03c97e8aac97d9c",
    "89WnYggXmjW7w1xgo91ctCcDadWuBx5DjcVU6pnhNX9b",
    "NvUgWKEvNiWjANTMLrD1iZ3oARs19aLmQHXGukQQKpk",
  ],
  [
    "INJ",
    "6McPRfPV6bY1e9hLxWyG54W9i9Epq75QBvXg2oetBVTB",
    "7a5bc1d2b56ad029048cd63964b3ad2776eadf812edc1a43a31406cb54bff592",
    "8XCPhEityrcUnKHudNWtBcpkbuwLFjBL9ibcbvzHhiZv",
    "2pvtAZCCuvUQuK1jrb9QoGsJ8u2mUWFVpnWDRed19A1H",
  ],
  [
    "TRUMP",
    "6p6xgHyF7AeE6TZkSmFsko444wqoP15icUSqi2jfGiPN",
    "879551021853eec7a7dc827578e8e69da7e4fa8148339aa0d3d5296405be4b1a",
    "7m3TTzNMFwpMPVz7b8PDtQAKwvT62T1Jxnue2htLGXp",
    "4UStHuLmceFrCGmBtB16MZfrTG3vFYtvSZeqan5oBEJ7",
  ],
].map(([symbol, mint, feedId, feedAccount, vault]) => ({
  symbol: symbol!,
  mint: mint as Address,
  feedId: feedId!,
  feedAccount: feedAccount as Address,
  vault: vault as Address,
}));

const BY_MINT: ReadonlyMap<string, PaymentMint> = new Map(PAYMENT_MINTS.map((entry) => [entry.mint, entry]));

/** The payment entry of `mint`, or undefined when the registrar has no price feed for it. */
export const paymentMint = (mint: Address): PaymentMint | undefined => BY_MINT.get(mint);
