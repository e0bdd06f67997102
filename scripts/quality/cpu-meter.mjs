/**
 * How much of the machine's CPU went to work other than the measurement, read from /proc (Linux):
 * the CPU time of the whole machine (with the time a hypervisor stole) minus that of the processes
 * named and all their descendants. Lighthouse's CPU benchmark index is taken once, before a page
 * loads, and the load average trails by a minute, so neither sees a job that competes with the page
 * while it loads; this does. Where there is no /proc it reports null and every run is judged as is.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const HAS_PROC = existsSync('/proc/stat');

function machineTicks() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal = 0] = fields;
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

/**
 * CPU ticks of the named processes and their descendants. A process's own time and that of its
 * children it has reaped are both counted, so a tab's renderer that exits mid-run is not lost.
 */
function treeTicks(roots) {
  const processes = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, 'utf8');
      // After "pid (comm) ": state, ppid, ... utime (14th field), stime, cutime, cstime.
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      processes.set(Number(name), { ppid: Number(fields[1]), ticks: fields.slice(11, 15).reduce((sum, value) => sum + Number(value), 0) });
    } catch {
      // The process ended while we read.
    }
  }
  const ours = new Set(roots.filter((pid) => processes.has(pid)));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, { ppid }] of processes) {
      if (!ours.has(pid) && ours.has(ppid)) {
        ours.add(pid);
        grew = true;
      }
    }
  }
  let ticks = 0;
  for (const pid of ours) ticks += processes.get(pid).ticks;
  return ticks;
}

/**
 * Starts measuring; `stop()` answers the share of the whole machine (0-100, all cores) that other
 * processes used meanwhile, or null without /proc.
 */
export function startCpuMeter(roots) {
  if (!HAS_PROC) return { stop: () => null };
  const machine = machineTicks();
  const ours = treeTicks(roots);
  return {
    stop() {
      const after = machineTicks();
      const total = after.total - machine.total;
      if (total <= 0) return 0;
      const others = after.busy - machine.busy - (treeTicks(roots) - ours);
      return Math.max(0, Math.round((others / total) * 100));
    },
  };
}

/** The share of the machine other processes use over `ms` (nothing of ours runs meanwhile but this process). */
export async function othersShare(ms) {
  const meter = startCpuMeter([process.pid]);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return meter.stop();
}
