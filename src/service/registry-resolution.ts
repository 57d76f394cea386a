import type { Address } from "@solana/kit";
import { type HolderHints, type PdaPolicy, resolveSnsName } from "../sns/queries/resolve.js";
import { resolveSrsName, srsExpired } from "../sns/queries/srs.js";
import type { RpcEndpoint } from "../rpc/endpoint.js";
import type { ResolutionSteps } from "../sns/resolution-steps.js";

/**
 * Which registry a shared or cached resolution reads: the name service
 * (`.sns`, and `.sol` past its TLD gate while SRS is off) or the SRS record
 * of a `.sol` name.
 */
export const Registry = { Sns: 0, Srs: 1 } as const;
export type Registry = (typeof Registry)[keyof typeof Registry];

/**
 * What a resolution is shared and cached under: the name per endpoint (past
 * the TLD gate), and the registry read. A URL holds no space, so an SRS id
 * (prefixed) never equals a name-service one.
 */
export const resolutionId = (endpoint: RpcEndpoint, name: string, registry: Registry): string =>
  registry === Registry.Sns ? `${endpoint.url} ${name}` : `srs ${endpoint.url} ${name}`;

/** A resolution under way, and until when (clock ms) its answer holds once settled; Infinity: for as long as cached. */
export interface RegistryResolution {
  readonly pending: Promise<Address>;
  validUntil(): number;
}

export interface RegistryResolutionOptions {
  readonly pda: PdaPolicy;
  readonly hints: HolderHints;
  /** The host's clock in milliseconds. */
  readonly clock: () => number;
  /** A traced request's recorder of the resolution's steps; undefined otherwise. */
  readonly steps: ResolutionSteps | undefined;
}

/** One resolution of `name` (TLD-less, past its TLD gate) in one registry, started now. */
export function resolveInRegistry(
  registry: Registry,
  endpoint: RpcEndpoint,
  name: string,
  { pda, hints, clock, steps }: RegistryResolutionOptions,
): RegistryResolution {
  let validUntil = Infinity;
  const until = () => validUntil;
  if (registry === Registry.Sns)
    return { pending: resolveSnsName(endpoint, name, pda, hints, steps), validUntil: until };
  let expiry = 0n;
  // Whatever was decided from an unexpired record is answered only while it still is: a
  // resolution that settles (or is joined) after the expiry answers that the name expired.
  const current = (): void => {
    if (validUntil <= clock()) throw srsExpired(name, expiry);
  };
  const pending = resolveSrsName(endpoint, name, {
    pda,
    hints,
    steps,
    nowSeconds: () => Math.floor(clock() / 1000),
    onExpiry: (at) => {
      expiry = at;
      validUntil = Number(at) * 1000;
    },
  }).then(
    (key) => {
      current();
      return key;
    },
    (error: unknown) => {
      current();
      throw error;
    },
  );
  return { pending, validUntil: until };
}
