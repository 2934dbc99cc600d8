import { teamMessages } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import { isOrganizationGone, ORGANIZATION_NOT_FOUND_MESSAGE, shouldRecheckSession } from './query-client';

describe('when a failed request re-checks the session', () => {
  const gone = new Error(`404: ${JSON.stringify({ message: ORGANIZATION_NOT_FOUND_MESSAGE })}`);

  it('uses the server message of a lost membership', () => {
    expect(ORGANIZATION_NOT_FOUND_MESSAGE).toBe(teamMessages.organizationNotFound);
  });

  it('re-checks on a 401 and on a lost membership', () => {
    expect(shouldRecheckSession(new Error('401: Unauthorized'))).toBe(true);
    expect(shouldRecheckSession(gone)).toBe(true);
    expect(isOrganizationGone(gone)).toBe(true);
  });

  it('leaves other failures to the screen', () => {
    expect(shouldRecheckSession(new Error(`404: ${JSON.stringify({ message: 'Workflow not found' })}`))).toBe(
      false,
    );
    expect(shouldRecheckSession(new Error('500: boom'))).toBe(false);
    expect(isOrganizationGone(new Error('401: Unauthorized'))).toBe(false);
  });
});
