import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';
import type { Answer } from '../../api/types.ts';

export type Person = Answer<'/people/{id}', 'get'>;

export const peopleKeys = {
  all: ['people'] as const,
};

/** The faces found so far, grouped; asked again while photos are still being looked at. */
export function usePeople() {
  return useQuery({
    queryKey: peopleKeys.all,
    queryFn: () => data(api.GET('/people')),
    refetchInterval: (query) => ((query.state.data?.progress.waiting ?? 0) > 0 ? 5_000 : false),
  });
}

export function useNamePerson() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      data(api.PATCH('/people/{id}', { params: { path: { id } }, body: { name } })),
    onSuccess: () => client.invalidateQueries({ queryKey: peopleKeys.all }),
  });
}
