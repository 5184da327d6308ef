// The webhooks screen's API calls: endpoints (list, create, update, delete, rotate, test) and their delivery log.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/client';
import type { paths } from '../../../api/schema';
import { adminApi } from '../../api';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
export type CreateBody = Json<paths['/api/v1/admin/webhooks']['post']['requestBody']>;
export type UpdateBody = Json<paths['/api/v1/admin/webhooks/{webhook_id}']['patch']['requestBody']>;
export type Webhook = Json<paths['/api/v1/admin/webhooks']['get']['responses'][200]>[number];
export type Delivery = Json<paths['/api/v1/admin/webhooks/{webhook_id}/deliveries']['get']['responses'][200]>[number];
export type EventType = CreateBody['events'][number];

const LIST_KEY = ['admin', 'webhooks'];
const deliveriesKey = (id: string) => ['admin', 'webhooks', id, 'deliveries'];
const path = (id: string) => ({ params: { path: { webhook_id: id } } });

export function useWebhooks() {
  return useQuery({ queryKey: LIST_KEY, queryFn: () => unwrap(adminApi.GET('/api/v1/admin/webhooks')) });
}

/** Every mutation of an endpoint ends by reading the list again. */
function useListMutation<A, R>(call: (arg: A) => Promise<R>) {
  const queries = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: () => queries.invalidateQueries({ queryKey: LIST_KEY }) });
}

export const useCreateWebhook = () =>
  useListMutation((body: CreateBody) => unwrap(adminApi.POST('/api/v1/admin/webhooks', { body })));

export const useUpdateWebhook = (id: string) =>
  useListMutation((body: UpdateBody) =>
    unwrap(adminApi.PATCH('/api/v1/admin/webhooks/{webhook_id}', { ...path(id), body })),
  );

export const useDeleteWebhook = (id: string) =>
  useListMutation(() => unwrap(adminApi.DELETE('/api/v1/admin/webhooks/{webhook_id}', path(id))));

export const useRotateSecret = (id: string) =>
  useListMutation(() => unwrap(adminApi.POST('/api/v1/admin/webhooks/{webhook_id}/rotate-secret', path(id))));

export function useSendTest(id: string) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(adminApi.POST('/api/v1/admin/webhooks/{webhook_id}/test', path(id))),
    onSuccess: () => queries.invalidateQueries({ queryKey: deliveriesKey(id) }),
  });
}

export function useDeliveries(id: string) {
  return useQuery({
    queryKey: deliveriesKey(id),
    queryFn: () => unwrap(adminApi.GET('/api/v1/admin/webhooks/{webhook_id}/deliveries', path(id))),
  });
}

export function useRedeliver(id: string) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(
        adminApi.POST('/api/v1/admin/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver', {
          params: { path: { webhook_id: id, delivery_id: deliveryId } },
        }),
      ),
    onSuccess: () => queries.invalidateQueries({ queryKey: deliveriesKey(id) }),
  });
}
