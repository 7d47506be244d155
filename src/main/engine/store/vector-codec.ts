// Float32Array ⇄ BLOB for the `vectors` table: float32 little-endian, 4 bytes per dimension,
// whatever the byte order of the machine that wrote it.

import { endianness } from 'node:os';
import { ErrorCode } from '../../../shared/errors.ts';
import { CairnError } from '../errors.ts';

const LITTLE_ENDIAN = endianness() === 'LE';

export function encodeVector(vec: Float32Array): Buffer {
  if (LITTLE_ENDIAN) {
    // Copy: the BLOB must not alias memory the caller may reuse.
    return Buffer.from(new Uint8Array(vec.buffer, vec.byteOffset, vec.byteLength));
  }
  const out = Buffer.allocUnsafe(vec.length * 4);
  for (let i = 0; i < vec.length; i++) out.writeFloatLE(vec[i] as number, i * 4);
  return out;
}

/**
 * Decodes a BLOB written by {@link encodeVector}. With `dims`, the length is checked, so a
 * truncated or foreign BLOB is reported instead of being read as garbage.
 */
export function decodeVector(blob: Uint8Array, dims?: number): Float32Array {
  if (blob.byteLength % 4 !== 0 || (dims !== undefined && blob.byteLength !== dims * 4)) {
    throw new CairnError(
      ErrorCode.Internal,
      `Stored vector has ${blob.byteLength} bytes; expected ${dims === undefined ? 'a multiple of 4' : dims * 4}.`,
    );
  }
  const out = new Float32Array(blob.byteLength / 4);
  if (LITTLE_ENDIAN) {
    // Copying through a byte view handles BLOBs that are not 4-byte aligned in their buffer.
    new Uint8Array(out.buffer).set(blob);
    return out;
  }
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
