export {
  createEgress,
  type Egress,
  type EgressOptions,
  type EgressRequestInit,
  type EgressResponse,
  type LookupFn,
} from './egress';
export { egressFetch } from './fetch-adapter';
export { defaultLookup, resolvePermitted, type ResolveOutcome } from './resolve';
export { EgressError, type EgressErrorCode } from './egress-error';
export { createAddressPolicy, isBlockedAddress, type AddressPolicy } from './address-policy';
