/**
 * Chooses a controller's {@link DriveSource} once, from the configured `drivingServiceMode`: the
 * one place a mode decides which code runs on the client.
 */
import type { DriveSource, DriveSourceContext } from './drive-source.js';
import { IngressSource } from './ingress-source.js';
import { LocalSource } from './local-source.js';
import { RelaySource } from './relay-source.js';

/** The source for `context.config.mode`: SDK → {@link IngressSource}, local → {@link LocalSource}, Host → {@link RelaySource}. */
export function createDriveSource(context: DriveSourceContext): DriveSource {
  switch (context.config.mode) {
    case 'sdk':
      return new IngressSource(context);
    case 'local':
      return new LocalSource(context);
    case 'host':
      return new RelaySource();
  }
}
