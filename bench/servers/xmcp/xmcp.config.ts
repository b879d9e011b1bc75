// xmcp 1.1.3's HTTP transport, as `npx create-xmcp-app` scaffolds it. xmcp bakes the port into the
// build (its schema defaults it to 3001, so PORT is not read at run time): bench/lib/peers.mjs builds
// once per bench run with XMCP_PORT set to a free port and starts every xmcp slot on it.
import { type XmcpConfig } from 'xmcp';

const config: XmcpConfig = {
  http: { host: '127.0.0.1', port: Number(process.env.XMCP_PORT || 3001) },
  stdio: false,
  paths: { prompts: false, resources: false },
};

export default config;
