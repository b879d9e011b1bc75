/**
 * `onemodelcontext/redis`: shared stores for a fleet of instances. Not imported by the main entry;
 * `redis` (node-redis) is an optional peer dependency, needed only by apps that import this.
 */
export { connectRedis, RedisConnection, REDIS_DEFAULTS, type RedisConnectOptions } from './connection';
export { RedisUnavailableError } from './errors';
export { RedisFlowStore } from './redis-flow-store';
export { RedisApprovalStore } from './redis-approval-store';
export { RedisSingleUseStore } from './redis-single-use-store';
export { RedisTaskStore } from './redis-task-store';
export { RedisLeaseCounter } from './redis-lease-counter';
export { RedisTokenBucket } from './redis-token-bucket';
export { RedisNotificationBus } from './redis-notification-bus';
export { RedisEventStore, type RedisEventStoreOptions } from './redis-event-store';
export { RedisModule, RedisModuleOptions, REDIS_OPTIONS, redisStores } from './redis-module';
