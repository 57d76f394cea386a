import { spawn } from "node:child_process";
import { constants } from "node:os";
import { fileURLToPath } from "node:url";
import { COMMON_KNOBS, type Knob, SECTIONS, type Section } from "./settings.js";

// `npm run bench [-- <section> [args…]]`: the one benchmark command. Without a section it runs the
// resolution cells and then the routes section (one report, bench/results/latest.json). Each section
// runs in its own node process (some need node flags, e.g. --expose-gc), with this process's
// environment: knobs and gateway settings are environment variables (bench/settings.ts).

const [first, ...rest] = process.argv.slice(2);

function help(): string {
  const lines = ["usage: npm run bench [-- <section> [args…]]   (no section: resolve, then routes)", ""];
  const row = (knob: Knob<unknown>) => `      ${knob.env}${knob.shown ? `=${knob.shown}` : ""}  ${knob.about}`;
  for (const [name, section] of Object.entries(SECTIONS)) {
    lines.push(`  ${name}${"args" in section ? ` ${section.args}` : ""}  ${section.about}`);
    for (const knob of Object.values(section.knobs) as Knob<unknown>[]) lines.push(row(knob));
  }
  lines.push("", "  every section that drives HTTP load:");
  for (const knob of Object.values(COMMON_KNOBS)) lines.push(row(knob));
  lines.push(
    "",
    "  Gateway settings (the variables of src/config.ts, e.g. NFT_HOLDER_TTL_MS) are passed to the gateways started.",
  );
  return lines.join("\n");
}

if (first === "help" || first === "--help" || first === "-h") {
  console.log(help());
  process.exit(0);
}
if (first !== undefined && !(first in SECTIONS)) {
  console.error(`unknown section ${first}\n\n${help()}`);
  process.exit(2);
}

const section: Section = (first as Section | undefined) ?? "resolve";
const spec = SECTIONS[section];
// The default run is the resolve section followed by the routes section, in one report.
const args = first === undefined ? ["--with-routes"] : rest;
const child = spawn(
  process.execPath,
  [
    ...("nodeFlags" in spec ? spec.nodeFlags : []),
    "--import",
    "tsx",
    fileURLToPath(new URL(spec.script, import.meta.url)),
    ...args,
  ],
  { stdio: "inherit" },
);
// Ctrl-C reaches the child too (same process group): wait for it to stop its own children.
process.on("SIGINT", () => {});
child.on("exit", (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));
