import { describe, expect, it } from 'vitest';
import { pairDatabasePath, resolveConfigDir } from './config-dir.ts';

const linux = { platform: 'linux' as const, env: {}, home: '/home/ada' };

describe('resolveConfigDir', () => {
  it('takes the flag over the environment, and the environment over the default', () => {
    expect(resolveConfigDir('/flag', { ...linux, env: { CLOUDVAULT_CONFIG_DIR: '/env' } })).toBe('/flag');
    expect(resolveConfigDir(undefined, { ...linux, env: { CLOUDVAULT_CONFIG_DIR: '/env' } })).toBe('/env');
  });

  it("answers each platform's per-user folder", () => {
    expect(resolveConfigDir(undefined, linux)).toBe('/home/ada/.config/cloudvault');
    expect(resolveConfigDir(undefined, { ...linux, env: { XDG_CONFIG_HOME: '/xdg' } })).toBe('/xdg/cloudvault');
    expect(resolveConfigDir(undefined, { ...linux, platform: 'darwin' })).toBe('/home/ada/Library/Application Support/CloudVault');
    expect(
      resolveConfigDir(undefined, { platform: 'win32', env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, home: 'C:\\Users\\ada' }),
    ).toBe('C:\\Users\\ada\\AppData\\Roaming\\CloudVault');
  });
});

describe('pairDatabasePath', () => {
  it('maps a pair to one file, and another pair to another', () => {
    const pair = { server: 'https://drive.example', email: 'ada@example.com', localDir: '/home/ada/Drive', remotePath: '/' };
    const file = pairDatabasePath('/cfg', pair);
    expect(file).toMatch(/^\/cfg\/pairs\/[0-9a-f]{16}\.sqlite$/);
    expect(pairDatabasePath('/cfg', { ...pair })).toBe(file);
    expect(pairDatabasePath('/cfg', { ...pair, remotePath: '/Work' })).not.toBe(file);
  });
});
