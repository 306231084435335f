import { describe, expect, it } from 'vitest';
import { Environment, endpointOptionsForEnvironment, isEnvironment, resolveEndpoints } from '../src/index.js';

describe('environment', () => {
  it('intl maps to ap-northeast with us-west as backup', () => {
    const [primary, backup] = resolveEndpoints(endpointOptionsForEnvironment(Environment.intl));
    expect(primary!.region).toBe('ap-northeast');
    expect(backup!.region).toBe('us-west');
    expect(primary!.ingressUrl).toMatch(/\/v2\/driveningress$/);
  });

  it('a region environment pins the primary; explicit options win', () => {
    expect(resolveEndpoints(endpointOptionsForEnvironment('us-west')).map((e) => e.region)).toEqual([
      'us-west',
      'ap-northeast',
    ]);
    expect(
      resolveEndpoints(endpointOptionsForEnvironment('intl', { region: 'us-west' })).map((e) => e.region),
    ).toEqual(['us-west', 'ap-northeast']);
    expect(
      resolveEndpoints(endpointOptionsForEnvironment('intl', { backupRegion: null })).map((e) => e.region),
    ).toEqual(['ap-northeast']);
  });

  it('an unknown environment is an invalidRequest naming the values', () => {
    expect(isEnvironment('prod')).toBe(false);
    expect(() => endpointOptionsForEnvironment('prod')).toThrow(/Unknown environment "prod".*intl/);
  });
});
