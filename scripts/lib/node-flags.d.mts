// Types of node-flags.mjs, for the TypeScript suites that check the image runs the server as `npm start` does.
export declare const NODE_FLAGS: readonly string[];
