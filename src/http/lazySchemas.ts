/**
 * Route schemas compiled on first use instead of at start (docs/startup.md). Fastify compiles
 * every route's validator (Ajv) and response serializer (fast-json-stringify) when the app
 * gets ready: about 0.5–1 s of CPU for our ~100 routes, before the first request can be
 * answered. Most routes are not called in the first seconds (or at all by a given
 * installation), so each route's compile now waits for its first request. The compilers
 * are Fastify's own (the copies Fastify itself loads), with the same options; only the
 * moment changes. A schema Ajv would refuse is then refused at that route's first request
 * (a 500) instead of at start: test/http covers every route's schemas.
 */
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

interface RouteSchema { schema: unknown; method?: string; url?: string; httpPart?: string }
type Validate = ((...args: unknown[]) => unknown) & { errors?: unknown; schemaEnv?: unknown };
type Serialize = (data: unknown) => string;
type Factory<F> = (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => F;

/**
 * Fastify's own compilers, resolved from Fastify's directory (they are its dependencies, not
 * ours), loaded when the app is built rather than when this module loads: a start-up
 * snapshot (docs/startup.md, sixth pass) cannot hold files loaded by node's own loader.
 */
function fromFastify<T>(id: string): T {
  return createRequire(createRequire(import.meta.url).resolve('fastify'))(id) as T;
}

/** A validator that compiles at its first call; Ajv's `errors` and `schemaEnv` read through. */
function lazyValidator(compile: () => Validate): Validate {
  let fn: Validate | null = null;
  const get = () => (fn ??= compile());
  const validate = ((...args: unknown[]) => get()(...args)) as Validate;
  Object.defineProperty(validate, 'errors', { get: () => fn?.errors, configurable: true });
  // Fastify asks for schemaEnv before calling (to pass the parent object, so Ajv may coerce the root).
  Object.defineProperty(validate, 'schemaEnv', { get: () => get().schemaEnv, configurable: true });
  return validate;
}

/** Fastify's `schemaController.compilersFactory`: its default compilers, each route's compiled at first use. */
export function lazyCompilers(): CompilersFactory {
  const validators = fromFastify<() => Factory<Validate>>('@fastify/ajv-compiler')();
  const serializers = fromFastify<() => Factory<Serialize>>('@fastify/fast-json-stringify-compiler')();
  return {
    // The compiler itself (an Ajv instance holding the shared schemas, which Ajv checks
    // against its meta-schema by compiling that first) is made at the first route's compile
    // too: made when the app got ready, it cost ~0.1 s of the start.
    buildValidator(externalSchemas: unknown, options: unknown) {
      let compile: ((route: RouteSchema) => Validate) | null = null;
      return (route: RouteSchema) => lazyValidator(() => (compile ??= validators(externalSchemas, options))(route));
    },
    buildSerializer(externalSchemas: unknown, options: unknown) {
      let compile: ((route: RouteSchema) => Serialize) | null = null;
      return (route: RouteSchema): Serialize => {
        let fn: Serialize | null = null;
        return (data) => (fn ??= (compile ??= serializers(externalSchemas, options))(route))(data);
      };
    },
  } as unknown as CompilersFactory;
}
