import { expect } from "vitest";
import { SnsError } from "../src/sns/errors.js";

/** Asserts that `run` throws an SnsError with `code`: the code is what callers map to a response. */
export function expectCode(run: () => unknown, code: SnsError["code"]): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(SnsError);
  expect((thrown as SnsError).code).toBe(code);
}
