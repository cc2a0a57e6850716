import { describe, expect, it } from 'vitest';
import { frameGrabArgs, videoContainer } from './video-frame.ts';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

describe('videoContainer', () => {
  it('knows the containers by their first bytes', () => {
    expect(videoContainer(bytes([0, 0, 0, 0x20], 'ftypisom'))).toBe('mov');
    expect(videoContainer(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f]))).toBe('matroska');
    expect(videoContainer(bytes('RIFF', [1, 2, 3, 4], 'AVI LIST'))).toBe('avi');
    expect(videoContainer(bytes('OggS', [0]))).toBe('ogg');
    expect(videoContainer(bytes('FLV', [1]))).toBe('flv');
    expect(videoContainer(bytes([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6]))).toBe('asf');
    expect(videoContainer(bytes([0, 0, 1, 0xba, 0x44]))).toBe('mpeg');
    const transport = Buffer.alloc(188 * 3);
    for (const packet of [0, 1, 2]) transport[packet * 188] = 0x47;
    expect(videoContainer(transport)).toBe('mpegts');
  });

  it('refuses pictures, playlists and anything else', () => {
    expect(videoContainer(bytes([0x89], 'PNG\r\n\x1a\n'))).toBeNull();
    expect(videoContainer(bytes('#EXTM3U\n#EXTINF:1,\n/etc/passwd\n'))).toBeNull();
    expect(videoContainer(bytes('<?xml version="1.0"?><MPD>'))).toBeNull();
    expect(videoContainer(bytes("ffconcat version 1.0\nfile '/etc/passwd'\n"))).toBeNull();
    expect(videoContainer(Buffer.alloc(0))).toBeNull();
  });
});

describe('frameGrabArgs', () => {
  it('allow the file protocol and the one demuxer, and bound the frame, all before the input', () => {
    const args = frameGrabArgs({
      source: '/work/source',
      target: '/work/frame.png',
      container: 'matroska',
      at: 1,
      maxPixels: 35_389_440,
      side: 1280,
    });
    const input = args.indexOf('-i');
    const before = (flag: string) => {
      const at = args.indexOf(flag);
      expect(at, flag).toBeGreaterThanOrEqual(0);
      expect(at, flag).toBeLessThan(input);
      return args[at + 1];
    };
    expect(before('-protocol_whitelist')).toBe('file');
    expect(before('-format_whitelist')).toBe('matroska');
    expect(before('-f')).toBe('matroska');
    expect(before('-max_pixels')).toBe('35389440');
    expect(before('-threads')).toBe('1');
    expect(args[input + 1]).toBe('file:/work/source');
    expect(args.at(-1)).toBe('file:/work/frame.png');
  });
});
