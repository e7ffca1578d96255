import { startXvfb, type VirtualDisplay } from './desktop.ts';
import { type RunningServer, startServer } from './server.ts';

/** The Xvfb screen of the desktop suites, and the chromium window they open on it. */
export const SCREEN = { width: 1280, height: 1024 };
export const WINDOW = { width: 1280, height: 1000 };

/** A decision as the decisions list returns it: the fields the desktop suites read. */
export interface DecisionSummary {
  id: string;
  classification: string;
  riskScore: number;
  action: string;
  eventType: string;
  accountId: string | null;
  signals: Array<{ rule: string; score: number; description?: string }>;
}

export interface DesktopScene {
  server: RunningServer;
  display: VirtualDisplay;
  /** The demo owner's dashboard API token. */
  accessToken: string;
}

/** A fresh server and an Xvfb display of SCREEN's size, with the demo owner signed in to the API. */
export async function startDesktopScene(): Promise<DesktopScene> {
  const [server, display] = await Promise.all([startServer(), startXvfb(SCREEN.width, SCREEN.height)]);
  try {
    const res = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: server.demo.email, password: server.demo.password }),
    });
    const accessToken = ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
    return { server, display, accessToken };
  } catch (err) {
    await Promise.all([display.stop(), server.stop()]);
    throw err;
  }
}
