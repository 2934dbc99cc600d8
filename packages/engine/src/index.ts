export * from './estimate';
export * from './prompt';
export * from './validation';
