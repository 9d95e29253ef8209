/**
 * Stored errors name the endpoint that failed ("cannot reach http://gpu-1:8000/v1 …"). The
 * dashboard shows them whole; a shared view hides where a run's models and environments live,
 * as its config summary does, and keeps the rest of the reason.
 */
export function redactEndpoints(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>)\]]*[^\s"'<>)\].,;:]/gi, "[endpoint]");
}
