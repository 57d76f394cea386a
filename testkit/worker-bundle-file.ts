/** The environment variable naming the Workers bundle testkit/build-once.ts wrote for this test run. */
export const WORKER_BUNDLE_VARIABLE = "SNS_GATEWAY_TEST_WORKER_BUNDLE";
