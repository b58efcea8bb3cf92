import { spawn } from 'node:child_process';

/** One request of a download: the URL and, for a part of the file, its first and last byte. */
export interface DownloadRequest {
  url: string;
  range?: { start: number; end: number };
}

/**
 * Downloads with curl, its output hashed by `openssl dgst -sha256` as it arrives: requests one
 * after another on one keep-alive connection (`--next`). The client is C on both ends, with the
 * CPU's SHA instructions: hashing a GiB in the bench's own event loop took as long as receiving
 * it, and a slow client would be counted as a slow server. Answers each answer's status and size,
 * and the SHA-256 of everything received.
 */
export function curlDownload(requests: readonly DownloadRequest[]): Promise<{ answers: { status: number; bytes: number }[]; sha256: string }> {
  const args = requests.flatMap((request, index) => [
    ...(index === 0 ? [] : ['--next']),
    '--silent', '--show-error', '--write-out', '%{stderr}%{http_code} %{size_download}\\n',
    ...(request.range === undefined ? [] : ['--range', `${request.range.start}-${request.range.end}`]),
    request.url,
  ]);
  return new Promise((resolve, reject) => {
    const curl = spawn('curl', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const openssl = spawn('openssl', ['dgst', '-sha256', '-r'], { stdio: [curl.stdout, 'pipe', 'pipe'] });
    let report = '';
    let digest = '';
    curl.stderr.on('data', (chunk: Buffer) => { report += chunk.toString(); });
    openssl.stdout.on('data', (chunk: Buffer) => { digest += chunk.toString(); });
    const exited = (child: ReturnType<typeof spawn>) => new Promise<number>((done, fail) => {
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
