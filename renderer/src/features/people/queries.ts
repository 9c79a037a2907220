import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';
import type { Answer } from '../../api/types.ts';

export type Person = Answer<'/people/{id}', 'get'>;

export const peopleKeys = {
  all: ['people'] as const,
};

/** The faces found so far, grouped; fetched again when the server says they changed (useLivePeople). */
export function usePeople() {
  return useQuery({
    queryKey: peopleKeys.all,
    queryFn: () => data(api.GET('/people')),
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
