import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DATASET_IMPORT_MAX_BYTES } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { AppError } from '../../platform/errors';
import { route } from '../../platform/route';
import type { DatasetsService } from './datasets.service';
import type { EvalRunsService } from './eval-runs.service';
import type { EvaluationsService } from './evaluations.service';

const { evaluations: api } = endpoints;

/** The text types a dataset file comes as (JSON goes through the app's JSON parser). */
const TEXT_TYPES = ['text/csv', 'application/jsonl', 'application/x-ndjson'];

/** Datasets, evaluations and eval runs: any member of the organization, with a session or an API key. */
export function evaluationsRoutes(services: {
  datasets: DatasetsService;
  evaluations: EvaluationsService;
  evalRuns: EvalRunsService;
}): FastifyPluginAsyncZod {
  const { datasets, evaluations, evalRuns } = services;
  return async (app) => {
    const org = (request: { auth: { organizationId: string } }) => request.auth.organizationId;

    route(app, api.listDatasets, async (request) => datasets.list(org(request)));
    route(app, api.createDataset, async (request) =>
      datasets.create(org(request), request.auth.userId, request.body),
    );
    route(app, api.getDataset, async (request) => datasets.get(org(request), request.params.id));
    route(app, api.updateDataset, async (request) =>
      datasets.update(org(request), request.params.id, request.body),
    );
    route(app, api.removeDataset, async (request, reply) => {
      await datasets.remove(org(request), request.params.id);
      return reply.status(204).send();
    });
    route(app, api.listItems, async (request) => datasets.items(org(request), request.params.id));
    route(app, api.addItems, async (request) =>
      datasets.addItems(org(request), request.params.id, request.body.items),
    );
    route(app, api.removeItem, async (request, reply) => {
      await datasets.removeItem(org(request), request.params.id, request.params.itemId);
      return reply.status(204).send();
    });
    route(app, api.itemsFromExecutions, async (request) =>
      datasets.fromExecutions(org(request), request.params.id, request.body),
    );

    // The import reads the file as text (CSV, JSONL) or JSON; any other type is refused by name.
    await app.register(async (files) => {
      files.addContentTypeParser(
        TEXT_TYPES,
        { parseAs: 'string', bodyLimit: DATASET_IMPORT_MAX_BYTES },
        (_r, body, done) => done(null, body),
      );
      files.addContentTypeParser('*', (_request, _payload, done) =>
        done(new AppError(415, 'Send the file as text/csv, application/jsonl or application/json')),
      );
      route(
        files,
        api.importItems,
        async (request) =>
          datasets.importFile(
            org(request),
            request.params.id,
            (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase(),
            request.body,
            request.query,
          ),
        { bodyLimit: DATASET_IMPORT_MAX_BYTES },
      );
    });

    route(app, api.list, async (request) => evaluations.list(org(request), request.query.workflowId));
    route(app, api.create, async (request) =>
      evaluations.create(org(request), request.auth.userId, request.body),
    );
    route(app, api.get, async (request) => evaluations.get(org(request), request.params.id));
    route(app, api.update, async (request) =>
      evaluations.update(org(request), request.params.id, request.body),
    );
    route(app, api.remove, async (request, reply) => {
      await evaluations.remove(org(request), request.params.id);
      return reply.status(204).send();
    });

    route(app, api.listRuns, async (request) => evalRuns.list(org(request), request.params.id));
    route(app, api.startRun, async (request, reply) => {
      const run = await evalRuns.start(org(request), request.auth.userId, request.params.id, request.body);
      return reply.status(202).send({ id: run.id, status: run.status });
    });
    route(app, api.compareRuns, async (request) =>
      evalRuns.compare(org(request), request.query.a, request.query.b),
    );
    route(app, api.getRun, async (request) => evalRuns.get(org(request), request.params.id));
    route(app, api.cancelRun, async (request) => evalRuns.cancel(org(request), request.params.id));
  };
}
