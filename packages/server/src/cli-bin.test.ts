import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BIN, type Run } from './testing/warden-bin.ts';

describe('the built warden binary', () => {
  const exec = promisify(execFile);
  const runBin = async (args: string[]): Promise<Run> => {
    try {
      const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], {
        env: { ...process.env, WARDEN_LOG_LEVEL: 'silent' },
      });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const failed = err as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
  const manifest = JSON.parse(fs.readFileSync(path.join(path.dirname(BIN), '../package.json'), 'utf8'));

  it('prints its version', { timeout: 60_000 }, async () => {
    for (const flag of ['--version', '-v']) {
      expect(await runBin([flag])).toEqual({ code: 0, stdout: `warden ${manifest.version}\n`, stderr: '' });
    }
  });

  it('prints help for every command, with its flags and only the setting flags it takes', {
    timeout: 120_000,
  }, async () => {
    const commands: Array<[string[], string[]]> = [
      [['serve'], ['--seed-demo [true|false]', '--metrics-port VALUE', '--metrics-token VALUE']],
      [['migrate'], []],
      [['init'], ['--email E', '--password P', '--password-stdin', '--plan PLAN', '--origin O']],
      [
        ['user', 'add'],
        ['--workspace W', '--email E', '--password P', '--password-stdin', '--role ROLE'],
      ],
      [['workspace', 'plan'], []],
      [
        ['site', 'create'],
        ['--workspace W', '--name N', '--origin O'],
      ],
    ];
    const runs = await Promise.all(commands.map(([words]) => runBin([...words, '--help'])));
    for (const [i, [words, flags]] of commands.entries()) {
      const res = runs[i]!;
      expect(res.code, words.join(' ')).toBe(0);
      expect(res.stderr).toBe('');
      expect(res.stdout).toMatch(new RegExp(`^Usage: warden ${words.join(' ')}`));
      for (const flag of [...flags, '-h, --help', '--data-dir VALUE', '--database-url VALUE']) {
        expect(res.stdout, `${words.join(' ')} ${flag}`).toContain(flag);
      }
      if (words[0] !== 'serve') {
        for (const serverFlag of ['--metrics-port', '--seed-demo', '--port', '--workers'])
          expect(res.stdout, `${words.join(' ')} ${serverFlag}`).not.toContain(serverFlag);
      }
    }
    const top = await runBin(['--help']);
    expect(top.code).toBe(0);
    for (const words of commands.map(([w]) => w)) expect(top.stdout).toContain(`warden ${words.join(' ')}`);
  });

  it('refuses an unknown flag or command with a clear message and exit code 2', {
    timeout: 60_000,
  }, async () => {
    const [flag, command, none] = await Promise.all([
      runBin(['site', 'create', '--workspace', 'w', '--name', 'n', '--colour', 'red']),
      runBin(['sites']),
      runBin([]),
    ]);
    expect(flag).toEqual({
      code: 2,
      stdout: '',
      stderr: 'warden site: unknown flag --colour (warden site --help lists the flags)\n',
    });
    expect(command.code).toBe(2);
    expect(command.stdout).toBe('');
    expect(command.stderr).toMatch(/^warden: unknown command "sites"/);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^Usage: warden <command>/);
  });
});
