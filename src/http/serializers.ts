/**
 * Fastify's own response serializer compiler (fast-json-stringify), each schema compiled
 * once. Fastify compiles a serializer for every route and every status code it answers
 * with, and our routes share most of their response schemas (the error reply on nearly
 * every route): 390 compiles of 30 distinct schemas, about 0.8 s of CPU at every start.
 * A serializer depends only on its schema, the shared schemas and the options, so one is
 * made per schema object for each set of those and reused by every route that names it.
 * Still all made when the app gets ready: a bad schema fails the start. (Fastify's
 * validator compiler keeps one Ajv per set already, and Ajv compiles each schema once.)
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Compiler = ReturnType<ReturnType<typeof SerializerSelector>>;
type Serializer = ReturnType<Compiler>;

export function sharedSerializers(): NonNullable<CompilersFactory['buildSerializer']> {
  const compilers = SerializerSelector();
  const made = new Map<string, WeakMap<object, Serializer>>();
  return (externalSchemas: unknown, options: unknown) => {
    const compile = compilers(externalSchemas, options as Parameters<typeof compilers>[1]);
    // The shared schemas and the options as Fastify's validator pool keys them.
    const key = JSON.stringify([externalSchemas, options]);
    let bySchema = made.get(key);
    if (!bySchema) made.set(key, (bySchema = new WeakMap()));
    const cache = bySchema;
    return (route: Parameters<Compiler>[0]) => {
      const schema = route.schema as object;
      let fn = cache.get(schema);
      if (!fn) cache.set(schema, (fn = compile(route)));
      return fn;
    };
  };
}
