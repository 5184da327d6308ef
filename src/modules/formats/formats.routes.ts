// Admin endpoints for the format rules, the templates and the format settings (mounted under /api/v1/admin, behind its guards).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errors } from '../../http/errors.js';
import { errorResponses } from '../../http/schemas.js';
import { FORMATS, TEMPLATED_FORMATS, formatNamed, type TemplatedFormat } from '../../formats/formats.js';
import type { FormatSettings } from './format-settings.js';
import { chooseLink, compileRules, validateRules, type FormatRule } from './format-rules.js';
import { servedFormat } from './client-versions.js';
import {
  FormatRulesBody,
  FormatRulesResponse,
  FormatSettingsBody,
  FormatSettingsResponse,
  RulePreviewBody,
  RulePreviewResponse,
  TemplateBody,
  TemplateParams,
  TemplateResponse,
} from './formats.schemas.js';

/** The templated format a path names (`clash` is `mihomo`): 400 for unknown names, 404 for formats without one. */
function templatedFormat(name: string): TemplatedFormat {
  const format = formatNamed(name);
  if (!format) throw errors.unknownFormat(name, [...FORMATS]);
  if (!(TEMPLATED_FORMATS as readonly string[]).includes(format)) {
    throw errors.notFound(`The ${format} format has no template.`);
  }
  return format as TemplatedFormat;
}

export const formatAdminRoutes: FastifyPluginAsync<{ formats: FormatSettings }> = async (fastify, { formats }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const rulesAnswer = (rules: FormatRule[]) => ({ rules });

  app.get(
    '/format-rules',
    {
      schema: {
        summary: 'Format rules',
        description: 'The ordered rules that choose the public link format from request headers.',
        response: { 200: FormatRulesResponse },
      },
    },
    async () => rulesAnswer([...formats.rules.rules]),
  );

  app.put(
    '/format-rules',
    {
      schema: {
        summary: 'Replace the format rules',
        description:
          'Replaces the whole list. Ids are unique; header names are HTTP tokens; a regex is RE2 syntax: a malformed ' +
          'one is 400 validation_failed, one using backreferences or lookaround 400 invalid_pattern. A refused ' +
          'list changes nothing. Every instance serves the new list within a second and drops its cached bodies.',
        body: FormatRulesBody,
        response: { 200: FormatRulesResponse, ...errorResponses(400) },
      },
    },
    async (request) => rulesAnswer(await formats.replaceRules(request.body.rules as FormatRule[])),
  );

  app.delete(
    '/format-rules',
    {
      schema: {
        summary: 'Restore the default format rules',
        description: 'Restores the built-in rule list and answers with it.',
        response: { 200: FormatRulesResponse },
      },
    },
    async () => rulesAnswer(await formats.restoreDefaultRules()),
  );

  app.post(
    '/format-rules/preview',
    {
      schema: {
        summary: 'Preview the format rules',
        description:
          'Answers which format and rule the public link would choose for these headers, with the rules in force or ' +
          'with `rules` (checked as PUT checks them, never saved), after the client-version adjustment.',
        body: RulePreviewBody,
        response: { 200: RulePreviewResponse, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { rules, user_agent: userAgent, accept } = request.body;
      const compiled = rules ? compileRules(validateRules(rules as FormatRule[])) : formats.rules;
      const choice = chooseLink(compiled, { headers: { 'user-agent': userAgent, accept } });
      if (choice.result !== 'sing-box' && choice.result !== 'mihomo')
        return { format: choice.result, rule: choice.rule };
      const served = servedFormat(choice.result, userAgent);
      return { format: served.variant ?? served.format, rule: choice.rule };
    },
  );

  app.get(
    '/format-settings',
    {
      schema: {
        summary: 'Format settings',
        description: 'Settings that shape the rendered formats (see docs/admin-api.md).',
        response: { 200: FormatSettingsResponse },
      },
    },
    async () => formats.options,
  );

  app.put(
    '/format-settings',
    {
      schema: {
        summary: 'Replace the format settings',
        description:
          'Stores the settings and answers like GET. Every instance renders with them within a second and drops ' +
          'its cached bodies.',
        body: FormatSettingsBody,
        response: { 200: FormatSettingsResponse, ...errorResponses(400) },
      },
    },
    async (request) => formats.replaceOptions(request.body),
  );

  app.get(
    '/templates/:format',
    {
      schema: {
        summary: 'Template of a structured format',
        description: 'The mihomo, sing-box or xray template the link renders into (see docs/templates.md).',
        params: TemplateParams,
        response: { 200: TemplateResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => formats.templateView(templatedFormat(request.params.format)),
  );

  app.put(
    '/templates/:format',
    {
      schema: {
        summary: 'Replace a template',
        description:
          'Replaces the template; it must parse and keep its insertion points (400 validation_failed otherwise), ' +
          'nest at most 32 levels and render sample servers of every protocol into a readable document (400 ' +
          'invalid_template otherwise); a refused template changes nothing. Cached bodies are dropped on every instance.',
        params: TemplateParams,
        body: TemplateBody,
        response: { 200: TemplateResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => formats.replaceTemplate(templatedFormat(request.params.format), request.body.template),
  );

  app.delete(
    '/templates/:format',
    {
      schema: {
        summary: 'Restore a built-in template',
        description: 'Restores the built-in template of the format and answers like GET.',
        params: TemplateParams,
        response: { 200: TemplateResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => formats.restoreBuiltinTemplate(templatedFormat(request.params.format)),
  );
};
