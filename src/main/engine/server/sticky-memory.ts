import {
  getMemoryAdditions,
  type MemoryAdditionKey,
  memoryAdditionPositions,
  queueMemoryAddition,
} from '../store/memory-additions.ts';
import {
  applyAddition,
  contentHash,
  memoryAdditionFor,
  type MessageContent,
} from '../memory/inject.ts';
import {
  beginMemoryTurn,
  injectedHeaderValue,
  memoryHeaderValue,
  type MemoryTurn,
  type MemoryTurnDeps,
  type MemoryTurnRequest,
} from './memory-turn.ts';

// Sticky placement (DESIGN §9 "Where memory goes, and why it stays put"), the same for every
// wire format. Providers reuse a prompt cache only for an exact prefix, and clients resend the
// whole history without what Cairn added. So the bytes added to a user message are remembered
// (per conversation, keyed by the message's position and a hash of its original content) and
// put back whenever that message comes again; a fresh block is looked up only for the newest
// real user message, and only when it has none yet. Formats describe their user messages as
// slots and apply the returned contents in their own shape.

/** One user message of a request, in the format's own indexing of its message list. */
export interface UserMessageSlot {
  index: number;
  /** The content as the client sent it (string, part array, or nothing). */
  content: MessageContent;
}

export interface PlaceMemoryRequest extends MemoryTurnRequest {
  /** Every user message of the request, oldest first: these may carry a remembered block. */
  userMessages: readonly UserMessageSlot[];
  /** The slot index of the newest real user message (gets a fresh block), or null. */
  newestIndex: number | null;
  /** The type of a text part in this format (`text`, `input_text`). */
  partType: string;
}

export interface PlacedMemory {
  turn: MemoryTurn;
  /** The `x-cairn-memory` header value. */
  header: string;
  /** The new content of each user message that carries a block, by slot index. */
  contents: Map<number, MessageContent>;
}

/**
 * Re-inserts the blocks remembered for this conversation, adds a fresh block to the newest
 * real user message when the memory step gives one (and remembers its bytes), and returns the
 * contents to substitute. Memory paused: nothing is added, not even remembered blocks.
 */
export async function placeMemory(
  deps: MemoryTurnDeps,
  request: PlaceMemoryRequest,
): Promise<PlacedMemory> {
  const { db, clock } = deps.services;
  const contents = new Map<number, MessageContent>();
  if (!deps.services.settings.get().enabled) {
    const turn = await beginMemoryTurn(deps, request);
    return { turn, header: memoryHeaderValue(turn), contents };
  }

  const remembered = memoryAdditionPositions(
    db,
    request.agentId,
    request.conversationId,
    request.userMessages.map((s) => s.index),
  );
  let resent: { section: string; tokens: number } | null = null;
  if (remembered.size > 0) {
    // Hashing only where something is remembered: long histories cost nothing extra.
    const keys: MemoryAdditionKey[] = request.userMessages
      .filter((slot) => remembered.has(slot.index))
      .map((slot) => ({ messageIndex: slot.index, contentHash: contentHash(slot.content) }));
    // Only the additions of these messages, as they are now, are read (a whole block each).
    const slots = new Map(request.userMessages.map((s) => [s.index, s]));
    for (const hit of getMemoryAdditions(db, request.agentId, request.conversationId, keys)) {
      const slot = slots.get(hit.messageIndex) as UserMessageSlot;
      contents.set(slot.index, applyAddition(slot.content, hit));
      if (slot.index === request.newestIndex) resent = hit;
    }
  }

  const turn = await beginMemoryTurn(deps, {
    ...request,
    skip: resent ? 'resent' : request.skip,
  });
  if (resent) {
    return {
      turn,
      header: injectedHeaderValue(resent.section, resent.tokens),
      contents,
    };
  }
  const newest = request.userMessages.find((s) => s.index === request.newestIndex);
  if (turn.block !== '') {
    if (!newest) return { turn, header: memoryHeaderValue({ ...turn, block: '' }), contents };
    const addition = memoryAdditionFor(newest.content, turn.block, request.partType);
    // Committed with the connection's next group of writes, not on its own before the answer.
    queueMemoryAddition(
      db,
      request.agentId,
      request.conversationId,
      {
        messageIndex: newest.index,
        contentHash: contentHash(newest.content),
        ...addition,
        section: turn.section,
        tokens: turn.tokens,
      },
      clock.now(),
    ).catch((err: unknown) => {
      // The block still goes out; a resend of this message gets a fresh one.
      deps.services.dbHealth.noteError(err);
      deps.services.logger
        .child('sticky-memory')
        .warn('remembering the memory block failed', { protocol: request.protocol, err });
    });
    contents.set(newest.index, applyAddition(newest.content, addition));
  }
  return { turn, header: memoryHeaderValue(turn), contents };
}
