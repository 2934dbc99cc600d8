// The paths of `endpoints.microsoft` (index.ts says why they are apart from the descriptors).
export const status = '/api/auth/microsoft/status';
export const connect = '/api/auth/microsoft';
export const callback = '/api/auth/microsoft/callback';
export const disconnect = '/api/auth/microsoft/disconnect';
