/**
 * The service's certificate pair, read from files (`--tls-cert`, `--tls-key`) at start and again
 * on reload (SIGHUP), so a renewed certificate is picked up without a restart.
 */
import { readFile } from 'node:fs/promises';
import { createSecureContext } from 'node:tls';

/** Where the PEM certificate (chain) and private key live. */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** A certificate pair, read and checked. */
export interface TlsPair {
  cert: Buffer;
  key: Buffer;
}

/**
 * Reads both files and checks that they form a usable pair (the key matches the certificate).
 * @throws Error saying which file is unreadable or that the pair does not match.
 */
export async function readTlsPair(files: TlsFiles): Promise<TlsPair> {
  const read = async (path: string, what: string) => {
    try {
      return await readFile(path);
    } catch (error) {
      throw new Error(`Cannot read the TLS ${what} ${path}: ${(error as Error).message}`);
    }
  };
  const [cert, key] = await Promise.all([read(files.certFile, 'certificate'), read(files.keyFile, 'key')]);
  try {
    // Throws on unparsable PEM and on a key that does not belong to the certificate.
    createSecureContext({ cert, key });
  } catch (error) {
    throw new Error(
      `The TLS pair ${files.certFile} + ${files.keyFile} is not usable (${(error as Error).message}). Check that both are PEM and that the key belongs to the certificate.`,
    );
  }
  return { cert, key };
}
