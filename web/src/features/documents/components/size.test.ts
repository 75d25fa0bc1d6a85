import { describe, expect, it } from 'vitest';
import { formatSize } from './size.js';

describe('formatSize', () => {
  it('reads bytes, kilobytes and megabytes as people say them', () => {
    expect(formatSize(820)).toBe('820 B');
    expect(formatSize(340 * 1024)).toBe('340 KB');
    expect(formatSize(1.25 * 1024 * 1024)).toBe('1.3 MB');
    expect(formatSize(25 * 1024 * 1024)).toBe('25 MB');
  });
});
