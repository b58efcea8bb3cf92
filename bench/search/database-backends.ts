import { execFileSync } from 'node:child_process';

/**
 * The PostgreSQL backends serving one process's connections, by pid: its TCP connections to port
 * 5432 matched with the server's ends of them (`ss`, which names the process at each end). On a
 * server other processes use as well, their backends' work is thus left out of the figure.
 */
export function postgresBackendsOf(pid: number): number[] {
  let lines: string[];
  try {
    lines = execFileSync('ss', ['-tnpH'], { encoding: 'utf8' }).split('\n');
  } catch {
    return [];
  }
  const ownPorts = new Set<string>();
  const serverEnds: { peerPort: string; pid: number }[] = [];
  for (const line of lines) {
    const [, , , local, peer, users] = line.trim().split(/\s+/);
    if (local === undefined || peer === undefined || users === undefined) continue;
    const port = (address: string) => address.slice(address.lastIndexOf(':') + 1);
    const owner = Number(/pid=(\d+)/.exec(users)?.[1]);
    if (port(peer) === '5432' && owner === pid) ownPorts.add(port(local));
    if (port(local) === '5432' && users.includes('"postgres"')) serverEnds.push({ peerPort: port(peer), pid: owner });
  }
  return serverEnds.filter((end) => ownPorts.has(end.peerPort)).map((end) => end.pid);
}
