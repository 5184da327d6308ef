// Holds the format rules, templates and settings every instance serves with, loaded once and reloaded when the change log says so.
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/database.js';
import type { ChangeLog } from '../../changes/change-log.js';
import { TEMPLATED_FORMATS, type TemplatedFormat } from '../../formats/formats.js';
import { BUILTIN_TEMPLATES, templateProblem } from '../../formats/render/index.js';
import { errors } from '../../http/errors.js';
import {
  compileRules,
  DEFAULT_FORMAT_RULES,
  validateRules,
  type CompiledRules,
  type FormatRule,
} from './format-rules.js';
import {
  deleteRuleList,
  deleteTemplate,
  readRuleList,
  readSettings,
  readTemplates,
  writeRuleList,
  writeSetting,
  writeTemplate,
} from './formats.store.js';
import { adminEvent } from '../../events/subjects.js';

/** Settings that shape the rendered formats (docs/admin-api.md); stored in format_settings under these names. */
export interface FormatOptions {
  xray_allow_insecure: boolean;
}

const DEFAULT_OPTIONS: FormatOptions = { xray_allow_insecure: false };
const OPTION_NAMES = Object.keys(DEFAULT_OPTIONS) as (keyof FormatOptions)[];

export interface TemplateView {
  format: TemplatedFormat;
  template: string;
  builtin: boolean;
}

interface Snapshot {
  rules: CompiledRules;
  templates: Record<TemplatedFormat, string>;
  custom: Set<TemplatedFormat>;
  options: FormatOptions;
  /** Bumped on every reload, so output rendered with older settings is recognised as stale. */
  version: number;
}

export class FormatSettings {
  private snapshot: Snapshot = {
    rules: compileRules(DEFAULT_FORMAT_RULES),
    templates: { ...BUILTIN_TEMPLATES },
    custom: new Set(),
    options: DEFAULT_OPTIONS,
    version: 0,
  };

  private constructor(
    private readonly database: DatabaseHandle,
    private readonly changes: ChangeLog,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  static async start(
    database: DatabaseHandle,
    changes: ChangeLog,
    log: Pick<FastifyBaseLogger, 'warn'>,
  ): Promise<FormatSettings> {
    const settings = new FormatSettings(database, changes, log);
    await changes.keepLoaded(['rules', 'templates'], () => settings.reload());
    return settings;
  }

  get rules(): CompiledRules {
    return this.snapshot.rules;
  }

  get version(): number {
    return this.snapshot.version;
  }

  get options(): FormatOptions {
    return this.snapshot.options;
  }

  template(format: TemplatedFormat): string {
    return this.snapshot.templates[format];
  }

  templateView(format: TemplatedFormat): TemplateView {
    return { format, template: this.snapshot.templates[format], builtin: !this.snapshot.custom.has(format) };
  }

  async replaceRules(rules: FormatRule[]): Promise<FormatRule[]> {
    const valid = validateRules(rules);
    await this.changes.write(async (trx, record, emit) => {
      await writeRuleList(trx, JSON.stringify(valid), new Date().toISOString());
      record({ kind: 'rules' });
      emit(adminEvent('settings.changed', 'settings:rules', { setting: 'rules', rules: valid.length }));
    });
    return [...this.snapshot.rules.rules];
  }

  async restoreDefaultRules(): Promise<FormatRule[]> {
    await this.changes.write(async (trx, record, emit) => {
      await deleteRuleList(trx);
      record({ kind: 'rules' });
      emit(adminEvent('settings.changed', 'settings:rules', { setting: 'rules', restored_default: true }));
    });
    return [...this.snapshot.rules.rules];
  }

  async replaceTemplate(format: TemplatedFormat, template: string): Promise<TemplateView> {
    const problem = templateProblem(format, template);
    if (problem?.unusable) throw errors.invalidTemplate(format, problem.reason);
    if (problem) {
      throw errors.validation(`The ${format} template cannot be used; nothing was changed.`, [
        { path: 'body.template', message: problem.reason },
      ]);
    }
    await this.changes.write(async (trx, record, emit) => {
      await writeTemplate(trx, format, template, new Date().toISOString());
      record({ kind: 'templates' });
      emit(adminEvent('settings.changed', `settings:template:${format}`, { setting: 'template', format }));
    });
    return this.templateView(format);
  }

  async restoreBuiltinTemplate(format: TemplatedFormat): Promise<TemplateView> {
    await this.changes.write(async (trx, record, emit) => {
      await deleteTemplate(trx, format);
      record({ kind: 'templates' });
      const data = { setting: 'template', format, restored_default: true };
      emit(adminEvent('settings.changed', `settings:template:${format}`, data));
    });
    return this.templateView(format);
  }

  /**
   * Stores the settings. The change is logged as a template change: every instance reloads and drops its rendered
   * bodies, as for a new template (older instances, which know no settings, then do the same harmlessly).
   */
  async replaceOptions(options: FormatOptions): Promise<FormatOptions> {
    await this.changes.write(async (trx, record, emit) => {
      const now = new Date().toISOString();
      for (const name of OPTION_NAMES) await writeSetting(trx, name, JSON.stringify(options[name]), now);
      record({ kind: 'templates' });
      emit(adminEvent('settings.changed', 'settings:format-settings', { setting: 'format_settings', ...options }));
    });
    return this.snapshot.options;
  }

  /** Reads them all from the database; a stored value that no longer validates falls back to the default, logged. */
  private async reload(): Promise<void> {
    const db = this.database.db;
    const [ruleJson, stored, settings] = await Promise.all([
      readRuleList(db),
      readTemplates(db),
      readSettings(db, OPTION_NAMES),
    ]);
    const templates = { ...BUILTIN_TEMPLATES };
    const custom = new Set<TemplatedFormat>();
    for (const { format, template } of stored) {
      if (!(TEMPLATED_FORMATS as readonly string[]).includes(format)) continue;
      // Also catches templates stored before a check was added (docs/templates.md): the link keeps working.
      const problem = templateProblem(format as TemplatedFormat, template);
      if (problem) {
        this.log.warn({ format, problem: problem.reason }, 'stored template is not usable; serving the built-in one');
        continue;
      }
      templates[format as TemplatedFormat] = template;
      custom.add(format as TemplatedFormat);
    }
    this.snapshot = {
      rules: compileRules(this.parseRules(ruleJson)),
      templates,
      custom,
      options: { xray_allow_insecure: settings.get('xray_allow_insecure') === 'true' },
      version: this.snapshot.version + 1,
    };
  }

  private parseRules(json: string | null): readonly FormatRule[] {
    if (json === null) return DEFAULT_FORMAT_RULES;
    try {
      return validateRules(JSON.parse(json) as FormatRule[]);
    } catch (error) {
      this.log.warn({ err: error }, 'stored format rules are not usable; serving the defaults');
      return DEFAULT_FORMAT_RULES;
    }
  }
}
