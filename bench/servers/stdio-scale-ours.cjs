// Issue 38's fixture, onemodelcontext over stdio: NTOOLS tools, each a decorated method with its own
// three-field class-validator DTO, ten tools per provider class (what a generated API wrapper looks
// like). From dist/cjs (OMC_DIST overrides), decorators applied as tsc emits them. Env: NTOOLS.
const { resolve } = require('node:path');
const { IsInt, IsOptional, IsString, MaxLength, Min } = require('class-validator');
const { decorateMethod, decorateProperty } = require('./decorate.cjs');

const DIST = process.env.OMC_DIST || resolve(__dirname, '../../dist/cjs');
const { McpApplication, Tool, serveStdio } = require(`${DIST}/index.js`);
const ntools = Number(process.env.NTOOLS || 1);

const providers = [];
for (let i = 0; i < ntools; i++) {
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

void serveStdio(McpApplication.create({ name: 'scale-ours', version: '1.0.0', providers }));
