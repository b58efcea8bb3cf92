import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface TestCertificate {
  /** The leaf certificate followed by the CA's: the chain a server sends. */
  chainFile: string;
  keyFile: string;
}

export interface TestCertificateAuthority {
  caFile: string;
  ca: Buffer;
  /** A server certificate signed by this CA: P-256 for 127.0.0.1 and localhost unless told otherwise. */
  issue(name: string, options?: IssueOptions): TestCertificate;
}

export interface IssueOptions {
  /** An RSA key (2048 bits) instead of P-256: the TLS 1.2 suites a server can agree depend on it. */
  rsa?: boolean;
  /** The subjectAltName as openssl writes it, `IP:127.0.0.1,DNS:localhost` by default. */
  altNames?: string;
}

const openssl = (args: string[], cwd: string) => execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });

/**
 * A throwaway certificate authority made with openssl in `dir`, so that no key is ever committed.
 * Valid for a day; the keys are P-256, quick to make.
 */
export function makeTestCertificateAuthority(dir: string): TestCertificateAuthority {
  fs.mkdirSync(dir, { recursive: true });
  openssl([
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'ca-key.pem', '-out', 'ca.pem',
    '-days', '1', '-subj', '/CN=Atrium test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
  ], dir);
  const caFile = path.join(dir, 'ca.pem');
  return {
    caFile,
    ca: fs.readFileSync(caFile),
    issue(name, options = {}) {
      fs.writeFileSync(path.join(dir, `${name}.ext`), `subjectAltName=${options.altNames ?? 'IP:127.0.0.1,DNS:localhost'}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
      const key = options.rsa === true ? ['-newkey', 'rsa:2048'] : ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'];
      openssl(['req', ...key, '-nodes', '-keyout', `${name}-key.pem`, '-out', `${name}.csr`, '-subj', `/CN=${name}`], dir);
      openssl([
        'x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca-key.pem', '-set_serial', `0x${randomBytes(8).toString('hex')}`,
        '-days', '1', '-extfile', `${name}.ext`, '-out', `${name}.pem`,
      ], dir);
      const chainFile = path.join(dir, `${name}-chain.pem`);
      fs.writeFileSync(chainFile, Buffer.concat([fs.readFileSync(path.join(dir, `${name}.pem`)), fs.readFileSync(caFile)]));
      return { chainFile, keyFile: path.join(dir, `${name}-key.pem`) };
    },
  };
}
