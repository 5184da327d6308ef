// The Activity screen: the user's audit log (GET /api/v1/me/audit), newest first, older pages on demand.
import { Stack, Text, Title } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { paths } from '../../api/schema';
import { useSession } from '../../shell/session';
import { AuditCard, AuditList } from '../../audit/AuditList';
import { actionWords } from '../../audit/summary';
import { ACTIVITY } from './strings';
import { useAuditLog, useSubscriptionNames } from './queries';

type Entry = paths['/api/v1/me/audit']['get']['responses'][200]['content']['application/json']['entries'][number];

export default function Activity() {
  const { t } = useTranslation(ACTIVITY);
  const log = useAuditLog();
  const userId = useSession().data?.user_id;
  const names = useSubscriptionNames().data;

  return (
    <Stack>
      <Title order={2}>{t('title')}</Title>
      <Text>{t('intro')}</Text>
      <AuditList ns={ACTIVITY} label={t('title')} log={log}>
        {(entry) => (
          <AuditCard
            ns={ACTIVITY}
            entry={entry}
            action={actionWords(entry.action, t, ACTIVITY)}
            actor={actorName(entry, userId, t)}
            target={<bdi>{targetName(entry, names, t)}</bdi>}
          />
        )}
      </AuditList>
    </Stack>
  );
}

function actorName(entry: Entry, userId: number | undefined, t: TFunction): string {
  const { kind, id } = entry.actor;
  if (kind === 'user') return userId === undefined || id === String(userId) ? t('actors.you') : id;
  if (kind === 'provider') return t('actors.provider', { name: id });
  return t(`actors.${kind}`);
}

/** `subscription:sub_…` shows the subscription's name (the entry's, else today's); `connection:42:acme` its provider. */
function targetName(entry: Entry, names: Map<string, string> | undefined, t: TFunction): string {
  const [kind = '', ...rest] = entry.target.split(':');
  const summary = entry.summary;
  const label = t(`targets.${kind}`, { defaultValue: kind });
  if (kind === 'user') return label;
  const name = typeof summary['name'] === 'string' ? summary['name'] : names?.get(rest.join(':'));
  if (kind === 'subscription' && name !== undefined) return t('targets.subscriptionNamed', { name });
  if (kind === 'connection') return `${label} ${rest.at(-1) ?? ''}`;
  return `${label} ${rest.join(':')}`;
}
