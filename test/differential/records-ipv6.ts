import ipaddr from "ipaddr.js";
import { expect } from "vitest";
import type { SdkRecordResult } from "../../testkit/sdk.js";

/*
 * The one place where the gateway's record text knowingly differs from the
 * official SDK: IPv6 content whose leading run of zero groups is as long as a
 * later interior run. RFC 5952 shortens the first; the SDK's bundled
 * ipaddr.js shortens the interior one (`0:0:1::1:1:1` for `::1:0:0:1:1:1`).
 */

interface ZeroRun {
  readonly start: number;
  readonly end: number;
}

function groupsOf(content: Uint8Array): number[] {
  return Array.from({ length: 8 }, (_, i) => (content[2 * i]! << 8) | content[2 * i + 1]!);
}

function zeroRuns(groups: readonly number[]): ZeroRun[] {
  const runs: ZeroRun[] = [];
  let start = -1;
  for (let i = 0; i <= groups.length; i++) {
    const zero = i < groups.length && groups[i] === 0;
    if (zero && start < 0) start = i;
    if (!zero && start >= 0) {
      if (i - start >= 2) runs.push({ start, end: i });
      start = -1;
    }
  }
  return runs;
}

/** True for exactly the content where RFC 5952 and the SDK's ipaddr.js disagree. */
export function isIpv6TieCase(type: string, content: Uint8Array): boolean {
  if ((type !== "A" && type !== "AAAA") || content.length !== 16) return false;
  const runs = zeroRuns(groupsOf(content));
  const longest = Math.max(0, ...runs.map((run) => run.end - run.start));
  const first = runs.find((run) => run.end - run.start === longest);
  if (!first || first.start !== 0) return false;
  return runs.some((run) => run !== first && run.end - run.start === longest && run.end < 8);
}

/** RFC 5952 text written independently of the gateway's formatter. */
export function rfc5952(content: Uint8Array): string {
  const groups = groupsOf(content);
  const runs = zeroRuns(groups);
  const hex = groups.map((group) => group.toString(16));
  let best: ZeroRun | undefined;
  for (const run of runs) if (!best || run.end - run.start > best.end - best.start) best = run;
  if (!best) return hex.join(":");
  return `${hex.slice(0, best.start).join(":")}::${hex.slice(best.end).join(":")}`;
}

/**
 * The text the gateway must print where the SDK printed `sdkText`: the same,
 * except in the tie case, where the SDK's text must be the interior-run
 * variant of the same address and the gateway's the RFC 5952 one.
 */
export function expectedRecordText(type: string, content: Uint8Array, sdkText: string): string {
  if (!isIpv6TieCase(type, content)) return sdkText;
  const strict = rfc5952(content);
  expect(sdkText, "the SDK's tie-case text").not.toBe(strict);
  expect(sdkText.startsWith("::"), "the SDK shortens the interior run").toBe(false);
  expect(ipaddr.parse(sdkText).toByteArray()).toEqual([...content]);
  expect(ipaddr.parse(strict).toByteArray()).toEqual([...content]);
  return strict;
}

/** The SDK's result with the text the gateway must serve in its place. */
export function asGateway(result: SdkRecordResult, type: string): SdkRecordResult {
  const text = result.deserializedContent;
  if (text === undefined) return result;
  return { ...result, deserializedContent: expectedRecordText(type, result.retrievedRecord.getContent(), text) };
}
