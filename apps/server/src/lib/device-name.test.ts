import { describe, expect, it } from 'vitest';
import { deviceName } from './device-name.ts';

describe('deviceName', () => {
  it('names common browsers and systems', () => {
    expect(deviceName('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36')).toBe(
      'Chrome on Linux',
    );
    expect(
      deviceName('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0'),
    ).toBe('Edge on Windows');
    expect(
      deviceName(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari on iOS');
    expect(deviceName('Mozilla/5.0 (Macintosh; Intel Mac OS X 14.0; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe('Firefox on macOS');
    expect(deviceName('curl/8.5.0')).toBe('curl');
    expect(deviceName(undefined)).toBe('Unknown device');
    expect(deviceName('something else')).toBe('Unknown device');
  });

  it('names the WebDAV clients people use', () => {
    expect(deviceName('rclone/v1.60.1')).toBe('rclone');
    expect(deviceName('Microsoft-WebDAV-MiniRedir/10.0.19045')).toBe('Windows Explorer');
    expect(deviceName('WebDAVFS/3.0.0 (03008000) Darwin/22.1.0 (x86_64)')).toBe('Finder');
    expect(deviceName('davfs2/1.7.0 neon/0.32.5')).toBe('davfs2');
  });
});
