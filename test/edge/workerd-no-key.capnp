# test/edge/no-key.ts under workerd (build/edge/no-key-worker.js, bundled by scripts/build-edge.mjs):
# the Worker has no requestStateKey, so it must fail to load (test/e2e/edge/runtimes.test.ts).
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .noKey) ],
  sockets = [ (name = "http", http = (), service = "main") ],
);

const noKey :Workerd.Worker = (
  modules = [ (name = "no-key-worker.js", esModule = embed "../../build/edge/no-key-worker.js") ],
  compatibilityDate = "2026-11-01",
);
