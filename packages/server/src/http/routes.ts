import type { AppContext } from '../context.ts';
import type { App } from './types.ts';

/** Every area's routes, each in its own encapsulated plugin. */
export async function registerRoutes(app: App, ctx: AppContext): Promise<void> {
  const areas: Array<(scope: App, ctx: AppContext) => Promise<void>> = [];
  for (const area of areas) await app.register(async (scope) => area(scope, ctx));
}
