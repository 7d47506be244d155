// URLs as Cairn shows and accepts them. A provider URL may carry credentials
// (`https://user:password@host/v1`) or a key in its query (`?api_key=...`, `?key=...`): it is
// shown only as scheme, host and path, wherever it is printed (start-up lines, logs, error
// messages, GET /health). `URL` is the WHATWG class of both Node and the browser.

/** Scheme, host and path of a URL, without credentials, query or fragment; null if unparsable. */
export function displayUrl(url: string | null | undefined): string | null {
  if (url === null || url === undefined) return null;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`.replace(/\/$/, '');
  } catch {
    return null;
  }
}

/** Anything that looks like `scheme://...` up to the next blank or quote. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/**
 * The text with every URL in it reduced to what `displayUrl` shows: for free text that may
 * quote a URL (an error message, a stack), where the URL cannot be taken out by name.
 */
export function redactUrlsInText(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_IN_TEXT, (url) => displayUrl(url) ?? '[url]');
}

/**
 * Why `text` is not an http(s) URL with a host, as the end of a sentence naming the field
 * (`baseUrl must be ...`), or null when it is one. Only the scheme of a refused URL is
 * repeated: the rest may hold a secret. The text must start with `http://` or `https://`
 * followed by a host: the URL parser would otherwise turn `http:host` or `http:///host` into
 * a URL with a host, which is not what the user wrote.
 */
export function httpUrlProblem(text: string): string | null {
  if (!/^https?:\/\/[^/?#\s]/i.test(text)) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1];
    if (scheme && !/^https?$/i.test(scheme)) {
      return `must be an http:// or https:// URL (not ${scheme.toLowerCase()}:)`;
    }
    return 'must be an http:// or https:// URL with a host, e.g. http://127.0.0.1:11434/v1';
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an http:// or https:// URL with a host, e.g. http://127.0.0.1:11434/v1';
  }
  if (url.hostname === '') return 'must name a host';
  return null;
}
