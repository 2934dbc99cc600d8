import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, it } from 'vitest';
import { moduleBoundaries } from './eslint-module-boundaries.js';

// RuleTester runs its cases as tests of the runner it is given.
Object.assign(RuleTester, { afterAll, describe, it });

const modulesDir = path.resolve('/repo/apps/server/src/modules');
const inModule = (file: string) => path.join(modulesDir, file);
const options = [{ modulesDir, exceptions: ['triggers/email-monitor -> microsoft/microsoft-client'] }];

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

tester.run('module-boundaries', moduleBoundaries, {
  valid: [
    // Another module's service as types, its columns, platform, packages, and anything of its own.
    {
      filename: inModule('executions/run.ts'),
      code: "import type { AgentModel } from '../agents/agents.service';",
      options,
    },
    {
      filename: inModule('executions/run.ts'),
      code: "import { type AgentModel } from '../agents/agents.service';",
      options,
    },
    {
      filename: inModule('executions/run.ts'),
      code: "import { runAgentIds } from '../workflows/workflows.columns';",
      options,
    },
    {
      filename: inModule('tools/runtime/x.ts'),
      code: "import { sendEmail } from '../../../platform/mail/sendgrid';",
      options,
    },
    {
      filename: inModule('tools/runtime/x.ts'),
      code: "import { tools } from '../tools.repository';",
      options,
    },
    { filename: inModule('agents/a.ts'), code: "import { z } from 'zod';", options },
    { filename: inModule('agents/a.ts'), code: "export type { X } from '../tools/tools.service';", options },
    // A named exception, and files outside modules/.
    {
      filename: inModule('triggers/email-monitor.ts'),
      code: "import { E } from '../microsoft/microsoft-client';",
      options,
    },
    {
      filename: '/repo/apps/server/src/app.ts',
      code: "import { x } from './modules/tools/tools.repository';",
      options,
    },
  ],
  invalid: [
    {
      filename: inModule('agents/agents.service.ts'),
      code: "import { toolsRows } from '../tools/tools.repository';",
      options,
      errors: [{ messageId: 'internal', data: { from: 'agents', target: 'tools/tools.repository' } }],
    },
    {
      filename: inModule('agents/agents.service.ts'),
      code: "import { createToolsService } from '../tools/tools.service';",
      options,
      errors: [{ messageId: 'serviceValue' }],
    },
    {
      // From a subfolder of a module, at any depth.
      filename: inModule('tools/runtime/x.ts'),
      code: "import type { Row } from '../../workflows/workflows.repository';",
      options,
      errors: [{ messageId: 'internal', data: { from: 'tools', target: 'workflows/workflows.repository' } }],
    },
    {
      filename: inModule('billing/b.ts'),
      code: "export * from '../auth/auth.dto';",
      options,
      errors: [{ messageId: 'internal' }],
    },
    {
      filename: inModule('billing/b.ts'),
      code: "const m = import('../auth/auth.dto');",
      options,
      errors: [{ messageId: 'internal' }],
    },
  ],
});
