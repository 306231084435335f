import { describe, expect, it } from 'vitest';
import {
  AvatarError,
  DEFAULT_REGIONS,
  ingressUrlWithAuth,
  isRegion,
  REGIONS,
  resolveEndpoints,
} from '../src/index.js';

function invalid(fn: () => unknown, pattern: RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(AvatarError);
  expect((caught as AvatarError).code).toBe('invalidRequest');
  expect((caught as AvatarError).message).toMatch(pattern);
}

describe('DEFAULT_REGIONS', () => {
  it('has the embedded self-hosted defaults', () => {
    expect(REGIONS).toEqual(['ap-northeast', 'us-west']);
    expect(REGIONS.every(isRegion)).toBe(true);
    expect(isRegion('eu-west')).toBe(false);
    expect(DEFAULT_REGIONS['ap-northeast']).toEqual({
      consoleUrl: 'http://127.0.0.1:8710',
      ingressUrl: 'ws://127.0.0.1:8710/v2/driveningress',
    });
    expect(DEFAULT_REGIONS['us-west']).toEqual({
      consoleUrl: 'http://127.0.0.1:8720',
      ingressUrl: 'ws://127.0.0.1:8720/v2/driveningress',
    });
  });
});

describe('resolveEndpoints', () => {
  it('defaults to ap-northeast with us-west as backup', () => {
    expect(resolveEndpoints()).toEqual([
      { region: 'ap-northeast', ...DEFAULT_REGIONS['ap-northeast'] },
      { region: 'us-west', ...DEFAULT_REGIONS['us-west'] },
    ]);
  });

  it('takes the other region as the default backup', () => {
    expect(resolveEndpoints({ region: 'us-west' }).map((e) => e.region)).toEqual(['us-west', 'ap-northeast']);
  });

  it('honours an explicit backup and backupRegion: null', () => {
    expect(resolveEndpoints({ region: 'us-west', backupRegion: null }).map((e) => e.region)).toEqual([
      'us-west',
    ]);
    const regions = {
      eu: { consoleUrl: 'https://eu.example.com', ingressUrl: 'wss://eu.example.com/v2/driveningress' },
    };
    expect(resolveEndpoints({ region: 'us-west', backupRegion: 'eu', regions })).toEqual([
      { region: 'us-west', ...DEFAULT_REGIONS['us-west'] },
      { region: 'eu', ...regions.eu },
    ]);
  });

  it('uses a custom region map that overrides the defaults', () => {
    const regions = {
      'us-west': {
        consoleUrl: 'https://usw.example.com',
        ingressUrl: 'wss://usw.example.com/v2/driveningress',
      },
    };
    const [primary, backup] = resolveEndpoints({ region: 'us-west', regions });
    expect(primary).toEqual({ region: 'us-west', ...regions['us-west'] });
    expect(backup?.region).toBe('ap-northeast');
    // A custom-only region has no implicit backup.
    const custom = { mine: regions['us-west'] };
    expect(resolveEndpoints({ region: 'mine', regions: custom })).toHaveLength(1);
  });

  it('lets explicit URLs win, deriving a missing one', () => {
    expect(
      resolveEndpoints({
        region: 'us-west',
        endpoints: {
          consoleUrl: 'https://api.example.com',
          ingressUrl: 'wss://rt.example.com/v2/driveningress',
        },
      }),
    ).toEqual([
      {
        region: 'custom',
        consoleUrl: 'https://api.example.com',
        ingressUrl: 'wss://rt.example.com/v2/driveningress',
      },
    ]);
    expect(resolveEndpoints({ endpoints: { consoleUrl: 'https://api.example.com:8443/base' } })[0]).toEqual({
      region: 'custom',
      consoleUrl: 'https://api.example.com:8443/base',
      ingressUrl: 'wss://api.example.com:8443/v2/driveningress',
    });
    expect(
      resolveEndpoints({ endpoints: { ingressUrl: 'ws://127.0.0.1:9000/v2/driveningress' } })[0]?.consoleUrl,
    ).toBe('http://127.0.0.1:9000');
    expect(
      resolveEndpoints({ endpoints: { consoleUrl: 'http://h:1' }, backupRegion: 'us-west' }).map(
        (e) => e.region,
      ),
    ).toEqual(['custom', 'us-west']);
  });

  it('rejects bad input with invalidRequest and a hint', () => {
    invalid(
      () => resolveEndpoints({ region: 'eu-central' }),
      /Unknown region "eu-central".*ap-northeast, us-west/,
    );
    invalid(() => resolveEndpoints({ backupRegion: 'mars' }), /Unknown backupRegion/);
    invalid(() => resolveEndpoints({ region: 'us-west', backupRegion: 'us-west' }), /same as region/);
    invalid(() => resolveEndpoints({ endpoints: {} }), /endpoints.*empty/);
    invalid(
      () => resolveEndpoints({ endpoints: { consoleUrl: 'ws://x', ingressUrl: 'ws://x' } }),
      /consoleUrl.*http/,
    );
    invalid(() => resolveEndpoints({ endpoints: { ingressUrl: 'https://x/v2' } }), /ingressUrl.*ws or wss/);
    invalid(() => resolveEndpoints({ endpoints: { consoleUrl: 'not a url' } }), /absolute/);
    invalid(
      () => resolveEndpoints({ region: 'x', regions: { x: { consoleUrl: 'http://ok', ingressUrl: '' } } }),
      /regions\["x"\]\.ingressUrl/,
    );
    invalid(() => resolveEndpoints(null as never), /must be an object/);
    invalid(() => resolveEndpoints({ region: 'toString' }), /Unknown region/);
  });
});

describe('ingressUrlWithAuth', () => {
  const auth = { avatarId: 'av 1', appId: 'app&x', sessionKey: 'tok=en' };

  it('builds the browser query form with encoding', () => {
    expect(ingressUrlWithAuth('ws://127.0.0.1:8710/v2/driveningress', auth)).toBe(
      'ws://127.0.0.1:8710/v2/driveningress?id=av%201&appId=app%26x&sessionKey=tok%3Den',
    );
  });

  it('keeps other parameters and replaces stale auth ones', () => {
    expect(ingressUrlWithAuth('wss://h/v2/driveningress?trace=1&sessionKey=old#frag', auth)).toBe(
      'wss://h/v2/driveningress?trace=1&id=av%201&appId=app%26x&sessionKey=tok%3Den',
    );
  });

  it('rejects a non-ws URL or a missing field', () => {
    invalid(() => ingressUrlWithAuth('http://h/v2/driveningress', auth), /ws or wss/);
    invalid(() => ingressUrlWithAuth('ws://h/v2', { ...auth, sessionKey: '' }), /sessionKey is required/);
    invalid(
      () => ingressUrlWithAuth('ws://h/v2', { ...auth, appId: undefined as never }),
      /appId is required/,
    );
  });
});
