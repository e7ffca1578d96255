import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, flagsToEnv, loadConfig } from './config.ts';

describe('config', () => {
  it('has the SPEC defaults', () => {
    const c = loadConfig({});
    expect(c.host).toBe('127.0.0.1');
    expect(c.port).toBe(8080);
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.databaseUrl).toBeUndefined();
    expect(c.redisUrl).toBeUndefined();
    expect(c.unsafeWebhookTargets).toBe(false);
    expect(c.webhookBackoffBaseS).toBe(60);
    expect(c.rateLimits).toEqual({
      browserPerSecond: 100,
      serverPerSecond: 1000,
      loginPerMinuteAccount: 10,
      loginPerMinuteIp: 30,
    });
    expect(c.powFloor).toBe(14);
    expect(c.ruleTimeBudgetMs).toBe(25);
    expect(c.memoryBudgetBytes).toBe(64 * 1024 * 1024);
    expect(c.http).toEqual({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
    });
  });

  it('refuses a headers timeout longer than the request timeout', () => {
    expect(() =>
      loadConfig({ WARDEN_REQUEST_TIMEOUT_MS: '5000', WARDEN_HEADERS_TIMEOUT_MS: '6000' }),
    ).toThrow(/WARDEN_HEADERS_TIMEOUT_MS: must not exceed WARDEN_REQUEST_TIMEOUT_MS/);
  });

  it('keeps decisions 365 days and their evidence 30 by default; 0 is for ever, evidence never longer', () => {
    expect(loadConfig({}).retention).toEqual({ decisionDays: 365, evidenceDays: 30 });
    expect(
      loadConfig({ WARDEN_RETENTION_DAYS: '90', WARDEN_EVIDENCE_RETENTION_DAYS: '7' }).retention,
    ).toEqual({
      decisionDays: 90,
      evidenceDays: 7,
    });
    expect(loadConfig({}, ['--retention-days', '0', '--evidence-retention-days', '0']).retention).toEqual({
      decisionDays: null,
      evidenceDays: null,
    });
    expect(loadConfig({ WARDEN_RETENTION_DAYS: '0' }).retention).toEqual({
      decisionDays: null,
      evidenceDays: 30,
    });
    expect(loadConfig({ WARDEN_RETENTION_DAYS: '14' }).retention).toEqual({
      decisionDays: 14,
      evidenceDays: 14,
    });
    expect(() => loadConfig({ WARDEN_RETENTION_DAYS: '10', WARDEN_EVIDENCE_RETENTION_DAYS: '20' })).toThrow(
      /WARDEN_EVIDENCE_RETENTION_DAYS: must not exceed WARDEN_RETENTION_DAYS \(10\)/,
    );
    expect(() => loadConfig({ WARDEN_RETENTION_DAYS: 'a year' })).toThrow(
      /WARDEN_RETENTION_DAYS: expected a whole number/,
    );
  });

  it('reads the memory budget in MiB from WARDEN_MEMORY_MB or --memory-mb', () => {
    expect(loadConfig({ WARDEN_MEMORY_MB: '256' }).memoryBudgetBytes).toBe(256 * 1024 * 1024);
    expect(loadConfig({}, ['--memory-mb', '48']).memoryBudgetBytes).toBe(48 * 1024 * 1024);
  });

  it('runs one HTTP worker per core unless WARDEN_WORKERS or --workers says otherwise', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ WARDEN_WORKERS: '3' }).workers).toBe(3);
    expect(loadConfig({ WARDEN_WORKERS: '3' }, ['--workers', '1']).workers).toBe(1);
    expect(() => loadConfig({ WARDEN_WORKERS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({}, ['--workers', 'many'])).toThrow(ConfigError);
  });

  it('lets flags override the environment', () => {
    const c = loadConfig({ WARDEN_PORT: '9000', WARDEN_HOST: '0.0.0.0' }, [
      '--port',
      '9100',
      '--data-dir=/tmp/w',
    ]);
    expect(c.port).toBe(9100);
    expect(c.host).toBe('0.0.0.0');
    expect(c.dataDir).toBe('/tmp/w');
  });

  it('derives the public URL from host and port unless WARDEN_PUBLIC_URL / --public-url says otherwise', () => {
    expect(loadConfig({ WARDEN_PORT: '9000' }).publicUrl).toBe('http://127.0.0.1:9000');
    expect(loadConfig({ WARDEN_PUBLIC_URL: 'https://warden.example/' }).publicUrl).toBe(
      'https://warden.example',
    );
    expect(loadConfig({}, ['--public-url', 'https://a.example/fraud/']).publicUrl).toBe(
      'https://a.example/fraud',
    );
    expect(() => loadConfig({ WARDEN_PUBLIC_URL: 'ftp://a.example' })).toThrow('WARDEN_PUBLIC_URL');
    expect(() => loadConfig({ WARDEN_PUBLIC_URL: 'https://a.example/?x=1' })).toThrow('WARDEN_PUBLIC_URL');
  });

  it('reads boolean flags without a value', () => {
    expect(flagsToEnv(['--unsafe-webhook-targets'])).toEqual({ WARDEN_UNSAFE_WEBHOOK_TARGETS: '1' });
  });

  it.each([
    [{ WARDEN_PORT: 'eighty' }, 'WARDEN_PORT'],
    [{ WARDEN_PORT: '70000' }, 'WARDEN_PORT'],
    [{ WARDEN_LOG_LEVEL: 'loud' }, 'WARDEN_LOG_LEVEL'],
    [{ WARDEN_DATABASE_URL: 'mysql://x' }, 'WARDEN_DATABASE_URL'],
    [{ WARDEN_REDIS_URL: 'not a url' }, 'WARDEN_REDIS_URL'],
    [{ WARDEN_UNSAFE_WEBHOOK_TARGETS: 'maybe' }, 'WARDEN_UNSAFE_WEBHOOK_TARGETS'],
    [{ WARDEN_SECRET: 'short' }, 'WARDEN_SECRET'],
    [{ WARDEN_POW_FLOOR: '30' }, 'WARDEN_POW_FLOOR'],
    [{ WARDEN_MEMORY_MB: '8' }, 'WARDEN_MEMORY_MB'],
    [{ WARDEN_MEMORY_MB: 'lots' }, 'WARDEN_MEMORY_MB'],
  ])('names the setting in the error for %o', (env, setting) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(setting);
  });

  it('refuses unsafe webhook targets in production', () => {
    expect(() => loadConfig({ WARDEN_UNSAFE_WEBHOOK_TARGETS: '1', NODE_ENV: 'production' })).toThrow(
      /WARDEN_UNSAFE_WEBHOOK_TARGETS.*production/,
    );
    expect(loadConfig({ WARDEN_UNSAFE_WEBHOOK_TARGETS: '1' }).unsafeWebhookTargets).toBe(true);
  });

  it('rejects unknown flags', () => {
    expect(() => loadConfig({}, ['--nope'])).toThrow('unknown flag');
  });
});
