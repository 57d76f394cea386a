/** The constant answer of the bare servers: an envelope of the size of a `/resolve` success (a base58 key). */
export const CEILING_ENVELOPE = '{"s":"ok","result":"CZoeFCixHtuEPJDHHNncLvFnVmhbTftrmiFggAuFKqQa"}';
