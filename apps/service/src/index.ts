/**
 * @avatar-drive/service — the driving service, as a library for tests, benches and embedding.
 * Run it with `node dist/main.js` (see README.md).
 * @packageDocumentation
 */

export { type AvatarBlobStore, type ByteRange, DiskAvatarBlobStore } from './avatars/avatar-blobs.js';
export {
  type Avatar,
  type AvatarAsset,
  AvatarCatalog,
  type AvatarProblem,
} from './avatars/avatar-catalog.js';
export { AvatarDirectory, type AvatarView } from './avatars/avatar-directory.js';
export { type PrecheckLimits, type PrecheckResult, precheckGlb } from './avatars/glb-precheck.js';
export { type ValidationSummary, validateGltf } from './avatars/gltf-validation.js';
export { resolveConfig } from './config.js';
export { generateApiKey, generateAppId, hashApiKey } from './credentials/api-keys.js';
export { type AppConfig, AppRegistry } from './credentials/app-registry.js';
export { loadOrCreateDevCredentials } from './credentials/dev-credentials.js';
export { SessionTokens } from './credentials/session-tokens.js';
export {
  type LiveKitEgressOptions,
  LiveKitEgressProvider,
  LiveKitEgressSession,
} from './egress/livekit-egress.js';
export { EgressRegistry, egressKindOf } from './egress/registry.js';
export type {
  AgoraEgressSettings,
  EgressEvents,
  EgressKind,
  EgressOpenConfig,
  EgressProvider,
  EgressSession,
  LiveKitEgressSettings,
  PlaybackSnapshot,
} from './egress/types.js';
export type {
  DriveDriver,
  DriverFactory,
  DriverOptions,
  EngineChannel,
  EnginePool,
} from './engine-pool/engine-pool.js';
export { DEFAULT_LIMITS, type ServiceLimits } from './limits.js';
export { REGIONS, type RegionId } from './regions.js';
export { type EngineOptions, type RunningService, type ServiceOptions, startService } from './service.js';
export {
  type AvatarRecords,
  DirectoryAvatarRecords,
  MemoryAvatarRecords,
  RedisAvatarRecords,
  type UploadedAvatarRecord,
} from './store/avatar-records.js';
export { MemoryStore } from './store/memory-store.js';
export { RedisStore } from './store/redis-store.js';
export { type RateLimitResult, type SharedStore, StoreUnavailableError } from './store/shared-store.js';
