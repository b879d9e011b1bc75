# The edge example under workerd: build/edge/worker.js is app.js bundled by scripts/build-edge.mjs.
# Node built-ins (node:crypto, node:async_hooks) come with nodejs_compat, on by default from 2026-08-04.
# The socket's address is given on the command line (--socket-addr http=127.0.0.1:0).
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .edge) ],
  sockets = [ (name = "http", http = (), service = "main") ],
);

const edge :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "../../build/edge/worker.js") ],
  compatibilityDate = "2026-11-01",
);
