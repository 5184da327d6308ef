// The formats screen's API calls: the format rules (with their preview), the templates and the format settings.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/client';
import type { paths } from '../../../api/schema';
import { adminApi } from '../../api';

type RulesBody = paths['/api/v1/admin/format-rules']['put']['requestBody']['content']['application/json'];
export type Rule = RulesBody['rules'][number];
export type TemplatedFormat = 'mihomo' | 'sing-box' | 'xray';

const RULES_KEY = ['admin', 'format-rules'];
const templateKey = (format: TemplatedFormat) => ['admin', 'templates', format];
const SETTINGS_KEY = ['admin', 'format-settings'];

export function useRules() {
  return useQuery({ queryKey: RULES_KEY, queryFn: () => unwrap(adminApi.GET('/api/v1/admin/format-rules')) });
}

export function useSaveRules() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (rules: Rule[]) => unwrap(adminApi.PUT('/api/v1/admin/format-rules', { body: { rules } })),
    onSuccess: (answer) => queries.setQueryData(RULES_KEY, answer),
  });
}

export function useRestoreRules() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(adminApi.DELETE('/api/v1/admin/format-rules')),
    onSuccess: (answer) => queries.setQueryData(RULES_KEY, answer),
  });
}

/** What the link would choose for these headers with the rules being edited (never saved). */
export function usePreviewRules() {
  return useMutation({
    mutationFn: (body: { rules: Rule[]; user_agent: string; accept: string }) =>
      unwrap(adminApi.POST('/api/v1/admin/format-rules/preview', { body })),
  });
}

export function useTemplate(format: TemplatedFormat) {
  return useQuery({
    queryKey: templateKey(format),
    queryFn: () => unwrap(adminApi.GET('/api/v1/admin/templates/{format}', { params: { path: { format } } })),
  });
}

export function useSaveTemplate(format: TemplatedFormat) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (template: string) =>
      unwrap(adminApi.PUT('/api/v1/admin/templates/{format}', { params: { path: { format } }, body: { template } })),
    onSuccess: (answer) => queries.setQueryData(templateKey(format), answer),
  });
}

export function useRestoreTemplate(format: TemplatedFormat) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(adminApi.DELETE('/api/v1/admin/templates/{format}', { params: { path: { format } } })),
    onSuccess: (answer) => queries.setQueryData(templateKey(format), answer),
  });
}

export function useFormatSettings() {
  return useQuery({ queryKey: SETTINGS_KEY, queryFn: () => unwrap(adminApi.GET('/api/v1/admin/format-settings')) });
}

export function useSaveFormatSettings() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (xrayAllowInsecure: boolean) =>
      unwrap(adminApi.PUT('/api/v1/admin/format-settings', { body: { xray_allow_insecure: xrayAllowInsecure } })),
    onSuccess: (answer) => queries.setQueryData(SETTINGS_KEY, answer),
  });
}
