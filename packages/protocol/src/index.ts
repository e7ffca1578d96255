export * from './evidence.ts';
export * from './permissions.ts';
export * from './scoring.ts';
export * from './vocabulary.ts';
export * from './webhook.ts';
