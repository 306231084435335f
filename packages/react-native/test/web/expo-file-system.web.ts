/**
 * TEST HARNESS ONLY — not shipped. expo-file-system has no web implementation (its web module
 * only warns "not supported on web"), so the react-native-web test bundle aliases the import to
 * this in-memory stand-in of the part of its `File` / `Directory` / `Paths` API that
 * FileAssetStore uses. On iOS and Android the real library (the device file system) is used; that
 * path cannot run here and is not exercised by this harness.
 */

const files = new Map<string, Uint8Array>();
const dirs = new Set<string>(['file:///cache']);

type Part = string | File | Directory;

function join(parts: Part[]): string {
  const [first, ...rest] = parts.map((p) => (typeof p === 'string' ? p : p.uri));
  return [first!.replace(/\/+$/, ''), ...rest.map((p) => p.replace(/^\/+|\/+$/g, ''))].join('/');
}

/** Counts of the calls made, so the test can tell the file store was really used. */
export const harnessStats = { writes: 0, reads: 0, deletes: 0 };

export class File {
  readonly uri: string;
  constructor(...parts: Part[]) {
    this.uri = join(parts);
  }
  get exists(): boolean {
    return files.has(this.uri);
  }
  async bytes(): Promise<Uint8Array> {
    const data = files.get(this.uri);
    if (!data) throw new Error(`no file at ${this.uri}`);
    harnessStats.reads += 1;
    return data.slice();
  }
  textSync(): string {
    const data = files.get(this.uri);
    if (!data) throw new Error(`no file at ${this.uri}`);
    return new TextDecoder().decode(data);
  }
  write(content: string | Uint8Array): void {
    const parent = this.uri.slice(0, this.uri.lastIndexOf('/'));
    if (!dirs.has(parent)) throw new Error(`no directory ${parent}`);
    harnessStats.writes += 1;
    files.set(this.uri, typeof content === 'string' ? new TextEncoder().encode(content) : content.slice());
  }
  delete(): void {
    if (!files.delete(this.uri)) throw new Error(`no file at ${this.uri}`);
    harnessStats.deletes += 1;
  }
  moveSync(destination: File): void {
    const data = files.get(this.uri);
    if (!data) throw new Error(`no file at ${this.uri}`);
    files.delete(this.uri);
    files.set(destination.uri, data);
  }
}

export class Directory {
  readonly uri: string;
  constructor(...parts: Part[]) {
    this.uri = join(parts);
  }
  get exists(): boolean {
    return dirs.has(this.uri);
  }
  create(options: { intermediates?: boolean; idempotent?: boolean } = {}): void {
    if (dirs.has(this.uri)) {
      if (options.idempotent) return;
      throw new Error(`${this.uri} exists`);
    }
    const parent = this.uri.slice(0, this.uri.lastIndexOf('/'));
    if (!dirs.has(parent)) {
      if (!options.intermediates) throw new Error(`no directory ${parent}`);
      new Directory(parent).create(options);
    }
    dirs.add(this.uri);
  }
  delete(): void {
    for (const d of [...dirs]) if (d === this.uri || d.startsWith(`${this.uri}/`)) dirs.delete(d);
    for (const f of [...files.keys()]) if (f.startsWith(`${this.uri}/`)) files.delete(f);
  }
  list(): (File | Directory)[] {
    const prefix = `${this.uri}/`;
    const direct = (p: string) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/');
    return [
      ...[...dirs].filter(direct).map((d) => new Directory(d)),
      ...[...files.keys()].filter(direct).map((f) => new File(f)),
    ];
  }
}

export const Paths = {
  get cache(): Directory {
    return new Directory('file:///cache');
  },
  get document(): Directory {
    return new Directory('file:///document');
  },
};
