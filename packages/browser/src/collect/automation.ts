import type { EnvironmentEvidence } from '../types.ts';
import { safe, timeBox } from '../util/safe.ts';
import { nav } from './device.ts';

const NATIVE = /\{\s*\[native code\]\s*\}\s*$/;
const fnToString = Function.prototype.toString;

export function isNative(fn: unknown): boolean {
  return typeof fn === 'function' && NATIVE.test(fnToString.call(fn));
}

/** How navigator.webdriver is defined: stealth tools redefine it on the instance or patch the getter. */
export function webdriverDefinition(): string {
  if (Object.getOwnPropertyDescriptor(navigator, 'webdriver')) return 'own';
  const d = Object.getOwnPropertyDescriptor(Navigator.prototype, 'webdriver');
  if (!d) return 'absent';
  if (!d.get) return 'prototype';
  return isNative(d.get) ? 'getter_native' : 'getter_patched';
}

const ARTIFACT =
  /^(cdc_|\$cdc_|\$wdc_|__playwright|__pw|__puppeteer|_phantom|callPhantom|__nightmare|domAutomation|__selenium|__webdriver|__driver|__fxdriver|_Selenium_IDE|__lastWatirAlert|_WEBDRIVER_ELEM_CACHE|__nightmareQ)/;

/** Globals and attributes that automation frameworks leave behind. */
export function automationArtifacts(): string[] {
  const found = new Set<string>();
  for (const target of [window, document]) {
    for (const key of safe(() => Object.getOwnPropertyNames(target)) ?? []) {
      if (ARTIFACT.test(key)) found.add(key.slice(0, 64));
    }
  }
  for (const attr of ['webdriver', 'selenium', 'driver']) {
    if (safe(() => document.documentElement.getAttribute(attr)) != null) found.add(`attr:${attr}`);
  }
  return [...found].slice(0, 32);
}

/** Headless markers that do not need async APIs. */
export function headlessMarkers(): string[] {
  const n = nav();
  const ua = n.userAgent;
  const chromeUA = /Chrome\//.test(ua);
  const out: string[] = [];
  if (/HeadlessChrome/.test(ua)) out.push('headless_ua');
  if (chromeUA && !(window as { chrome?: unknown }).chrome) out.push('no_chrome_object');
  // Phones and tablets have no plugins at all (Android Chrome reports 0): only a desktop tell.
  const mobile = /Android|iPhone|iPad|iPod|Mobile/.test(ua);
  if (chromeUA && !mobile && safe(() => n.plugins.length) === 0) out.push('no_plugins');
  if (window.outerWidth === 0 && window.outerHeight === 0) out.push('zero_outer_dims');
  if (safe(() => n.languages.length) === 0) out.push('no_languages');
  if (n.webdriver === true) out.push('webdriver_true');
  if (screen.width > 0 && window.outerWidth > screen.width + 16) out.push('window_wider_than_screen');
  return out;
}

/** Notification permission says "denied" while the Permissions API says "prompt": headless Chrome. */
export async function permissionMarkers(ms: number): Promise<string[]> {
  const p = navigator.permissions;
  if (!p || typeof Notification === 'undefined') return [];
  const status = await timeBox(() => p.query({ name: 'notifications' }), ms);
  if (status && Notification.permission === 'denied' && status.state === 'prompt')
    return ['notification_denied'];
  return [];
}

/**
 * Chrome DevTools Protocol (Runtime domain enabled, as Puppeteer and Playwright do, headless or
 * headful, with or without stealth patches): the console serialises logged errors for the client.
 * Older Chromium read the error's `stack` through its getter; Chromium 156 formats the stack,
 * calling `Error.prepareStackTrace`. A page without a CDP client (no automation, DevTools closed)
 * does neither. (Its `name` is no tell: Chromium reads it for every logged error.) The probe
 * restores what it changed.
 */
export function cdpDetected(): boolean {
  return cdpProbes().length > 0;
}

export function cdpProbes(): string[] {
  const found: string[] = [];
  const quiet = console.debug;
  safe(() => {
    const err = new Error('');
    Object.defineProperty(err, 'stack', {
      configurable: false,
      enumerable: false,
      get() {
        found.push('stack_getter');
        return '';
      },
    });
    quiet(err);
  });
  safe(() => {
    const E = Error as { prepareStackTrace?: unknown };
    const saved = Object.getOwnPropertyDescriptor(Error, 'prepareStackTrace');
    let formatted = false;
    try {
      E.prepareStackTrace = () => {
        formatted = true;
        return '';
      };
      const err = new Error('');
      quiet(err);
    } finally {
      if (saved) Object.defineProperty(Error, 'prepareStackTrace', saved);
      else delete E.prepareStackTrace;
    }
    if (formatted) found.push('stack_formatted');
  });
  return found;
}

function getter(proto: object | undefined, name: string): unknown {
  return proto ? Object.getOwnPropertyDescriptor(proto, name)?.get : undefined;
}

/** Native functions and getters that no longer look native: stealth plugins patch these. */
export function tamperedFunctions(): string[] {
  const w = window as unknown as Record<string, { prototype?: object } | undefined>;
  const proto = (name: string) => w[name]?.prototype;
  const checks: Array<[string, () => unknown]> = [
    ['Function.prototype.toString', () => Function.prototype.toString],
    ['navigator.webdriver', () => getter(Navigator.prototype, 'webdriver')],
    ['navigator.languages', () => getter(Navigator.prototype, 'languages')],
    ['navigator.plugins', () => getter(Navigator.prototype, 'plugins')],
    ['navigator.platform', () => getter(Navigator.prototype, 'platform')],
    ['navigator.userAgent', () => getter(Navigator.prototype, 'userAgent')],
    ['navigator.hardwareConcurrency', () => getter(Navigator.prototype, 'hardwareConcurrency')],
    ['permissions.query', () => navigator.permissions?.query],
    ['HTMLCanvasElement.toDataURL', () => HTMLCanvasElement.prototype.toDataURL],
    ['HTMLCanvasElement.getContext', () => HTMLCanvasElement.prototype.getContext],
    ['CanvasRenderingContext2D.getImageData', () => CanvasRenderingContext2D.prototype.getImageData],
    [
      'WebGLRenderingContext.getParameter',
      () => proto('WebGLRenderingContext') && WebGLRenderingContext.prototype.getParameter,
    ],
    ['Date.getTimezoneOffset', () => Date.prototype.getTimezoneOffset],
    ['Intl.DateTimeFormat.resolvedOptions', () => Intl.DateTimeFormat.prototype.resolvedOptions],
  ];
  const out: string[] = [];
  for (const [name, get] of checks) {
    const fn = safe(get);
    if (fn !== undefined && fn !== false && !isNative(fn)) out.push(name);
  }
  // toString itself replaced on an instance, or a Proxy around it that answers differently.
  if (
    safe(() => Function.prototype.toString.call(Function.prototype.toString)) !== fnToString.call(fnToString)
  ) {
    out.push('Function.prototype.toString:proxy');
  }
  if ((safe(() => Object.getOwnPropertyNames(navigator).length) ?? 0) > 0)
    out.push('navigator:own_properties');
  return out.slice(0, 32);
}

export type AutomationEvidence = Pick<
  EnvironmentEvidence,
  | 'webdriver'
  | 'webdriver_defined'
  | 'headless_markers'
  | 'automation_artifacts'
  | 'cdp'
  | 'tampered_functions'
>;

export function automationEvidence(): AutomationEvidence {
  const wd = safe(() => navigator.webdriver);
  return {
    webdriver: typeof wd === 'boolean' ? wd : null,
    webdriver_defined: safe(webdriverDefinition) ?? 'error',
    headless_markers: safe(headlessMarkers) ?? [],
    automation_artifacts: safe(automationArtifacts) ?? [],
    cdp: safe(cdpDetected) ?? false,
    tampered_functions: safe(tamperedFunctions) ?? [],
  };
}
