/** A call as faults and call counts see it: its method and its params as JSON text. */
export interface CallShape {
  readonly method: string;
  readonly params: string;
}

/** Which calls something applies to; every call when both are absent. */
export interface CallMatch {
  /** Only calls of this method. */
  readonly method?: string;
  /** Only calls whose params, as JSON, contain this text (e.g. one program's scan among others). */
  readonly params?: string;
}

export const matchesCall = (match: CallMatch, call: CallShape): boolean =>
  (match.method === undefined || match.method === call.method) &&
  (match.params === undefined || call.params.includes(match.params));
