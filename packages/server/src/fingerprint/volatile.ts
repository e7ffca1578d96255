import { isRecord, num, str, strList } from './device-id.ts';
import { pageZoom } from './page-zoom.ts';

/**
 * What a person changes on the same device — languages, page zoom (and the time zone, which the
 * features already carry) — recorded as facts of the event, never part of the device id.
 */
export interface VolatileFacts {
  /** `navigator.languages` (else `navigator.language`), lower case, joined by commas; "" when absent. */
  languages: string;
  /** The page zoom (page-zoom.ts), 1 when unknown. */
  page_zoom: number;
}

export function volatileFacts(evidence: Record<string, unknown>): VolatileFacts {
  const screen = isRecord(evidence.screen) ? evidence.screen : {};
  return {
    languages: strList(evidence.languages, 16)?.join(',') ?? str(evidence.language, 35) ?? '',
    page_zoom: pageZoom(num(screen.inner_width), num(screen.outer_width)),
  };
}
