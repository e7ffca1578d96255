import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM } from './browser.ts';

/**
 * A virtual X display (Xvfb) with OS-level input (xdotool), for visits by a chromium that no
 * automation tool started: real X pointer and key events reach the browser exactly as a
 * person's would.
 */
export const XVFB = process.env.WARDEN_XVFB ?? '/usr/bin/Xvfb';
export const XDOTOOL = process.env.WARDEN_XDOTOOL ?? '/usr/bin/xdotool';

/**
 * Whether chromium, Xvfb and xdotool are installed. In CI (CI=true) a missing one is a failure,
 * never a skip; locally the suite says why it did not run.
 */
export function desktopAvailable(): boolean {
  const missing = [CHROMIUM, XVFB, XDOTOOL].filter((p) => !fs.existsSync(p));
  if (missing.length === 0) return true;
  const how =
    'apt-get install -y chromium xvfb xdotool (or set WARDEN_CHROMIUM, WARDEN_XVFB, WARDEN_XDOTOOL)';
  if (process.env.CI === 'true') {
    throw new Error(`[warden e2e] ${missing.join(', ')} missing in CI: .ci/run must install them (${how}).`);
  }
  console.warn(`[warden e2e] headful desktop suites not run: ${missing.join(', ')} missing (${how}).`);
  return false;
}

/**
 * Remove a chromium profile. Chromium's helper processes may still be writing into it for a moment
 * after the browser process exits (ENOTEMPTY), so removal is retried for up to 5 s.
 */
export function removeProfile(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 25, retryDelay: 200 });
}

/**
 * Stop `child` — with `group`, every process of its group too (it was started `detached`, as
 * chromium is, whose helpers write into its profile): SIGTERM, SIGKILL after `ms`, then wait (at
 * most 5 s more) until none is left.
 */
async function stopProcess(child: ChildProcess, { group = false, ms = 3000 } = {}): Promise<void> {
  const target = group ? -child.pid! : child.pid!;
  const signal = (name: NodeJS.Signals | 0) => {
    try {
      process.kill(target, name);
      return true;
    } catch {
      return false; // Gone already.
    }
  };
  if (!signal('SIGTERM')) return;
  for (let waited = 0; signal(0) && waited < ms + 5000; waited += 100) {
    if (waited === ms) signal('SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface VirtualDisplay {
  /** `:N`, for DISPLAY. */
  display: string;
  width: number;
  height: number;
  stop(): Promise<void>;
}

/** Starts Xvfb on a free display (the server picks it and reports it through -displayfd). */
export async function startXvfb(width = 1280, height = 1024): Promise<VirtualDisplay> {
  const child = spawn(
    XVFB,
    ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-noreset'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const fd3 = child.stdio[3] as NodeJS.ReadableStream;
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`Xvfb did not start in 15 s: ${stderr}`)), 15_000);
    fd3.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^(\d+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`:${m[1]}`);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}): ${stderr}`));
    });
  });
  return { display, width, height, stop: () => stopProcess(child) };
}

/** The flags of the plain visit: what a person's desktop launcher might pass, nothing of automation. */
export function plainChromiumArgs(size: { width: number; height: number }): string[] {
  return [
    '--no-sandbox', // the tests run as root
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--no-default-browser-check',
    '--password-store=basic',
    '--window-position=0,0',
    `--window-size=${size.width},${size.height}`,
  ];
}

export interface PlainChromium {
  userDataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Chromium as a person starts it: a headful process with no remote debugging, no automation
 * flags and no driver, on the given display, with a fresh profile.
 */
export function launchPlainChromium(
  display: VirtualDisplay,
  url: string,
  size: { width: number; height: number },
  /** Only for debugging a failing run by hand (e.g. a remote-debugging port); the tests pass none. */
  extraArgs: readonly string[] = [],
): PlainChromium {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-e2e-profile-'));
  const child = spawn(
    CHROMIUM,
    [`--user-data-dir=${userDataDir}`, ...plainChromiumArgs(size), ...extraArgs, url],
    // Its own process group: stop() ends the helper processes too, not only the browser process.
    { env: { ...process.env, DISPLAY: display.display }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  return {
    userDataDir,
    output: () => output,
    async stop() {
      await stopProcess(child, { group: true });
      removeProfile(userDataDir);
    },
  };
}

/**
 * Runs an xdotool script (one command a line, `sleep <seconds>` between them) in one process,
 * so that the recorded timing is kept without a process start per event.
 */
export function xdotool(display: VirtualDisplay, lines: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(XDOTOOL, ['-'], {
      env: { ...process.env, DISPLAY: display.display },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`xdotool exited with ${code}: ${output}`)),
    );
    child.stdin.end(`${lines.join('\n')}\n`);
  });
}
