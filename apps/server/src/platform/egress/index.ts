export {
  createEgress,
  type Egress,
  type EgressByUse,
  type EgressOptions,
  type EgressRequestInit,
  type EgressResponse,
  type LookupFn,
  type PooledEgress,
  type PoolOptions,
} from './egress';
export { egressFetch } from './fetch-adapter';
export { defaultLookup, resolvePermitted, type ResolveOutcome } from './resolve';
export { DESTINATION_NOT_ALLOWED, EgressError, type EgressErrorCode } from './egress-error';
export {
  allowListUses,
  allowListWarnings,
  checkAllowList,
  createAddressPolicy,
  isBlockedAddress,
  loopbackWarning,
  useWarning,
  type AddressPolicy,
  type AllowListUse,
  type EgressUse,
  type ReservedCheck,
} from './address-policy';
export {
  createReservedDestinations,
  type ReservedDestinations,
  type ReservedDestinationsOptions,
} from './reserved-destinations';
