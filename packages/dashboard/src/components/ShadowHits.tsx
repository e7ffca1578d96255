import { formatSigned } from '../lib/format.ts';
import { href } from '../lib/router.ts';
import type { ShadowHit } from '../lib/shadow-hits.ts';
import { Link } from './Link.tsx';
import { Pill } from './Pill.tsx';

/**
 * Shadow rules that matched this decision: recorded, but they changed nothing (not in the score
 * or the action). Each links to the rules list.
 */
export function ShadowHits({ hits }: { hits: ShadowHit[] }) {
  if (hits.length === 0) return null;
  return (
    <div className="shadow-hits" data-testid="shadow-hits">
      <h3>Shadow rules that matched</h3>
      <p className="muted">Recorded only: they did not change the score or the action.</p>
      <ul>
        {hits.map((h) => (
          <li key={h.rule}>
            <Link href={href('rules')}>
              <code>{h.rule}</code>
            </Link>{' '}
            would add {formatSigned(h.score)}
            {h.action ? (
              <>
                {' '}
                and force <Pill value={h.action} />
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
