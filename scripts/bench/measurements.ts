/** What the bench, the search bench and the load simulation share: the machine they ran on and percentiles. */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/** The machine a measurement ran on: CPUs, model, memory, OS and Node. */
export interface Machine {
  cpus: number;
  model: string;
  memoryGiB: number;
  os: string;
  node: string;
}

export function machine(): Machine {
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
export function percentile(sorted: readonly number[], q: number): number | null {
  return sorted.length ? sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] : null;
}

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU ticks (user and system, from /proc) of the processes `roots` and all their descendants; with
 * `reaped`, also the time of children they have reaped, so a child that exits mid-run is not lost.
 * Null where /proc is missing.
 */
export function processTreeTicks(roots: readonly number[], { reaped = false } = {}): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const processes = new Map<number, { parent: number; ticks: number }>();
  for (const pid of entries) {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // After "pid (comm) ": state, ppid, …, utime (14th field), stime, cutime, cstime.
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      const times = fields.slice(11, reaped ? 15 : 13);
      processes.set(Number(pid), { parent: Number(fields[1]), ticks: times.reduce((sum, value) => sum + Number(value), 0) });
    } catch {
      // The process ended while being read.
    }
  }
  const tree = new Set(roots.filter((pid) => processes.has(pid)));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, { parent }] of processes) {
      if (!tree.has(pid) && tree.has(parent)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  let ticks = 0;
  for (const pid of tree) ticks += processes.get(pid)?.ticks ?? 0;
  return ticks;
}

/**
 * The CPU time, in ms, that a process and all its descendants have used so far (null where /proc
 * is missing). Unlike latency it hardly moves with the machine's load.
 */
export function processTreeCpuMs(rootPid: number): number | null {
  const ticks = processTreeTicks([rootPid]);
  return ticks === null ? null : (ticks * 1000) / TICKS_PER_SECOND;
}
