export * from './evaluate';
export * from './family';
export * from './family-builtins';
export * from './family-messages';
export * from './screen';
export * from './screen-edit';
export * from './screen-messages';
