// Preloaded into a gateway started as `npm start` starts it (NODE_OPTIONS=--import, where --cpu-prof is
// not allowed): the first SIGUSR2 starts V8's sampling profiler, the second writes the profile to
// BENCH_CPU_PROFILE_FILE, so a profile covers only the window a benchmark measures (bench/bulk-cpu.ts).
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";

const file = process.env.BENCH_CPU_PROFILE_FILE;
const session = new Session();
session.connect();
let running = false;
process.on("SIGUSR2", () => {
  if (!running) {
    running = true;
    session.post("Profiler.enable", () =>
      session.post("Profiler.setSamplingInterval", { interval: 200 }, () => session.post("Profiler.start")),
    );
    return;
  }
  running = false;
  session.post("Profiler.stop", (error, result) => {
    if (error) throw error;
    writeFileSync(file, JSON.stringify(result.profile));
  });
});
