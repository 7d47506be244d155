// The Content-Security-Policy of the UI: in the renderer's index.html (meta) and as a
// response header when the headless server serves the built UI. No 'unsafe-eval', no inline
// script; the API is reached on loopback only.
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self' http://127.0.0.1:* http://localhost:*",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
