/**
 * Issue 32, MCP Apps on the wire: `@Tool({ ui })` over real HTTP to the official clients. The
 * tool's `_meta.ui` and the `ui://` resource's `_meta.ui` conform to the official ext-apps JSON
 * Schema; the app is `text/html;profile=mcp-app`; a guarded tool's app is hidden (listing and read)
 * from a caller its guards refuse; bad `ui` options fail start-up.
 */
import Ajv2020 from 'ajv/dist/2020';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ContextServerModule,
  McpApplication,
  Tool,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '../../../src';
import { silentLogger } from '../../../src/server/core/server-logger';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';
import { trackProcessFaults } from '../../helpers/http-fixtures';


const schema = require('@modelcontextprotocol/ext-apps/schema.json') as { $defs: Record<string, object> };
const ajv = new Ajv2020({ strict: false });
const conforms = (def: string, value: unknown) => {
  const validate = ajv.compile({ ...schema.$defs[def], $defs: schema.$defs });
  return validate(value) ? [] : validate.errors;
};

const HTML = '<!doctype html><html><body><p id="app">weather</p></body></html>';

class StaffOnly implements CanActivate {
  canActivate(ctx: ExecutionContext) {
    return ctx.principal?.id === 'staff';
  }
}

class WeatherTools {
  @Tool({
    description: 'Show the forecast',
    ui: {
      html: HTML,
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
      permissions: { geolocation: {} },
      prefersBorder: false,
    },
  })
  forecast() {
    return 'sunny';
  }

  @Tool({ description: 'Refresh the forecast (the app only)', ui: { uri: 'ui://forecast/app.html', visibility: ['app'] } })
  refresh_forecast() {
    return 'refreshed';
  }

  @Tool({ description: 'Staff dashboard', ui: { html: '<p>staff</p>' } })
  @UseGuards(StaffOnly)
  dashboard() {
    return 'ok';
  }
}

let server: HttpServerHandle;
const faults = trackProcessFaults();

beforeAll(async () => {
  const app = McpApplication.create({
    name: 'apps-e2e',
    version: '1.0.0',
    providers: [WeatherTools],
    modules: [
      ContextServerModule.configure({
        logger: silentLogger,
        authenticate: ({ headers }) => {
          const name = String(headers?.authorization ?? '').replace(/^Bearer /, '');
          return name ? { id: name } : undefined;
        },
      }),
    ],
  });
  server = await serveHttp(app, { port: 0 });
});
afterAll(async () => {
  await server.close({ deadlineMs: 2000 });
  faults.stop();
  expect(faults.faults).toEqual([]);
});

const pin = '2026-07-28' as const;
const bearer = (user: string) => ({ requestInit: { headers: { authorization: `Bearer ${user}` } } });

async function modern(user: string): Promise<ModernClient> {
  const client = new ModernClient({ name: 'v2-apps', version: '1.0.0' }, { versionNegotiation: { mode: { pin } } });
  await client.connect(new ModernTransport(new URL(server.url), bearer(user)));
  return client;
}

describe('official v2 client (2026-07-28)', () => {
  let client: ModernClient;
  beforeAll(async () => {
    client = await modern('guest');
  });
  afterAll(() => client.close());

  test('tools link their app in _meta.ui, as the ext-apps schema defines it', async () => {
    const { tools } = await client.listTools();
    const forecast = tools.find((t) => t.name === 'forecast')!;
    const refresh = tools.find((t) => t.name === 'refresh_forecast')!;
    expect(forecast._meta).toEqual({ ui: { resourceUri: 'ui://forecast/app.html' }, 'ui/resourceUri': 'ui://forecast/app.html' });
    expect(refresh._meta?.ui).toEqual({ resourceUri: 'ui://forecast/app.html', visibility: ['app'] });
    expect(conforms('McpUiToolMeta', forecast._meta?.ui)).toEqual([]);
    expect(conforms('McpUiToolMeta', refresh._meta?.ui)).toEqual([]);
    // The guarded tool, and so its app, is not this caller's to see.
    expect(tools.map((t) => t.name)).not.toContain('dashboard');
  });

  test('the app is a text/html;profile=mcp-app resource carrying its CSP and permissions', async () => {
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      expect.objectContaining({ uri: 'ui://forecast/app.html', mimeType: 'text/html;profile=mcp-app', name: 'forecast-app' }),
    ]);
    const read = await client.readResource({ uri: 'ui://forecast/app.html' });
    const content = read.contents[0] as unknown as { text: string; mimeType: string; _meta: { ui: unknown } };
    expect(content).toMatchObject({ uri: 'ui://forecast/app.html', mimeType: 'text/html;profile=mcp-app', text: HTML });
    expect(content._meta.ui).toEqual({
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
      permissions: { geolocation: {} },
      prefersBorder: false,
    });
    expect(conforms('McpUiResourceMeta', content._meta.ui)).toEqual([]);
  });

  test("a ui:// read for another principal's hidden tool is refused, and the server keeps serving", async () => {
    await expect(client.readResource({ uri: 'ui://dashboard/app.html' })).rejects.toThrow(/not found/i);
    const staff = await modern('staff');
    try {
      const read = await staff.readResource({ uri: 'ui://dashboard/app.html' });
      expect((read.contents[0] as { text: string }).text).toBe('<p>staff</p>');
      expect((await staff.listTools()).tools.map((t) => t.name)).toContain('dashboard');
    } finally {
      await staff.close();
    }
    const after = await client.callTool({ name: 'forecast', arguments: {} });
    expect(after.content).toEqual([{ type: 'text', text: 'sunny' }]);
  });
});

test('official v1 client (2025-11-25) sees the same links and app', async () => {
  const client = new LegacyClient({ name: 'v1-apps', version: '1.0.0' });
  await client.connect(new LegacyTransport(new URL(server.url), bearer('guest')));
  try {
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'forecast')?._meta).toMatchObject({ ui: { resourceUri: 'ui://forecast/app.html' } });
    const read = await client.readResource({ uri: 'ui://forecast/app.html' });
    expect(read.contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app', text: HTML });
  } finally {
    await client.close();
  }
});

describe('start-up refuses bad ui options, naming the tool', () => {
  const create = (cls: Function) => () => McpApplication.create({ name: 'x', version: '1', providers: [cls] });
  test('a uri that is not ui://', () => {
    class Bad {
      @Tool({ ui: { html: '<p>', uri: 'https://example.com/app.html' } })
      t() {}
    }
    expect(create(Bad)).toThrow(/OMC_INVALID_DEFINITION.*Bad.t: @Tool ui.uri must be a ui:\/\/ URI/);
  });
  test('a link to an app no tool publishes', () => {
    class Dangling {
      @Tool({ ui: { uri: 'ui://nowhere/app.html', visibility: ['app'] } })
      t() {}
    }
    expect(create(Dangling)).toThrow(/Dangling.t: @Tool ui links ui:\/\/nowhere\/app.html, which no tool publishes/);
  });
  test('app.addTool links an app but does not publish one', () => {
    const app = McpApplication.create({ name: 'x', version: '1', providers: [WeatherTools] });
    app.addTool({ name: 'later', ui: { uri: 'ui://forecast/app.html', visibility: ['app'] }, handler: () => 'ok' });
    expect(() => app.addTool({ name: 'dangling', ui: { uri: 'ui://none/app.html' }, handler: () => 'ok' })).toThrow(
      /dangling: @Tool ui links ui:\/\/none\/app.html, which no tool publishes/,
    );
    expect(() => app.addTool({ name: 'own', ui: { html: '<p>' }, handler: () => 'ok' })).toThrow(
      /own: an app \(ui.html \/ ui.file\) is published by a decorated @Tool/,
    );
  });
  test('an unknown visibility and an unreadable file', () => {
    class Vis {
      @Tool({ ui: { html: '<p>', visibility: ['everyone' as 'app'] } })
      t() {}
    }
    expect(create(Vis)).toThrow(/ui.visibility lists who may call the tool/);
    class File {
      @Tool({ ui: { file: '/nonexistent/app.html' } })
      t() {}
    }
    expect(create(File)).toThrow(/ui.file \/nonexistent\/app.html cannot be read \(ENOENT\)/);
  });
});
