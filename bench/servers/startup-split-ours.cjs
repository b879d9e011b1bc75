// In-process split of issue 38's fixture (stdio-scale-ours.cjs) without serving: the app's own decoration
// (class-validator + reflect-metadata decorators) and McpApplication.create, CPU ms each. Env: NTOOLS, OMC_DIST.
const { resolve } = require('node:path');
const { IsInt, IsOptional, IsString, MaxLength, Min } = require('class-validator');
const { decorateMethod, decorateProperty } = require('./decorate.cjs');

const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const c0 = cpu();
const { McpApplication, Tool } = require(`${process.env.OMC_DIST || resolve(__dirname, '../../dist/cjs')}/index.js`);
const c1 = cpu();
const providers = [];
for (let i = 0; i < Number(process.env.NTOOLS || 1); i++) {
  const name = `tool_${String(i).padStart(4, '0')}`;
  const Args = { [`${name}_args`]: class {} }[`${name}_args`];
  decorateProperty(Args, 'text', String, [IsString(), MaxLength(200)]);
  decorateProperty(Args, 'count', Number, [IsOptional(), IsInt(), Min(0)]);
  decorateProperty(Args, 'label', String, [IsOptional(), IsString()]);
  if (i % 10 === 0) providers.push({ [`Tools${i / 10}`]: class {} }[`Tools${i / 10}`]);
  const cls = providers[providers.length - 1];
  cls.prototype[name] = function (args) { return `${name}:${args.text}`; };
  decorateMethod(cls, name, [Args], [Tool({ description: `Generated tool ${name}` })]);
}
const c2 = cpu();
McpApplication.create({ name: 'scale-ours', version: '1.0.0', providers });
const c3 = cpu();
console.log(JSON.stringify({ import: c1 - c0, schemas: c2 - c1, register: c3 - c2 }));
