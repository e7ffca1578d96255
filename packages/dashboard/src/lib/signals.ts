/**
 * Signal bars of a decision (SPEC §2): risk_score = clamp(round(Σ signal.score), 0, 100). Each
 * signal is drawn as a bar that starts where the previous one ended (a waterfall), so the bars
 * visibly add up to the sum, which is then clamped to the score.
 */
export interface SignalInput {
  rule: string;
  score: number;
  description: string;
}

export interface SignalBar extends SignalInput {
  /** Running sum before and after this signal. */
  from: number;
  to: number;
  /** Left edge and width in percent of the chart's width. */
  left: number;
  width: number;
}

export interface SignalChart {
  bars: SignalBar[];
  sum: number;
  clamped: number;
  /** The chart's domain: always covers 0..100 and every running sum. */
  min: number;
  max: number;
  /** Percent positions of 0 and 100 on the chart. */
  zeroAt: number;
  hundredAt: number;
}

export function clampScore(sum: number): number {
  return Math.min(100, Math.max(0, Math.round(sum)));
}

/** Sum with rounding to 1e-9 so 0.1 + 0.2 shows as 0.3. */
export function signalSum(signals: readonly { score: number }[]): number {
  const sum = signals.reduce((acc, s) => acc + s.score, 0);
  return Math.round(sum * 1e9) / 1e9;
}

export function signalChart(signals: readonly SignalInput[]): SignalChart {
  let running = 0;
  let min = 0;
  let max = 100;
  const steps = signals.map((s) => {
    const from = running;
    running = Math.round((running + s.score) * 1e9) / 1e9;
    min = Math.min(min, running);
    max = Math.max(max, running);
    return { ...s, from, to: running };
  });
  const span = max - min || 1;
  const at = (v: number) => ((v - min) / span) * 100;
  const bars = steps.map((s) => {
    const lo = Math.min(s.from, s.to);
    const hi = Math.max(s.from, s.to);
    return { ...s, left: at(lo), width: at(hi) - at(lo) };
  });
  const sum = signalSum(signals);
  return { bars, sum, clamped: clampScore(sum), min, max, zeroAt: at(0), hundredAt: at(100) };
}

/** Whether the recorded score equals clamp(round(Σ)) — it always should. */
export function scoreMatches(signals: readonly { score: number }[], riskScore: number): boolean {
  return clampScore(signalSum(signals)) === riskScore;
}
