import type { Signal } from '../api/types.ts';
import { formatNumber, formatSigned } from '../lib/format.ts';
import { signalChart } from '../lib/signals.ts';

/**
 * Every signal as a bar that starts where the previous one ended, so the bars add up to Σ; the
 * risk score is Σ rounded and clamped to 0..100 (SPEC §2).
 */
export function SignalBars({ signals, riskScore }: { signals: Signal[]; riskScore: number }) {
  const chart = signalChart(signals);
  const clampedNote = chart.clamped !== chart.sum ? ` → clamped to ${formatNumber(chart.clamped)}` : '';
  return (
    <div className="signal-bars">
      <table className="table signals-table">
        <thead>
          <tr>
            <th scope="col">Signal</th>
            <th scope="col" className="bar-col">
              Contribution
            </th>
            <th scope="col" className="num">
              Score
            </th>
          </tr>
        </thead>
        <tbody>
          {chart.bars.map((bar) => (
            <tr key={`${bar.rule}:${bar.from}:${bar.to}`} data-testid="signal-row">
              <th scope="row">
                <code className="signal-name">{bar.rule}</code>
                <span className="signal-description">{bar.description}</span>
              </th>
              <td className="bar-col">
                <div className="bar-track" aria-hidden="true">
                  <span className="bar-zero" style={{ left: `${chart.zeroAt}%` }} />
                  <span className="bar-hundred" style={{ left: `${chart.hundredAt}%` }} />
                  <span
                    className={`bar ${bar.score < 0 ? 'bar-negative' : 'bar-positive'}`}
                    style={{ left: `${bar.left}%`, width: `${Math.max(bar.width, 0.4)}%` }}
                  />
                </div>
              </td>
              <td className="num" data-testid="signal-score" data-score={bar.score}>
                {formatSigned(bar.score)}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Σ signals{clampedNote}</th>
            <td className="bar-col">
              <div className="bar-track" aria-hidden="true">
                <span className="bar-zero" style={{ left: `${chart.zeroAt}%` }} />
                <span className="bar-hundred" style={{ left: `${chart.hundredAt}%` }} />
                <span
                  className="bar bar-total"
                  style={{
                    left: `${chart.zeroAt}%`,
                    width: `${(chart.hundredAt - chart.zeroAt) * (chart.clamped / 100)}%`,
                  }}
                />
              </div>
            </td>
            <td className="num">
              <span data-testid="signal-sum" data-sum={chart.sum}>
                {formatNumber(chart.sum, 2)}
              </span>
            </td>
          </tr>
          <tr>
            <th scope="row">Risk score = clamp(round(Σ), 0, 100)</th>
            <td />
            <td className="num">
              <strong data-testid="risk-score" data-score={riskScore}>
                {formatNumber(riskScore)}
              </strong>
            </td>
          </tr>
        </tfoot>
      </table>
      {chart.clamped !== riskScore ? (
        <p className="status status-error" role="alert">
          The recorded score ({formatNumber(riskScore)}) differs from clamp(round(Σ)) ={' '}
          {formatNumber(chart.clamped)}.
        </p>
      ) : null}
    </div>
  );
}
