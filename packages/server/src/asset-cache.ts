import { createHash } from 'node:crypto';
import fs from 'node:fs';

export interface Asset {
  body: Buffer;
  etag: string;
  integrity: string;
  mtimeMs: number;
}

/** The files served, with their hashes, read again when their mtime or size changed (one per process, services.ts). */
export class AssetCache {
  private readonly assets = new Map<string, Asset>();

  /** The file with its hashes, cached while its mtime and size are unchanged. */
  read(file: string): Asset | undefined {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return undefined;
    }
    const hit = this.assets.get(file);
    if (hit && hit.mtimeMs === stat.mtimeMs && hit.body.length === stat.size) return hit;
    const body = fs.readFileSync(file);
    const sha384 = createHash('sha384').update(body).digest('base64');
    const asset = {
      body,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      integrity: `sha384-${sha384}`,
      mtimeMs: stat.mtimeMs,
    };
    // The files are the SDK's and the dashboard's build: a bounded set; a stray path is not kept.
    if (this.assets.size >= MAX_ASSETS) this.assets.clear();
    this.assets.set(file, asset);
    return asset;
  }
}

const MAX_ASSETS = 1_000;
