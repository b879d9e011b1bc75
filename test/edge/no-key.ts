/**
 * An edge app without `requestStateKey`: under workerd it must fail as the Worker loads, naming the
 * option, since every isolate would otherwise seal with a key of its own (test/e2e/edge/runtimes.test.ts).
 */
import 'reflect-metadata';
import { createFetchHandler, McpApplication, Tool } from 'onemodelcontext/web';

class Clock {
  @Tool({ description: 'The server time, ISO 8601' })
  now() {
    return new Date().toISOString();
  }
}

const app = McpApplication.create({ name: 'no-key', version: '1.0.0', providers: [Clock] });

export default { fetch: createFetchHandler(app) };
