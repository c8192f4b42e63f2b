/**
 * Which requests the service log shows. Fastify's default is two `info` lines for every
 * request, which buried the service's own lines (a newcomer saw about a thousand in two
 * turns). At `info` only a request that failed on our side (5xx) or was slow has a line;
 * at `debug` every request has one, and at `trace` its arrival too.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** A request that takes this long is worth a line even when it went well. */
export const SLOW_REQUEST_MS = 1_000;

export class RequestLog extends LogController {
  constructor(private readonly slowMs = SLOW_REQUEST_MS) {
    super();
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log.trace({ req: request }, `${request.method} ${request.url}`);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const ms = reply.elapsedTime;
    const fields = { req: request, res: reply, responseTime: ms };
    const line = `${request.method} ${request.url} ${reply.statusCode} in ${Math.round(ms)} ms`;
    if (error) reply.log.error({ ...fields, err: error }, `${line}: ${error.message}`);
    else if (reply.statusCode >= 500) reply.log.info(fields, line);
    else if (ms >= this.slowMs) reply.log.info(fields, `slow: ${line}`);
    else reply.log.debug(fields, line);
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.debug(`no route for ${request.method} ${request.url}`);
  }
}
