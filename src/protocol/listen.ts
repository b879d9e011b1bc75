/** `subscriptions/listen` (2026-07-28): the filter of notifications wanted, and what a stream carries. */
import type { JsonObject } from './jsonrpc';

/** The `notifications` filter of `subscriptions/listen` (the client emulates it on legacy). */
export type ListenFilter = {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
};

/** A change notification a listen stream delivers. */
export type ChangeNotification = {
  method:
    | 'notifications/tools/list_changed'
    | 'notifications/prompts/list_changed'
    | 'notifications/resources/list_changed'
    | 'notifications/resources/updated'
    | (string & {});
  params?: JsonObject;
};
