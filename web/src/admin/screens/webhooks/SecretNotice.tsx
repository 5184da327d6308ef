// A signing secret, shown once (after create or rotate), with a copy button and, after a rotation, the overlap's end.
import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { WEBHOOKS } from './strings';

interface Props {
  title: string;
  secret: string;
  /** After a rotation: until when the old secret still signs. */
  previousExpiresAt?: string;
  onDone: () => void;
}

export function SecretNotice({ title, secret, previousExpiresAt, onDone }: Props) {
  const { t, i18n } = useTranslation(WEBHOOKS);
  const time = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  return (
    <Alert color="yellow" role="alert" title={title}>
      <Stack gap="xs">
        <Code block dir="ltr" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {secret}
        </Code>
        <Text size="sm">{t('secret.once')}</Text>
        {previousExpiresAt && <Text size="sm">{t('secret.both', { time: time(previousExpiresAt) })}</Text>}
        <Group gap="xs">
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button size="xs" onClick={copy} color={copied ? 'teal' : undefined}>
                {copied ? t('secret.copied') : t('secret.copy')}
              </Button>
            )}
          </CopyButton>
          <Button size="xs" variant="default" onClick={onDone}>
            {t('secret.done')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
