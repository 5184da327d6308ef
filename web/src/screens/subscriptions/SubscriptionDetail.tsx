// One subscription, section by section: its link, what each app receives, its sources, its transforms, its settings
// and its recent requests. Each section is a component in its own folder (link/, sources/, transforms/, settings/).
import { Link, useParams } from 'react-router';
import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../shell/Layout';
import { SUBSCRIPTIONS } from './strings';
import { useSubscription } from './queries';
import { describeError } from './errors';
import { RequestHistory } from './RequestHistory';
import { LinkPanel } from './link/LinkPanel';
import { AppPreview } from './link/AppPreview';
import { SourcesEditor } from './sources/SourcesEditor';
import { TransformsEditor } from './transforms/TransformsEditor';
import { SubscriptionSettings } from './settings/SubscriptionSettings';

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
          <LinkPanel subscription={sub.data} />
          <AppPreview subscription={sub.data} />
          <SourcesEditor subscription={sub.data} />
          <TransformsEditor subscription={sub.data} />
          <SubscriptionSettings subscription={sub.data} />
          <RequestHistory token={token} />
        </>
      )}
    </Stack>
  );
}
