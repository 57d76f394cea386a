import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { INDEX_OBJECT_BINDING } from "../../../src/platform/workers/bindings.js";

// wrangler.toml deploys what the Worker reads and what the workerd tests
// declare (testkit/workerd-gateway.ts): the index object's binding, its
// class exported by the entry, and a SQLite migration for that class.

const wrangler = readFileSync(new URL("../../../wrangler.toml", import.meta.url), "utf8");
const entry = readFileSync(new URL("../../../src/platform/workers/main.ts", import.meta.url), "utf8");

/** The key = "value" pairs of the `[[header]]` tables in the file, uncommented. */
function tables(header: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  let current: Record<string, string> | undefined;
  for (const raw of wrangler.split("\n")) {
    const line = raw.replace(/#.*$/, "").trim();
    if (line.startsWith("[")) {
      current = line === `[[${header}]]` ? {} : undefined;
      if (current) found.push(current);
    } else if (current && line.includes("=")) {
      const [key, value] = line.split("=", 2).map((part) => part.trim());
      current[key!] = value!;
    }
  }
  return found;
}

describe("wrangler.toml", () => {
  it("binds the tokenized index object under the name the Worker reads, with its SQLite migration", () => {
    const [binding] = tables("durable_objects.bindings");
    expect(binding).toEqual({ name: `"${INDEX_OBJECT_BINDING}"`, class_name: '"TokenizedIndexObject"' });
    expect(entry).toMatch(/export \{ TokenizedIndexObject \} from/);
    const [migration] = tables("migrations");
    expect(migration?.new_sqlite_classes).toBe('["TokenizedIndexObject"]');
  });
});
