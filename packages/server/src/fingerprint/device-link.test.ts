import { describe, expect, it } from 'vitest';
import { FINGERPRINT, HUMAN_UA } from '../scoring/test-fixtures.ts';
import { MemoryHotState } from '../state/memory.ts';
import { deviceIdFromEvidence, stableFingerprint } from './device-id.ts';
import { browserVersion, DEVICE_LINK_TTL_MS, linkDevice } from './device-link.ts';

const NOW = 1_700_000_000_000;
const VISITOR = 'a'.repeat(32);
const CHROME_126 = HUMAN_UA;
const CHROME_127 = HUMAN_UA.replace('Chrome/126', 'Chrome/127');

function setUp() {
  let clock = NOW;
  const h = new MemoryHotState(() => clock);
  const link = (fp: Record<string, unknown>, visitor = '', ua = CHROME_126, site = 'site_a') =>
    linkDevice(h, site, stableFingerprint(fp), visitor, ua, clock);
  return { h, link, advance: (ms: number) => (clock += ms) };
}

/** The fixture with all four renders (canvas, WebGL, audio, math). */
const BASE = { ...FINGERPRINT, math_hash: 'math-1' };

/** The same machine after a browser update that re-rendered `n` of canvas, audio and WebGL. */
const rerendered = (n: number) => ({
  ...BASE,
  ...(n >= 1 ? { canvas_hash: 'updated-canvas' } : {}),
  ...(n >= 2 ? { audio_hash: '124.0999' } : {}),
  ...(n >= 3 ? { webgl: { ...FINGERPRINT.webgl, hash: 'updated-webgl' } } : {}),
});

describe('linkDevice', () => {
  it('names a new fingerprint by its own id, and the same one again exactly', async () => {
    const { link } = setUp();
    const own = deviceIdFromEvidence(BASE);
    expect(await link(BASE)).toEqual({
      deviceId: own,
      fingerprintId: own,
      link: 'new',
      confidence: 1,
      visitorConflict: false,
    });
    expect(await link(BASE)).toMatchObject({ deviceId: own, link: 'exact', confidence: 1 });
    expect(HUMAN_UA).toContain('Chrome/126');
  });

  it('keeps the device through a fingerprint change while the visitor id lives', async () => {
    const { link } = setUp();
    const first = await link(BASE, VISITOR);
    // Three renders changed and the same browser version: no fuzzy link, but the storage links.
    const changed = await link(rerendered(3), VISITOR);
    expect(changed).toMatchObject({ deviceId: first.deviceId, link: 'visitor', confidence: 0.95 });
    expect(changed.fingerprintId).not.toBe(first.deviceId);
    // That fingerprint is now known as the device: exact, even with the storage gone.
    expect(await link(rerendered(3))).toMatchObject({ deviceId: first.deviceId, link: 'exact' });
  });

  it('keeps the device through cleared storage: the fingerprint links', async () => {
    const { link } = setUp();
    const first = await link(BASE, VISITOR);
    expect(await link(BASE, 'b'.repeat(32))).toMatchObject({ deviceId: first.deviceId, link: 'exact' });
  });

  it('flags a visitor id that names another known device, and keeps the fingerprint device', async () => {
    const { link } = setUp();
    const other = { ...BASE, hardware_concurrency: 4 };
    const mine = await link(BASE, VISITOR);
    await link(other);
    const copied = await link(other, VISITOR);
    expect(copied).toMatchObject({
      deviceId: deviceIdFromEvidence(other),
      link: 'exact',
      visitorConflict: true,
    });
    // The visitor id still names its own device.
    expect(await link(rerendered(3), VISITOR)).toMatchObject({ deviceId: mine.deviceId, link: 'visitor' });
  });

  it('links a browser update that changed one or two renders, with a confidence', async () => {
    const { link } = setUp();
    const first = await link(BASE);
    expect(await link(rerendered(1), '', CHROME_127)).toMatchObject({
      deviceId: first.deviceId,
      link: 'fuzzy',
      confidence: 0.9,
    });
    const two = setUp();
    await two.link(BASE);
    expect(await two.link(rerendered(2), '', CHROME_127)).toMatchObject({ link: 'fuzzy', confidence: 0.8 });
  });

  it('does not link three changed renders, the same browser version, other hardware or fonts, another site', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [rerendered(3), CHROME_127, 'site_a'],
      [rerendered(1), CHROME_126, 'site_a'],
      [{ ...rerendered(1), hardware_concurrency: 4 }, CHROME_127, 'site_a'],
      [{ ...rerendered(1), fonts: [...BASE.fonts, 'Consolas'] }, CHROME_127, 'site_a'],
      [
        { ...rerendered(1), screen: { ...FINGERPRINT.screen, width: 2560, height: 1440 } },
        CHROME_127,
        'site_a',
      ],
      [rerendered(1), CHROME_127.replace('Chrome/127', 'Firefox/127'), 'site_a'],
      [rerendered(1), CHROME_127, 'site_b'],
    ];
    for (const [fp, ua, site] of cases) {
      const { link } = setUp();
      await link(BASE);
      expect(await link(fp, '', ua, site), JSON.stringify(fp)).toMatchObject({
        link: 'new',
        deviceId: deviceIdFromEvidence(fp),
      });
    }
  });

  it('links to neither of two equally close devices (no guess between them)', async () => {
    const { link } = setUp();
    await link(BASE);
    await link({ ...BASE, canvas_hash: 'twin-canvas' });
    expect(await link({ ...BASE, canvas_hash: 'third' }, '', CHROME_127)).toMatchObject({ link: 'new' });
  });

  it('forgets links after their time to live', async () => {
    const { link, advance } = setUp();
    await link(BASE, VISITOR);
    advance(DEVICE_LINK_TTL_MS + 1);
    expect(await link(rerendered(3), VISITOR)).toMatchObject({ link: 'new' });
  });

  it('names no device without a stable attribute, whatever the visitor id', async () => {
    const { link } = setUp();
    expect(await link({}, VISITOR)).toMatchObject({ deviceId: '', link: 'new' });
  });
});

describe('browserVersion', () => {
  it('reads family and major version', () => {
    expect(browserVersion(HUMAN_UA)).toEqual({ family: 'chrome', major: 126 });
    expect(browserVersion('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toEqual({
      family: 'firefox',
      major: 128,
    });
    expect(
      browserVersion(
        'Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
      ),
    ).toEqual({ family: 'safari', major: 17 });
    expect(browserVersion('curl/8.0')).toBeNull();
  });
});
