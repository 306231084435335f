/**
 * A throwaway certificate authority and leaf certificates made with the openssl CLI at test time
 * (never checked in): the CA signs leaves for 127.0.0.1 / localhost that clients verify against it.
 */
import { execFile } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A leaf certificate and its key, as files and PEM text. */
export interface Leaf {
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
  /** The certificate's serial number (hex, upper case), to tell two leaves apart. */
  serial: string;
  /** base64 SHA-256 of the leaf's SubjectPublicKeyInfo (Chromium's --ignore-certificate-errors-spki-list). */
  spkiSha256: string;
}

export class TestCa {
  private constructor(
    readonly dir: string,
    readonly certFile: string,
    readonly keyFile: string,
    /** The CA certificate (PEM): what clients trust (`ca` option, NODE_EXTRA_CA_CERTS). */
    readonly cert: string,
  ) {}

  /** Makes a new CA (EC P-256, valid one day) in a temporary directory. */
  static async create(name = 'Avatar Drive test CA'): Promise<TestCa> {
    const dir = await mkdtemp(join(tmpdir(), 'avd-ca-'));
    const keyFile = join(dir, 'ca.key');
    const certFile = join(dir, 'ca.pem');
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
    return new TestCa(dir, certFile, keyFile, await readFile(certFile, 'utf8'));
  }

  /** Issues a leaf for `names` (IP addresses and DNS names) under `label` (file names). */
  async issue(label: string, names: string[] = ['127.0.0.1', 'localhost']): Promise<Leaf> {
    const keyFile = join(this.dir, `${label}.key`);
    const csrFile = join(this.dir, `${label}.csr`);
    const certFile = join(this.dir, `${label}.pem`);
    const extFile = join(this.dir, `${label}.ext`);
    const san = names.map((n) => (/^[\d.]+$|:/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
    await writeFile(
      extFile,
      `subjectAltName=${san}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`,
    );
    await run('openssl', [
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      csrFile,
      '-subj',
      `/CN=${label}`,
    ]);
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      csrFile,
      '-CA',
      this.certFile,
      '-CAkey',
      this.keyFile,
      '-CAcreateserial',
      '-out',
      certFile,
      '-days',
      '1',
      '-extfile',
      extFile,
    ]);
    const cert = await readFile(certFile, 'utf8');
    const x509 = new X509Certificate(cert);
    const spki = x509.publicKey.export({ type: 'spki', format: 'der' });
    return {
      certFile,
      keyFile,
      cert,
      key: await readFile(keyFile, 'utf8'),
      serial: x509.serialNumber.toUpperCase(),
      spkiSha256: createHash('sha256').update(spki).digest('base64'),
    };
  }
}
