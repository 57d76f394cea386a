import { fileURLToPath } from "node:url";
import { cacheDirFor, compileProject } from "../testkit/compile.js";

/** The server children run as compiled JavaScript, as in production (see compileProject). */
export const BUILD_DIR = cacheDirFor("sns-gateway-bench");
const PROJECT = fileURLToPath(new URL("./tsconfig.bench.json", import.meta.url));

// src/ may be mid-edit while the bench runs: type errors are reported, not fatal.
export const buildChildren = () => compileProject(PROJECT, BUILD_DIR);

/** Compiled path of a bench child script, e.g. `children/gateway`. */
export const childScript = (name: string): string => `${BUILD_DIR}bench/${name}.js`;
