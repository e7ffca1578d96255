import type { AppContext } from '../context.ts';
import { createEngine, type EngineOptions } from '../scoring/engine.ts';
import type { ScoringEngine } from '../scoring/engine-types.ts';
import { engineDeps } from '../services.ts';

/**
 * The engine as the composition root builds it (services.ts `engineDeps`) over a test's context:
 * a new one each call, with a new shared state (as a restarted process would have).
 */
export function testEngine(ctx: AppContext, options: EngineOptions = {}): ScoringEngine {
  return createEngine(engineDeps(ctx), options);
}
