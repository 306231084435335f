/**
 * Page surgery for Ogg Opus fault tests: splits a stream into its pages (header sizes only, no
 * checks) and re-seals an edited page with a fresh CRC, to make streams that are broken in one
 * chosen way and valid in every other.
 */
import { oggCrc } from '@avatar-drive/core';

/** The pages of `bytes`, each a copy. */
export function pagesOf(bytes: Uint8Array): Uint8Array[] {
  const pages: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    const segments = bytes[at + 26]!;
    let size = 27 + segments;
    for (let i = 0; i < segments; i++) size += bytes[at + 27 + i]!;
    pages.push(bytes.slice(at, at + size));
    at += size;
  }
  return pages;
}

/** Recomputes a page's CRC after an edit (in place; returns the page). */
export function reseal(page: Uint8Array): Uint8Array {
  const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
  view.setUint32(22, 0, true);
  view.setUint32(22, oggCrc(page), true);
  return page;
}

export function joinBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** header_type, serial number and sequence number of a page. */
export function pageInfo(page: Uint8Array): {
  flags: number;
  serial: number;
  sequence: number;
  granule: bigint;
} {
  const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
  return {
    flags: page[5]!,
    serial: view.getUint32(14, true),
    sequence: view.getUint32(18, true),
    granule: view.getBigInt64(6, true),
  };
}
