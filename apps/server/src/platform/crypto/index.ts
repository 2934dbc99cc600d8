export { createSecretBox, isSealed, SecretDecryptError, type SecretBox } from './secrets';
export { isMask, mask, SECRET_MASK } from './mask';
export { maskFields, sealFields, unsealFields } from './secret-fields';
export { createSecretMasker, type SecretMasker } from './secret-masker';
