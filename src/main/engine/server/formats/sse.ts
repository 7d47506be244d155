// Server-sent events (https://html.spec.whatwg.org/multipage/server-sent-events.html), read
// chunk by chunk: a translated stream turns each upstream event into the client's format as it
// arrives, so events are cut at line ends, never by chunk boundaries.

export interface SseEvent {
  event: string | null;
  data: string;
}

/** Feeds text chunks in, calls `onEvent` for each complete event. */
export function createSseReader(onEvent: (event: SseEvent) => void): {
  push(chunk: string): void;
  /** The end of the stream: an event without its blank line still counts. */
  end(): void;
} {
  let buffer = '';
  let event: string | null = null;
  let data: string[] = [];
  const dispatch = () => {
    if (data.length > 0) onEvent({ event, data: data.join('\n') });
    event = null;
    data = [];
  };
  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  };
  return {
    push(chunk) {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.search(/\r?\n|\r/)) !== -1) {
        // A CR at the end of a chunk may be the first half of a CRLF: wait for the next one.
        if (buffer[nl] === '\r' && nl === buffer.length - 1) break;
        const crlf = buffer[nl] === '\r' && buffer[nl + 1] === '\n';
        line(buffer.slice(0, nl));
        buffer = buffer.slice(nl + (crlf ? 2 : 1));
      }
    },
    end() {
      if (buffer.endsWith('\r')) buffer = buffer.slice(0, -1);
      if (buffer !== '') line(buffer);
      buffer = '';
      dispatch();
    },
  };
}

/** Every event of a whole SSE body. */
export function readSseEvents(body: string): SseEvent[] {
  const events: SseEvent[] = [];
  const reader = createSseReader((e) => events.push(e));
  reader.push(body);
  reader.end();
  return events;
}

/** One SSE event as written to a client. */
export function sseEvent(event: string | null, data: unknown): string {
  return `${event === null ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
}
