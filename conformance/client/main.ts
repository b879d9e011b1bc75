/**
 * The conformance client: `node build/conformance/client/main.js <url>`, run by the official runner
 * (`client --command … --scenario …`), which sets MCP_CONFORMANCE_SCENARIO and appends the mock
 * server's URL. One ContextClient per scenario, doing what that scenario checks.
 */
import 'reflect-metadata';
import { applyElicitationDefaults, ContextClient, type ContextClientInit } from '../../src';
import { runAuthScenario } from './auth';

type Scenario = (url: string) => Promise<void>;

const clientInfo = { name: 'onemodelcontext-conformance-client', version: '0.1.0' };
const warn = (m: string) => process.stderr.write(`[warn] ${m}\n`);

/** The runner's `--spec-version`, when it names one this client speaks; otherwise negotiate. */
function runVersion(): ContextClientInit['protocolVersion'] {
  const v = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
  return v === '2026-07-28' || v === '2025-11-25' || v === '2025-06-18' || v === '2025-03-26' ? v : 'auto';
}

function connect(url: string, options: ContextClientInit = {}): Promise<ContextClient> {
  return ContextClient.connect({ url }, { clientInfo, onWarning: warn, protocolVersion: runVersion(), ...options });
}

function context(): {
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  valid_jwt?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_token_endpoint?: string;
} {
  try {
    return JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
  } catch {
    return {};
  }
}

/**
 * A host that loads each listed skill and then reads its other files: a skill that fails
 * verification is refused (reported on stderr) and none of its files is read.
 */
async function loadEverySkill(url: string): Promise<void> {
  const client = await connect(url);
  for (const entry of await client.skills.list()) {
    try {
      const skill = await client.skills.load(entry);
      if (Array.isArray(entry.resources)) {
        for (const file of entry.resources) if (file.uri !== entry.uri) await skill.readFile(file.uri);
      }
    } catch (e) {
      warn(`refused ${entry.uri}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  await client.close();
}

const scenarios: Record<string, Scenario> = {
  async initialize(url) {
    const client = await connect(url);
    await client.listTools();
    await client.close();
  },

  async tools_call(url) {
    const client = await connect(url);
    const tools = await client.listTools();
    if (tools.some((t) => t.name === 'add_numbers')) await client.callTool('add_numbers', { a: 5, b: 3 });
    await client.close();
  },

  async 'elicitation-sep1034-client-defaults'(url) {
    const client = await connect(url, {
      // The "user" accepts without typing anything: the form's defaults fill every field.
      elicitation: (params) => ({ action: 'accept', content: applyElicitationDefaults(params.requestedSchema) }),
    });
    await client.callTool('test_client_elicitation_defaults', {});
    await client.close();
  },

  async 'sse-retry'(url) {
    const client = await connect(url);
    await client.listTools();
    await client.callTool('test_reconnection', {});
    await client.close();
  },

  async 'request-metadata'(url) {
    // auto: the first request is refused with -32022 and must be retried with a supported version.
    const client = await connect(url, {
      protocolVersion: 'auto',
      elicitation: () => ({ action: 'decline' }),
      sampling: () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'none' }),
      roots: () => [],
    });
    await client.listTools();
    await client.callTool('any_tool', {}).catch(() => undefined);
    await client.close();
  },

  async 'sep-2322-client-request-state'(url) {
    const client = await connect(url, {
      protocolVersion: '2026-07-28',
      elicitation: () => ({ action: 'accept', content: { confirmed: true } }),
    });
    await client.callTool('test_mrtr_echo_state', {});
    await client.callTool('test_mrtr_no_state', {});
    await client.callTool('test_mrtr_unrelated', {});
    await client.callTool('test_mrtr_no_result_type', {});
    await client.close();
  },

  async 'http-standard-headers'(url) {
    const client = await connect(url, { protocolVersion: '2026-07-28' });
    for (const tool of await client.listTools()) await client.callTool(tool.name, {});
    for (const resource of await client.listResources()) await client.readResource(resource.uri);
    for (const prompt of await client.listPrompts()) await client.getPrompt(prompt.name, {});
    await client.close();
  },

  async 'http-custom-headers'(url) {
    const client = await connect(url, { protocolVersion: '2026-07-28' });
    await client.listTools();
    for (const call of context().toolCalls ?? []) await client.callTool(call.name, call.arguments);
    await client.close();
  },

  async 'http-invalid-tool-headers'(url) {
    const client = await connect(url, { protocolVersion: '2026-07-28' });
    // Tools with invalid x-mcp-header declarations are dropped here, so only valid ones are called.
    for (const tool of await client.listTools())
      await client.callTool(tool.name, { region: 'us-west1' }).catch(() => undefined);
    await client.close();
  },

  // SEP-2640: list only; nothing is read until a skill is loaded.
  async 'sep-2640-client-no-prefetch'(url) {
    const client = await connect(url);
    await client.skills.list();
    await client.close();
  },

  'sep-2640-client-verify-digest': loadEverySkill,
  'sep-2640-client-verify-size': loadEverySkill,
  'sep-2640-client-verify-frontmatter': loadEverySkill,

  async 'json-schema-ref-no-deref'(url) {
    // The client never resolves $ref; listing must not fetch the canary URL.
    const client = await connect(url);
    await client.listTools();
    await client.close();
  },

  async 'json-schema-2020-12-preservation'(url) {
    const client = await connect(url);
    const tools = await client.listTools();
    const focal = tools.find((t) => t.name === 'json_schema_2020_12_tool');
    if (!focal) throw new Error('json_schema_2020_12_tool is not advertised');
    await client.callTool('json_schema_echo', { schema: focal.inputSchema });
    await client.close();
  },
};

async function main(): Promise<void> {
  const name = process.env.MCP_CONFORMANCE_SCENARIO;
  const url = process.argv[process.argv.length - 1];
  const scenario = name?.startsWith('auth/')
    ? (u: string) => runAuthScenario(u, name, context(), { clientInfo, onWarning: warn, protocolVersion: runVersion() })
    : name
      ? scenarios[name]
      : undefined;
  if (!scenario || !url || !/^https?:\/\//.test(url)) {
    process.stderr.write(`usage: MCP_CONFORMANCE_SCENARIO=<${Object.keys(scenarios).join('|')}> main.js <url>\n`);
    process.exit(2);
  }
  await scenario(url);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    process.exit(1);
  },
);
