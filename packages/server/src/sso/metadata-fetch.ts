import { Agent, request } from 'undici';
import type { Config } from '../config.ts';
import { type LookupAll, resolveWebhookTarget, systemLookup, type UrlPolicy } from '../webhooks/safe-url.ts';

/** Metadata larger than this is refused (a PUT's `metadataXml` may hold 90,000 characters). */
export const MAX_METADATA_BYTES = 90_000;
/** How long one metadata read may take. */
export const METADATA_TIMEOUT_MS = 5_000;
/** Metadata older than this is read again when a sign-in starts (a lazy periodic refresh). */
export const METADATA_MAX_AGE_MS = 24 * 3600 * 1000;

export class MetadataFetchError extends Error {}

/** The URL rules of webhooks apply (https on 443, public addresses; loopback only with the test switch). */
export function metadataUrlPolicy(ctx: {
  readonly config: Pick<Config, 'unsafeWebhookTargets' | 'webhookPrivateSuffixes'>;
}): UrlPolicy {
  return {
    unsafeTargets: ctx.config.unsafeWebhookTargets,
    privateSuffixes: ctx.config.webhookPrivateSuffixes,
  };
}

/**
 * Read IdP metadata from `url`: the name is resolved here and every answer checked (as for webhook
 * deliveries), the connection goes to the checked address only, redirects are not followed, and
 * the answer must be 200 and at most MAX_METADATA_BYTES. Throws MetadataFetchError with a reason.
 */
export async function fetchIdpMetadata(
  url: string,
  policy: UrlPolicy,
  lookup: LookupAll = systemLookup,
  timeoutMs = METADATA_TIMEOUT_MS,
): Promise<string> {
  const target = await resolveWebhookTarget(url, policy, lookup);
  if (!target.ok) throw new MetadataFetchError(`metadata URL refused: ${target.reason}`);
  const agent = new Agent({
    connect: {
      lookup: (_host, options, callback) => {
        if (options.all) callback(null, [{ address: target.address, family: target.family }]);
        else callback(null, target.address, target.family);
      },
    },
  });
  try {
    const res = await request(target.url, {
      dispatcher: agent,
      method: 'GET',
      headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw new MetadataFetchError(`metadata URL answered HTTP ${res.statusCode}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_METADATA_BYTES) {
        res.body.destroy();
        throw new MetadataFetchError(`metadata is larger than ${MAX_METADATA_BYTES} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (err) {
    if (err instanceof MetadataFetchError) throw err;
    throw new MetadataFetchError(
      `metadata URL could not be read (${(err as Error).name}: ${(err as Error).message})`,
    );
  } finally {
    await agent.close();
  }
}
