import type { Signal } from '../engine-types.ts';
import { scriptedInput } from './behavior-tells.ts';
import { pointerGeometryMismatch } from './input.ts';
import { emit, FORM_EVENTS, type SignalFamily } from './types.ts';

/** Markers that only a headless or automated browser shows (others are softer hints). */
const HARD_HEADLESS = new Set(['headless_ua', 'headless_chrome', 'swiftshader_headless', 'no_window_chrome']);

/** Automation tells from `environment` (webdriver, artefacts, headless, CDP, tampering). */
export const automation: SignalFamily = {
  name: 'automation',
  rules: {
    automation_webdriver: { score: 90, hard: true, description: 'navigator.webdriver is true.' },
    automation_webdriver_patched: {
      score: 45,
      hard: true,
      description: 'navigator.webdriver was redefined (a stealth patch hides automation).',
    },
    automation_artifacts: {
      score: 90,
      hard: true,
      description: 'Globals left by automation tools (Selenium cdc_, Playwright, Puppeteer, Phantom).',
    },
    headless_browser: { score: 70, hard: true, description: 'The browser reports itself as headless.' },
    headless_hints: {
      score: 10,
      description: 'Environment traits typical of headless browsers (per marker, up to 30).',
    },
    automation_cdp: {
      score: 35,
      description: 'A Chrome DevTools Protocol client is attached (automation, or open developer tools).',
    },
    automation_cdp_scripted: {
      score: 30,
      hard: true,
      description:
        'A DevTools Protocol client is attached and the page was driven mechanically (scripted pointer paths or timing, clicks without approach, synthetic keys, or a form without interaction).',
    },
    native_function_tampering: {
      score: 30,
      description: 'Native browser functions were replaced (toString is not native code).',
    },
    worker_mismatch: {
      score: 35,
      description: 'Values read in a Web Worker differ from the main thread (spoofed attributes).',
    },
    worker_software_renderer: {
      score: 45,
      description:
        'The page reports a hardware GPU but the Web Worker renders in software (SwiftShader, llvmpipe): a spoofed GPU on a machine without one.',
    },
    software_renderer: {
      score: 15,
      description: 'WebGL renders in software (SwiftShader, llvmpipe) on a Windows or macOS user agent.',
    },
    pointer_geometry_mismatch: {
      score: 40,
      description:
        "Mouse events put the page tens of pixels below (or beside) the window's corner although the window reports no toolbar or border (outer size = inner size): input dispatched into a headless browser over DevTools.",
    },
    webdriver_absent: {
      score: 30,
      description:
        'navigator.webdriver is missing on a Chromium user agent (Chrome defines it; stealth scripts delete it).',
    },
  },
  evaluate(f) {
    const out: Signal[] = [];
    if (f.webdriver === true) out.push(emit(this, 'automation_webdriver'));
    else if (f.webdriver_defined === 'own' || f.webdriver_defined === 'getter_patched') {
      out.push(emit(this, 'automation_webdriver_patched'));
    }
    if (f.automation_artifacts.length > 0) {
      out.push(
        emit(this, 'automation_artifacts', {
          description: `Automation globals present: ${f.automation_artifacts.slice(0, 5).join(', ')}.`,
        }),
      );
    }
    if (f.webdriver_defined === 'absent' && f.ua_chromium && !f.ua_mobile)
      out.push(emit(this, 'webdriver_absent'));
    const hard = f.ua_headless || f.worker_headless || f.headless_markers.some((m) => HARD_HEADLESS.has(m));
    if (hard) out.push(emit(this, 'headless_browser'));
    else if (f.headless_markers.length > 0) {
      out.push(
        emit(this, 'headless_hints', {
          score: Math.min(30, 10 * f.headless_markers.length),
          description: `Headless traits: ${f.headless_markers.slice(0, 5).join(', ')}.`,
        }),
      );
    }
    if (f.cdp) {
      out.push(emit(this, 'automation_cdp'));
      // DevTools alone is a person debugging; DevTools plus machine-made input is a driver.
      const driven = FORM_EVENTS.has(f.event_type) || f.behavior.interactions > 0;
      if (driven && scriptedInput(f)) out.push(emit(this, 'automation_cdp_scripted'));
    }
    if (f.tampered_functions.length > 0) out.push(emit(this, 'native_function_tampering'));
    if (f.worker_mismatch.length > 0) {
      out.push(
        emit(this, 'worker_mismatch', {
          description: `Worker and main thread disagree on ${f.worker_mismatch.join(', ')}.`,
        }),
      );
    }
    const axis = pointerGeometryMismatch(f);
    const frame = f.behavior.pointer_frame;
    if (axis !== null && frame) {
      out.push(
        emit(this, 'pointer_geometry_mismatch', {
          description:
            axis === 'y'
              ? `Mouse events offset ${frame.dy} px vertically in a window with ${frame.chrome_y} px of chrome.`
              : `Mouse events offset ${frame.dx} px horizontally in a window with ${frame.chrome_x} px of chrome.`,
        }),
      );
    }
    if (f.software_renderer === 'worker') out.push(emit(this, 'worker_software_renderer'));
    else if (f.software_renderer === 'page' && (f.ua_os === 'windows' || f.ua_os === 'mac'))
      out.push(emit(this, 'software_renderer'));
    return out;
  },
};
