// Preloaded into the service by bench/big-upstreams.ts (node --import): reports the main thread's event-loop delay over
// the IPC channel, so the benchmark sees blocks inside the service without any endpoint or code in src/.
import { monitorEventLoopDelay } from 'node:perf_hooks';

if (process.send) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const ms = (ns) => Number((ns / 1e6).toFixed(1));
  process.on('message', (message) => {
    if (message === 'loop-delay:reset') {
      histogram.reset();
    } else if (message === 'loop-delay:read') {
      process.send({
        loopDelay: {
          p50_ms: ms(histogram.percentile(50)),
          p99_ms: ms(histogram.percentile(99)),
          max_ms: ms(histogram.max),
        },
      });
    }
  });
  // The channel must not keep the service alive on its own (it still ends on SIGTERM as usual).
  process.channel?.unref();
}
