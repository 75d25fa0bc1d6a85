// What the benchmark can learn from Linux's /proc about the server and about everything else running
// on the machine. On a shared 2-core machine a build or test run elsewhere halves the figures, so each
// result says how much CPU went to processes outside the benchmark. Elsewhere these return undefined.

import { readdirSync, readFileSync } from 'node:fs';

/** Resident memory now and at its peak. */
export function readMemory(pid: number): { rssMiB: number; peakRssMiB: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kibibytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    return {
      rssMiB: Math.round(kibibytes('VmRSS') / 1024),
      peakRssMiB: Math.round(kibibytes('VmHWM') / 1024),
    };
  } catch {
    return undefined;
  }
}

/** Clock ticks so far: the whole machine's, and those of the processes taking part in the benchmark. */
export interface CpuSnapshot {
  machineTotal: number;
  machineBusy: number;
  benchmark: number;
}

/**
 * Counts the server, this process (the load generator) and every PostgreSQL process as the
 * benchmark's own: /proc cannot tell the bench database's backends from others, so PostgreSQL work
 * for anything else on the machine goes uncounted.
 */
export function cpuSnapshot(serverPid: number): CpuSnapshot | undefined {
  try {
    // The first line of /proc/stat: cpu user nice system idle iowait irq softirq steal ...
    const ticks = (readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '')
      .trim()
      .split(/\s+/)
      .map(Number);
    const sum = (...columns: number[]) => columns.reduce((total, column) => total + (ticks[column] ?? 0), 0);
    const busy = sum(1, 2, 3, 6, 7, 8);
    return {
      machineTotal: busy + sum(4, 5),
      machineBusy: busy,
      benchmark: processTicks(String(serverPid)) + processTicks('self') + postgresTicks(),
    };
  } catch {
    return undefined;
  }
}

/** Share of the machine's CPU (0-100 %) used outside the benchmark between two snapshots. */
export function otherCpuPercent(before: CpuSnapshot | undefined, after: CpuSnapshot | undefined) {
  if (!before || !after) return undefined;
  const total = after.machineTotal - before.machineTotal;
  const other = after.machineBusy - before.machineBusy - (after.benchmark - before.benchmark);
  return total > 0 ? Math.max(0, Math.round((100 * other) / total)) : undefined;
}

/** Clock ticks per second as /proc counts them (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) one process has used so far, or undefined when unreadable. */
export function processCpuSeconds(pid: number): number | undefined {
  const ticks = processTicks(String(pid));
  return ticks > 0 ? ticks / TICKS_PER_SECOND : undefined;
}

/**
 * CPU seconds (user + system) used so far by the running PostgreSQL backends connected to `database`
 * (a backend's process title names its database; the machine's other databases are not counted).
 */
export const postgresCpuSeconds = (database: string) => postgresTicks(database) / TICKS_PER_SECOND;

/** Ticks of the running PostgreSQL processes, or only of the backends of `database`. */
function postgresTicks(database?: string): number {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => database === undefined || backendDatabase(pid) === database)
    .reduce((total, pid) => total + processTicks(pid, 'postgres'), 0);
}

/** The database in a backend's title, "postgres: 15/main: user database host state". */
function backendDatabase(pid: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(' ')[3];
  } catch {
    return undefined;
  }
}

/** utime + stime of one process in clock ticks (1/100 s), or 0 if it is gone or is not the named program. */
export function processTicks(pid: string, onlyCommand?: string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command sits in parentheses and may itself contain spaces; the counters follow it.
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    if (onlyCommand && command !== onlyCommand) return 0;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}
