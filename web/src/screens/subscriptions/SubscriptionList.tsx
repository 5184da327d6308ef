// The user's subscriptions with their server counts and source health, and the form that creates one.
import { Link } from 'react-router';
import { Alert, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../shell/Layout';
import { SUBSCRIPTIONS } from './strings';
import { useSubscriptions } from './queries';
import { describeError } from './errors';
import { CreateSubscription } from './CreateSubscription';

export default function SubscriptionList() {
  const { t, i18n } = useTranslation(SUBSCRIPTIONS);
  const subs = useSubscriptions();
  const [creating, { open, close }] = useDisclosure(false);
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const numbers = new Intl.NumberFormat(i18n.language);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('list.title')}</Title>
        <Button onClick={open}>{t('list.create')}</Button>
      </Group>
      {subs.isPending && <Loading />}
      {subs.isError && (
        <Alert color="red" role="alert">
          {describeError(subs.error, t)}
        </Alert>
      )}
      {subs.data?.length === 0 && <Text>{t('list.empty')}</Text>}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {subs.data?.map((sub) => (
          <Card key={sub.token} withBorder component="li">
            <Stack gap={4}>
              <Text
                component={Link}
                to={`/subs/${sub.token}`}
                fw={600}
                size="lg"
                c="var(--mantine-color-anchor)"
                aria-label={t('list.open', { name: sub.name })}
              >
                {sub.name}
              </Text>
              {sub.description && <Text c="dimmed">{sub.description}</Text>}
              <Group gap="xs">
                <Badge variant="light">{t('list.servers', { count: numbers.format(sub.sources_count) })}</Badge>
                <SourceHealth health={sub.health} />
                {sub.provider_name && (
                  <Badge variant="outline" color="gray">
                    {t('list.managedBy', { provider: sub.provider_name })}
                  </Badge>
                )}
              </Group>
              <Text size="sm" c="dimmed">
                {t('list.updated', { date: dates.format(new Date(sub.updated_at)) })}
              </Text>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
      <CreateSubscription opened={creating} onClose={close} />
    </Stack>
  );
}

type Health = NonNullable<ReturnType<typeof useSubscriptions>['data']>[number]['health'];

/** "Sources failing: 1" when any source's last fetch failed (or its reference is gone), else how many sources. */
function SourceHealth({ health }: { health: Health }) {
  const { t, i18n } = useTranslation(SUBSCRIPTIONS);
  const numbers = new Intl.NumberFormat(i18n.language);
  const { failing, shrink_pending: held } = health;
  return (
    <>
      {failing > 0 ? (
        <Badge color="red" variant="light">
          {t('list.failing', { count: numbers.format(failing) })}
        </Badge>
      ) : (
        <Badge color="gray" variant="light">
          {t('list.sources', { count: numbers.format(health.sources) })}
        </Badge>
      )}
      {held > 0 && (
        <Badge color="yellow" variant="light">
          {t('list.held', { count: numbers.format(held) })}
        </Badge>
      )}
    </>
  );
}
