import type { Rng } from "../rng.js";

// Names of every shape a user may type: ascii, unicode, emoji, characters that need percent-encoding,
// top-level or subdomain (with or without the parent's account, under a parent that looks like a TLD).

const ASCII = "abcdefghijklmnopqrstuvwxyz0123456789-";
const UNICODE = [
  ..."éüñßøåжяλωςı中文ก",
  "e\u0301", // decomposed é: neither side normalizes
  "日本",
  "한국",
  "א",
  "ع",
  "．", // full-width and ideographic full stops are label characters, not separators
  "。",
];
const EMOJI = ["🔥", "😀", "👩‍💻", "🇫🇷", "❤️", "🦀", "👍🏽", "🫠", "🐶", "1️⃣"];
/** Characters that need percent-encoding in a path, or look like an encoding themselves. */
const SPECIAL = [...`%+#?&'~!$()*,;=@: []^|\`{}\\"<>`, "%20", "%2e"];
/** Parent labels that look like TLDs: `x.sol` must reach the SDK as `x.sol.sol` and stay a subdomain. */
const TLD_LIKE_PARENTS = ["sol", "sns"];

type NameShape = "ascii" | "unicode" | "emoji" | "special";

function asciiRun(rng: Rng, min: number, max: number): string {
  let out = "";
  for (let i = rng.int(min, max); i > 0; i--) out += ASCII[rng.int(0, ASCII.length - 1)];
  return out;
}

function labelStem(rng: Rng, shape: NameShape): string {
  switch (shape) {
    case "ascii":
      return asciiRun(rng, 0, 12);
    case "unicode":
      return Array.from({ length: rng.int(1, 4) }, () => rng.pick(UNICODE) + asciiRun(rng, 0, 2)).join("");
    case "emoji":
      return Array.from({ length: rng.int(1, 3) }, () => rng.pick(EMOJI) + asciiRun(rng, 0, 1)).join("");
    case "special":
      // Leading whitespace would be trimmed by the gateway, so never start with a special.
      return asciiRun(rng, 1, 3) + Array.from({ length: rng.int(1, 3) }, () => rng.pick(SPECIAL)).join("");
  }
}

export interface NamePlan {
  readonly name: string;
  readonly tags: string[];
  /** Top-level parent name whose account this state creates, if any. */
  readonly parentToCreate?: string;
}

export function planName(rng: Rng, unique: string, subdomainShare: number): NamePlan {
  const shape = rng.pick<NameShape>(["ascii", "ascii", "unicode", "emoji", "special"]);
  const own = `${labelStem(rng, shape)}_${unique}`;
  if (!rng.bool(subdomainShare)) return { name: own, tags: [shape, "top-level"] };
  if (rng.bool(0.15)) {
    const parent = rng.pick(TLD_LIKE_PARENTS);
    return { name: `${own}.${parent}`, tags: [shape, "subdomain", "tld-like-parent"] };
  }
  const parent = `${labelStem(rng, rng.pick<NameShape>(["ascii", "unicode", "emoji"]))}_${unique}_p`;
  const create = rng.bool();
  return {
    name: `${own}.${parent}`,
    tags: [shape, "subdomain", create ? "parent-account" : "no-parent-account"],
    ...(create ? { parentToCreate: parent } : {}),
  };
}
