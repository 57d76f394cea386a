/**
 * The yardstick of `npm run bench -- workerd`: a Worker that answers every
 * request with one fixed envelope, bundled with the gateway's options
 * (scripts/worker-bundle.mjs), so what the gateway's isolate costs beyond it
 * (start-up, CPU per request) is the gateway's own.
 */
const ENVELOPE = '{"s":"ok","result":"C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS"}';

export default {
  fetch(): Response {
    return new Response(ENVELOPE, { headers: { "content-type": "application/json" } });
  },
};
