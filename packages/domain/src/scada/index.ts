export * from './evaluate';
export * from './screen';
export * from './screen-edit';
export * from './screen-messages';
