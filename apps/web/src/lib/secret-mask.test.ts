import { describe, expect, it } from 'vitest';

import { editSecret, isMaskedSecret } from './secret-mask';

describe('editing a masked secret', () => {
  const mask = '••••••••abcd';
  it('replaces the mask with what is typed or pasted', () => {
    expect(editSecret(mask, `${mask}x`)).toBe('x');
    expect(editSecret(mask, `x${mask}`)).toBe('x');
    expect(editSecret(mask, 'sk-new-abcd')).toBe('sk-new-abcd');
  });
  it('clears the field when part of the mask is deleted', () => {
    expect(editSecret(mask, '••••••••abc')).toBe('');
  });
  it('leaves ordinary values alone', () => {
    expect(editSecret('sk-1', 'sk-12')).toBe('sk-12');
    expect(editSecret(mask, mask)).toBe(mask);
  });
});

describe('editing a masked key', () => {
  it('replaces the whole mask on the first keystroke', () => {
    expect(editSecret('••••••••abcd', '••••••••abcds')).toBe('s');
    expect(editSecret('••••••••abcd', '•••••••abcd')).toBe('');
    expect(editSecret('••••••••abcd', 'sk-proj-abcd')).toBe('sk-proj-abcd');
  });
});

describe('recognising a mask', () => {
  it('treats only the server mask as masked', () => {
    expect(isMaskedSecret('••••••••abcd')).toBe(true);
    expect(isMaskedSecret('sk-live-1234')).toBe(false);
    expect(isMaskedSecret(undefined)).toBe(false);
  });
});
