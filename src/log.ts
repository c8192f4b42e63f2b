/**
 * The service's log: its own lines (where it listens, the demo's secrets, mail, the
 * scheduler) and Fastify's, through one pino logger. Readable lines on a terminal, JSON
 * lines otherwise (a pipe, a file, systemd's journal, a container's log collector), or as
 * LOG_FORMAT says.
 */
import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

/** A line of the service's own, at `info`, with the logger it goes through. */
export type Log = ((msg: string) => void) & { logger: Logger };

type Out = NodeJS.WritableStream & { isTTY?: boolean };

export async function serviceLog(config: Pick<Config, 'LOG_LEVEL' | 'LOG_FORMAT'>, out: Out = process.stdout): Promise<Log> {
  const format = config.LOG_FORMAT ?? (out.isTTY ? 'pretty' : 'json');
  let logger: Logger;
  if (format === 'pretty') {
    // Loaded only for a terminal: JSON needs none of it.
    const { default: pretty } = await import('pino-pretty');
    logger = pino({ level: config.LOG_LEVEL }, pretty({
      destination: out,
      // Written before the process goes on, as console.log did: a line is never lost at exit.
      sync: true,
      colorize: Boolean(out.isTTY),
      translateTime: 'SYS:HH:MM:ss',
      // A request's line says its method, path, status and time in its message (requestLog.ts).
      ignore: 'pid,hostname,reqId,req,res,responseTime',
    }));
  } else {
    logger = pino({ level: config.LOG_LEVEL }, out);
  }
  return Object.assign((msg: string) => logger.info(msg), { logger });
}
