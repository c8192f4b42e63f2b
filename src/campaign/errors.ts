/**
 * Errors a use case hands back to its caller (HTTP route, mail handler, CLI). Each says
 * what to fix; `problems` lists every problem found when there are several.
 */
export type ErrorKind = 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'too_many_requests' | 'too_large' | 'unprocessable';

export interface Problem {
  path: string;
  message: string;
}

export class UseCaseError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly problems: Problem[] = [],
  ) {
    super(message);
    this.name = 'UseCaseError';
  }
}

export const HTTP_STATUS: Record<ErrorKind, number> = {
  bad_request: 400, unauthorized: 401, forbidden: 403, not_found: 404, conflict: 409, too_many_requests: 429, too_large: 413, unprocessable: 422,
};

export const notFound = (what: string) => new UseCaseError('not_found', 'not_found', `${what} not found`);
