// The only thing @prisma/dev takes from the real package, loaded by `prisma dev` alone.
export async function startLocalDurableStreamsServer() {
  throw new Error('`prisma dev` is not available in this project: its @prisma/streams-local needs Node 22 and is replaced by a stub (package.json overrides). Use the embedded database (npm start) or a PostgreSQL server.');
}
