import type { Expectation, SdkOutcome } from "./chain-gen.js";
import type { SdkObserved } from "./chain-gen/sdk-oracle.js";

/** A gateway answer reduced to what is compared: status and body. */
export interface HttpOutcome {
  readonly status: number;
  readonly body: unknown;
}

const MALFORMED: HttpOutcome = { status: 422, body: { s: "error", result: "Record is malformed" } };
const INTERNAL: HttpOutcome = { status: 500, body: { s: "error", result: "Internal error" } };

/** The upstream proxy's answer for an SDK outcome, with the gateway's one deliberate deviation (undecodable data: 422). */
export function expectedAnswer(sdk: SdkObserved, expectation: Expectation): HttpOutcome {
  if (expectation.undecodable !== undefined) return MALFORMED;
  if (sdk.kind === "key") return { status: 200, body: { s: "ok", result: sdk.key } };
  switch (sdk.error) {
    case "DomainDoesNotExist":
      return { status: 404, body: { s: "error", result: "Domain not found" } };
    case "RecordMalformed":
    case "WrongValidation":
    case "InvalidRoA":
      return MALFORMED;
    case "RpcError":
      return { status: 502, body: { s: "error", result: "RPC unavailable" } };
    case "CouldNotFindNftOwner":
    case "PdaOwnerNotAllowed":
    case "Generic":
      return INTERNAL;
  }
}

/** Whether the SDK did what the generator predicted. */
export function sameSdkOutcome(observed: SdkObserved, predicted: SdkOutcome): boolean {
  if (observed.kind === "key") return predicted.kind === "key" && predicted.key === observed.key;
  return predicted.kind === "error" && predicted.error === observed.error;
}
