/** Bundle `entry` into dist/`name`.mjs (see bundle.js); resolves to the bundle's path. */
export declare function bundle(entry: string, name: string): Promise<string>;
