// The Evaluations area's routes under /evaluations, as app-routes.tsx mounts them (`evaluations/*`):
// one lazy module there for the five screens, each page lazy in turn from here. app-routes.tsx loads
// with the dashboard's first JavaScript, where every lazy page costs its chunk's preload list and
// route (npm run check:bundle); this way the area costs one, and each page still downloads only its
// own code.
import { lazy, type ComponentType } from 'react';
import { Route, Routes } from 'react-router';

import { NotFoundPage } from '@/components/not-found-page';

import { EVALUATIONS_PATH } from './datasets/dataset-paths';

function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

const EvaluationsPage = page(() => import('./pages/evaluations-page'), 'EvaluationsPage');
const DatasetPage = page(() => import('./pages/dataset-page'), 'DatasetPage');
const EvaluationPage = page(() => import('./pages/evaluation-page'), 'EvaluationPage');
const EvalRunPage = page(() => import('./pages/eval-run-page'), 'EvalRunPage');
const EvalComparePage = page(() => import('./pages/eval-compare-page'), 'EvalComparePage');

export function EvaluationRoutes() {
  return (
    <Routes>
      <Route index element={<EvaluationsPage />} />
      <Route path="datasets/:id" element={<DatasetPage />} />
      <Route path="runs/:id" element={<EvalRunPage />} />
      <Route path="compare" element={<EvalComparePage />} />
      <Route path=":id" element={<EvaluationPage />} />
      <Route
        path="*"
        element={
          <NotFoundPage
            title="Page Not Found"
            item="page"
            backTo={EVALUATIONS_PATH}
            backLabel="Back to Evaluations"
          />
        }
      />
    </Routes>
  );
}
