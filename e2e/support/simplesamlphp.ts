import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateIdpKeys, type IdpKeys } from '../../packages/server/src/testing/saml-idp.ts';
import { freePort } from './server.ts';

/**
 * A real SAML identity provider for end-to-end tests: SimpleSAMLphp 1.19 from Debian's packages
 * (`apt-get install simplesamlphp php-cli php-xml php-mbstring`, as .ci/run does), served by PHP's built-in
 * web server on loopback, with its own configuration in a temporary folder
 * (SIMPLESAMLPHP_CONFIG_DIR). One user, `alice` / `secret`, with a `mail` attribute; the NameID is
 * her e-mail address (`simplesaml.nameidattribute`), as docs/sso.md tells SimpleSAMLphp admins.
 */

export const SIMPLESAMLPHP_WWW = process.env.WARDEN_SIMPLESAMLPHP_WWW ?? '/usr/share/simplesamlphp/www';
export const PHP = process.env.WARDEN_PHP ?? '/usr/bin/php';
const INSTALL = 'apt-get install -y simplesamlphp php-cli php-xml php-mbstring';

function phpHasDom(): boolean {
  try {
    return execFileSync(PHP, ['-m'], { encoding: 'utf8' }).split('\n').includes('dom');
  } catch {
    return false;
  }
}

/**
 * Whether SimpleSAMLphp and PHP (with its XML extension) are installed. In CI (CI=true) anything
 * missing is a failure, never a skip; elsewhere the suite says clearly that it did not run.
 */
export function simpleSamlPhpAvailable(): boolean {
  const missing = [
    fs.existsSync(PHP) ? null : PHP,
    fs.existsSync(path.join(SIMPLESAMLPHP_WWW, 'saml2/idp/SSOService.php')) ? null : SIMPLESAMLPHP_WWW,
    fs.existsSync(PHP) && !phpHasDom() ? 'the PHP dom extension (php-xml)' : null,
  ].filter((m): m is string => m !== null);
  if (missing.length === 0) return true;
  const message = `SimpleSAMLphp suite: ${missing.join(', ')} missing (${INSTALL})`;
  if (process.env.CI === 'true') throw new Error(`[warden e2e] ${message}; .ci/run must install it.`);
  console.warn(`[warden e2e] NOT RUN: ${message}.`);
  return false;
}

export interface SpRegistration {
  entityId: string;
  acsUrl: string;
}

/** Which key the IdP signs with, and which certificates its metadata lists. */
export type KeyStage =
  /** Signs with the old key and announces the new one (listed first). */
  | 'rollover-announced'
  /** The rollover done: signs with the new key, lists only the new certificate. */
  | 'rolled-over'
  /** Signs with a key nobody was told about. */
  | 'foreign-key';

export interface SimpleSamlPhp {
  baseUrl: string;
  entityId: string;
  metadataUrl: string;
  ssoUrl: string;
  keys: { old: IdpKeys; next: IdpKeys; foreign: IdpKeys };
  user: { username: string; password: string; email: string };
  setKeys(stage: KeyStage): void;
  /** Register Warden as a service provider (saml20-sp-remote.php). */
  trust(sp: SpRegistration): void;
  metadataXml(): Promise<string>;
  output(): string;
  stop(): Promise<void>;
}

const php = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export async function startSimpleSamlPhp(): Promise<SimpleSamlPhp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-simplesamlphp-'));
  for (const sub of ['cert', 'metadata', 'log', 'data', 'tmp', 'sessions']) fs.mkdirSync(path.join(dir, sub));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const keys = {
    old: await generateIdpKeys('SimpleSAMLphp old key'),
    next: await generateIdpKeys('SimpleSAMLphp new key'),
    foreign: await generateIdpKeys('SimpleSAMLphp unknown key'),
  };
  for (const [name, k] of Object.entries(keys)) {
    fs.writeFileSync(path.join(dir, 'cert', `${name}.pem`), k.privateKey, { mode: 0o600 });
    fs.writeFileSync(path.join(dir, 'cert', `${name}.crt`), k.certificate);
  }
  const user = { username: 'alice', password: 'secret', email: 'alice@example.test' };
  const secret = () => Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
  fs.writeFileSync(
    path.join(dir, 'config.php'),
    `<?php
$config = [
  'baseurlpath' => ${php(`${baseUrl}/`)},
  'certdir' => ${php(`${dir}/cert/`)},
  'loggingdir' => ${php(`${dir}/log/`)},
  'datadir' => ${php(`${dir}/data/`)},
  'tempdir' => ${php(`${dir}/tmp`)},
  'metadatadir' => ${php(`${dir}/metadata/`)},
  'secretsalt' => ${php(secret())},
  'auth.adminpassword' => ${php(secret())},
  'admin.protectindexpage' => false,
  'admin.protectmetadata' => false,
  'technicalcontact_name' => 'Warden tests',
  'technicalcontact_email' => 'na@example.org',
  'timezone' => 'UTC',
  'logging.level' => SimpleSAML\\Logger::NOTICE,
  'logging.handler' => 'errorlog',
  'enable.saml20-idp' => true,
  'module.enable' => ['exampleauth' => true, 'core' => true, 'saml' => true],
  'store.type' => 'phpsession',
  'session.cookie.secure' => false,
  'session.phpsession.savepath' => ${php(`${dir}/sessions`)},
  'language.default' => 'en',
  'metadata.sources' => [['type' => 'flatfile']],
];
`,
  );
  fs.writeFileSync(
    path.join(dir, 'authsources.php'),
    `<?php
$config = [
  'admin' => ['core:AdminPassword'],
  'example-userpass' => [
    'exampleauth:UserPass',
    ${php(`${user.username}:${user.password}`)} => ['uid' => [${php(user.username)}], 'mail' => [${php(user.email)}], 'displayName' => ['Alice Example']],
  ],
];
`,
  );
  const setKeys = (stage: KeyStage) => {
    const signing =
      stage === 'rollover-announced'
        ? "'privatekey' => 'old.pem', 'certificate' => 'old.crt', 'new_privatekey' => 'next.pem', 'new_certificate' => 'next.crt',"
        : stage === 'rolled-over'
          ? "'privatekey' => 'next.pem', 'certificate' => 'next.crt',"
          : "'privatekey' => 'foreign.pem', 'certificate' => 'foreign.crt',";
    fs.writeFileSync(
      path.join(dir, 'metadata/saml20-idp-hosted.php'),
      `<?php
$metadata['__DYNAMIC:1__'] = ['host' => '__DEFAULT__', 'auth' => 'example-userpass', ${signing}];
`,
    );
  };
  setKeys('rollover-announced');
  fs.writeFileSync(path.join(dir, 'metadata/saml20-sp-remote.php'), '<?php\n');

  let output = '';
  // No opcache: PHP's built-in server caches compiled files (Debian: opcache.enable On,
  // revalidate_freq 2 s), so a key change written within 2 s of the last sign-in could be served
  // stale, and the IdP would sign with the previous key.
  const args = ['-d', 'opcache.enable=0', '-S', `127.0.0.1:${port}`, '-t', SIMPLESAMLPHP_WWW];
  const child: ChildProcess = spawn(PHP, args, {
    env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => {
    output += String(d);
  });
  child.stderr?.on('data', (d) => {
    output += String(d);
  });
  const metadataUrl = `${baseUrl}/saml2/idp/metadata.php`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const ok = await fetch(metadataUrl)
      .then((r) => r.ok && (r.headers.get('content-type') ?? '').includes('xml'))
      .catch(() => false);
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`SimpleSAMLphp did not come up on ${baseUrl}:\n${output.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    baseUrl,
    entityId: metadataUrl,
    metadataUrl,
    ssoUrl: `${baseUrl}/saml2/idp/SSOService.php`,
    keys,
    user,
    setKeys,
    trust(sp) {
      fs.writeFileSync(
        path.join(dir, 'metadata/saml20-sp-remote.php'),
        `<?php
$metadata[${php(sp.entityId)}] = [
  'AssertionConsumerService' => ${php(sp.acsUrl)},
  'NameIDFormat' => 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'simplesaml.nameidattribute' => 'mail',
];
`,
      );
    },
    async metadataXml() {
      const res = await fetch(metadataUrl);
      if (!res.ok) throw new Error(`SimpleSAMLphp metadata: HTTP ${res.status}`);
      return res.text();
    },
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
