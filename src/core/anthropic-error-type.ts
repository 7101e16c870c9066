/** Anthropic's `error.type` for an HTTP status, as its API documents them (clients branch on it). */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 401: return 'authentication_error';
    case 403: return 'permission_error';
    case 404: return 'not_found_error';
    case 413: return 'request_too_large';
    case 429: return 'rate_limit_error';
    case 529: return 'overloaded_error';
    default: return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}
