// One subscription: its public link with a copy button, and its sources in order.
import { Link, useParams } from 'react-router';
import { Alert, Anchor, Badge, Button, Code, CopyButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../shell/Layout';
import { SUBSCRIPTIONS } from './strings';
import { useSubscription } from './queries';
import { describeError } from './errors';
import { RequestHistory } from './RequestHistory';

export default function SubscriptionDetail() {
  const { t } = useTranslation(SUBSCRIPTIONS);
  const token = useParams().token ?? '';
  const sub = useSubscription(token);

  return (
    <Stack>
      <Anchor component={Link} to="/subs">
        {t('detail.back')}
      </Anchor>
      {sub.isPending && <Loading />}
      {sub.isError && (
        <Alert color="red" role="alert">
          {describeError(sub.error, t)}
        </Alert>
      )}
      {sub.data && (
        <>
          <Title order={2}>{sub.data.name}</Title>
          {sub.data.description && <Text c="dimmed">{sub.data.description}</Text>}
          <Paper withBorder p="md">
            <Stack gap="xs">
              <Title order={3} size="h4" id="link-title">
                {t('detail.link')}
              </Title>
              <Text size="sm">{t('detail.linkHint')}</Text>
              <Code
                block
                dir="ltr"
                aria-labelledby="link-title"
                style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
              >
                {sub.data.link}
              </Code>
              <CopyButton value={sub.data.link}>
                {({ copied, copy }) => (
                  <Button onClick={copy} color={copied ? 'teal' : undefined} w="fit-content">
                    {copied ? t('detail.copied') : t('detail.copy')}
                  </Button>
                )}
              </CopyButton>
            </Stack>
          </Paper>
          <Title order={3} size="h4">
            {t('detail.sources')}
          </Title>
          {sub.data.sources.length === 0 && <Text>{t('detail.noSources')}</Text>}
          <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
            {sub.data.sources.map((source) => (
              <Paper key={source.id} withBorder p="xs" component="li">
                <Group gap="xs" mb={4}>
                  <Badge variant="light">{t(`detail.types.${source.source_type}`)}</Badge>
                  {source.is_hidden && <Badge color="gray">{t('detail.hidden')}</Badge>}
                  {source.last_error && <Badge color="red">{t('detail.failing')}</Badge>}
                </Group>
                <Text size="sm" dir="ltr" style={{ wordBreak: 'break-all' }} ff="monospace">
                  {source.comment ?? source.data}
                </Text>
              </Paper>
            ))}
          </Stack>
          <RequestHistory token={token} />
        </>
      )}
    </Stack>
  );
}
