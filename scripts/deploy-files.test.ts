// The container packaging (Dockerfile, compose.yaml, the Helm chart in deploy/helm/crewline) checked
// for what an operator relies on, since no image, Compose or cluster runs here: the scripts'
// behaviour on this machine is apps/server/src/container-scripts.process.test.ts's.
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

const root = path.join(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const chart = 'deploy/helm/crewline';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const final = stages.at(-1)!;

  it('builds in one Node 24 slim stage and runs in another, without build tools', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24(\.[\d.]+)?-(bookworm-)?slim$/m);
    expect(stages.map((stage) => stage.split(/\s/)[0])).toEqual(['${NODE_IMAGE}', '${NODE_IMAGE}']);
    expect(stages[0]).toMatch(/^RUN scripts\/container-build\.sh \/app$/m);
    expect(final).toMatch(/^COPY --from=build \/app \/app$/m);
    expect(final).not.toMatch(/apt-get|apk add|build-essential|python|gcc|make/);
    // npm is removed from the final image: nothing installs at run time.
    expect(final).toMatch(/rm -rf \/usr\/local\/lib\/node_modules\/npm/);
  });

  it('runs as a numeric non-root user, ROLE from the environment, with a health check', () => {
    const user = /^USER (\d+)(?::(\d+))?$/m.exec(final);
    expect(user, 'USER uid:gid').not.toBeNull();
    expect(Number(user![1])).toBeGreaterThan(0);
    expect(final).toMatch(/^ENV [^]*ROLE=all/m);
    expect(final).toMatch(/^HEALTHCHECK .*\\\n\s+CMD \["\/app\/scripts\/container-start\.sh", "health"\]$/m);
    expect(final).toMatch(/^ENTRYPOINT \["\/app\/scripts\/container-start\.sh"\]$/m);
    expect(final).toMatch(/^EXPOSE 5000$/m);
  });

  it('runs scripts that exist and are executable, from a context without installed packages', () => {
    for (const script of ['scripts/container-build.sh', 'scripts/container-start.sh']) {
      expect(() => accessSync(path.join(root, script), constants.X_OK), script).not.toThrow();
    }
    const ignored = read('.dockerignore').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', '.git', 'data', '.env']));
  });
});

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as Doc;
  const services = compose.services as Record<string, Doc>;
  const crewline = ['migrate', 'api', 'worker'];

  it('runs PostgreSQL 18 on a volume, with a health check', () => {
    const postgres = services.postgres;
    expect(postgres.image).toMatch(/^postgres:18(\.\d+)?(-[a-z]+)?$/);
    // Version 18's image keeps its cluster under /var/lib/postgresql/18/docker: a volume on
    // /var/lib/postgresql/data would leave it unsaved (and the image refuses to start on one).
    expect(postgres.volumes).toEqual(['postgres:/var/lib/postgresql']);
    expect(compose.volumes).toHaveProperty('postgres');
    expect(postgres.healthcheck.test.join(' ')).toContain('pg_isready');
  });

  it('migrates once, then starts one API and two workers after a healthy database', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'migrate', 'postgres', 'worker']);
    expect(services.migrate.command).toBe('migrate');
    expect(services.migrate.build).toBe('.');
    expect(services.migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    for (const name of ['api', 'worker']) {
      expect(services[name].image).toBe(services.migrate.image);
      expect(services[name].depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
      });
      expect(services[name].healthcheck.test).toEqual(['CMD', '/app/scripts/container-start.sh', 'health']);
    }
    expect(services.api.environment.ROLE).toBe('api');
    expect(services.api.ports).toEqual(['${CREWLINE_PORT:-5000}:5000']);
    expect(services.worker.environment.ROLE).toBe('worker');
    expect(services.worker.deploy.replicas).toBe(2);
    expect(services.worker.ports).toBeUndefined();
  });

  it("gives every Crewline service the database's address and the secrets, which it demands", () => {
    const postgres = services.postgres.environment;
    for (const name of crewline) {
      const env = services[name].environment;
      const url = new URL(env.DATABASE_URL.replace(/\$\{POSTGRES_PASSWORD:\?[^}]*\}/, 'secret'));
      expect([url.hostname, url.username, url.pathname]).toEqual([
        'postgres',
        postgres.POSTGRES_USER,
        `/${postgres.POSTGRES_DB}`,
      ]);
      // `${VAR:?message}`: compose stops with the message instead of starting without a secret.
      expect(env.JWT_SECRET).toMatch(/^\$\{JWT_SECRET:\?.+\}$/);
      expect(env.ENCRYPTION_KEY).toMatch(/^\$\{ENCRYPTION_KEY:\?.+\}$/);
      expect(services[name].volumes).toEqual(['files:/data']);
    }
    expect(postgres.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?.+\}$/);
  });
});

/**
 * A Helm template made into YAML without Helm: `include … | nindent N` on a line of its own is replaced
 * by the named template (its `dict` string arguments filled in), `toYaml .Values.x | nindent N` by the
 * value from values.yaml, other directives on a line of their own are dropped (an `if`'s body is kept,
 * its `else` dropped), and each directive within a line becomes a token naming it (the same directive,
 * the same token), so that two places naming the same thing can be compared.
 */
function renderTemplate(text: string, helpers: Map<string, string>, values: Doc): string {
  const lines: string[] = [];
  let skipping = 0; // depth inside an `else` being dropped
  const depth: ('keep' | 'else')[] = [];
  for (const line of text.replace(/\{\{-?\s*\/\*[^]*?\*\/\s*-?\}\}\n?/g, '').split('\n')) {
    const only = /^\s*\{\{-?\s*(.*?)\s*-?\}\}\s*$/.exec(line);
    if (only) {
      const directive = only[1];
      const opener = /^(if|with|range|define)\b/.test(directive);
      if (opener) {
        depth.push('keep');
        if (skipping) skipping++;
        continue;
      }
      if (/^else\b/.test(directive)) {
        if (!skipping) {
          depth[depth.length - 1] = 'else';
          skipping = 1;
        }
        continue;
      }
      if (directive === 'end') {
        const block = depth.pop();
        if (skipping) skipping = block === 'else' && skipping === 1 ? 0 : skipping - 1;
        continue;
      }
      if (skipping) continue;
      const include = /^include "([^"]+)" (.+?) \| nindent (\d+)$/.exec(directive);
      if (include) {
        const [, name, args, indent] = include;
        let body = helpers.get(name);
        if (body === undefined) throw new Error(`include of an undefined template "${name}"`);
        for (const [, key, value] of args.matchAll(/"(\w+)" "([^"]*)"/g)) {
          body = body.replaceAll(`{{ .${key} }}`, value);
        }
        const rendered = renderTemplate(body, helpers, values);
        lines.push(...rendered.split('\n').map((l) => (l ? ' '.repeat(Number(indent)) + l : l)));
        continue;
      }
      const toYaml = /^toYaml \.Values\.([\w.]+) \| nindent (\d+)$/.exec(directive);
      if (toYaml) {
        // JSON is YAML: the value as a flow collection at the directive's indentation.
        lines.push(' '.repeat(Number(toYaml[2])) + JSON.stringify(valueAt(values, toYaml[1])));
        continue;
      }
      // toYaml of a `with`'s dot, fail, and the like: nothing to check here.
      continue;
    }
    if (!skipping)
      lines.push(line.replace(/\{\{-?\s*(.*?)\s*-?\}\}/g, (_, directive: string) => token(directive)));
  }
  return lines.join('\n');
}

const tokens = new Map<string, string>();
/**
 * A plain YAML scalar standing for a directive; the same directive always gets the same one. A named
 * template given (dict "context" $ …) reads `.context.X` where one given `.` reads `.X`: the same thing.
 */
function token(written: string): string {
  const directive = written.replace(/\.context\b/g, '.').replace(/\.{2,}/g, '.');
  if (!tokens.has(directive)) tokens.set(directive, `tpl${tokens.size}`);
  return tokens.get(directive)!;
}

/** The named templates of _helpers.tpl (`define … end`, nested blocks counted), by name. */
function namedTemplates(text: string): Map<string, string> {
  const found = new Map<string, string>();
  let open: { name: string; from: number; depth: number } | undefined;
  for (const match of text.matchAll(/\{\{-?\s*(define "([^"]+)"|if|with|range|end)(?=[\s}-])[^}]*\}\}\n?/g)) {
    const [whole, keyword, name] = match;
    if (!open) {
      if (name) open = { name, from: match.index + whole.length, depth: 0 };
    } else if (keyword === 'end' && open.depth === 0) {
      found.set(open.name, text.slice(open.from, match.index));
      open = undefined;
    } else {
      open.depth += keyword === 'end' ? -1 : 1;
    }
  }
  return found;
}
const directiveOf = (value: string) => [...tokens].find(([, t]) => t === value)?.[0];

function valueAt(values: Doc, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((node, key) => {
    if (node === null || typeof node !== 'object' || !(key in node)) {
      throw new Error(`.Values.${dotted} is not in values.yaml`);
    }
    return (node as Doc)[key];
  }, values);
}

describe('the Helm chart', () => {
  const chartYaml = parse(read(`${chart}/Chart.yaml`)) as Doc;
  const values = parse(read(`${chart}/values.yaml`)) as Doc;
  const helpersText = read(`${chart}/templates/_helpers.tpl`);
  const helpers = namedTemplates(helpersText);
  const templateFiles = readdirSync(path.join(root, chart, 'templates')).filter((f) => f.endsWith('.yaml'));
  const manifests = templateFiles.flatMap((file) => {
    const text = read(`${chart}/templates/${file}`);
    return parseAllDocuments(renderTemplate(text, helpers, values)).map((doc) => {
      if (doc.errors.length) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
      return { file, manifest: doc.toJS() as Doc };
    });
  });
  const byKind = (kind: string) =>
    manifests.filter(({ manifest }) => manifest.kind === kind).map((m) => m.manifest);
  const deployment = (component: string) =>
    byKind('Deployment').find((d) => d.metadata.labels['app.kubernetes.io/component'] === component)!;
  const secret = byKind('Secret')[0];
  const job = byKind('Job')[0];
  const container = (manifest: Doc) => manifest.spec.template.spec.containers[0] as Doc;
  const envOf = (manifest: Doc) => new Map((container(manifest).env as Doc[]).map((e) => [e.name, e]));

  it('is a Helm 3 chart whose values every template reads exist', () => {
    expect(chartYaml).toMatchObject({ apiVersion: 'v2', name: 'crewline', type: 'application' });
    expect(chartYaml.version).toMatch(/^\d+\.\d+\.\d+$/);
    const all = [
      helpersText,
      ...templateFiles.map((f) => read(`${chart}/templates/${f}`)),
      read(`${chart}/templates/NOTES.txt`),
    ];
    for (const text of all) {
      for (const [, dotted] of text.matchAll(/\.Values\.([\w.]*\w)/g))
        expect(() => valueAt(values, dotted)).not.toThrow();
      for (const [, name] of text.matchAll(/include "([^"]+)"/g)) expect(helpers.has(name), name).toBe(true);
      const opened = [...text.matchAll(/\{\{-?\s*(if|with|range|define)\b/g)].length;
      const ended = [...text.matchAll(/\{\{-?\s*end\s*-?\}\}/g)].length;
      expect(ended).toBe(opened);
    }
  });

  it('renders each template to Kubernetes objects with an apiVersion and a kind', () => {
    expect(
      manifests.map(({ file, manifest }) => `${file}: ${manifest.apiVersion} ${manifest.kind}`).sort(),
    ).toEqual([
      'api-deployment.yaml: apps/v1 Deployment',
      'api-service.yaml: v1 Service',
      'migration-job.yaml: batch/v1 Job',
      'secret.yaml: v1 Secret',
      'worker-deployment.yaml: apps/v1 Deployment',
      'worker-hpa.yaml: autoscaling/v2 HorizontalPodAutoscaler',
    ]);
  });

  it('runs the API and the workers as their roles, with probes, non-root, secrets from the Secret', () => {
    for (const [component, role] of [
      ['api', 'api'],
      ['worker', 'worker'],
    ]) {
      const manifest = deployment(component);
      const pod = manifest.spec.template.spec;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(container(manifest).securityContext).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
      expect(container(manifest).livenessProbe).toBeDefined();
      expect(container(manifest).startupProbe).toBeDefined();
      const env = envOf(manifest);
      expect(env.get('ROLE')).toEqual({ name: 'ROLE', value: role });
      for (const name of ['DATABASE_URL', 'JWT_SECRET', 'ENCRYPTION_KEY']) {
        expect(env.get(name)?.valueFrom?.secretKeyRef).toEqual({ name: secret.metadata.name, key: name });
      }
      // The pod's labels carry its selector's: a Deployment whose selector misses its pods is refused.
      expect(manifest.spec.template.metadata.labels).toMatchObject(manifest.spec.selector.matchLabels);
      expect(manifest.spec.selector.matchLabels['app.kubernetes.io/component']).toBe(component);
    }
    const api = container(deployment('api'));
    expect(api.readinessProbe.httpGet).toEqual({ path: '/api/health', port: 'http' });
    expect(api.startupProbe.httpGet).toEqual({ path: '/api/health', port: 'http' });
    expect(api.ports).toContainEqual({ name: 'http', containerPort: 5000 });
    expect(container(deployment('worker')).livenessProbe.exec.command).toEqual([
      '/app/scripts/container-start.sh',
      'health',
    ]);
  });

  it('sends the Service to the API pods only', () => {
    const service = byKind('Service')[0];
    expect(service.spec.selector).toEqual(deployment('api').spec.selector.matchLabels);
    expect(service.spec.ports[0].targetPort).toBe('http');
  });

  it('scales the worker Deployment on crewline_runs_queued, which then owns its replica count', () => {
    const hpa = byKind('HorizontalPodAutoscaler')[0];
    const worker = deployment('worker');
    expect(hpa.spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: worker.metadata.name,
    });
    expect(hpa.spec.metrics).toEqual([
      {
        type: 'External',
        external: {
          metric: { name: 'crewline_runs_queued' },
          target: { type: 'AverageValue', averageValue: expect.any(String) },
        },
      },
    ]);
    expect(directiveOf(hpa.spec.minReplicas)).toBe('.Values.worker.autoscaling.minReplicas');
    // The template sets replicas only without the autoscaler (the line is inside that `if`).
    expect(read(`${chart}/templates/worker-deployment.yaml`)).toMatch(
      /\{\{- if not \.Values\.worker\.autoscaling\.enabled \}\}\n\s+replicas: .*\n\s+\{\{- end \}\}/,
    );
    expect(values.worker.autoscaling.enabled).toBe(true);
    expect(values.metrics.enabled).toBe(true);
    expect(envOf(worker).get('METRICS_PORT')).toBeDefined();
  });

  it('migrates in a Job before every install and upgrade, after its Secret exists', () => {
    expect(job.metadata.annotations['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(container(job).args).toEqual(['migrate']);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
    expect(job.spec.template.spec.securityContext).toMatchObject({ runAsNonRoot: true });
    const env = envOf(job);
    expect(env.get('DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
      name: secret.metadata.name,
      key: 'DATABASE_URL',
    });
    // Pre-install hooks run before the release's ordinary objects: the Secret is a hook too, made first.
    expect(secret.metadata.annotations['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(Number(secret.metadata.annotations['helm.sh/hook-weight'])).toBeLessThan(
      Number(job.metadata.annotations['helm.sh/hook-weight']),
    );
    expect(Object.keys(secret.stringData).sort()).toEqual(['DATABASE_URL', 'ENCRYPTION_KEY', 'JWT_SECRET']);
    // Required: an install without the secrets stops with a message instead of starting without them.
    for (const value of Object.values(secret.stringData) as string[])
      expect(directiveOf(value)).toMatch(/^required "/);
  });
});
