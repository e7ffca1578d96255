/**
 * The benchmark's own measuring script, loaded by the shop page beside the SDK (not part of the
 * integration a shop would ship). It records, for each visit, the raw properties of the input
 * events and of the window that tell an automation kit from a person — what the kit leaves,
 * whether or not Warden collects it yet — and posts them to the shop's `/probe` on the first
 * submit. It also posts the page's layout (`/layout`) once the page is laid out, so that OS-level
 * input (xdotool) can aim at the form on the screen.
 */
export interface ProbeReport {
  ua: string;
  webdriver: boolean | null;
  brands: string[];
  /** Window and screen geometry at load. */
  geometry: {
    screenX: number;
    screenY: number;
    outerWidth: number;
    outerHeight: number;
    innerWidth: number;
    innerHeight: number;
    screenWidth: number;
    screenHeight: number;
    availWidth: number;
    availHeight: number;
    dpr: number;
  };
  focus: { atLoad: boolean; atSubmit: boolean; windowFocusEvents: number; windowBlurEvents: number };
  visibility: string;
  /** Worker vs page values that differ (`name: page | worker`). */
  workerMismatches: string[];
  workerError?: string;
  moves: {
    count: number;
    untrusted: number;
    /** Moves whose getCoalescedEvents() held more than one event (the compositor merged real input). */
    coalescedMulti: number;
    /**
     * Mouse pointermoves whose position is off the screen's pixel grid (clientX·dpr or
     * clientY·dpr more than 0.01 from a whole number), of those judged (top frame, pinch-zoom
     * scale 1). CDP `Input.dispatchMouseEvent` takes any fractional CSS position; Windows and
     * X11 place the pointer on whole device pixels (macOS and Wayland may not).
     */
    offGrid: number;
    offGridJudged: number;
    /** Share of moves with movementX and movementY both 0. */
    zeroMovementShare: number;
    /** Distinct (screenX − clientX, screenY − clientY) offsets seen. */
    screenOffsets: string[];
    /** Median and minimum ms between consecutive move timeStamps. */
    intervalMedianMs: number | null;
    intervalMinMs: number | null;
    /** Median ms from the event's timeStamp to its handler (input delivery latency). */
    latencyMedianMs: number | null;
    withSourceCapabilities: number;
  };
  clicks: Array<{
    target: string;
    trusted: boolean;
    pointerType: string;
    pressure: number;
    width: number;
    height: number;
    /** mousedown → mouseup, ms. */
    dwellMs: number | null;
    /** Pointer moves in the 1 s before the press. */
    movesBefore: number;
    /** Offset of the press from the target's centre, px. */
    dx: number;
    dy: number;
    screenOffset: string;
    sourceCapabilities: boolean;
    detail: number;
  }>;
  keys: {
    keydown: number;
    keyup: number;
    untrusted: number;
    emptyCode: number;
    /** Input events by inputType. */
    inputTypes: Record<string, number>;
    /** Text-changing input events with no keydown in the 100 ms before. */
    inputWithoutKey: number;
    dwellMedianMs: number | null;
    gapMedianMs: number | null;
    latencyMedianMs: number | null;
  };
  timing: { firstInputMs: number | null; submitMs: number; userActivation: boolean | null };
  /**
   * The raw input, for offline analysis (`--json`): every pointermove [performance.now(), clientX,
   * clientY, coalesced events, their time span ms, timeStamp, predicted events (−1 without getPredictedEvents), pointerrawupdate events since the previous move, movementX, movementY] and its coalesced events (`coalesced`, one row per move: [timeStamp, clientX, clientY] flattened), pointerdown [t, x, y, timeStamp] and pointerup [t], key [down timeStamp, hold ms by timeStamp, down performance.now() in the handler, hold ms by handler time: what the SDK records] (the first 4,000 each).
   */
  trace?: { moves: number[][]; coalesced?: number[][]; downs: number[][]; ups: number[]; keys: number[][] };
}

/** The browser-side source (plain ES2020, no imports), served as `/probe.js`. */
export const PROBE_JS = `(() => {
  const run = new URL(document.currentScript.src).searchParams.get('run');
  const t0 = performance.now();
  const median = (a) => { if (!a.length) return null; const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
  const post = (path, body) => fetch(path + '?run=' + encodeURIComponent(run), { method: 'POST', body: JSON.stringify(body), keepalive: true, headers: { 'content-type': 'application/json' } }).catch(() => {});
  const geometry = () => ({ screenX, screenY, outerWidth, outerHeight, innerWidth, innerHeight,
    screenWidth: screen.width, screenHeight: screen.height, availWidth: screen.availWidth, availHeight: screen.availHeight, dpr: devicePixelRatio });
  const focusAtLoad = document.hasFocus();
  let firstInput = null;
  const seen = () => { if (firstInput === null) firstInput = performance.now() - t0; };
  const moves = { count: 0, untrusted: 0, coalescedMulti: 0, offGrid: 0, offGridJudged: 0, zero: 0, offsets: new Set(), stamps: [], latency: [], withSourceCapabilities: 0 };
  const recentMoves = [];
  const trace = { moves: [], coalesced: [], downs: [], ups: [], keys: [] };
  const r1 = (v) => Math.round(v * 10) / 10;
  addEventListener('pointermove', (e) => { if (trace.moves.length < 4000) { const c = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : []; trace.moves.push([r1(performance.now()), r1(e.clientX), r1(e.clientY), c.length, c.length > 1 ? r1(c[c.length - 1].timeStamp - c[0].timeStamp) : 0, r1(e.timeStamp), typeof e.getPredictedEvents === 'function' ? e.getPredictedEvents().length : -1, rawUpdates, e.movementX, e.movementY]); trace.coalesced.push(c.flatMap((k) => [r1(k.timeStamp), r1(k.clientX), r1(k.clientY)])); rawUpdates = 0; } }, true);
  let rawUpdates = 0;
  addEventListener('pointerrawupdate', () => { rawUpdates++; }, true);
  addEventListener('pointerdown', (e) => { if (trace.downs.length < 4000) trace.downs.push([r1(performance.now()), r1(e.clientX), r1(e.clientY), r1(e.timeStamp)]); }, true);
  addEventListener('pointerup', () => { if (trace.ups.length < 4000) trace.ups.push(r1(performance.now())); }, true);
  addEventListener('mousemove', (e) => {
    seen();
    moves.count++;
    if (!e.isTrusted) moves.untrusted++;
    if (e.movementX === 0 && e.movementY === 0) moves.zero++;
    moves.offsets.add((e.screenX - e.clientX) + ',' + (e.screenY - e.clientY));
    moves.stamps.push(e.timeStamp);
    moves.latency.push(performance.now() - e.timeStamp);
    if (e.sourceCapabilities) moves.withSourceCapabilities++;
    recentMoves.push(e.timeStamp);
  }, true);
  addEventListener('pointermove', (e) => {
    if (typeof e.getCoalescedEvents === 'function' && e.getCoalescedEvents().length > 1) moves.coalescedMulti++;
    if (e.pointerType === 'mouse' && window.top === window && (!window.visualViewport || window.visualViewport.scale === 1)) {
      moves.offGridJudged++;
      const off = (v) => Math.abs(v * devicePixelRatio - Math.round(v * devicePixelRatio)) > 0.01;
      if (off(e.clientX) || off(e.clientY)) moves.offGrid++;
    }
  }, true);
  const clicks = [];
  let lastDown = null;
  const describe = (el) => el && el.name ? el.name : el && el.tagName ? el.tagName.toLowerCase() : '?';
  addEventListener('pointerdown', (e) => {
    seen();
    const r = e.target && e.target.getBoundingClientRect ? e.target.getBoundingClientRect() : { x: 0, y: 0, width: 0, height: 0 };
    const before = recentMoves.filter((t) => e.timeStamp - t < 1000).length;
    lastDown = { target: describe(e.target), trusted: e.isTrusted, pointerType: e.pointerType, pressure: e.pressure, width: e.width, height: e.height,
      dwellMs: null, movesBefore: before, dx: Math.round((e.clientX - (r.x + r.width / 2)) * 10) / 10, dy: Math.round((e.clientY - (r.y + r.height / 2)) * 10) / 10,
      screenOffset: (e.screenX - e.clientX) + ',' + (e.screenY - e.clientY), sourceCapabilities: !!e.sourceCapabilities, detail: e.detail, at: e.timeStamp };
    clicks.push(lastDown);
  }, true);
  addEventListener('pointerup', (e) => { if (lastDown && lastDown.dwellMs === null) lastDown.dwellMs = Math.round(e.timeStamp - lastDown.at); }, true);
  const keys = { keydown: 0, keyup: 0, untrusted: 0, emptyCode: 0, inputTypes: {}, inputWithoutKey: 0, downs: new Map(), handled: new Map(), dwell: [], downStamps: [], latency: [] };
  let lastKeyDown = -1e9;
  addEventListener('keydown', (e) => {
    seen();
    keys.keydown++;
    if (!e.isTrusted) keys.untrusted++;
    if (!e.code) keys.emptyCode++;
    keys.downs.set(e.code || e.key, e.timeStamp);
    keys.handled.set(e.code || e.key, performance.now());
    keys.downStamps.push(e.timeStamp);
    keys.latency.push(performance.now() - e.timeStamp);
    lastKeyDown = e.timeStamp;
  }, true);
  addEventListener('keyup', (e) => {
    keys.keyup++;
    const d = keys.downs.get(e.code || e.key);
    const h = keys.handled.get(e.code || e.key);
    if (d !== undefined) { keys.dwell.push(e.timeStamp - d); keys.downs.delete(e.code || e.key); if (trace.keys.length < 4000) trace.keys.push([r1(d), r1(e.timeStamp - d), r1(h), r1(performance.now() - h)]); }
  }, true);
  addEventListener('input', (e) => {
    seen();
    const type = e.inputType || 'none';
    keys.inputTypes[type] = (keys.inputTypes[type] || 0) + 1;
    if (e.timeStamp - lastKeyDown > 100) keys.inputWithoutKey++;
  }, true);
  let focusEvents = 0, blurEvents = 0;
  addEventListener('focus', (e) => { if (e.target === window) focusEvents++; });
  addEventListener('blur', (e) => { if (e.target === window) blurEvents++; });

  const workerView = new Promise((resolve) => {
    try {
      const src = 'const c = () => { try { const g = new OffscreenCanvas(1, 1).getContext("webgl"); const x = g && g.getExtension("WEBGL_debug_renderer_info"); return g ? String(g.getParameter(x ? x.UNMASKED_RENDERER_WEBGL : g.RENDERER)) : null; } catch { return null; } };' +
        'postMessage({ ua: navigator.userAgent, platform: navigator.platform, languages: (navigator.languages || []).join(","), cores: navigator.hardwareConcurrency, memory: navigator.deviceMemory ?? null, tz: Intl.DateTimeFormat().resolvedOptions().timeZone, webdriver: navigator.webdriver ?? null, brands: navigator.userAgentData ? navigator.userAgentData.brands.map((b) => b.brand).join(",") : null, gl: c() });';
      const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
      const timer = setTimeout(() => resolve({ error: 'no answer in 5 s' }), 5000);
      w.onmessage = (m) => { clearTimeout(timer); resolve(m.data); w.terminate(); };
      w.onerror = (e) => { clearTimeout(timer); resolve({ error: String(e.message || e) }); };
    } catch (err) { resolve({ error: String(err) }); }
  });
  const pageGl = () => { try { const g = document.createElement('canvas').getContext('webgl'); const x = g && g.getExtension('WEBGL_debug_renderer_info'); return g ? String(g.getParameter(x ? x.UNMASKED_RENDERER_WEBGL : g.RENDERER)) : null; } catch { return null; } };
  const pageView = () => ({ ua: navigator.userAgent, platform: navigator.platform, languages: (navigator.languages || []).join(','), cores: navigator.hardwareConcurrency,
    memory: navigator.deviceMemory ?? null, tz: Intl.DateTimeFormat().resolvedOptions().timeZone, webdriver: navigator.webdriver ?? null,
    brands: navigator.userAgentData ? navigator.userAgentData.brands.map((b) => b.brand).join(',') : null, gl: pageGl() });

  const layout = () => {
    const box = (sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
    return { ...geometry(), email: box('#email'), password: box('#password'), submit: box('#submit') };
  };
  const sendLayout = () => setTimeout(() => post('/layout', layout()), 300);
  if (document.readyState === 'complete') sendLayout(); else addEventListener('load', sendLayout);

  let sent = false;
  addEventListener('submit', async () => {
    if (sent) return;
    sent = true;
    const submitMs = performance.now() - t0;
    const focusAtSubmit = document.hasFocus();
    const ints = [];
    for (let i = 1; i < moves.stamps.length; i++) ints.push(moves.stamps[i] - moves.stamps[i - 1]);
    const gaps = [];
    for (let i = 1; i < keys.downStamps.length; i++) gaps.push(keys.downStamps[i] - keys.downStamps[i - 1]);
    const w = await workerView;
    const p = pageView();
    // webdriver is not on WorkerNavigator: compared values only.
    const mismatches = w.error ? [] : Object.keys(p).filter((k) => k !== 'webdriver').filter((k) => String(p[k]) !== String(w[k])).map((k) => k + ': ' + p[k] + ' | ' + w[k]);
    const round = (v) => (v === null ? null : Math.round(v * 10) / 10);
    post('/probe', {
      ua: navigator.userAgent, webdriver: navigator.webdriver ?? null,
      brands: navigator.userAgentData ? navigator.userAgentData.brands.map((b) => b.brand) : [],
      geometry: geometry(),
      focus: { atLoad: focusAtLoad, atSubmit: focusAtSubmit, windowFocusEvents: focusEvents, windowBlurEvents: blurEvents },
      visibility: document.visibilityState,
      workerMismatches: mismatches, workerError: w.error,
      moves: { count: moves.count, untrusted: moves.untrusted, coalescedMulti: moves.coalescedMulti, offGrid: moves.offGrid, offGridJudged: moves.offGridJudged,
        zeroMovementShare: moves.count ? round(moves.zero / moves.count) : 0, screenOffsets: [...moves.offsets].slice(0, 5),
        intervalMedianMs: round(median(ints)), intervalMinMs: ints.length ? round(Math.min(...ints)) : null,
        latencyMedianMs: round(median(moves.latency)), withSourceCapabilities: moves.withSourceCapabilities },
      clicks: clicks.map(({ at, ...c }) => c),
      keys: { keydown: keys.keydown, keyup: keys.keyup, untrusted: keys.untrusted, emptyCode: keys.emptyCode, inputTypes: keys.inputTypes,
        inputWithoutKey: keys.inputWithoutKey, dwellMedianMs: round(median(keys.dwell)), gapMedianMs: round(median(gaps)), latencyMedianMs: round(median(keys.latency)) },
      timing: { firstInputMs: round(firstInput), submitMs: round(submitMs), userActivation: navigator.userActivation ? navigator.userActivation.hasBeenActive : null },
      trace,
    });
  }, true);
})();
`;
