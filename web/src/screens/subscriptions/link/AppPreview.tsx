// "What each app receives": pick an app (or type a User-Agent) and see what the link answers it right now through
// GET .../preview: the format and the rule that chose it, the servers (and those the format leaves out), the body.
import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Code, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../shell/Layout';
import type { Subscription } from '../queries';
import { SUBSCRIPTIONS } from '../strings';
import { describeError } from '../errors';
import { SUBSCRIPTION_LINK } from './strings';
import { PREVIEW_APPS } from './apps';
import { usePreview, type PreviewRequest } from './queries';
import { serversOf } from './servers';

const CUSTOM = 'custom';
/** How much of the body is shown: enough to recognise the document, little enough for a phone. */
const BODY_START = 1200;
const SKIP_CODES = ['insecure_tls', 'unsupported_transport', 'unsupported_by_client'];

export function AppPreview({ subscription }: { subscription: Subscription }) {
  const { t, i18n } = useTranslation(SUBSCRIPTION_LINK);
  const { t: ts } = useTranslation(SUBSCRIPTIONS);
  const [choice, setChoice] = useState(PREVIEW_APPS[0]?.id ?? CUSTOM);
  const [typed, setTyped] = useState('');
  const [customAgent, setCustomAgent] = useState<string | null>(null);

  const app = PREVIEW_APPS.find((candidate) => candidate.id === choice);
  const request: PreviewRequest | null = app
    ? { userAgent: app.userAgent, ...(app.accept ? { accept: app.accept } : {}) }
    : customAgent === null
      ? null
      : { userAgent: customAgent };
  const preview = usePreview(subscription.token, request);
  // The servers with their names: the plain list, which every format starts from.
  const plain = usePreview(subscription.token, { format: 'plain' });
  const numbers = new Intl.NumberFormat(i18n.language);

  const onCustom = (event: FormEvent) => {
    event.preventDefault();
    setCustomAgent(typed.trim());
  };
  const skipped = new Map(preview.data?.skipped.map((skip) => [skip.data, skip.reason]));
  const reason = (text: string) => (SKIP_CODES.includes(text) ? t(`preview.skipReasons.${text}`) : text);

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('preview.title')}
        </Title>
        <Text size="sm">{t('preview.hint')}</Text>
        <NativeSelect
          label={t('preview.app')}
          value={choice}
          onChange={(event) => setChoice(event.currentTarget.value)}
          data={[
            ...PREVIEW_APPS.map((candidate) => ({
              value: candidate.id,
              label: candidate.labelKey ? t(candidate.labelKey) : candidate.name,
            })),
            { value: CUSTOM, label: t('preview.custom') },
          ]}
        />
        {choice === CUSTOM && (
          <form onSubmit={onCustom}>
            <Group align="flex-end" gap="xs">
              <TextInput
                label={t('preview.userAgent')}
                value={typed}
                onChange={(event) => setTyped(event.currentTarget.value)}
                dir="ltr"
                spellCheck={false}
                maxLength={512}
                style={{ flex: '1 1 14rem' }}
              />
              <Button type="submit">{t('preview.show')}</Button>
            </Group>
          </form>
        )}
        {app && (
          <Text size="xs" c="dimmed" dir="ltr" style={{ wordBreak: 'break-all' }}>
            User-Agent: {app.userAgent}
          </Text>
        )}
        {preview.isFetching && <Loading />}
        {preview.isError && (
          <Alert color="red" role="alert">
            {describeError(preview.error, ts)}
          </Alert>
        )}
        {request && preview.data && (
          <Stack gap="xs" aria-live="polite">
            <Group gap="xs">
              <Badge variant="light" style={{ textTransform: 'none' }}>
                {t('preview.format', { format: preview.data.format })}
              </Badge>
              <Badge variant="outline" color="gray" style={{ textTransform: 'none' }}>
                {t('preview.rule', { rule: preview.data.rule })}
              </Badge>
              <Badge variant="outline" color="gray">
                {t('preview.served', { count: numbers.format(preview.data.served) })}
              </Badge>
            </Group>
            {preview.data.format === 'block' ? (
              <Alert color="red">{t('preview.blocked')}</Alert>
            ) : (
              <>
                <Text size="sm" fw={600} id="preview-servers">
                  {t('preview.servers')}
                </Text>
                {plain.data && plain.data.served === 0 && <Text size="sm">{t('preview.noServers')}</Text>}
                <Stack component="ol" gap={4} m={0} ps="lg" aria-labelledby="preview-servers">
                  {serversOf(plain.data?.body ?? '').map((server) => (
                    <li key={server.uri}>
                      <Text size="sm" span>
                        {server.name}
                      </Text>{' '}
                      {skipped.has(server.uri) && (
                        <Badge color="orange" variant="light" style={{ textTransform: 'none' }}>
                          {t('preview.skipped', { reason: reason(skipped.get(server.uri) ?? '') })}
                        </Badge>
                      )}
                    </li>
                  ))}
                </Stack>
              </>
            )}
            <Text size="sm" fw={600} id="preview-body">
              {t('preview.body')}
            </Text>
            <Code
              block
              dir="ltr"
              aria-labelledby="preview-body"
              style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
            >
              {preview.data.body.length > BODY_START ? `${preview.data.body.slice(0, BODY_START)}…` : preview.data.body}
            </Code>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
