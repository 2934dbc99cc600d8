export * from './estimate';
export * from './prompt';
export * from './validation';
export * from './schedule';
export * from './plan';
export * from './run-workflow';
