/**
 * How much of the machine's CPU went to work other than the measurement, read from /proc (Linux):
 * the CPU time of the whole machine (with the time a hypervisor stole) minus that of the processes
 * named and all their descendants. Lighthouse's CPU benchmark index is taken once, before a page
 * loads, and the load average trails by a minute, so neither sees a job that competes with the page
 * while it loads; this does. Where there is no /proc it reports null and every run is judged as is.
 */
import { existsSync, readFileSync } from 'node:fs';
import { processTreeTicks } from '../bench/measurements.ts';

const HAS_PROC = existsSync('/proc/stat');

function machineTicks() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal = 0] = fields;
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

/**
 * Starts measuring; `stop()` answers the share of the whole machine (0-100, all cores) that other
 * processes used meanwhile, or null without /proc.
 */
export function startCpuMeter(roots: readonly number[]): { stop(): number | null } {
  if (!HAS_PROC) return { stop: () => null };
  const machine = machineTicks();
  const ours = processTreeTicks(roots, { reaped: true }) ?? 0;
  return {
    stop() {
      const after = machineTicks();
      const total = after.total - machine.total;
      if (total <= 0) return 0;
      const others = after.busy - machine.busy - ((processTreeTicks(roots, { reaped: true }) ?? 0) - ours);
      return Math.max(0, Math.round((others / total) * 100));
    },
  };
}

/** The share of the machine other processes use over `ms` (nothing of ours runs meanwhile but this process). */
export async function othersShare(ms: number): Promise<number | null> {
  const meter = startCpuMeter([process.pid]);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return meter.stop();
}
