/** The Node flags every `cairn serve` process runs with (see node-flags.mjs). */
export declare const NODE_FLAGS: readonly string[];
