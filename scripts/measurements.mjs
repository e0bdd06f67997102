/** What the bench, the search bench and the load simulation share: the machine they ran on and percentiles. */
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** The machine a measurement ran on: CPUs, model, memory, OS and Node. */
export function machine() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  return {
    cpus: os.availableParallelism(),
    model: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1].trim() ?? os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
  };
}

/** Nearest-rank percentile of ascending values (null for none). */
export function percentile(sorted, q) {
  return sorted.length ? sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] : null;
}
