/**
 * Watches a source folder for `onemodelcontext dev` with chokidar, which follows the saves a
 * hand-written `fs.watch` loses: editors that save by writing a new file and renaming it over the old
 * one (vim, JetBrains' safe write, `sed -i`) replace the watched inode, and a plain watcher then goes
 * deaf to that file. Events are settled (editors write in several steps) into one `onChange` call.
 */
import { watch, type FSWatcher } from 'chokidar';

/** Waits after the last file event before calling back (a save is several events). */
export const SETTLE_MS = 150;

export interface SourceWatcher {
  /** Resolves once the initial scan is done: changes from then on are seen. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

export function watchSources(folder: string, onChange: (path: string) => void, settleMs = SETTLE_MS): SourceWatcher {
  const watcher: FSWatcher = watch(folder, {
    ignoreInitial: true,
    // A temporary file renamed over a watched one within 100 ms is one `change`, not unlink + add.
    atomic: true,
    ignored: (path) => /(^|[\\/])(node_modules|\.git)([\\/]|$)|~$|\.swp$|\.swx$|\.tmp$/.test(path),
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = '';
  watcher.on('all', (_event, path) => {
    last = path;
    clearTimeout(timer);
    timer = setTimeout(() => onChange(last), settleMs);
  });
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    async close() {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
