import fs from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.WARDEN_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Whether Debian's chromium is installed; e2e suites print why they skip when it is not.
 * In CI (CI=true) a missing browser is a failure, never a skip.
 */
export function chromiumAvailable(): boolean {
  const ok = fs.existsSync(CHROMIUM);
  if (!ok && process.env.CI === 'true') {
    throw new Error(
      `[warden e2e] ${CHROMIUM} is missing in CI: .ci/run must install it (apt-get install -y chromium).`,
    );
  }
  if (!ok) {
    console.warn(
      `[warden e2e] real-browser suites not run: ${CHROMIUM} is missing (apt-get install -y chromium, or set WARDEN_CHROMIUM).`,
    );
  }
  return ok;
}

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      ...extraArgs,
    ],
  });
}
