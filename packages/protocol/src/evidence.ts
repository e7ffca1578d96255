import { type Static, type TSchema, Type } from '@sinclair/typebox';

/**
 * Evidence collected by the browser SDK and sent in `fingerprint`, `behavior` and `environment`
 * (docs/evidence.md). Version 1.
 *
 * Compatibility policy:
 * - every field is optional, so `{}` and `{environment: {pow: {...}}}` are valid;
 * - every string has a maxLength and every array a maxItems;
 * - nested objects are strict (`additionalProperties: false`);
 * - the three top-level objects tolerate unknown fields from newer SDKs, but only as bounded
 *   scalars (string ≤ 256, number, boolean, null), at most 96 properties in all. Unknown fields
 *   are accepted and ignored by the engine; structured additions need a new `v`.
 */

const Str = (maxLength: number) => Type.String({ maxLength });
const Int = (minimum: number, maximum: number) => Type.Integer({ minimum, maximum });
const Num = (minimum: number, maximum: number) => Type.Number({ minimum, maximum });
const StrList = (maxItems: number, maxLength: number) => Type.Array(Str(maxLength), { maxItems });
const opt = <T extends TSchema>(schema: T) => Type.Optional(schema);

/** Unknown top-level fields: bounded scalars only. */
const FutureScalar = Type.Union([Str(256), Type.Number(), Type.Boolean(), Type.Null()]);
const tolerant = { additionalProperties: FutureScalar, maxProperties: 96 } as const;
const strict = { additionalProperties: false } as const;

export const EVIDENCE_VERSION = 1;
const Version = Int(1, 1000);

/** Sample time: milliseconds since page load (performance.now()). */
const T = Num(0, 86_400_000);
const Coord = Num(-100_000, 100_000);

export const ScreenEvidence = Type.Object(
  {
    width: opt(Int(0, 100_000)),
    height: opt(Int(0, 100_000)),
    avail_width: opt(Int(0, 100_000)),
    avail_height: opt(Int(0, 100_000)),
    color_depth: opt(Int(0, 128)),
    pixel_ratio: opt(Num(0, 64)),
    /** window.innerWidth and outerWidth: their ratio is the page zoom in chromium (page-zoom.ts). */
    inner_width: opt(Int(0, 100_000)),
    outer_width: opt(Int(0, 100_000)),
  },
  strict,
);

export const WebglEvidence = Type.Object(
  {
    vendor: opt(Str(256)),
    renderer: opt(Str(256)),
    unmasked_vendor: opt(Str(256)),
    unmasked_renderer: opt(Str(256)),
    version: opt(Str(128)),
    /** Hash of supported extensions and parameters. */
    hash: opt(Str(128)),
  },
  strict,
);

export const ClientHintsEvidence = Type.Object(
  {
    brands: opt(Type.Array(Type.Object({ brand: Str(64), version: Str(32) }, strict), { maxItems: 16 })),
    mobile: opt(Type.Boolean()),
    platform: opt(Str(64)),
    platform_version: opt(Str(64)),
    architecture: opt(Str(32)),
    bitness: opt(Str(8)),
    model: opt(Str(128)),
    full_version: opt(Str(64)),
  },
  strict,
);

/** Stable device attributes. Only these feed `device_id` (SPEC §4). */
export const FingerprintEvidence = Type.Object(
  {
    v: opt(Version),
    /** navigator.userAgent as seen by JavaScript. */
    user_agent: opt(Str(512)),
    platform: opt(Str(64)),
    vendor: opt(Str(128)),
    language: opt(Str(35)),
    languages: opt(StrList(16, 35)),
    /** IANA zone, e.g. Europe/Berlin. */
    timezone: opt(Str(64)),
    /** Date#getTimezoneOffset() in minutes. */
    timezone_offset: opt(Int(-900, 900)),
    screen: opt(ScreenEvidence),
    hardware_concurrency: opt(Int(0, 1024)),
    /** navigator.deviceMemory in GiB. */
    device_memory: opt(Num(0, 1024)),
    max_touch_points: opt(Int(0, 256)),
    canvas_hash: opt(Str(128)),
    webgl: opt(WebglEvidence),
    audio_hash: opt(Str(128)),
    math_hash: opt(Str(128)),
    fonts: opt(StrList(256, 64)),
    fonts_hash: opt(Str(128)),
    plugins_count: opt(Int(0, 1024)),
    mime_types_count: opt(Int(0, 1024)),
    pdf_viewer_enabled: opt(Type.Boolean()),
    cookies_enabled: opt(Type.Boolean()),
    local_storage: opt(Type.Boolean()),
    session_storage: opt(Type.Boolean()),
    indexed_db: opt(Type.Boolean()),
    do_not_track: opt(Str(16)),
    color_gamut: opt(Str(16)),
    client_hints: opt(ClientHintsEvidence),
    /** Random id the SDK keeps in first-party storage (localStorage), 16–64 of [A-Za-z0-9_-]. */
    visitor_id: opt(Type.String({ minLength: 16, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })),
  },
  tolerant,
);
export type FingerprintEvidence = Static<typeof FingerprintEvidence>;

export const PowProof = Type.Object(
  {
    challenge_id: Str(512),
    /** The solution `n` (decimal string or integer). */
    nonce: Type.Union([Str(20), Int(0, 2 ** 31)]),
  },
  strict,
);
export type PowProof = Static<typeof PowProof>;

/** The official ALTCHA widget's solved payload (base64 JSON), from Warden's ALTCHA challenge route. */
export const AltchaProof = Type.Object({ altcha: Type.String({ minLength: 1, maxLength: 2048 }) }, strict);
export type AltchaProof = Static<typeof AltchaProof>;

export const WindowEvidence = Type.Object(
  {
    inner_width: opt(Int(0, 100_000)),
    inner_height: opt(Int(0, 100_000)),
    outer_width: opt(Int(0, 100_000)),
    outer_height: opt(Int(0, 100_000)),
    screen_x: opt(Int(-100_000, 100_000)),
    screen_y: opt(Int(-100_000, 100_000)),
  },
  strict,
);

/** Values read again inside a Web Worker; a mismatch with the main thread is a spoofing tell. */
export const WorkerEvidence = Type.Object(
  {
    user_agent: opt(Str(512)),
    platform: opt(Str(64)),
    languages: opt(StrList(16, 35)),
    hardware_concurrency: opt(Int(0, 1024)),
    timezone: opt(Str(64)),
    webgl_renderer: opt(Str(256)),
  },
  strict,
);

/** Automation tells, freshness and proof-of-work. */
export const EnvironmentEvidence = Type.Object(
  {
    v: opt(Version),
    sdk_version: opt(Str(32)),
    /** Client clock, Unix epoch milliseconds, when the evidence was sent. */
    timestamp: opt(Num(0, 1e14)),
    /** Random per-submission value; a repeated nonce is a replay. */
    nonce: opt(Str(128)),
    pow: opt(Type.Union([PowProof, AltchaProof])),
    /** navigator.webdriver (null when absent). */
    webdriver: opt(Type.Union([Type.Boolean(), Type.Null()])),
    /** How webdriver is defined: absent | prototype | own | getter_native | getter_patched. */
    webdriver_defined: opt(Str(32)),
    /** Named headless markers, e.g. headless_ua, no_plugins, notification_denied, no_chrome_runtime. */
    headless_markers: opt(StrList(32, 64)),
    /** Globals left by automation, e.g. cdc_*, __playwright*, __puppeteer*, _phantom, domAutomation. */
    automation_artifacts: opt(StrList(32, 64)),
    /** Chrome DevTools Protocol detected (Runtime.enable serialisation side effect). */
    cdp: opt(Type.Boolean()),
    /** Native functions whose toString() is not native code (patched by stealth plugins). */
    tampered_functions: opt(StrList(32, 64)),
    worker: opt(WorkerEvidence),
    window: opt(WindowEvidence),
    visible: opt(Type.Boolean()),
    has_focus: opt(Type.Boolean()),
    in_iframe: opt(Type.Boolean()),
    /** performance.now() when collected (ms since page load). */
    uptime_ms: opt(T),
  },
  tolerant,
);
export type EnvironmentEvidence = Static<typeof EnvironmentEvidence>;

const SAMPLES = 2048;
const Point = Type.Tuple([T, Coord, Coord]);
const Click = Type.Tuple([T, Coord, Coord, Int(0, 8)]);
/** Key timing only, never key values: [t_down, dwell_ms]. */
const Key = Type.Tuple([T, Num(0, 60_000)]);
const Scroll = Type.Tuple([T, Coord]);
const Count = Int(0, 10_000_000);

/**
 * How the text fields of the submitted form (or, without a submit, of the page) got their text:
 * counts of events in those fields, never their values.
 */
export const FormInputEvidence = Type.Object(
  {
    /** Text fields whose value differs from their default value. */
    fields: opt(Count),
    /** Of those, fields whose text came by trusted `insertText` input without a key, paste or IME event. */
    untyped: opt(Count),
    /** Changed fields the browser autofilled (`:autofill`) or an extension filled (untrusted input events). */
    autofilled: opt(Count),
    keys: opt(Count),
    pastes: opt(Count),
    inputs: opt(Count),
    compositions: opt(Count),
  },
  tolerant,
);

/**
 * How long the primary mouse or pen button was held per press (pointerdown to pointerup, trusted
 * events only: touch, keyboard-activated and script clicks are not presses). Sent only when the
 * browser's clock is fine enough (a few ms) to time a press.
 */
export const PressEvidence = Type.Object(
  {
    /** Presses timed. */
    count: opt(Count),
    /** Of those, presses released less than 15 ms after going down. */
    quick: opt(Count),
    /** Median hold, ms. */
    median_ms: opt(Num(0, 60_000)),
  },
  tolerant,
);

const Offset = Int(-100_000, 100_000);

/**
 * Where the first trusted mouse events put the viewport on the screen, beside the window's own
 * geometry: `dx`/`dy` are the medians of `e.screenX − e.clientX − window.screenX` (and Y),
 * `chrome_x`/`chrome_y` are `outerWidth − innerWidth` and `outerHeight − innerHeight`. In a
 * real browser the event offset equals the window's chrome (toolbar) size; a headless CDP
 * driver offsets events although the window has no chrome at all. Not sent from an iframe.
 */
export const PointerFrameEvidence = Type.Object(
  {
    /** Events measured. */
    samples: opt(Count),
    dx: opt(Offset),
    dy: opt(Offset),
    /** Largest minus smallest per-event offset (X or Y): not 0 when zoom scales client coordinates. */
    spread: opt(Int(0, 200_000)),
    chrome_x: opt(Offset),
    chrome_y: opt(Offset),
  },
  tolerant,
);

/**
 * How the pointer's position updates arrived while it moved (trusted mouse/pen pointermoves, event
 * timestamps): `moving` intervals at most 200 ms apart that moved the pointer, and of those the
 * `sparse` ones, 40 ms or longer and 8 px or more in a single event (no coalesced events). Sent
 * only where `getCoalescedEvents` exists and the clock is fine (a few ms).
 */
export const PointerStepsEvidence = Type.Object(
  {
    moving: opt(Count),
    sparse: opt(Count),
  },
  tolerant,
);

/**
 * Where trusted mouse pointermoves (top frame, pinch-zoom scale 1) put the pointer relative to the
 * device pixel grid: `judged` moves, `fractional` ones off the whole device pixel (clientX or
 * clientY × devicePixelRatio more than 0.01 px from a whole number), `off_fixed` ones off the
 * 1/256 px grid too (Wayland's `wl_fixed`), and the `dpr` they were judged at.
 */
export const PointerGridEvidence = Type.Object(
  {
    judged: opt(Count),
    fractional: opt(Count),
    off_fixed: opt(Count),
    dpr: opt(Num(0, 16)),
  },
  tolerant,
);

/** Interaction metrics and bounded samples (at most 2,048 values in all arrays together). */
export const BehaviorEvidence = Type.Object(
  {
    v: opt(Version),
    /** Milliseconds from page load to submit. */
    time_to_submit_ms: opt(T),
    /** Milliseconds the page was visible and focused. */
    active_ms: opt(T),
    mouse_moves: opt(Count),
    clicks: opt(Count),
    key_presses: opt(Count),
    scrolls: opt(Count),
    touches: opt(Count),
    focus_count: opt(Count),
    blur_count: opt(Count),
    paste_count: opt(Count),
    copy_count: opt(Count),
    /** Milliseconds from page load to the first pointer, key or touch input. */
    first_input_ms: opt(T),
    /** Pointer-downs within 0.5 px of the centre of their element (or of one of its 3 ancestors). */
    centred_clicks: opt(Count),
    form: opt(FormInputEvidence),
    presses: opt(PressEvidence),
    pointer_frame: opt(PointerFrameEvidence),
    pointer_steps: opt(PointerStepsEvidence),
    pointer_grid: opt(PointerGridEvidence),
    /** Mouse samples [t, x, y] in CSS pixels, t in ms since load. */
    mouse: opt(Type.Array(Point, { maxItems: SAMPLES })),
    /** Clicks [t, x, y, button]. */
    click_samples: opt(Type.Array(Click, { maxItems: SAMPLES })),
    /** Key timing [t_down, dwell_ms]. */
    key_samples: opt(Type.Array(Key, { maxItems: SAMPLES })),
    /** Scroll positions [t, y]. */
    scroll_samples: opt(Type.Array(Scroll, { maxItems: SAMPLES })),
    /** Touch samples [t, x, y]. */
    touch_samples: opt(Type.Array(Point, { maxItems: SAMPLES })),
  },
  tolerant,
);
export type BehaviorEvidence = Static<typeof BehaviorEvidence>;
