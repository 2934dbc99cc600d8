export * from './estimate';
export * from './prompt';
