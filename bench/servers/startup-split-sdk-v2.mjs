// In-process split of issue 38's SDK v2 fixture (stdio-scale-sdk-v2.mjs) without serving: the app's zod
// schemas and the registerTool calls, CPU ms each. Env: NTOOLS.
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const c0 = cpu();
const { McpServer } = await import('@modelcontextprotocol/server');
const z = await import('zod/v4');
const c1 = cpu();
const n = Number(process.env.NTOOLS || 1);
const schemas = [];
for (let i = 0; i < n; i++) schemas.push(z.object({ text: z.string().max(200), count: z.number().int().min(0).optional(), label: z.string().optional() }));
const c2 = cpu();
const server = new McpServer({ name: 'scale-sdk-v2', version: '1.0.0' });
for (let i = 0; i < n; i++) {
  const name = `tool_${String(i).padStart(4, '0')}`;
  server.registerTool(name, { description: `Generated tool ${name}`, inputSchema: schemas[i] }, async ({ text }) => ({ content: [{ type: 'text', text: `${name}:${text}` }] }));
}
const c3 = cpu();
console.log(JSON.stringify({ import: c1 - c0, schemas: c2 - c1, register: c3 - c2 }));
