/**
 * The conformance application: every fixture of the official MCP conformance suite, written with
 * the framework's own decorators and served on both eras from one set of registrations.
 */
import 'reflect-metadata';
import { ContextServerModule, McpApplication } from '../src';
import { RedisModule } from '../src/redis';
import { FleetDiagnostics } from './diagnostics/fleet-tools';
import { DynamicLists } from './diagnostics/dynamic-lists';
import { ReconnectionTool } from './diagnostics/reconnection-tool';
import { StatelessDiagnostics } from './diagnostics/stateless-tools';
import { MrtrPrompts } from './mrtr/mrtr-prompt';
import { MrtrTools } from './mrtr/mrtr-tools';
import { ConformancePrompts } from './prompts/prompts';
import { ConformanceResources } from './resources/resources';
import { AskTools } from './tools/ask-tools';
import { ContentTools } from './tools/content-tools';
import { SchemaTools } from './tools/schema-tools';
import { TaskTools } from './tasks/task-tools';
import { ConformanceSkills } from './skills/skills';

export interface ConformanceAppOptions {
  /** Key that seals requestState; an ephemeral per-process key when absent. */
  requestStateKey?: string;
  /** A fleet's shared stores (REDIS_URL); per process when absent. */
  redisUrl?: string;
}

export function createConformanceApp(options: ConformanceAppOptions = {}): McpApplication {
  const lists = new DynamicLists();
  const app = McpApplication.create({
    name: 'onemodelcontext-conformance-server',
    version: '1.0.0',
    providers: [
      { provide: DynamicLists, useValue: lists },
      ContentTools,
      AskTools,
      SchemaTools,
      TaskTools,
      MrtrTools,
      MrtrPrompts,
      StatelessDiagnostics,
      ReconnectionTool,
      FleetDiagnostics,
      ConformancePrompts,
      ConformanceResources,
      ConformanceSkills,
    ],
    modules: [
      ContextServerModule.configure(options.requestStateKey ? { requestStateKey: options.requestStateKey } : {}),
      ...(options.redisUrl ? [RedisModule.configure({ url: options.redisUrl })] : []),
    ],
  });
  lists.attach(app);
  return app;
}
