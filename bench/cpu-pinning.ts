// Keeps the load generator and the server it measures on separate CPUs: on two cores, a server's background threads
// (V8's collector and compiler) otherwise take wrk's core, and the figure measures a starved wrk, not the server.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

function tasksetWorks(): boolean {
  try {
    execFileSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Off with BENCH_PIN=0, and wherever there is one CPU or no taskset (util-linux). */
const PINNING = process.env['BENCH_PIN'] !== '0' && availableParallelism() >= 2 && tasksetWorks();

/** The load generator's CPU, and the servers' (every other one). */
export const LOAD_CPUS = '0';
export const SERVER_CPUS = `1-${availableParallelism() - 1}`;

/** `command args` run on `cpus` when pinning is on: the command and arguments to spawn. */
export function onCpus(cpus: string, command: string, args: readonly string[]): [string, string[]] {
  return PINNING ? ['taskset', ['-c', cpus, command, ...args]] : [command, [...args]];
}

/** What the bench reports about where it ran. */
export const pinningNote = PINNING
  ? `wrk on CPU ${LOAD_CPUS}, servers on CPU ${SERVER_CPUS}`
  : 'not pinned (BENCH_PIN=0, one CPU or no taskset)';
