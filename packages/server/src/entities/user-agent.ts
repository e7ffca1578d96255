import { uaOs } from '../scoring/ua-consistency.ts';

/** A User-Agent string read for people (entity summaries): browser, its major version, OS, kind. */
export interface ParsedUserAgent {
  browser: string;
  version: string | null;
  os: string;
  kind: 'bot' | 'mobile' | 'desktop' | 'other';
}

const OS_NAMES: Record<string, string> = {
  windows: 'Windows',
  mac: 'macOS',
  linux: 'Linux',
  android: 'Android',
  ios: 'iOS',
  chromeos: 'ChromeOS',
  other: 'Other',
};

// Order matters: Edge and Opera say "Chrome", Chrome says "Safari".
const BROWSERS: Array<[string, RegExp]> = [
  ['HeadlessChrome', /HeadlessChrome\/(\d+)/],
  ['Edge', /Edg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /(?:OPR|Opera)\/(\d+)/],
  ['Samsung Internet', /SamsungBrowser\/(\d+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /Version\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//],
  ['curl', /^curl\/(\d+)/],
  ['python-requests', /python-requests\/(\d+)/],
];

const BOT = /bot|crawler|spider|curl|wget|python|httpclient|okhttp|go-http|java\/|headless|phantomjs/i;

export function parseUserAgent(ua: string): ParsedUserAgent {
  let browser = 'Unknown';
  let version: string | null = null;
  for (const [name, pattern] of BROWSERS) {
    const m = pattern.exec(ua);
    if (m) {
      browser = name;
      version = m[1] ?? null;
      break;
    }
  }
  const kind =
    ua === ''
      ? 'other'
      : BOT.test(ua)
        ? 'bot'
        : /Mobi|Android|iPhone|iPad/.test(ua)
          ? 'mobile'
          : /^Mozilla\/5\.0 \(/.test(ua)
            ? 'desktop'
            : 'other';
  return { browser, version, os: OS_NAMES[uaOs(ua)] ?? 'Other', kind };
}
