// The organization's datasets: the list, one dataset with its items, create, delete, add and remove
// items. Every read sits under evaluationKeys.datasets, so a change refreshes the list and the page.
import type { CreateDatasetInput, Dataset, DatasetItemInput, DatasetItemList } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { api } from '@/lib/api-call';
import { evaluationKeys } from '@/lib/evaluation-keys';

/** Re-read when a screen showing them opens and the copy is older than this. */
const STALE_TIME = 30_000;

export function useDatasets() {
  return useQuery<Dataset[]>({ queryKey: evaluationKeys.datasets, staleTime: STALE_TIME });
}

/** One dataset and its items (GET /api/datasets/:id/items answers both). */
export function useDatasetItems(id: string) {
  return useQuery<DatasetItemList>({
    queryKey: evaluationKeys.items(id),
    enabled: !!id,
    staleTime: STALE_TIME,
  });
}

/** A dataset changed: the list, its page and the evaluations naming it are read again. */
function useRefreshDatasets() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: evaluationKeys.datasets });
}

export function useCreateDataset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateDatasetInput) => api.call(endpoints.evaluations.createDataset, { body: input }),
    onSuccess: (dataset) => {
      queryClient.setQueryData<Dataset[]>(evaluationKeys.datasets, (list) =>
        list && dataset ? [dataset, ...list] : list,
      );
      void queryClient.invalidateQueries({ queryKey: evaluationKeys.datasets, exact: true });
    },
  });
}

export function useDeleteDataset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; name: string }) =>
      api.call(endpoints.evaluations.removeDataset, { params: { id } }),
    onSuccess: (_data, { id, name }) => {
      queryClient.setQueryData<Dataset[]>(evaluationKeys.datasets, (list) =>
        list?.filter((dataset) => dataset.id !== id),
      );
      queryClient.removeQueries({ queryKey: evaluationKeys.dataset(id) });
      void queryClient.invalidateQueries({ queryKey: evaluationKeys.datasets, exact: true });
      // Its evaluations went with it.
      void queryClient.invalidateQueries({ queryKey: evaluationKeys.evaluations });
      toast({
        title: 'Dataset deleted',
        description: `"${name}", its evaluations and their runs were deleted.`,
      });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: getErrorMessage(error, 'Failed to delete the dataset'),
      });
    },
  });
}

export function useAddDatasetItems(datasetId: string) {
  const refresh = useRefreshDatasets();
  return useMutation({
    mutationFn: (items: DatasetItemInput[]) =>
      api.call(endpoints.evaluations.addItems, { params: { id: datasetId }, body: { items } }),
    onSuccess: refresh,
  });
}

export function useRemoveDatasetItem(datasetId: string) {
  const refresh = useRefreshDatasets();
  return useMutation({
    mutationFn: (itemId: string) =>
      api.call(endpoints.evaluations.removeItem, { params: { id: datasetId, itemId } }),
    onSuccess: refresh,
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: getErrorMessage(error, 'Failed to remove the item'),
      });
    },
  });
}
