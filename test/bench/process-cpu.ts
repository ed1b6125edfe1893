import { readdirSync, readFileSync } from 'node:fs';

/** V8's background threads (its compilers' tiering up, the collector's helpers): not the request's own thread. */
const BACKGROUND_THREAD = /^V8 /;

/**
 * CPU time spent by the processes named `name` in process group `group`, in milliseconds: the sum over their
 * threads of the scheduler's run time (/proc/<pid>/task/<tid>/schedstat, nanoseconds), which a request's wall
 * time cannot give in workerd (its clock stands still while the Worker computes); V8's background threads apart.
 * Linux only.
 */
export function groupCpuMs(group: number, name: string): { own: number; background: number } {
  let own = 0;
  let background = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // `pid (comm) state ppid pgrp …`: the command may hold spaces, so fields are counted after its closing bracket.
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    if (comm !== name || pgrp !== group) continue;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        const ms = Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
        if (BACKGROUND_THREAD.test(readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8'))) background += ms;
        else own += ms;
      } catch {}
    }
  }
  return { own, background };
}
