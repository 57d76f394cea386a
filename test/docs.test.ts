import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// README.md is a first page; the rest lives in docs/. These checks keep that so: the first page stays short,
// every relative link and anchor leads somewhere, every docs page opens with its title and a table of
// contents, and no docs page is an orphan.

const ROOT = resolve(import.meta.dirname, "..");
const README = join(ROOT, "README.md");
const DOCS = join(ROOT, "docs");
const README_MAX_LINES = 150;

const docsPages = existsSync(DOCS)
  ? readdirSync(DOCS)
      .filter((name) => name.endsWith(".md"))
      .map((name) => join(DOCS, name))
  : [];
/** Every markdown file whose links are checked. */
const checked = [README, ...docsPages, join(ROOT, "bench", "README.md")];
const rel = (path: string) => relative(ROOT, path);

/** The file's lines outside fenced code blocks (a link or heading inside one is an example, not a link). */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split("\n").filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** GitHub's anchor for a heading: lower case, punctuation and symbols dropped, each space a hyphen. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/`([^`]*)`/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/\*+/g, "");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

interface Heading {
  readonly level: number;
  readonly text: string;
  readonly slug: string;
}

/** The file's headings, each with its anchor; a repeated anchor gets `-1`, `-2`… as on GitHub. */
function headingsOf(path: string): Heading[] {
  const seen = new Map<string, number>();
  return proseLines(readFileSync(path, "utf8")).flatMap((line) => {
    const match = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (!match) return [];
    const base = githubSlug(match[2]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return [{ level: match[1]!.length, text: match[2]!, slug: count === 0 ? base : `${base}-${count}` }];
  });
}

/** The targets of the inline links of a file's prose (not of its code spans or code blocks). */
function linksOf(path: string): string[] {
  return proseLines(readFileSync(path, "utf8")).flatMap((line) =>
    [...line.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!),
  );
}

const external = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** Where a relative link leads: the file (the linking file itself for `#anchor`) and the anchor, if any. */
function resolveLink(from: string, target: string): { file: string; anchor: string | undefined } {
  const [path, anchor] = target.split("#", 2) as [string, string | undefined];
  return { file: path === "" ? from : resolve(dirname(from), decodeURIComponent(path)), anchor };
}

describe("README.md is a first page", () => {
  it(`has at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(README, "utf8").replace(/\n$/, "").split("\n").length;
    expect(lines, "README.md: move detail into docs/ and link it").toBeLessThanOrEqual(README_MAX_LINES);
  });

  it("links every page of docs/ (directly or through another page)", () => {
    expect(docsPages.length, "docs/*.md").toBeGreaterThan(0);
    const reached = new Set<string>([README]);
    const queue = [README];
    while (queue.length > 0) {
      const from = queue.shift()!;
      for (const target of linksOf(from).filter((link) => !external(link))) {
        const { file } = resolveLink(from, target);
        if (file.endsWith(".md") && existsSync(file) && !reached.has(file)) {
          reached.add(file);
          queue.push(file);
        }
      }
    }
    expect(
      docsPages.filter((page) => !reached.has(page)).map(rel),
      "docs pages no link from README.md leads to",
    ).toEqual([]);
  });
});

describe.each(checked.map((path) => [rel(path), path] as const))("links of %s", (_name, path) => {
  const targets = linksOf(path).filter((target) => !external(target));

  it("lead to files that exist", () => {
    const missing = targets.filter((target) => !existsSync(resolveLink(path, target).file));
    expect(missing).toEqual([]);
  });

  it("name anchors that are headings of the file they lead to", () => {
    const broken = targets.filter((target) => {
      const { file, anchor } = resolveLink(path, target);
      if (anchor === undefined || !file.endsWith(".md") || !existsSync(file)) return false;
      return !headingsOf(file).some((heading) => heading.slug === anchor);
    });
    expect(broken).toEqual([]);
  });
});

describe.each(docsPages.map((path) => [rel(path), path] as const))("%s", (_name, path) => {
  const lines = readFileSync(path, "utf8").split("\n");
  const firstSection = lines.findIndex((line) => line.startsWith("## "));
  const preamble = lines.slice(0, firstSection === -1 ? lines.length : firstSection).join("\n");

  it("starts with its title", () => {
    expect(lines[0]).toMatch(/^# \S/);
  });

  it("opens with a table of contents listing each of its ## headings", () => {
    const sections = headingsOf(path).filter((heading) => heading.level === 2);
    expect(sections.length, "a page of one section needs no docs page of its own").toBeGreaterThan(1);
    const unlisted = sections
      .filter((heading) => !preamble.includes(`](#${heading.slug})`))
      .map((heading) => heading.text);
    expect(unlisted, "add `- [<heading>](#<anchor>)` above the first ## heading").toEqual([]);
  });
});

describe("githubSlug", () => {
  it.each([
    ["SRS-backed `.sol`", "srs-backed-sol"],
    ["Local ledger (`npm run localnet`)", "local-ledger-npm-run-localnet"],
    ["Where this gateway deliberately differs from upstream", "where-this-gateway-deliberately-differs-from-upstream"],
    ["Metrics and request log", "metrics-and-request-log"],
    [
      "The one answer pipeline (`src/http/frame/`, `src/http/answer/`)",
      "the-one-answer-pipeline-srchttpframe-srchttpanswer",
    ],
    ["Latency at 20 ms, c64: where the time goes", "latency-at-20-ms-c64-where-the-time-goes"],
  ])("%s → #%s", (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });
});
