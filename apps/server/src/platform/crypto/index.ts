export { createSecretBox, type SecretBox } from './secrets';
export { maskUrl, SECRET_MASK } from './mask';
export { maskFields, sealFields, unsealFields } from './secret-fields';
export { createSecretMasker, type SecretMasker } from './secret-masker';
