/*
 * Put before the service's CommonJS bundle for the start-up snapshot (scripts/snapshot.mjs).
 * While the snapshot is being built:
 * - packages that cannot or must not be in it (scripts/start.mjs EXTERNAL) are not loaded:
 *   a bundled module that requires one at load gets a stand-in, which loads the real one
 *   from node_modules at its first use after the snapshot is restored; a use while building
 *   fails the build.
 * - nothing may read the environment, the host name or the process id, or draw a random
 *   number: such a value would be frozen into the snapshot and be the same at every start
 *   (node's crypto.randomUUID() does repeat its values after a restore). Each is recorded
 *   and fails the build (docs/startup.md, sixth pass).
 */
var __sasgSnapshot = (function () {
  const nodeRequire = require;
  const v8 = nodeRequire('node:v8');
  const { createRequire } = nodeRequire('node:module');
  const crypto = nodeRequire('node:crypto');
  const os = nodeRequire('node:os');
  const building = v8.startupSnapshot.isBuildingSnapshot();
  let restored = !building;
  let runtimeRequire = null;
  const problems = [];
  /**
   * Reads looked at and let through: semver (fastify checks plugin versions with it) decides
   * once whether to print its debugging from NODE_DEBUG; in the snapshot it never does.
   */
  const ALLOWED = [['process.env.NODE_DEBUG read', 'node_modules/semver/internal/debug.js']];
  /** Notes a read by the code being loaded; node's own (its warnings read NODE_NO_WARNINGS) are not ours. */
  const record = (what) => {
    if (restored) return;
    // node's snapshot builder has no Error.stackTraceLimit (it sets one at the restore): lent, then taken back.
    Error.stackTraceLimit = 30;
    const frames = String(new Error().stack ?? '').split('\n').slice(2);
    delete Error.stackTraceLimit;
    // frames[0] is the stand-in's own trap; node reading its own settings is not ours.
    if (/\(node:|at node:/.test(frames[1] ?? '')) return;
    if (ALLOWED.some(([w, where]) => w === what && frames[1]?.includes(where))) return;
    problems.push(`${what}\n${frames.join('\n')}`);
  };

  /** The real module from node_modules (resolved from the bundle's own place in dist/). */
  function load(id) {
    runtimeRequire ??= createRequire(__sasgBundleFile);
    return runtimeRequire(id);
  }

  /**
   * What a bundled module gets for an external package: the package once restored, else a
   * stand-in. `names` are the package's exports (read at bundling): esbuild's interop copies
   * them from the stand-in when it is imported, each read through to the real package.
   * `values`: plain data of node's own modules that cannot be in a snapshot (node:http's
   * STATUS_CODES and METHODS, read at load by fastify), the same in every process of this
   * node, served while building.
   */
  function late(id, names, values = {}) {
    if (restored) return load(id);
    let real = null;
    const get = () => {
      if (!restored) throw new Error(`[snapshot] ${id} was used while the snapshot was built; load it after the restore`);
      return (real ??= load(id));
    };
    return new Proxy(function lateModule() {}, {
      // esbuild's interop asks whether a module is an ES module when it is imported.
      get: (_t, key) => {
        if (!restored && key === '__esModule') return undefined;
        if (!restored && Object.hasOwn(values, key)) return values[key];
        return Reflect.get(get(), key);
      },
      has: (_t, key) => Reflect.has(get(), key),
      set: (_t, key, value) => Reflect.set(get(), key, value),
      apply: (_t, self, args) => Reflect.apply(get(), self, args),
      construct: (_t, args) => Reflect.construct(get(), args),
      ownKeys: (t) => [...new Set([...names, ...Reflect.ownKeys(t).filter((k) => !Reflect.getOwnPropertyDescriptor(t, k).configurable)])],
      getOwnPropertyDescriptor: (t, key) => {
        const own = Reflect.getOwnPropertyDescriptor(t, key);
        if (own && !own.configurable) return own;
        if (!names.includes(key)) return undefined;
        return { configurable: true, enumerable: true, get: () => Reflect.get(get(), key) };
      },
    });
  }

  if (building) {
    const realEnv = process.env;
    process.env = new Proxy(realEnv, {
      get: (t, key) => { if (typeof key === 'string') record(`process.env.${key} read`); return Reflect.get(t, key); },
      has: (t, key) => { record(`process.env has ${String(key)}`); return Reflect.has(t, key); },
      ownKeys: (t) => { record('process.env listed'); return Reflect.ownKeys(t); },
    });
    // A file loaded from node_modules by node's own loader (not bundled): node 20 then refuses
    // to restore the snapshot ("setupUserModules" assertion), and the file would be frozen in.
    const Module = nodeRequire('node:module');
    const compile = Module.prototype._compile;
    Module.prototype._compile = function (content, filename) {
      problems.push(`${filename} loaded by node's loader (bundle it, or leave it for after the restore)`);
      return compile.call(this, content, filename);
    };
    v8.startupSnapshot.addSerializeCallback(() => { Module.prototype._compile = compile; });
    const pidProperty = Object.getOwnPropertyDescriptor(process, 'pid');
    Object.defineProperty(process, 'pid', { configurable: true, enumerable: true, get: () => { record('process.pid read'); return pidProperty.value; } });
    // Each wrapper records while building; the originals are put back before the heap is
    // written (a wrapper a module kept a reference to stays, and only calls through).
    const originals = [];
    const watch = (obj, name, label) => {
      const fn = obj[name];
      originals.push([obj, name, fn]);
      obj[name] = function (...args) { record(label); return fn.apply(this, args); };
    };
    for (const name of ['randomBytes', 'randomFillSync', 'randomFill', 'randomUUID', 'randomInt', 'getRandomValues']) watch(crypto, name, `crypto.${name}()`);
    watch(crypto.webcrypto, 'getRandomValues', 'crypto.getRandomValues()');
    watch(Math, 'random', 'Math.random()');
    // The clock: a time read while building would be the same at every start (an uptime, a
    // key's age, a cache's birth). Date.now() and a Date made without arguments are recorded;
    // a Date of a given time is not a clock read.
    watch(Date, 'now', 'Date.now()');
    const RealDate = Date;
    globalThis.Date = new Proxy(RealDate, {
      construct: (t, args, newTarget) => { if (args.length === 0) record('new Date()'); return Reflect.construct(t, args, newTarget); },
      apply: (t, self, args) => { record('Date()'); return Reflect.apply(t, self, args); },
    });
    for (const name of ['hostname', 'userInfo', 'networkInterfaces']) watch(os, name, `os.${name}()`);
    // V8 installs some of its newer built-ins only once a snapshot is restored (Node 20: the
    // change-array-by-copy methods, SharedArrayBuffer, Atomics, WebAssembly), and node:http
    // sorts its methods with toSorted() when it loads. Stand-ins while building, removed
    // before the heap is written, so the restored process has V8's own.
    const added = [];
    const stand = (name, fn) => {
      if (typeof Array.prototype[name] === 'function') return;
      Object.defineProperty(Array.prototype, name, { configurable: true, writable: true, value: fn });
      added.push(name);
    };
    stand('toSorted', function (cmp) { return [...this].sort(cmp); });
    stand('toReversed', function () { return [...this].reverse(); });
    stand('toSpliced', function (...args) { const copy = [...this]; copy.splice(...args); return copy; });
    stand('with', function (i, v) { const copy = [...this]; copy[i < 0 ? copy.length + i : i] = v; return copy; });
    v8.startupSnapshot.addSerializeCallback(() => {
      for (const name of added) delete Array.prototype[name];
      for (const [obj, name, fn] of originals) obj[name] = fn;
      process.env = realEnv;
      globalThis.Date = RealDate;
      Object.defineProperty(process, 'pid', pidProperty);
      if (problems.length > 0) {
        nodeRequire("node:fs").writeSync(2, `[snapshot] not built: values that would be frozen into it were read while building:\n${problems.join("\n")}\n`);
        process.exit(1);
      }
    });
  }

  return {
    late,
    /** Called first thing after the restore: from now on the real packages load. */
    restore() { restored = true; },
    load,
  };
})();
