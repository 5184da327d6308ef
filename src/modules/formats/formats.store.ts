// Owns the format_settings and format_templates tables: the stored rule list, the format settings and the admins' templates.
import type { Executor } from '../../db/executor.js';

const RULES = 'rules';

/** The stored rule list as JSON text, or null when the defaults apply. */
export async function readRuleList(db: Executor): Promise<string | null> {
  const row = await db.selectFrom('format_settings').select('value').where('name', '=', RULES).executeTakeFirst();
  return row?.value ?? null;
}

export async function writeRuleList(db: Executor, json: string, now: string): Promise<void> {
  await db
    .insertInto('format_settings')
    .values({ name: RULES, value: json, updated_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: json, updated_at: now }))
    .execute();
}

export async function deleteRuleList(db: Executor): Promise<void> {
  await db.deleteFrom('format_settings').where('name', '=', RULES).execute();
}

/** Named settings besides the rule list (`xray_allow_insecure`), as stored text; absent names use their default. */
export async function readSettings(db: Executor, names: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.selectFrom('format_settings').select(['name', 'value']).where('name', 'in', names).execute();
  return new Map(rows.map((row) => [row.name, row.value]));
}

export async function writeSetting(db: Executor, name: string, value: string, now: string): Promise<void> {
  await db
    .insertInto('format_settings')
    .values({ name, value, updated_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: now }))
    .execute();
}

export async function readTemplates(db: Executor): Promise<{ format: string; template: string }[]> {
  return db.selectFrom('format_templates').select(['format', 'template']).execute();
}

export async function writeTemplate(db: Executor, format: string, template: string, now: string): Promise<void> {
  await db
    .insertInto('format_templates')
    .values({ format, template, updated_at: now })
    .onConflict((oc) => oc.column('format').doUpdateSet({ template, updated_at: now }))
    .execute();
}

export async function deleteTemplate(db: Executor, format: string): Promise<void> {
  await db.deleteFrom('format_templates').where('format', '=', format).execute();
}
