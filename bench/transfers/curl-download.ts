import { spawn } from 'node:child_process';

/** One request of a download: the URL and, for a part of the file, its first and last byte. */
export interface DownloadRequest {
  url: string;
  range?: { start: number; end: number };
}

/**
 * Downloads with curl: requests one after another on one keep-alive connection (`--next`).
 * Answers each answer's status and size, and with `hash` the SHA-256 of everything received,
 * hashed by `openssl dgst -sha256` as it arrives. Without `hash` the bytes go to /dev/null: that
 * is the download to time. Hashing through a pipe caps the client at about 400 MB/s on the bench
 * machine (640 MB/s from a file already in memory), where curl alone takes 950 MB/s from a bare
 * server, so a hashed download measures the client (2026-11-26). The bench times the unhashed
 * download and checks the bytes in a second, untimed one.
 */
export function curlDownload(requests: readonly DownloadRequest[], hash: boolean): Promise<{ answers: { status: number; bytes: number }[]; sha256: string }> {
  const args = requests.flatMap((request, index) => [
    ...(index === 0 ? [] : ['--next']),
    '--silent', '--show-error', '--write-out', '%{stderr}%{http_code} %{size_download}\\n',
    ...(request.range === undefined ? [] : ['--range', `${request.range.start}-${request.range.end}`]),
    request.url,
  ]);
  return new Promise((resolve, reject) => {
    const curl = spawn('curl', hash ? args : ['--output', '/dev/null', ...args.flatMap((arg) => (arg === '--next' ? [arg, '--output', '/dev/null'] : [arg]))], { stdio: ['ignore', hash ? 'pipe' : 'ignore', 'pipe'] });
    const openssl = hash ? spawn('openssl', ['dgst', '-sha256', '-r'], { stdio: [curl.stdout ?? 'ignore', 'pipe', 'pipe'] }) : undefined;
    let report = '';
    let digest = '';
    curl.stderr?.on('data', (chunk: Buffer) => { report += chunk.toString(); });
    openssl?.stdout?.on('data', (chunk: Buffer) => { digest += chunk.toString(); });
    const exited = (child: ReturnType<typeof spawn> | undefined) => new Promise<number>((done, fail) => {
      if (child === undefined) return done(0);
      child.on('error', fail);
      child.on('exit', (code) => done(code ?? -1));
    });
    Promise.all([exited(curl), exited(openssl)]).then(([curlCode, opensslCode]) => {
      if (curlCode !== 0 || opensslCode !== 0) return reject(new Error(`curl exited with ${curlCode}, openssl with ${opensslCode}: ${report.slice(0, 300)}`));
      const answers = report.trim().split('\n').map((line) => {
        const [status, bytes] = line.split(' ');
        return { status: Number(status), bytes: Number(bytes) };
      });
      resolve({ answers, sha256: digest.split(' ')[0] ?? '' });
    }, reject);
  });
}
