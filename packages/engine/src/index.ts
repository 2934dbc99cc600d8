export * from './estimate';
